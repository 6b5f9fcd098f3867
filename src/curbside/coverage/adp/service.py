"""``AdpService`` : runs the SQL and search paths of ``adp.get`` concurrently.

The paths run as every coverage tool's do (``curbside.coverage.paths``): each
under its own timeout (``adp_sql_timeout_ms``, ``adp_search_timeout_ms``), both
under ``adp_total_timeout_ms``; a failed path is a trace entry and a warning,
and the other path still answers. This module adds the ADP's part: the term and
passage indexes, the request plan and the merge. An empty request runs the SQL
path alone (it still reports the edition): there is nothing to search for.
The application holds one service per source (``core.coverage_service("adp")``), closed with it.
"""

from __future__ import annotations

from curbside.coverage.adp.meaning import AdpMeaning
from curbside.coverage.adp.merge import merge
from curbside.coverage.adp.passages import NAMESPACE
from curbside.coverage.adp.query import plan
from curbside.coverage.adp.search_path import run_search_path
from curbside.coverage.adp.sql_path import ManualsCache, run_sql_path
from curbside.coverage.adp.store import NOT_LOADED, AdpReader
from curbside.coverage.adp.tool import AdpGetArgs, AdpGetResult
from curbside.coverage.paths import PassageSearch, PathTimeouts
from curbside.coverage.source_service import SourceParts, SourceService

__all__ = ["AdpService"]


class AdpService(SourceService[AdpReader]):
    name = "adp"
    namespace = NAMESPACE
    title = "the ADP manuals"
    editions_table = "adp_editions"
    not_loaded = NOT_LOADED
    workers = 4

    def __init__(
        self, parts: SourceParts, *, search: PassageSearch | None = None, reader: AdpReader | None = None
    ) -> None:
        """``search`` replaces the application's search engine, ``reader`` the tables' reader (fakes in tests)."""
        super().__init__(parts, reader or AdpReader(parts.settings.db_path), search)
        self.cache = ManualsCache(AdpMeaning(cache_dir=parts.settings.home / "cache"))

    def build_indexes(self) -> None:
        self.cache.build_meaning(self.reader, self.reader.editions())

    async def get(self, args: AdpGetArgs) -> AdpGetResult:
        request = plan(args)
        limits = self.settings.coverage_limits(self.name)
        found = await self.run_paths(
            lambda cancel: run_sql_path(self.reader, self.cache, request, cancel),
            None if request.empty else lambda search: run_search_path(search, request.text, limits.search_k),
            PathTimeouts(limits.sql_timeout_ms, limits.search_timeout_ms, limits.total_timeout_ms),
        )
        if found.sql is not None:
            r = found.sql.decision.resolution
            found.trace[0].detail = f"resolved as {r.kind}" + (f" ({r.matched})" if r.matched else "")
        return merge(request, found.sql, found.search, found.trace)
