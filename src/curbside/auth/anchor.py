"""The users anchor: a MACed digest of the whole ``api_users`` table, kept in a file outside it.

Each user row carries its own MAC, so a row typed in by hand fails. But a row that was once
genuine stays genuine: restoring a revoked user's old row (and its old MAC) would bring the key
back. The anchor closes that: it holds a digest of every row's id and MAC as the table stood
after the last change Curbside made, and a key is accepted only while the table still matches.

A change writes the anchor twice: before its commit with both the old and the new digest, after
it with the new one alone, so a process that dies between the two leaves a table the anchor
still accepts. Rolling back the database and this file together is not detected (as for the
audit head): keep the file where those who can edit the database cannot replace it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from curbside.audit.chain import canonical_json, digest

__all__ = ["UsersAnchor", "table_digest"]


def table_digest(rows: list[tuple[int, str]]) -> str:
    """SHA-256 over the (id, mac) pairs of every user row, in id order."""
    return hashlib.sha256(canonical_json(sorted([int(i), str(m)] for i, m in rows)).encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class _State:
    accepted: frozenset[str]  # digests the table may have


class UsersAnchor:
    def __init__(self, path: Path, key: bytes) -> None:
        self.path = path
        self._key = key

    def exists(self) -> bool:
        return self.path.exists()

    def accepts(self, current: str) -> bool:
        """Whether the table digest ``current`` is one the anchor vouches for (False if the file is bad)."""
        state = self._read()
        return state is not None and current in state.accepted

    def write(self, *digests: str) -> None:
        """Vouch for these table digests (the file replaced atomically, owner-only)."""
        accepted = sorted(set(digests))
        data = {"accepted": accepted, "mac": self._mac(accepted)}
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(data) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, self.path)
        finally:
            temporary.unlink(missing_ok=True)

    def _read(self) -> _State | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            accepted, mac = data["accepted"], data["mac"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not isinstance(accepted, list) or not all(isinstance(d, str) for d in accepted) or not isinstance(mac, str):
            return None
        if not hmac.compare_digest(mac, self._mac(sorted(accepted))):
            return None
        return _State(frozenset(accepted))

    def _mac(self, accepted: list[str]) -> str:
        return digest(self._key, "users-anchor", canonical_json(accepted))
