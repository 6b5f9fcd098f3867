"""Who a call runs as, and the tool permission check that uses the caller's real role."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from curbside.audit.chain import digest
from curbside.auth.roles import CLINICAL, OPERATOR, role_allows
from curbside.errors import PermissionDeniedError, ValidationError

if TYPE_CHECKING:
    from collections.abc import Callable

    from curbside.settings import Settings
    from curbside.tools.base import ToolSpec
    from curbside.types import ToolCaller

__all__ = ["RoleToolPolicy", "key_from_headers", "operator_caller", "session_token"]

log = logging.getLogger("curbside.auth")

_SESSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")


def key_from_headers(headers: Any) -> str | None:
    """The API key of a request: ``Authorization: Bearer <key>``, else ``X-API-Key``."""
    scheme, _, token = (headers.get("authorization") or "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    key = headers.get("x-api-key")
    return key.strip() if key and key.strip() else None


def session_token(audit_key: bytes, session: str | None) -> str | None:
    """The session id as the audit trail keeps it: a keyed digest, never the client's free text.

    A client could put anything in its session header (a patient's name, say); the digest still
    groups one session's rows, and whoever knows the raw id can find them again.
    """
    if session is None:
        return None
    if not _SESSION.fullmatch(session):
        raise ValidationError(
            "The session id must be 1-128 letters, digits, '.', '_', ':' or '-', starting with a letter or digit."
        )
    return "s_" + digest(audit_key, "session", session)[:24]


def operator_caller(settings: Settings, *, session: str | None = None, channel: str = "cli") -> ToolCaller:
    """The machine's operator: the CLI and MCP over stdio run as this caller, with every role."""
    from curbside.types import ToolCaller

    return ToolCaller(user=settings.operator_name, role=OPERATOR, session=session, channel=channel)


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
