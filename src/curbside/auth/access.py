"""Who a call runs as: the local operator, an API key's bearer, a session's digest."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from curbside.audit.chain import digest
from curbside.auth.roles import OPERATOR
from curbside.errors import ValidationError

if TYPE_CHECKING:
    from curbside.settings import Settings
    from curbside.types import ToolCaller

__all__ = ["key_from_headers", "operator_caller", "session_token"]

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
