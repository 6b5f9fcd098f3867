"""What each kind of action puts on the trail.

Only the question-like text goes in ``question`` (the trail redacts it); everything
else is names, counts, codes and digests, never free text a user typed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from curbside.audit.trail import AuditEntry
from curbside.errors import CurbsideError

if TYPE_CHECKING:
    from curbside.ask.pipeline import AskRequest
    from curbside.types import Answer, SearchResponse, SourcePassages, ToolAuditEvent, ToolCaller

__all__ = ["ask_entry", "denied_entry", "outcome_of", "passages_entry", "search_entry", "tool_entry"]

_MAX_SOURCES = 50  # chunk ids per row: enough to follow an answer, bounded for a request naming thousands


def outcome_of(error: BaseException) -> str:
    """The stable code an error is recorded under."""
    return error.code if isinstance(error, CurbsideError) else "INTERNAL_ERROR"


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
        sources=_ids(c.chunk_id for c in answer.citations) if answer is not None else (),
        tools=tuple(str(t) for t in meta.get("tools_called", ())),
        model_used=meta.get("model_used"),
        phi=phi if isinstance(phi, bool) else None,
        outcome=outcome,
        details=details,
    )


def search_entry(
    caller: ToolCaller,
    query: str,
    *,
    channel: str,
    mode: str,
    namespace: str,
    response: SearchResponse | None = None,
) -> AuditEntry:
    return AuditEntry(
        action="search",
        user=caller.user,
        role=caller.role,
        session=caller.session,
        channel=channel,
        question=query,
        intent="search",
        sources=_ids(h.chunk_id for h in response.hits) if response is not None else (),
        outcome="ok" if response is not None else "started",
        details={"mode": mode, "namespace": namespace, "hits": len(response.hits) if response is not None else 0},
    )


def passages_entry(
    caller: ToolCaller,
    chunk_ids: Sequence[str],
    *,
    channel: str,
    highlight_terms: int,
    result: SourcePassages | None = None,
) -> AuditEntry:
    return AuditEntry(
        action="passages",
        user=caller.user,
        role=caller.role,
        session=caller.session,
        channel=channel,
        # only ids that exist: a requested id is text the client chose, and could be anything
        sources=_ids(p.chunk_id for p in result.passages) if result is not None else (),
        outcome="ok" if result is not None else "started",
        details={
            "requested": len(chunk_ids),
            "found": result.total_chunks if result is not None else 0,
            "highlight_terms": highlight_terms,
        },
    )


def tool_entry(event: ToolAuditEvent, *, arguments_digest: Callable[[str], str]) -> AuditEntry:
    """A finished tool call. Argument values never reach the trail: their names, and a keyed digest
    of their canonical JSON (a plain SHA-256 of a short value could be guessed back)."""
    return AuditEntry(
        action="tool",
        user=event.user,
        role=event.role,
        session=event.session,
        channel=event.channel,
        tools=(event.tool,),
        phi=event.requires_phi,
        outcome=event.error_code or event.status,  # ok, or the stable code (RATE_LIMITED, TIMEOUT …)
        details={
            "status": event.status,
            "call_id": event.call_id,
            "confirmed": event.confirmed,
            "argument_names": list(event.argument_names),
            "arguments_digest": arguments_digest(event.arguments_sha256),
            "duration_ms": event.duration_ms,
        },
    )


def denied_entry(caller: ToolCaller, *, channel: str, method: str, path: str, needed: Sequence[str]) -> AuditEntry:
    """An authenticated caller refused by role: a security event worth keeping."""
    return AuditEntry(
        action="access.denied",
        user=caller.user,
        role=caller.role,
        session=caller.session,
        channel=channel,
        outcome="PERMISSION_DENIED",
        details={"method": method, "path": path, "needs": sorted(needed)},
    )


def _ask_text(request: AskRequest) -> str | None:
    parts = [request.question.strip()]
    if request.condition:
        parts.append(f"condition: {request.condition}")
    if request.findings:
        parts.append("findings: " + "; ".join(request.findings))
    text = "\n".join(p for p in parts if p)
    return text or None


def _ids(ids: Any) -> tuple[str, ...]:
    return tuple(str(i) for i in ids)[:_MAX_SOURCES]
