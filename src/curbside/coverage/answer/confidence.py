"""The orchestrator's confidence: the routed tools' confidences, weighted, less cross-tool conflicts.

The spec (Tool 1, step 5): "Aggregates individual tool confidences; applies tool-specific
weights (all tools weighted 1.0)". A routed tool that did not answer counts with
confidence 0, so a partial answer scores lower than a whole one; each conflict
between two tools costs what a conflict inside one tool costs in the shared formula
(``curbside.coverage.confidence.PER_CONFLICT``, 0.1). Rounded to 4 places like it.

One departure from a plain average: a routed tool that answered but still asks which service, device or drug was
meant (``needs_more_info``, or its own follow-up question while it is below the follow-up threshold) caps the
whole at its own confidence. Averaged with a sure part (a drug found at 0.99),
a billing part that lists two codes and asks which one was meant would otherwise read as a confident answer
(0.745), and the code it lists first may be the wrong one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from curbside.coverage.answer.findings import DomainFinding
from curbside.coverage.confidence import PER_CONFLICT

__all__ = ["TOOL_WEIGHTS", "combined_confidence"]

TOOL_WEIGHTS: Mapping[str, float] = {"schedule.get": 1.0, "adp.get": 1.0, "odb.get": 1.0}


def combined_confidence(
    findings: Sequence[DomainFinding],
    *,
    cross_conflicts: int = 0,
    weights: Mapping[str, float] = TOOL_WEIGHTS,
    followup_below: float = 0.0,
) -> float:
    """sum(w * c) / sum(w) over the routed tools (c = 0 for one that did not answer), minus 0.1 per conflict, and
    no more than the confidence of a tool that answered but still asks which was meant (``needs_more_info``, or
    its own follow-up while below ``followup_below``)."""
    total = sum(weights.get(f.tool, 1.0) for f in findings)
    if total <= 0:
        return 0.0
    weighted = sum(weights.get(f.tool, 1.0) * (f.confidence if f.answered else 0.0) for f in findings)
    score = weighted / total - PER_CONFLICT * max(cross_conflicts, 0)
    unsure = [
        f.confidence
        for f in findings
        if f.answered and (f.needs_more_info or (f.followups and f.confidence < followup_below))
    ]
    if unsure:
        score = min(score, min(unsure))
    return round(min(max(score, 0.0), 1.0), 4)
