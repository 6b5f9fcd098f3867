"""Roles and what each may reach.

Three roles hold API keys; the local operator (the CLI, MCP over stdio) holds
every role, because whoever runs commands on this machine can read its files anyway.
The route × role table is in README ("Access control and audit").
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Literal, get_args

from curbside.errors import ValidationError

__all__ = [
    "ADMIN",
    "AUDIT",
    "CLINICAL",
    "OPERATOR",
    "ROLES",
    "Role",
    "parse_role",
    "role_allows",
]

Role = Literal["clinician", "admin", "auditor"]
ROLES: tuple[str, ...] = get_args(Role)
OPERATOR = "operator"  # not a key's role: the machine's own user, allowed everything

CLINICAL = frozenset({"clinician", "admin"})  # ask, search, passages, tools, MCP over HTTP
ADMIN = frozenset({"admin"})  # documents, jobs, metrics
AUDIT = frozenset({"auditor"})  # audit export and verify


def role_allows(role: str, allowed: Collection[str]) -> bool:
    return role == OPERATOR or role in allowed


def parse_role(value: str) -> Role:
    role = value.strip().lower()
    if role not in ROLES:
        raise ValidationError(f"Unknown role {value!r}; a key's role is one of: {', '.join(ROLES)}.")
    return role  # type: ignore[return-value]  # checked against ROLES just above
