"""``adp.get``'s result as a device finding: the listing, the funding split, exclusions asked about, CEP.

Each point cites the manual rule it states (manual, edition, section, page, quote), which
``adp.get`` returns with every rule; its passage citations back the device listing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from curbside.coverage.answer.findings import DomainFinding, subject_key
from curbside.coverage.answer.models import Decision, FollowUp, Highlight, SourceRef
from curbside.coverage.answer.readers.common import conflicts_from, refs_from, tool_finding
from curbside.coverage.answer.routing import PlannedCall

if TYPE_CHECKING:
    from curbside.coverage.adp.tool import AdpGetResult
    from curbside.coverage.adp.tool import SourceRef as ManualRef

__all__ = ["read_adp"]

TOOL = "adp.get"
_QUOTE_CHARS = 300


def read_adp(result: dict[str, Any], call: PlannedCall) -> DomainFinding:
    from curbside.coverage.adp.tool import AdpGetResult  # only read when adp.get is installed and answered

    answer = AdpGetResult.model_validate(result)
    decision = _decision(answer)
    conflicts = conflicts_from([c.model_dump(mode="json") for c in answer.conflicts], TOOL)
    finding = tool_finding("device", TOOL, decision, answer, conflicts)
    if answer.follow_up:
        finding.followups.append(FollowUp(ask=answer.follow_up, reason=_reason(answer), domain="device", tool=TOOL))
    finding.highlights.extend(_points(answer, refs_from([c.model_dump() for c in answer.citations], TOOL)))
    if decision in ("eligible", "not_eligible"):
        device = answer.device
        named = [device.name, device.device_type] if device else []
        for subject in (*call.subjects, *named):
            if subject:
                finding.subjects[subject_key(subject)] = decision == "eligible"
    return finding


def _decision(answer: AdpGetResult) -> Decision:
    if answer.needs_more_info:
        return "needs_more_info"
    if any(rule.asked for rule in answer.exclusion_rules):  # 'are scooter batteries covered?': no
        return "not_eligible"
    if answer.covered is None:
        return "needs_more_info"
    return "eligible" if answer.covered else "not_eligible"


def _reason(answer: AdpGetResult) -> str:
    if answer.needs_more_info:
        return "adp.get could not decide funding from the question as asked."
    return "adp.get answered; the vendor or Authorizer would ask this next."


def _cite(rules: Iterable[ManualRef | None]) -> list[SourceRef]:
    refs: dict[tuple[str, str], SourceRef] = {}
    for rule in rules:
        if rule is None:
            continue
        quote = rule.quote if len(rule.quote) <= _QUOTE_CHARS else rule.quote[:_QUOTE_CHARS].rsplit(" ", 1)[0] + " …"
        refs.setdefault(
            (rule.manual, rule.section),
            SourceRef(
                source=f"{rule.manual_title} ({rule.edition})",
                loc=f"§{rule.section}",
                page=rule.page,
                excerpt=quote,
                tool=TOOL,
            ),
        )
    return list(refs.values())


def _point(text: str, citations: list[SourceRef]) -> Highlight:
    return Highlight(point=text, domain="device", tool=TOOL, citations=citations)


def _points(answer: AdpGetResult, passages: list[SourceRef]) -> list[Highlight]:
    points: list[Highlight] = []
    device = answer.device
    if device is not None and device.listed_as:
        where = ", ".join(p for p in (device.category, device.group) if p)
        listing = _cite([device.source]) + passages
        points.append(_point(f"ADP lists the {device.name or device.matched} ({where}): {device.listed_as}.", listing))
    asked = [rule for rule in answer.exclusion_rules if rule.asked]
    for rule in asked:
        points.append(_point(f"Not funded: {rule.text}", _cite([rule.source])))
    funding = answer.funding
    if funding is not None and funding.adp_contribution is not None:
        up_to = "up to " if funding.adp_share_is_maximum else ""
        at_least = "at least " if funding.client_share_is_minimum else ""
        client = (
            f" and the client pays {at_least}{funding.client_share_percent:g}%"
            if funding.client_share_percent is not None
            else ""
        )
        who = " (Ontario Works, ODSP or ACSD recipient)" if funding.social_assistance_applied else ""
        most = f", to at most ${funding.max_contribution:,.2f}" if funding.max_contribution is not None else ""
        points.append(
            _point(
                f"ADP pays {up_to}{funding.adp_contribution:g}% of the Approved Price{most}{client}{who}.",
                _cite(r.source for r in funding.rules),
            )
        )
    assistance = answer.social_assistance
    if (
        assistance is not None
        and assistance.adp_contribution is not None
        and not (funding and funding.social_assistance_applied)
    ):
        points.append(
            _point(
                f"Clients receiving Ontario Works, ODSP or ACSD: ADP pays {assistance.adp_contribution:g}%.",
                _cite(r.source for r in assistance.rules),
            )
        )
    cep = answer.cep
    if cep is not None and cep.eligible is not None:
        verdict = "under" if cep.eligible else "over"
        official = (
            ""
            if cep.official
            else " Not from an official source: " + cep.note.removeprefix("Not from an official source: ")
        )
        points.append(
            _point(
                f"{cep.name}: an income of ${cep.patient_income or 0:,.0f} is {verdict} the threshold.{official}",
                _cite([cep.central_equipment_pool]),
            )
        )
    return points
