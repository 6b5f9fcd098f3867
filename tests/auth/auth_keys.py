"""The API keys of the auth tests' users, and the request headers for each kind of caller."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Keys"]


@dataclass(frozen=True)
class Keys:
    clinician: str
    admin: str
    auditor: str
    revoked: str

    def headers(self, who: str) -> dict[str, str]:
        """Request headers for ``who``: a role, 'none' (no key) or 'bad' (a key nobody was given)."""
        if who == "none":
            return {}
        if who == "bad":
            return {"Authorization": "Bearer cs_" + "x" * 43}
        return {"Authorization": f"Bearer {getattr(self, who)}"}
