"""Merge the domain findings into one ``coverage.answer`` result, without a language model.

Decision: the first answered domain's (billing, then device, then drug), since one
value cannot hold three; each domain's own is in ``domains``. Summary: each domain's
sentence(s) from its tool's structured result, labelled when there are several.
Follow-ups: what the request itself left unclear first, then a tool's own question
when it needs more information or its confidence (or the whole answer's) is below
the threshold (the spec's 0.7), then, below it, the question that would let a weak
or missing domain be answered.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from curbside.coverage.answer.confidence import combined_confidence
from curbside.coverage.answer.crosscheck import cross_tool_conflicts
from curbside.coverage.answer.execution import CallOutcome
from curbside.coverage.answer.findings import DOMAIN_LABEL, RETRYABLE, DomainFinding, failure_words
from curbside.coverage.answer.intent import Intent
from curbside.coverage.answer.models import (
    CoverageAnswerResult,
    Decision,
    Domain,
    DomainAnswer,
    FollowUp,
    IntentReport,
    TraceEntry,
)
from curbside.coverage.answer.routing import RoutingPlan

__all__ = ["ASK_DOMAIN", "ASK_FOR", "compose", "intent_report", "nothing_to_route"]

# the question that lets a domain be looked up directly
ASK_FOR: dict[Domain, str] = {
    "billing": "Which fee code(s) are you billing, in which specialty, and for which service "
    "(e.g. C124, the MRP's visit on the day of discharge)?",
    "device": "Which device (its type, e.g. a walker or a power wheelchair), is it for daily use, and is the "
    "patient on Ontario Works, ODSP or ACSD?",
    "drug": "Which drug (brand or generic name, or the DIN), strength and form is prescribed?",
}
ASK_DOMAIN = (
    "Is this about billing a service (an OHIP fee code), funding for a device (ADP) or coverage of a drug (ODB)? "
    "Please name the code, the device or the drug."
)
_PROVENANCE_ORDER = ("sql", "vector")
_MARKER = re.compile(r"\s*\[\d+(?:,\s*\d+)*\]")


def intent_report(intent: Intent) -> IntentReport:
    return IntentReport(
        domains=list(intent.domains),
        scores=dict(intent.scores),
        signals={d: intent.labels(d) for d in intent.scores if intent.labels(d)},
        from_hints=list(intent.from_hints),
    )


def nothing_to_route(question: str, intent: Intent, plan: RoutingPlan | None = None) -> CoverageAnswerResult:
    """No domain to ask: an empty question, or one that names no code, device or drug."""
    if question.strip():
        summary = "The question names no fee code, device or drug, so no coverage tool was asked."
        reason = "No billing, device or drug term was recognised in the question."
    else:
        summary = "No question was asked."
        reason = "The question is empty."
    followups = [FollowUp(ask=ASK_DOMAIN, reason=reason)]
    if plan is not None:
        followups = [*plan.followups, *followups]
    return CoverageAnswerResult(
        decision="needs_more_info",
        summary=summary,
        provenance_summary="none",
        confidence=0.0,
        followups=followups,
        intent=intent_report(intent),
        warnings=list(plan.warnings) if plan else [],
    )


def compose(
    intent: Intent,
    plan: RoutingPlan,
    outcomes: Sequence[CallOutcome],
    findings: Sequence[DomainFinding],
    *,
    followup_below: float,
) -> CoverageAnswerResult:
    cross = cross_tool_conflicts(findings)
    confidence = combined_confidence(findings, cross_conflicts=len(cross), followup_below=followup_below)
    conflicts = [c for f in findings for c in f.conflicts] + cross
    warnings = [*plan.warnings]
    for f in findings:
        warnings.extend(w if w.startswith(f.tool) else f"{f.tool}: {w}" for w in f.warnings)
    if cross:
        warnings.append("The tools disagree about the same item; see conflicts.")
    return CoverageAnswerResult(
        decision=_decision(findings),
        summary=_summary(findings),
        provenance_summary=_provenance(findings),
        confidence=confidence,
        highlights=[h for f in findings for h in f.highlights],
        conflicts=conflicts,
        followups=_followups(plan, findings, confidence, followup_below),
        trace=[_trace(o, f) for o, f in zip(outcomes, findings, strict=True)],
        domains=[
            DomainAnswer(
                domain=f.domain,
                tool=f.tool,
                status=f.status,
                decision=f.decision,
                confidence=f.confidence if f.answered else 0.0,
                summary=_unmarked(f.summary),
            )
            for f in findings
        ],
        intent=intent_report(intent),
        warnings=list(dict.fromkeys(warnings)),
    )


def _decision(findings: Sequence[DomainFinding]) -> Decision:
    for f in findings:
        if f.answered and f.decision is not None and f.decision != "needs_more_info":
            return f.decision
    return "needs_more_info"


def _unmarked(text: str) -> str:
    # a tool's [n] markers point into its own citation list, which this answer does not keep as such
    return _MARKER.sub("", text).strip()


def _summary(findings: Sequence[DomainFinding]) -> str:
    parts = [_unmarked(f.summary) for f in findings]
    if len(parts) == 1:
        return parts[0]
    return " ".join(f"{DOMAIN_LABEL[f.domain]} ({f.tool}): {p}" for f, p in zip(findings, parts, strict=True))


def _provenance(findings: Sequence[DomainFinding]) -> str:
    used = {"vector" if p == "search" else p for f in findings if f.answered for p in f.provenance}
    ordered = [p for p in _PROVENANCE_ORDER if p in used] + sorted(used - set(_PROVENANCE_ORDER))
    return "+".join(ordered) or "none"


def _followups(plan: RoutingPlan, findings: Sequence[DomainFinding], confidence: float, below: float) -> list[FollowUp]:
    out = list(plan.followups)
    low_overall = confidence < below
    for f in findings:
        if not f.answered:
            if low_overall and f.status in RETRYABLE and f.retryable:
                out.append(
                    FollowUp(
                        ask=f"Shall I ask the {f.domain} part again, on its own?",
                        reason=f"{f.tool} {failure_words(f.status)}, so that part is missing from this answer.",
                        domain=f.domain,
                        tool=f.tool,
                    )
                )
            continue
        weak = f.needs_more_info or f.confidence < below
        if f.followups and (weak or low_overall):
            out.extend(f.followups)
        elif weak and low_overall and not any(x.domain == f.domain for x in out):
            why = f"{f.tool}'s confidence is {f.confidence:.2f}, below {below:g}."
            out.append(FollowUp(ask=ASK_FOR[f.domain], reason=why, domain=f.domain))
    if low_overall and not out and findings and all(f.answered for f in findings):
        # low only in sum (e.g. the tools disagree): ask about the weakest part
        weakest = min(findings, key=lambda f: f.confidence)
        reason = f"The answer's confidence is {confidence:.2f}, below {below:g}."
        out.append(FollowUp(ask=ASK_FOR[weakest.domain], reason=reason, domain=weakest.domain))
    unique: dict[str, FollowUp] = {}
    for followup in out:
        unique.setdefault(followup.ask, followup)
    return list(unique.values())


def _trace(outcome: CallOutcome, finding: DomainFinding) -> TraceEntry:
    return TraceEntry(
        tool=outcome.call.tool,
        domain=outcome.call.domain,
        args=outcome.call.arguments,
        status=outcome.status,
        duration_ms=outcome.duration_ms,
        confidence=finding.confidence if finding.answered else None,
        call_id=outcome.call_id,
        error=outcome.error,
        error_code=outcome.error_code,
    )
