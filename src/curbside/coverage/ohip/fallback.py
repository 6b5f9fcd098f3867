"""Answering from passages alone, when the SQL path timed out or failed.

The passages' clean listing lines (``C124 …: $61.15``) state code, title and
fee; the section path states the page. Such an answer says where it came from,
carries the lower confidence the shared formula gives search-only evidence,
and gives no rule checks (those need the tables).
"""

from __future__ import annotations

import re

from curbside.coverage.confidence import ConfidenceInputs, confidence
from curbside.coverage.ohip.layout import edition_label
from curbside.coverage.ohip.passages import page_of, short_label
from curbside.coverage.ohip.query import Request
from curbside.coverage.ohip.search_path import SearchFindings, codes_stated
from curbside.coverage.ohip.tool import ScheduleEdition, ScheduleGetResult, ScheduleItem
from curbside.coverage.passages import snippet
from curbside.coverage.paths import PathTrace
from curbside.types import Citation, Passage

__all__ = ["answer_from_passages"]

MAX_ITEMS = 6


def _line(passage: Passage, code: str) -> re.Match[str] | None:
    return re.search(rf"(?m)^#? ?{code} (?P<title>[^\n]*?): (?P<fee>[^\n]+)$", passage.body)


def answer_from_passages(
    request: Request, found: SearchFindings | None, trace: list[PathTrace], warnings: list[str]
) -> ScheduleGetResult:
    result = ScheduleGetResult(
        query=request.question or " ".join(request.codes),
        summary="",
        provenance=[],
        confidence=0.0,
        schedule=None,
        trace=trace,
        warnings=warnings,
    )
    passages = found.passages if found is not None else []
    wanted = list(request.codes) or [c for p in passages[:3] for c in codes_stated(p)]
    items: list[ScheduleItem] = []
    used: list[Passage] = []
    for code in dict.fromkeys(wanted):
        for passage in passages:
            line = _line(passage, code)
            if line is None:
                continue
            fee = found.fees.get(passage.chunk_id, {}).get(code) if found is not None else None
            items.append(
                ScheduleItem(
                    code=code,
                    description=line.group("title"),
                    relation="asked" if code in request.codes else "matched",
                    fee=fee,
                    fee_text=line.group("fee"),
                    fee_status="aligned" if fee is not None else "unknown",
                    page=page_of(passage.section_path),
                )
            )
            used.append(passage)
            break
        if len(items) >= MAX_ITEMS:
            break
    if not items:
        result.needs_more_info = True
        result.summary = "The Schedule could not be read for this request; " + (
            "its tables and its passages both failed." if found is None else "no passage names a fee code for it."
        )
        # the tables are loaded (a call with none loaded stops before this) but did not answer: transient
        ask_code = "" if request.codes else ", or give the fee code (e.g. C124)"
        result.follow_up = f"Please try again in a moment{ask_code}."
        return result
    result.items = items
    result.provenance = ["vector"]
    effective = found.effective.get(used[0].chunk_id) if found is not None else None
    if effective is not None:
        result.schedule = ScheduleEdition(label=edition_label(effective), effective=effective)
    unique = list({p.chunk_id: p for p in used}.values())[:3]
    result.citations = [Citation.from_passage(i, p) for i, p in enumerate(unique, start=1)]
    result.context = [snippet(p.text) for p in used[:3]]
    result.confidence = confidence(ConfidenceInputs(sql_hit=False, passages=len(result.citations)))
    first = items[0]
    where = f" ({first.page})" if first.page else ""
    source = short_label(effective) if effective else "the indexed Schedule passages"
    result.summary = f"{first.code} {first.description}: {first.fee_text}{where}. Source: {source}. [1]"
    result.warnings.append(
        "Answered from indexed passages only: the Schedule tables could not be read, so payment rules were not checked."
    )
    return result
