"""``OhipService`` : runs the SQL and search paths of ``schedule.get`` concurrently.

The paths run as every coverage tool's do (``curbside.coverage.paths``): each
under its own timeout (``ohip_sql_timeout_ms``, ``ohip_search_timeout_ms``),
both under ``ohip_total_timeout_ms``; a failed path is a trace entry and a
warning, and the other path still answers. This module adds the Schedule's
part: the word index, the request plan and the merge.
"""

from __future__ import annotations

from curbside.coverage.edition_cache import EditionCache
from curbside.coverage.ohip.abbreviations import warm_up as warm_abbreviations
from curbside.coverage.ohip.merge import merge
from curbside.coverage.ohip.passages import NAMESPACE
from curbside.coverage.ohip.premium_answer import asks_premium_on, with_asked_premiums
from curbside.coverage.ohip.premium_texts import PremiumText, premium_texts
from curbside.coverage.ohip.prose_answer import cap_unspecific, with_prose
from curbside.coverage.ohip.query import Request, plan
from curbside.coverage.ohip.search_path import SearchFindings, codes_stated, run_search_path
from curbside.coverage.ohip.sql_path import IndexCache, SqlFindings, run_sql_path
from curbside.coverage.ohip.store import NOT_LOADED, OhipReader
from curbside.coverage.ohip.title_meaning import TitleMeaning, cap_by_meaning
from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult
from curbside.coverage.ohip.unit_fees import UnitFee, asks_unit_value, unit_fees, with_unit_fee
from curbside.coverage.paths import PassageSearch, PathTimeouts
from curbside.coverage.source_service import SourceParts, SourceService

__all__ = ["OhipService", "nothing_better"]


class OhipService(SourceService[OhipReader]):
    name = "ohip"
    namespace = NAMESPACE
    title = "the OHIP Schedule of Benefits"
    editions_table = "ohip_editions"
    not_loaded = NOT_LOADED

    def __init__(
        self, parts: SourceParts, *, search: PassageSearch | None = None, reader: OhipReader | None = None
    ) -> None:
        """``search`` replaces the application's search engine, ``reader`` the tables' reader (fakes in tests)."""
        super().__init__(parts, reader or OhipReader(parts.settings.db_path), search)
        self.index = IndexCache()
        self.meaning = TitleMeaning()
        self.unit_fees: EditionCache[list[UnitFee]] = EditionCache()
        self.premium_texts: EditionCache[dict[str, list[PremiumText]]] = EditionCache()

    def build_indexes(self) -> None:
        edition = self.reader.edition()
        self.index.get(self.reader, edition)
        self.meaning.warm_up(self.reader, edition)
        warm_abbreviations()
        self.unit_fees.get((edition.id, edition.loaded_at), lambda: unit_fees(self.reader))
        self.premium_texts.get((edition.id, edition.loaded_at), self._premium_texts)

    def _premium_texts(self) -> dict[str, list[PremiumText]]:
        return premium_texts(self.reader.passage_texts(), self.reader.premium_codes())

    async def get(self, args: ScheduleGetArgs) -> ScheduleGetResult:
        request = plan(args)
        limits = self.settings.coverage_limits(self.name)
        found = await self.run_paths(
            lambda cancel: run_sql_path(self.reader, self.index, request, cancel, self.meaning),
            lambda search: run_search_path(search, request.text, limits.search_k),
            PathTimeouts(limits.sql_timeout_ms, limits.search_timeout_ms, limits.total_timeout_ms),
            lambda searched: nothing_better(request, searched),
        )
        if found.sql is not None:
            found.trace[0].detail = _detail(found.sql)
        result = merge(request, found.sql, found.search, found.trace)
        result = with_prose(cap_unspecific(result, request, found.sql), request, found.sql)
        if found.sql is None:
            return result
        result = cap_by_meaning(result, found.sql.by_meaning)
        edition = found.sql.edition
        if asks_premium_on(request.question):
            texts = self.premium_texts.get((edition.id, edition.loaded_at), self._premium_texts)
            result = with_asked_premiums(result, request, found.sql, texts)
        if not (request.question and asks_unit_value(request.question)):
            return result
        fees = self.unit_fees.get((edition.id, edition.loaded_at), lambda: unit_fees(self.reader))
        return with_unit_fee(result, request.question, bool(request.codes), fees)


def nothing_better(request: Request, found: SearchFindings | None) -> bool:
    """Whether the passages found answer nothing the SQL path would not answer better, so that a SQL path past its
    own timeout is waited for (to the call's total): a question naming no code is answered from passages by the
    codes the first passages happen to name (``fallback.answer_from_passages``), not by the titles holding its
    words; codes asked that no passage states are not answered at all. Codes asked and stated in a passage's
    listing line are answered from it, and the SQL path is not waited for."""
    if found is None or not request.codes:
        return True
    stated = {code for passage in found.passages for code in codes_stated(passage)}
    return not set(request.codes) & stated


def _detail(sql: SqlFindings) -> str:
    if sql.asked:
        return f"codes {', '.join(sql.asked)}"
    if sql.matched:
        return f"matched by title words: {', '.join(sql.matched)}"
    return sql.problem or ""
