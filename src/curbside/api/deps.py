"""Dependencies shared by the routers: the application, and who is calling.

Every router but health declares its roles as a router dependency
(``dependencies=[Depends(clinical_caller)]``), so no route can be added without a
check; a route that needs the caller takes the same dependency as a parameter, which
FastAPI resolves once per request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Header, Request, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from curbside.api.guard import CALLER_SCOPE_KEY, client_address
from curbside.app import Curbside
from curbside.auth.access import key_from_headers
from curbside.auth.roles import ADMIN, AUDIT, CLINICAL, role_allows
from curbside.types import ToolCaller

__all__ = [
    "SESSION_HEADER",
    "AdminCaller",
    "AuditorCaller",
    "ClinicalCaller",
    "Core",
    "admin_caller",
    "auditor_caller",
    "clinical_caller",
    "get_core",
    "require_roles",
]

SESSION_HEADER = "X-Session-Id"
# declared for the OpenAPI document (the "Authorize" button); RequestGuard reads the same headers
_bearer = HTTPBearer(auto_error=False, description="An API key from `curbside users add NAME --role ROLE`.")
_api_key = APIKeyHeader(name="X-API-Key", auto_error=False, description="The same API key, for clients without Bearer.")


def get_core(request: Request) -> Curbside:
    core: Curbside = request.app.state.core
    return core


Core = Annotated[Curbside, Depends(get_core)]


def require_roles(allowed: frozenset[str]) -> Callable[..., ToolCaller]:
    """A dependency admitting callers whose key has one of ``allowed`` roles.

    ``RequestGuard`` admits the caller from the headers before the body is read and leaves it
    in the scope; without the guard (an app assembled by hand) the check runs here.
    """

    def caller_with_role(
        request: Request,
        core: Core,
        bearer: Annotated[HTTPAuthorizationCredentials | None, Security(_bearer)] = None,
        api_key: Annotated[str | None, Security(_api_key)] = None,
        session: Annotated[
            str | None,
            Header(
                alias=SESSION_HEADER,
                min_length=1,
                max_length=128,
                pattern=r"^[A-Za-z0-9][A-Za-z0-9._:-]*$",
                description="Opaque session id; the audit trail keeps a keyed digest of it, never the text.",
            ),
        ] = None,
    ) -> ToolCaller:
        admitted = request.scope.get(CALLER_SCOPE_KEY)
        if isinstance(admitted, ToolCaller):
            return admitted
        caller = core.gate.admit(key_from_headers(request.headers), client=client_address(request.scope), session=session)
        if not role_allows(caller.role, allowed):
            route = request.scope.get("route")
            path = route.path if route is not None else request.url.path
            core.gate.refuse(caller, allowed, channel="http", method=request.method, path=path)
        return caller

    caller_with_role.allowed_roles = allowed  # type: ignore[attr-defined]  # RequestGuard reads it from the route
    return caller_with_role


clinical_caller = require_roles(CLINICAL)
admin_caller = require_roles(ADMIN)
auditor_caller = require_roles(AUDIT)

ClinicalCaller = Annotated[ToolCaller, Depends(clinical_caller)]
AdminCaller = Annotated[ToolCaller, Depends(admin_caller)]
AuditorCaller = Annotated[ToolCaller, Depends(auditor_caller)]
