"""Who a call runs as, and the tool permission check that uses the caller's real role."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curbside.auth.roles import CLINICAL, OPERATOR, role_allows
from curbside.errors import PermissionDeniedError

if TYPE_CHECKING:
    from collections.abc import Callable

    from curbside.settings import Settings
    from curbside.tools.base import ToolCaller, ToolSpec

__all__ = ["RoleToolPolicy", "operator_caller"]


def operator_caller(settings: Settings, *, session: str | None = None) -> ToolCaller:
    """The machine's operator: the CLI and MCP over stdio run as this caller, with every role."""
    from curbside.tools.base import ToolCaller  # the tools layer loads pydantic models: not for `--help`

    return ToolCaller(user=settings.operator_name, role=OPERATOR, session=session)


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
