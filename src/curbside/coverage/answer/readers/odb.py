"""``odb.get``'s result as a drug finding: coverage, Limited Use, lowest cost, alternatives."""

from __future__ import annotations

from typing import Any

from curbside.coverage.answer.findings import DomainFinding, subject_key
from curbside.coverage.answer.models import AnswerConflict, Decision, FollowUp, Highlight, SourceRef
from curbside.coverage.answer.readers.common import tool_finding
from curbside.coverage.answer.routing import PlannedCall
from curbside.coverage.odb.passages import printed_price
from curbside.coverage.odb.tool import DrugCoverage, OdbGetResult

__all__ = ["read_odb"]

TOOL = "odb.get"
_MAX_LU = 3
_MAX_ALTERNATIVES = 5


def read_odb(result: dict[str, Any], call: PlannedCall) -> DomainFinding:
    answer = OdbGetResult.model_validate(result)
    coverage = answer.coverage
    decision = _decision(answer)
    refs = [
        SourceRef(
            source=c.title,
            loc=c.section_path or c.doc_key,
            page=c.page,
            chunk_id=c.chunk_id,
            excerpt=c.excerpt,
            tool=TOOL,
        )
        for c in answer.citations
    ]
    conflicts = [
        AnswerConflict(
            field=c.field,
            subject=c.subject,
            tool=TOOL,
            sql_value=c.sql_value,
            vector_value=c.vector_value,
            resolution=c.resolution,
        )
        for c in answer.conflicts
    ]
    finding = tool_finding("drug", TOOL, decision, answer, conflicts)
    if answer.follow_up:
        finding.followups.append(FollowUp(ask=answer.follow_up, reason=_reason(answer), domain="drug", tool=TOOL))
    if coverage is not None:
        finding.highlights.extend(_points(answer, coverage, refs))
        if coverage.covered is not None:
            described = " ".join(
                p for p in (coverage.generic_name, coverage.dosage_form) if p
            )  # '… Flash Glucose Monitoring System'
            for name in (*call.subjects, coverage.brand_name, described):
                if name:
                    finding.subjects[subject_key(name)] = coverage.covered
    return finding


def _decision(answer: OdbGetResult) -> Decision:
    coverage = answer.coverage
    if answer.needs_more_info or coverage is None or coverage.covered is None:
        return "needs_more_info"
    return "covered" if coverage.covered else "not_covered"


def _reason(answer: OdbGetResult) -> str:
    if answer.needs_more_info or answer.coverage is None:
        return "odb.get could not decide coverage from the question as asked."
    return "odb.get answered for one product; the prescription may be for another."


def _points(answer: OdbGetResult, coverage: DrugCoverage, refs: list[SourceRef]) -> list[Highlight]:
    product = " ".join(p for p in (coverage.generic_name, coverage.strength, coverage.dosage_form) if p)
    din = f", DIN {coverage.din}" if coverage.din else ""
    price = ""
    if coverage.unit_price is not None:
        price = f" Unit price {printed_price(coverage.unit_price)}; the ministry pays {printed_price(coverage.amount_mohltc_pays)}."
    edition = f" ({answer.formulary.label})" if answer.formulary else ""
    points = [
        Highlight(
            point=f"{coverage.brand_name or product} ({product}{din}): {coverage.status_text}{edition}.{price}",
            domain="drug",
            tool=TOOL,
            citations=refs,
        )
    ]
    for lu in answer.lu_criteria[:_MAX_LU]:
        code = f"Reason for Use code {lu.reason_for_use_code}" if lu.reason_for_use_code else "criteria without a code"
        about = f" ({lu.indication})" if lu.indication else ""
        period = f"; authorization period {lu.authorization_period}" if lu.authorization_period else ""
        points.append(Highlight(point=f"Limited Use: {code}{about}{period}.", domain="drug", tool=TOOL, citations=refs))
    low = answer.lowest_cost
    if low is not None and low.covered and low.din != coverage.din and low.savings:
        points.append(
            Highlight(
                point=f"Lowest-cost interchangeable product: {low.brand} (DIN {low.din}) at {printed_price(low.price)} "
                f"per unit, saving {printed_price(low.savings)} per unit.",
                domain="drug",
                tool=TOOL,
                citations=refs,
            )
        )
    if coverage.covered is False and answer.alternatives:
        names = ", ".join(
            f"{a.brand} ({a.generic_name} {a.strength or ''})".replace(" )", ")")
            for a in answer.alternatives[:_MAX_ALTERNATIVES]
        )
        points.append(
            Highlight(point=f"Covered alternatives in its class: {names}.", domain="drug", tool=TOOL, citations=refs)
        )
    return points
