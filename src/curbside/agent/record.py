"""What a consult turn puts on the audit trail, beside the rows of the tools it called: the message
(the trail redacts it), the route, the tools, what became of each proposed write, and the outcome.
Never the chart's content: a write is counted, its resource is on its own tool row."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from curbside.audit.entries import ids
from curbside.audit.trail import AuditEntry

if TYPE_CHECKING:
    from curbside.agent.models import TurnRequest, TurnResult
    from curbside.types import ToolCaller

__all__ = ["turn_entry"]


def turn_entry(
    caller: ToolCaller, request: TurnRequest, *, channel: str, result: TurnResult | None = None
) -> AuditEntry:
    """A turn before it runs (outcome ``started``), or with its result."""
    details: dict[str, Any] = {"patient_set": request.patient_id is not None, "replayed": request.now is not None}
    if result is not None:
        details["tool_calls"] = len(result.tool_calls)
        details["writes"] = dict(Counter(w.outcome for w in result.proposed_writes))
        details["confidence"] = result.confidence_level
    return AuditEntry(
        action="turn",
        user=caller.user,
        role=caller.role,
        session=caller.session,
        channel=channel,
        question=request.message,
        intent=result.route if result is not None else None,
        sources=ids(c.id for c in result.sources_used if c.kind == "passage" and c.id) if result is not None else (),
        tools=tuple(dict.fromkeys(c.tool for c in result.tool_calls)) if result is not None else (),
        model_used=result.model if result is not None else None,
        phi=True if request.patient_id is not None else None,  # a chart was read: the turn handled PHI
        outcome=result.status if result is not None else "started",
        details=details,
    )
