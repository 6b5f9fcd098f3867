"""The answer when the SQL path failed: the manuals' passages, cited, and nothing they do not state.

Without the rule tables there is no verified funding split, exclusion list or
eligibility check; the answer quotes the best passages with their sections and
pages, says it comes from the index alone and carries the search-only confidence.
"""

from __future__ import annotations

import re

from curbside.coverage.adp.query import AdpRequest
from curbside.coverage.adp.search_path import SearchFindings, manual_of
from curbside.coverage.adp.tool import AdpGetResult, ManualEditionInfo
from curbside.coverage.confidence import ConfidenceInputs, confidence
from curbside.coverage.paths import PathTrace
from curbside.types import Citation, Passage

__all__ = ["answer_from_passages"]

MAX_CITATIONS = 3
_TITLE = re.compile(r"^(?P<title>.+) \((?P<month>[A-Z][a-z]+) (?P<year>\d{4})\)$")
_MONTHS = "January February March April May June July August September October November December".split()  # noqa: SIM905


def _edition(passage: Passage) -> ManualEditionInfo | None:
    match = _TITLE.match(passage.title)
    if match is None or match.group("month") not in _MONTHS:
        return None
    edition = f"{match.group('month')} {match.group('year')}"
    date = f"{match.group('year')}-{_MONTHS.index(match.group('month')) + 1:02d}"
    return ManualEditionInfo(
        manual=manual_of(passage), title=match.group("title"), edition=edition, edition_date=date, label=passage.title
    )


def answer_from_passages(
    request: AdpRequest, found: SearchFindings | None, trace: list[PathTrace], warnings: list[str]
) -> AdpGetResult:
    result = AdpGetResult(
        query=request.question or request.text,
        summary="",
        provenance=[],
        confidence=0.0,
        trace=trace,
        warnings=warnings,
        needs_more_info=True,
    )
    if request.empty:
        result.follow_up = "Which device is the question about, and what do you need to know?"
        result.summary = "The request is empty: nothing to look up. " + result.follow_up
        return result
    if found is None or not found.passages:
        why = "; ".join(w.rstrip(".") for w in warnings)  # each warning ends in its own full stop
        result.summary = f"The ADP manuals could not be read for this request; {why}."
        return result
    cited = found.passages[:MAX_CITATIONS]
    editions = {e.manual: e for e in (_edition(p) for p in found.passages) if e is not None}
    result.manuals = list(editions.values())
    if editions:
        dates = sorted({e.edition for e in editions.values()})
        result.edition = f"ADP manuals, {' / '.join(dates)}: " + "; ".join(e.title for e in editions.values())
    result.citations = [Citation.from_passage(i, p, p.excerpt()) for i, p in enumerate(cited, start=1)]
    result.context = [f"{p.title} > {p.section_path} (p. {p.page}): {p.excerpt(400)}" for p in cited]
    result.provenance = ["vector"]
    result.needs_more_info = False
    result.confidence = confidence(ConfidenceInputs(sql_hit=False, passages=len(cited)))
    result.warnings.append(
        "Answered from indexed passages of the ADP manuals only: the rule tables were not read, so the funding "
        "split, exclusions and eligibility are not stated as checked rules. Read the cited sections."
    )
    top = cited[0]
    result.summary = (
        f"The ADP rule tables could not be read; the closest passage of the manuals is {top.title} > "
        f'{top.section_path} (p. {top.page}): "{top.excerpt(300)}" [1]'
    )
    return result
