"""The door every remote request comes through: a key becomes a caller, or the request is refused.

``Gate.admit`` turns an API key into the caller it belongs to (counted against the per-user
limit; a missing or wrong key counts against the client's address instead, which is refused
outright once over ``CURBSIDE_AUTH_FAILURE_LIMIT``). ``Gate.refuse`` records an authenticated
caller turned away by role, then raises. The HTTP API and MCP over HTTP share it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

from curbside.auth.access import session_token
from curbside.errors import AuditIntegrityError, PermissionDeniedError, UnauthenticatedError
from curbside.types import ToolCaller

if TYPE_CHECKING:
    from curbside.audit.trail import AuditTrail
    from curbside.auth.ratelimit import RateLimiter
    from curbside.auth.users import UserStore

__all__ = ["Gate"]

log = logging.getLogger("curbside.auth")

_MISSING = (
    "This route needs an API key: send `Authorization: Bearer <key>` (or `X-API-Key: <key>`). "
    "An administrator issues keys with `curbside users add NAME --role clinician|admin|auditor`."
)


class Gate:
    """Each part is resolved on first use: a server with no API users opens nothing until asked."""

    def __init__(
        self,
        *,
        users: Callable[[], UserStore],
        limiter: Callable[[], RateLimiter],
        trail: Callable[[], AuditTrail],
    ) -> None:
        self._users = users
        self._limiter = limiter
        self._trail = trail

    def admit(self, key: str | None, *, client: str, session: str | None = None, channel: str = "http") -> ToolCaller:
        """The caller holding ``key``; UnauthenticatedError without a valid one, RateLimitedError over a limit."""
        limiter = self._limiter()
        limiter.check_failures(client)
        try:
            if not key:
                raise UnauthenticatedError(_MISSING)
            user = self._users().authenticate(key)
        except UnauthenticatedError:
            limiter.hit_failure(client)
            raise
        limiter.hit_api(user.name)  # before the role check: refused requests count too
        return ToolCaller(
            user=user.name, role=user.role, session=session_token(self._trail().key, session), channel=channel
        )

    def refuse(
        self, caller: ToolCaller, allowed: frozenset[str], *, channel: str, method: str, path: str
    ) -> NoReturn:
        """Record an authenticated caller's refused request, then raise PERMISSION_DENIED."""
        from curbside.audit.entries import denied_entry

        try:
            self._trail().append(denied_entry(caller, channel=channel, method=method, path=path, needed=sorted(allowed)))
        except AuditIntegrityError as exc:  # the refusal stands either way; the trail's state is reported elsewhere
            log.error("could not record a refused request: %s", exc.message)
        needed = " or ".join(sorted(allowed))
        raise PermissionDeniedError(
            f"Role {caller.role!r} may not use {method} {path}; it needs a key with the role {needed}. "
            "Ask an administrator for one."
        )
