"""API users: a name, a role and the hash of one key, MACed with the audit key.

The MAC (over name, role, key hash and dates) means a user row typed into the
database by hand, or a role raised there, fails authentication instead of
granting access. Revoked users keep their row, so old audit rows still name a
known user; a revoked name can be given a new key.
"""

from __future__ import annotations

import builtins
import fcntl
import hmac
import logging
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curbside.audit.chain import canonical_json, digest
from curbside.auth.anchor import UsersAnchor, table_digest
from curbside.auth.keys import generate_key, key_digest, key_lookup_prefix, looks_like_key
from curbside.auth.roles import OPERATOR, parse_role
from curbside.errors import AuditIntegrityError, NotFoundError, StateError, UnauthenticatedError, ValidationError

if TYPE_CHECKING:
    from curbside.store.database import Database

__all__ = ["ApiUser", "NewKey", "UserStore"]

log = logging.getLogger("curbside.auth")

_COLUMNS = ("id", "name", "role", "key_prefix", "key_sha256", "created_at", "revoked_at", "mac")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")
_INVALID = 'Bearer realm="curbside", error="invalid_token"'


@dataclass(frozen=True, slots=True)
class ApiUser:
    name: str
    role: str
    key_prefix: str
    created_at: str
    revoked_at: str | None
    intact: bool  # its MAC holds: nobody edited the row by hand

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "role": self.role,
            "key_prefix": self.key_prefix,
            "created_at": self.created_at,
            "revoked_at": self.revoked_at,
            "intact": self.intact,
        }


@dataclass(frozen=True, slots=True)
class NewKey:
    user: ApiUser
    key: str  # shown once, never stored


class UserStore:
    """``anchor_path``: the users anchor (auth/anchor.py); without one, restored old rows go unnoticed."""

    def __init__(self, db: Database, *, key: bytes, anchor_path: Path | None = None) -> None:
        self.db = db
        self._mac_key = key
        self._anchor = UsersAnchor(anchor_path, key) if anchor_path is not None else None
        self._change_lock = anchor_path.with_name(anchor_path.name + ".lock") if anchor_path is not None else None

    @contextmanager
    def _changing(self) -> Iterator[None]:
        """One change at a time across processes; the anchor vouches for the old and new table meanwhile."""
        if self._anchor is None or self._change_lock is None:
            with self.db.transaction():
                yield
            return
        fd = os.open(self._change_lock, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            before = self._digest()
            self._ensure_anchor(before)
            with self.db.transaction():
                yield
                after = self._digest()
                self._anchor.write(before, after)  # a crash from here to the next write leaves either state valid
            self._anchor.write(after)
        finally:
            os.close(fd)

    def _digest(self) -> str:
        return table_digest([(int(i), str(m)) for i, m in self.db.rows("SELECT id, mac FROM api_users")])

    def _ensure_anchor(self, current: str) -> None:
        """Anchor a table that has none yet (a new home, or one from before anchors existed)."""
        assert self._anchor is not None
        if self._anchor.exists():
            return
        if self.db.get_meta("users_anchored"):
            return  # it was anchored once: a missing file is refused at authentication, not re-made here
        self._anchor.write(current)
        self.db.set_meta("users_anchored", "1")
        log.warning("anchored the API users table in %s; keep it with the audit key", self._anchor.path)

    def check_anchor(self) -> None:
        """UnauthenticatedError-free check: raise AuditIntegrityError when the table left its anchor."""
        if self._anchor is None:
            return
        current = self._digest()
        if not self._anchor.exists() and not self.db.get_meta("users_anchored"):
            with self._changing_quiet():
                self._ensure_anchor(current)
            return
        if not self._anchor.accepts(current):
            raise AuditIntegrityError(
                f"The API users table does not match its anchor {str(self._anchor.path)!r}: rows were edited, "
                "added or restored outside Curbside, or the anchor was removed. No key is accepted until an "
                "administrator checks the table (`curbside users list --all`) and runs `curbside users anchor`."
            )

    @contextmanager
    def _changing_quiet(self) -> Iterator[None]:
        assert self._change_lock is not None
        fd = os.open(self._change_lock, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def reanchor(self) -> str:
        """Vouch for the table as it stands (after an administrator checked it); its digest."""
        if self._anchor is None or self._change_lock is None:
            raise ValidationError("This user store has no anchor file to write.")
        with self._changing_quiet():
            current = self._digest()
            self._anchor.write(current)
            self.db.set_meta("users_anchored", "1")
        return current

    def add(self, name: str, role: str) -> NewKey:
        """A new user (or a new key for a revoked name) with a fresh key."""
        name = _check_name(name)
        checked_role = parse_role(role)
        key = generate_key()
        created = _now()
        row = {
            "name": name,
            "role": checked_role,
            "key_prefix": key_lookup_prefix(key),
            "key_sha256": key_digest(key),
            "created_at": created,
            "revoked_at": None,
        }
        row["mac"] = self._mac(row)
        with self._changing():
            if self._active_row(name) is not None:
                raise StateError(
                    f"User {name!r} already has an active key. Revoke it first (`curbside users remove {name}`) "
                    "to issue a new one."
                )
            self.db.execute(
                "INSERT INTO api_users (name, role, key_prefix, key_sha256, created_at, revoked_at, mac) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (name, checked_role, row["key_prefix"], row["key_sha256"], created, None, row["mac"]),
            )
        return NewKey(user=self._user(row), key=key)

    def revoke(self, name: str) -> ApiUser:
        with self._changing():
            row = self._active_row(name)
            if row is None:
                raise NotFoundError(f"No active user named {name!r}; `curbside users list` shows them.")
            if not self._user(row).intact:
                log.error("API user row %r fails its integrity check; revoking it anyway", name)
            row["revoked_at"] = _now()
            row["mac"] = self._mac(row)
            self.db.execute(
                "UPDATE api_users SET revoked_at = ?, mac = ? WHERE id = ?", (row["revoked_at"], row["mac"], row["id"])
            )
        return self._user(row)

    def list(self, *, include_revoked: bool = False) -> builtins.list[ApiUser]:
        where = "" if include_revoked else " WHERE revoked_at IS NULL"
        return [self._user(r) for r in self._rows(f"{where} ORDER BY name, id")]

    def authenticate(self, key: str) -> ApiUser:
        """The active user holding ``key``; UnauthenticatedError (naming no detail an attacker could use) otherwise."""
        refused = UnauthenticatedError(
            "The API key is not valid (unknown, revoked or mistyped). Ask an administrator for a key "
            "(`curbside users add NAME --role ROLE`).",
            challenge=_INVALID,
        )
        if not looks_like_key(key):
            raise refused
        try:
            self.check_anchor()
        except AuditIntegrityError as exc:
            log.error("%s", exc.message)
            raise refused from exc
        wanted = key_digest(key)
        for row in self._rows(" WHERE key_prefix = ?", (key_lookup_prefix(key),)):
            if not hmac.compare_digest(row["key_sha256"], wanted):
                continue
            user = self._user(row)
            if not user.intact:
                # a hand-made or hand-edited row: refuse, and say so where an administrator will see it
                log.error("API user row %r fails its integrity check; the key was refused", row["name"])
                raise refused
            if user.revoked_at is not None:
                raise refused
            return user
        raise refused

    def _active_row(self, name: str) -> dict[str, Any] | None:
        rows = self._rows(" WHERE name = ? AND revoked_at IS NULL", (name,))
        return rows[0] if rows else None

    def _rows(self, where: str, params: tuple[Any, ...] = ()) -> builtins.list[dict[str, Any]]:
        sql = f"SELECT {', '.join(_COLUMNS)} FROM api_users{where}"
        return [dict(zip(_COLUMNS, row, strict=True)) for row in self.db.rows(sql, params)]

    def _mac(self, row: dict[str, Any]) -> str:
        fields = ("name", "role", "key_prefix", "key_sha256", "created_at", "revoked_at")
        return digest(self._mac_key, "api-user", canonical_json({f: row[f] for f in fields}))

    def _user(self, row: dict[str, Any]) -> ApiUser:
        intact = hmac.compare_digest(str(row["mac"]), self._mac(row))
        return ApiUser(
            name=row["name"],
            role=row["role"],
            key_prefix=row["key_prefix"],
            created_at=row["created_at"],
            revoked_at=row["revoked_at"],
            intact=intact,
        )


def _check_name(name: str) -> str:
    name = name.strip()
    if not _NAME.fullmatch(name):
        raise ValidationError(
            f"User name {name!r} is not allowed: use 1–64 letters, digits, '.', '_', '@' or '-', "
            "starting with a letter or digit."
        )
    if name.lower() == OPERATOR:
        raise ValidationError(f"{OPERATOR!r} is the local operator's name in the audit trail; choose another name.")
    return name


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")
