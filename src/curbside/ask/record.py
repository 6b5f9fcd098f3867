"""What an ``ask`` puts on the audit trail: the question (the trail redacts it), and from the answer
its PHI flag, model, routing and cited sources."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curbside.audit.entries import ids, outcome_of
from curbside.audit.trail import AuditEntry

if TYPE_CHECKING:
    from curbside.types import Answer, AskRequest, ToolCaller

__all__ = ["ask_entry"]


def ask_entry(
    caller: ToolCaller,
    request: AskRequest,
    *,
    channel: str,
    answer: Answer | None = None,
    error: BaseException | None = None,
) -> AuditEntry:
    """An ``ask``: before it runs (outcome ``started``), or with its answer or error.

    PHI flag, model and routing reason come from the answer's metadata (``phi_detected``,
    ``model_used``, ``routing_reason``, ``phi_types``, ``intent``, ``tools_called``) when present.
    """
    meta: dict[str, Any] = dict(answer.metadata) if answer is not None else {}
    details: dict[str, Any] = {
        "namespace": request.namespace,
        "use_llm": request.use_llm,
        "findings": len(request.findings),
        "patient_context_chars": len(request.patient_context or ""),
    }
    for name in ("routing_reason", "routing_mode", "phi_types", "took_ms"):
        if meta.get(name) is not None:
            details[name] = meta[name]
    phi = meta.get("phi_detected")
    outcome = answer.status if answer is not None else outcome_of(error) if error is not None else "started"
    return AuditEntry(
        action="ask",
        user=caller.user,
        role=caller.role,
        session=caller.session,
        channel=channel,
        question=_ask_text(request),
        intent=meta.get("intent") or ("condition" if request.condition else "question"),
        sources=ids(c.chunk_id for c in answer.citations) if answer is not None else (),
        tools=tuple(str(t) for t in meta.get("tools_called", ())),
        model_used=meta.get("model_used"),
        phi=phi if isinstance(phi, bool) else None,
        outcome=outcome,
        details=details,
    )


def _ask_text(request: AskRequest) -> str | None:
    parts = [request.question.strip()]
    if request.condition:
        parts.append(f"condition: {request.condition}")
    if request.findings:
        parts.append("findings: " + "; ".join(request.findings))
    text = "\n".join(p for p in parts if p)
    return text or None
