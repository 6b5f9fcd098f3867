"""API keys for the HTTP API tests."""

from __future__ import annotations

from curbside.app import Curbside

__all__ = ["admin_headers"]


def admin_headers(core: Curbside) -> dict[str, str]:
    """A new admin's key (admin reaches every route but the auditor's) as request headers."""
    return {"Authorization": f"Bearer {core.users.add('api-admin', 'admin').key}"}
