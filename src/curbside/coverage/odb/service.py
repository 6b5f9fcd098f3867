"""``OdbService`` : runs the SQL and search paths of ``odb.get`` concurrently.

The paths run as every coverage tool's do (``curbside.coverage.paths``): each
under its own timeout (``odb_sql_timeout_ms``, ``odb_search_timeout_ms``), both
under ``odb_total_timeout_ms``; a failed path is a trace entry and a warning,
and the other path still answers. This module adds the ODB's part: the name
index, the formulary's request plan and the merge.
"""

from __future__ import annotations

import asyncio

from curbside.coverage.odb.merge import merge
from curbside.coverage.odb.passages import NAMESPACE
from curbside.coverage.odb.query import plan
from curbside.coverage.odb.search_path import run_search_path
from curbside.coverage.odb.sql_path import NameIndexCache, run_sql_path
from curbside.coverage.odb.store import NOT_LOADED, OdbReader
from curbside.coverage.odb.tool import OdbGetArgs, OdbGetResult
from curbside.coverage.odb.unlisted import is_warm
from curbside.coverage.odb.unlisted import warm_up as warm_unlisted
from curbside.coverage.paths import PassageSearch, PathTimeouts
from curbside.coverage.source_service import SourceParts, SourceService

__all__ = ["OdbService"]


class OdbService(SourceService[OdbReader]):
    name = "odb"
    namespace = NAMESPACE
    title = "the ODB formulary"
    editions_table = "odb_editions"
    not_loaded = NOT_LOADED

    def __init__(
        self, parts: SourceParts, *, search: PassageSearch | None = None, reader: OdbReader | None = None
    ) -> None:
        """``search`` replaces the application's search engine, ``reader`` the tables' reader (fakes in tests)."""
        super().__init__(parts, reader or OdbReader(parts.settings.db_path), search)
        self.names = NameIndexCache()

    def build_indexes(self) -> None:
        # first, since it needs no edition: the first unlisted name ('Wegovy') would otherwise spend the SQL
        # path's time loading the word lists, and with nothing loaded the line below raises
        warm_unlisted()
        self.names.get(self.reader, self.reader.edition())

    async def get(self, args: OdbGetArgs) -> OdbGetResult:
        request = plan(args)
        if not is_warm() or self.names.empty:  # not warmed up (tests, a first call): build outside the timeouts
            self.require_loaded()  # nothing to look up: say so now, not after loading the word lists
            await asyncio.to_thread(self.build_indexes)  # the word lists, then the edition's name index
        limits = self.settings.coverage_limits(self.name)
        found = await self.run_paths(
            lambda cancel: run_sql_path(self.reader, self.names, request, cancel),
            lambda search: run_search_path(search, request.text, limits.search_k),
            PathTimeouts(limits.sql_timeout_ms, limits.search_timeout_ms, limits.total_timeout_ms),
        )
        sql = found.sql
        if sql is not None:
            found.trace[0].detail = f"resolved as {sql.resolved_as}" + (f" ({sql.matched})" if sql.matched else "")
        return merge(request, sql, found.search, found.trace)
