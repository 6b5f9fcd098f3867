"""``schedule.get``'s result as a billing finding: fees by section, payment-rule verdicts, premiums.

Each point cites the Schedule's page (the Schedule numbers its pages by part: 'GP45',
'A74'); the passages ``schedule.get`` cites back the points about the codes they name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curbside.coverage.answer.findings import DomainFinding, subject_key
from curbside.coverage.answer.models import Decision, FollowUp, Highlight, SourceRef
from curbside.coverage.answer.readers.common import conflicts_from, refs_from, tool_finding
from curbside.coverage.answer.routing import PlannedCall

if TYPE_CHECKING:
    from curbside.coverage.ohip.tool import RuleCheck, ScheduleGetResult, ScheduleItem

__all__ = ["read_schedule"]

TOOL = "schedule.get"
_MAX_ITEMS = 6
_MAX_LISTINGS = 4
_ORDER = {"asked": 0, "matched": 1, "premium": 2, "related": 3}
_VERDICT = {
    "not_eligible": "not payable",
    "satisfied": "payment rule met",
    "needs_fact": "depends on a fact not given",
}
_QUOTE_CHARS = 300


def read_schedule(result: dict[str, Any], call: PlannedCall) -> DomainFinding:
    from curbside.coverage.ohip.tool import ScheduleGetResult  # only read when schedule.get is installed

    answer = ScheduleGetResult.model_validate(result)
    decision = _decision(answer)
    conflicts = conflicts_from([c.model_dump(mode="json") for c in answer.conflicts], TOOL)
    finding = tool_finding("billing", TOOL, decision, answer, conflicts)
    if answer.follow_up:
        reason = (
            "schedule.get could not decide from the question as asked."
            if decision == "needs_more_info"
            else "schedule.get answered; a billing clerk would ask this next."
        )
        finding.followups.append(FollowUp(ask=answer.follow_up, reason=reason, domain="billing", tool=TOOL))
    label = answer.schedule.label if answer.schedule else "OHIP Schedule of Benefits"
    passages = refs_from([c.model_dump() for c in answer.citations], TOOL)
    for check in answer.rule_checks:
        if check.verdict != "not_applicable":
            finding.highlights.append(_rule_point(check, label))
    items = sorted(answer.items, key=lambda i: _ORDER.get(i.relation, 9))[:_MAX_ITEMS]
    for item in items:
        finding.highlights.append(_item_point(item, label, passages))
    if decision in ("billable", "not_billable"):
        for item in answer.items:
            if item.relation == "asked":
                finding.subjects[subject_key(item.code)] = decision == "billable"
    return finding


def _decision(answer: ScheduleGetResult) -> Decision:
    if answer.needs_more_info:
        return "needs_more_info"
    if answer.billable is not None:
        return "billable" if answer.billable else "not_billable"
    # not decided by a rule: a code asked or found, with its fee in the Schedule, is one that can be billed
    named = [i for i in answer.items if i.relation in ("asked", "matched")]
    if any(i.fee is not None or i.fee_status in ("aligned", "varies", "percent") for i in named):
        return "billable"
    return "needs_more_info"


def _ref(label: str, loc: str, excerpt: str = "") -> SourceRef:
    short = excerpt if len(excerpt) <= _QUOTE_CHARS else excerpt[:_QUOTE_CHARS].rsplit(" ", 1)[0] + " …"
    return SourceRef(source=label, loc=loc, excerpt=short, tool=TOOL)


def _rule_point(check: RuleCheck, label: str) -> Highlight:
    verdict = _VERDICT.get(check.verdict, check.verdict)
    return Highlight(
        point=f"{check.code}: {verdict} — {check.reason} ({check.page}).",
        domain="billing",
        tool=TOOL,
        citations=[_ref(label, f"p. {check.page}", check.rule)],
    )


def _fee(item: ScheduleItem) -> str:
    if item.fee is not None:
        where = f" ({item.section})" if item.section else ""
        unit = f" {item.unit}" if item.unit and item.unit != "add" else ""
        return f"${item.fee:,.2f}{unit}{where}"
    if item.fee_status == "varies" and item.listings:
        shown = [
            f"${x.fee:,.2f} in {x.section}" if x.fee is not None else f"{x.fee_text} in {x.section}"
            for x in item.listings[:_MAX_LISTINGS]
        ]
        more = f" and {len(item.listings) - _MAX_LISTINGS} more sections" if len(item.listings) > _MAX_LISTINGS else ""
        return ", ".join(shown) + more
    if item.percent is not None:
        return f"add {item.percent:g}%"
    return item.fee_text


def _item_point(item: ScheduleItem, label: str, passages: list[SourceRef]) -> Highlight:
    pages = [f"p. {item.page}"] if item.page else []
    if item.fee is None and item.fee_status == "varies":
        pages = [f"{x.section} p. {x.page}" for x in item.listings[:_MAX_LISTINGS]]
    cited = [_ref(label, f"{item.code}, {page}") for page in pages]
    cited += [p for p in passages if item.code in p.loc or item.code in p.excerpt]
    relation = {"premium": " (premium)", "related": " (related)"}.get(item.relation, "")
    return Highlight(
        point=f"{item.code} {item.description}{relation}: {_fee(item)}.",
        domain="billing",
        tool=TOOL,
        citations=cited,
    )
