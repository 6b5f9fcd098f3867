"""The application's tool hooks: adapters from the tools layer's small protocols to the
application's own parts (the shared ``limits`` limiter, the keyed audit trail, role checks).

They live here, in the composition root, so the tools layer never reaches for the trail or
the limiter itself; each part is resolved on first use, so listing tools opens neither.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from curbside.auth.roles import CLINICAL, role_allows
from curbside.errors import PermissionDeniedError
from curbside.tools.hooks import ToolHooks

if TYPE_CHECKING:
    from curbside.audit.trail import AuditTrail
    from curbside.auth.ratelimit import RateLimiter
    from curbside.tools.base import ToolSpec
    from curbside.types import ToolAuditEvent, ToolCaller

__all__ = ["RoleToolPolicy", "SharedToolRateLimiter", "TrailAuditSink", "application_hooks"]


class RoleToolPolicy:
    """Tools are for clinicians and admins (and the operator); a tool's own ``allowed_roles`` narrow that.

    ``before_call`` runs after the role check, e.g. to stop calls the audit trail could not record.
    """

    def __init__(self, before_call: Callable[[], None] | None = None) -> None:
        self._before_call = before_call

    def authorize(self, caller: ToolCaller, spec: ToolSpec[Any, Any]) -> None:
        allowed = CLINICAL if spec.allowed_roles is None else CLINICAL & spec.allowed_roles
        if not role_allows(caller.role, allowed):
            roles = ", ".join(sorted(allowed)) or "no API role"
            raise PermissionDeniedError(
                f"Role {caller.role!r} may not call tool {spec.name!r}; it is open to: {roles}. "
                "Ask an administrator for a key with one of those roles."
            )
        if self._before_call is not None:
            self._before_call()


class SharedToolRateLimiter:
    """``spec.rate_limit`` calls per (user, tool) per minute, counted by the application's ``limits`` limiter,
    so the limits hold across server processes when its storage is shared (Redis)."""

    def __init__(self, limiter: Callable[[], RateLimiter]) -> None:
        self._limiter = limiter  # resolved per call: building the executor must not open the limiter's storage

    def acquire(self, caller: ToolCaller, spec: ToolSpec[Any, Any]) -> None:
        if spec.rate_limit is None:
            return
        self._limiter().hit_per_minute(spec.rate_limit, "tool", spec.name, caller.user, what=f"tool {spec.name!r}")


class TrailAuditSink:
    """Every tool call as a row of the keyed audit trail (argument names and a keyed digest, no values)."""

    def __init__(self, trail: Callable[[], AuditTrail]) -> None:
        self._trail = trail  # resolved on the first call: listing tools must not create the audit key

    def record(self, event: ToolAuditEvent) -> None:
        from curbside.audit.chain import digest
        from curbside.audit.entries import tool_entry

        trail = self._trail()
        trail.append(tool_entry(event, arguments_digest=lambda sha: digest(trail.key, "tool-arguments", sha)))


def application_hooks(trail: Callable[[], AuditTrail], limiter: Callable[[], RateLimiter]) -> ToolHooks:
    """The application's checks: the caller's real role (and a trail that can record), the shared
    rate limiter, and the audit trail."""
    return ToolHooks(
        permissions=RoleToolPolicy(before_call=lambda: trail().check_writable()),
        rate_limiter=SharedToolRateLimiter(limiter),
        audit=TrailAuditSink(trail),
    )
