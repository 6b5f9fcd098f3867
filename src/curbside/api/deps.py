"""Dependencies shared by the routers: the application, and who is calling.

Every router but health declares its roles as a router dependency
(``dependencies=[Depends(clinical_caller)]``), so no route can be added without a
check; a route that needs the caller takes the same dependency as a parameter, which
FastAPI resolves once per request.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Header, Request, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from curbside.app import Curbside
from curbside.auth.roles import ADMIN, AUDIT, CLINICAL, role_allows
from curbside.errors import AuditIntegrityError, PermissionDeniedError, UnauthenticatedError
from curbside.tools.base import ToolCaller

__all__ = [
    "SESSION_HEADER",
    "AdminCaller",
    "AuditorCaller",
    "ClinicalCaller",
    "Core",
    "admin_caller",
    "auditor_caller",
    "authenticate",
    "clinical_caller",
    "get_curbside",
    "refuse",
    "require_roles",
]

log = logging.getLogger("curbside.api")

SESSION_HEADER = "X-Session-Id"
_bearer = HTTPBearer(auto_error=False, description="An API key from `curbside users add NAME --role ROLE`.")
_api_key = APIKeyHeader(name="X-API-Key", auto_error=False, description="The same API key, for clients without Bearer.")
_MISSING = (
    "This route needs an API key: send `Authorization: Bearer <key>` (or `X-API-Key: <key>`). "
    "An administrator issues keys with `curbside users add NAME --role clinician|admin|auditor`."
)


def get_curbside(request: Request) -> Curbside:
    core: Curbside = request.app.state.curbside
    return core


Core = Annotated[Curbside, Depends(get_curbside)]


def authenticate(core: Curbside, key: str | None, *, session: str | None = None) -> ToolCaller:
    """The caller holding ``key`` (counted against the per-user rate limit); UnauthenticatedError without one."""
    if not key or not key.strip():
        raise UnauthenticatedError(_MISSING)
    user = core.users.authenticate(key.strip())
    core.rate_limiter.hit_api(user.name)  # before the role check: refused requests count too
    return ToolCaller(user=user.name, role=user.role, session=session)


def refuse(
    core: Curbside, caller: ToolCaller, allowed: frozenset[str], *, channel: str, method: str, path: str
) -> None:
    """Record an authenticated caller's refused request, then raise PERMISSION_DENIED."""
    from curbside.audit.entries import denied_entry

    try:
        core.audit.append(denied_entry(caller, channel=channel, method=method, path=path, needed=allowed))
    except AuditIntegrityError as exc:  # the refusal stands either way; the trail's own state is reported elsewhere
        log.error("could not record a refused request: %s", exc.message)
    needed = " or ".join(sorted(allowed))
    raise PermissionDeniedError(
        f"Role {caller.role!r} may not use {method} {path}; it needs a key with the role {needed}. "
        "Ask an administrator for one."
    )


def require_roles(allowed: frozenset[str]) -> Callable[..., ToolCaller]:
    """A dependency admitting callers whose key has one of ``allowed`` roles."""

    def caller_with_role(
        request: Request,
        core: Core,
        bearer: Annotated[HTTPAuthorizationCredentials | None, Security(_bearer)] = None,
        api_key: Annotated[str | None, Security(_api_key)] = None,
        session: Annotated[
            str | None,
            Header(
                alias=SESSION_HEADER,
                max_length=128,
                pattern=r"^[A-Za-z0-9][A-Za-z0-9._:-]*$",
                description="Opaque session id recorded on the audit trail (never a patient identifier).",
            ),
        ] = None,
    ) -> ToolCaller:
        key = bearer.credentials if bearer is not None else api_key
        caller = authenticate(core, key, session=session)
        if not role_allows(caller.role, allowed):
            refuse(core, caller, allowed, channel="http", method=request.method, path=request.url.path)
        return caller

    return caller_with_role


clinical_caller = require_roles(CLINICAL)
admin_caller = require_roles(ADMIN)
auditor_caller = require_roles(AUDIT)

ClinicalCaller = Annotated[ToolCaller, Depends(clinical_caller)]
AdminCaller = Annotated[ToolCaller, Depends(admin_caller)]
AuditorCaller = Annotated[ToolCaller, Depends(auditor_caller)]
