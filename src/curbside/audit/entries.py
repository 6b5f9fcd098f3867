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
    from curbside.types import SearchResponse, SourcePassages, ToolAuditEvent, ToolCaller

__all__ = ["denied_entry", "ids", "outcome_of", "passages_entry", "search_entry", "tool_entry"]

_MAX_SOURCES = 50  # chunk ids per row: enough to follow an answer, bounded for a request naming thousands


def outcome_of(error: BaseException) -> str:
    """The stable code an error is recorded under."""
    return error.code if isinstance(error, CurbsideError) else "INTERNAL_ERROR"


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
        sources=ids(h.chunk_id for h in response.hits) if response is not None else (),
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
        sources=ids(p.chunk_id for p in result.passages) if result is not None else (),
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
            **({"confirmation_id": event.confirmation_id} if event.confirmation_id else {}),
            **({"result": event.result_refs} if event.result_refs else {}),
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


def ids(ids: Any) -> tuple[str, ...]:
    return tuple(str(i) for i in ids)[:_MAX_SOURCES]
