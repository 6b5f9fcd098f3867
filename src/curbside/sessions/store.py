"""The conversation store: each user's sessions, their last messages, clinical context, active patient
and preferences, in one SQLite file (``CURBSIDE_HOME/sessions.db``, owner-only).

PHI: messages, the clinical context and the patient id are protected health information. They stay
in this file: never logged, never put in an error message or an audit row (the CLI audits a digest
of the session id). A purge deletes them with ``secure_delete`` on and checkpoints the WAL, so the
text does not linger in free pages.

A session belongs to the user who opened it: ids name sessions within a user, so another user's id
is simply not found. A session expires ``ttl_days`` after its last write (a message, context, patient
or preferences); an expired session is invisible at once and deleted on the next ``open`` or purge.
"""

from __future__ import annotations

import builtins
import json
import math
import os
import re
import stat
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError as PydanticValidationError

from curbside.errors import ConfigError, NotFoundError, ValidationError
from curbside.sessions.database import SessionDatabase
from curbside.sessions.models import (
    Message,
    Preferences,
    Session,
    SessionInfo,
    check_session_id,
    new_session_id,
)

__all__ = ["MAX_CONTEXT_BYTES", "MAX_PAYLOAD_BYTES", "MAX_TEXT_CHARS", "SessionStore"]

# bounds that keep one session small enough to load whole into every turn's context
MAX_TEXT_CHARS = 100_000
MAX_PAYLOAD_BYTES = 256 * 1024
MAX_CONTEXT_BYTES = 32 * 1024
_DAY_S = 86_400.0
# a FHIR id is [A-Za-z0-9.-]{1,64}; a reference ("Patient/123") and other EHRs' ids need ':', '_', '/'
_PATIENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}")
_COLUMNS = "session_id, user, created_at, updated_at, patient_id, context, preferences"


class SessionStore:
    """Sessions in the SQLite file at ``path``; safe to share between threads (one connection each).

    ``max_messages`` (setting ``session_messages``) is how many messages a session keeps, the newest;
    ``ttl_days`` (setting ``session_ttl_days``) how long it lives after its last write; ``clock``
    gives the time in epoch seconds (a test or a replayed case sets it).
    """

    def __init__(
        self,
        path: Path | str,
        *,
        max_messages: int = 10,
        ttl_days: float = 7.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if max_messages < 1:
            raise ConfigError(
                f"A session must keep at least 1 message; got {max_messages} (CURBSIDE_SESSION_MESSAGES)."
            )
        if not (math.isfinite(ttl_days) and ttl_days > 0):
            raise ConfigError(
                f"Sessions must live a positive number of days; got {ttl_days} (CURBSIDE_SESSION_TTL_DAYS)."
            )
        self.path = Path(path)
        self.max_messages = max_messages
        self.ttl_days = ttl_days
        self._clock = clock
        if not self.path.parent.exists():  # as Curbside.make_home makes the home: owner-only
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._db = SessionDatabase(self.path)
        _owner_only(self.path)

    def __repr__(self) -> str:
        return f"SessionStore({str(self.path)!r}, max_messages={self.max_messages}, ttl_days={self.ttl_days})"

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # --- sessions ----------------------------------------------------------------------------
    def open(self, user: str, session_id: str | None = None) -> Session:
        """The session ``session_id`` of ``user``, created if absent (or expired); a new id when none is given."""
        user = _check_user(user)
        session_id = new_session_id() if session_id is None else check_session_id(session_id)
        now = self._now()
        with self._db.transaction():
            self._sweep(now)  # an expired session of this id goes too: the new one starts empty
            self._db.execute(
                "INSERT INTO sessions(user, session_id, created_at, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(user, session_id) DO NOTHING",
                (user, session_id, now, now),
            )
            return self._session(user, session_id, now)

    def get(self, user: str, session_id: str) -> Session:
        """The session, its kept messages oldest first; NotFoundError when absent, expired or another user's."""
        user, session_id = _check_user(user), check_session_id(session_id)
        with self._db.snapshot():
            return self._session(user, session_id, self._now())

    def list(self, user: str) -> builtins.list[SessionInfo]:
        """``user``'s live sessions, the most recently used first (no clinical content)."""
        user = _check_user(user)
        now = self._now()
        rows = self._db.rows(
            "SELECT s.session_id, s.created_at, s.updated_at, s.patient_id IS NOT NULL, "
            "(SELECT COUNT(*) FROM messages m WHERE m.user = s.user AND m.session_id = s.session_id) "
            "FROM sessions s WHERE s.user = ? AND s.updated_at > ? ORDER BY s.updated_at DESC, s.session_id",
            (user, now - self._ttl_s),
        )
        return [
            SessionInfo(
                session_id=sid,
                created_at=_time(created),
                updated_at=_time(updated),
                expires_at=_time(updated + self._ttl_s),
                messages=count,
                has_patient=bool(has_patient),
            )
            for sid, created, updated, has_patient, count in rows
        ]

    # --- messages ----------------------------------------------------------------------------
    def append(
        self, user: str, session_id: str, role: str, text: str, payload: dict[str, Any] | None = None
    ) -> Message:
        """Add a message (role ``user`` or ``assistant``), keeping only the newest ``max_messages``."""
        user, session_id = _check_user(user), check_session_id(session_id)
        if role not in ("user", "assistant"):
            raise ValidationError("A message's role must be 'user' or 'assistant'.")
        if not isinstance(text, str):
            raise ValidationError("A message's text must be a string.")
        if len(text) > MAX_TEXT_CHARS:
            raise ValidationError(f"A message is {len(text):,} characters; a session keeps at most {MAX_TEXT_CHARS:,}.")
        stored_payload = None if payload is None else _json("The message payload", payload, MAX_PAYLOAD_BYTES)
        now = self._now()
        with self._db.transaction():
            self._require(user, session_id, now)
            self._db.execute(
                "INSERT INTO messages(user, session_id, role, text, payload, at) VALUES (?, ?, ?, ?, ?, ?)",
                (user, session_id, role, text, stored_payload, now),
            )
            self._db.execute(
                "DELETE FROM messages WHERE user = ? AND session_id = ? AND id NOT IN "
                "(SELECT id FROM messages WHERE user = ? AND session_id = ? ORDER BY id DESC LIMIT ?)",
                (user, session_id, user, session_id, self.max_messages),
            )
            self._touch(user, session_id, now)
        return Message.model_validate({"role": role, "text": text, "at": _time(now), "payload": payload})

    def recent(self, user: str, session_id: str, n: int | None = None) -> builtins.list[Message]:
        """The last ``n`` messages (default and at most ``max_messages``), oldest first."""
        user, session_id = _check_user(user), check_session_id(session_id)
        if n is not None and n < 0:
            raise ValidationError(f"Ask for 0 or more recent messages, not {n}.")
        with self._db.snapshot():
            self._require(user, session_id, self._now())
            return self._messages(user, session_id, self.max_messages if n is None else n)

    # --- clinical context, patient, preferences ---------------------------------------------
    def context(self, user: str, session_id: str) -> dict[str, Any]:
        """The session's clinical context: the case's facts (condition, findings, medicines proposed …)."""
        return self.get(user, session_id).context

    def set_context(self, user: str, session_id: str, **facts: Any) -> dict[str, Any]:
        """Merge ``facts`` into the clinical context (a fact set to None is removed); returns the context."""
        user, session_id = _check_user(user), check_session_id(session_id)
        now = self._now()
        with self._db.transaction():
            row = self._require(user, session_id, now)
            merged = {**json.loads(row[5]), **facts}
            context = {key: value for key, value in merged.items() if value is not None}
            stored = _json("The clinical context", context, MAX_CONTEXT_BYTES)
            self._db.execute(
                "UPDATE sessions SET context = ?, updated_at = ? WHERE user = ? AND session_id = ?",
                (stored, now, user, session_id),
            )
        return context

    def clear_context(self, user: str, session_id: str) -> None:
        """Forget the clinical context (a new case in the same conversation)."""
        user, session_id = _check_user(user), check_session_id(session_id)
        now = self._now()
        with self._db.transaction():
            self._require(user, session_id, now)
            self._db.execute(
                "UPDATE sessions SET context = '{}', updated_at = ? WHERE user = ? AND session_id = ?",
                (now, user, session_id),
            )

    def set_patient(self, user: str, session_id: str, patient_id: str | None, *, keep_context: bool = False) -> Session:
        """Make ``patient_id`` the active patient (None: no patient).

        Changing patient clears the clinical context unless ``keep_context``: the facts of one
        patient's case must not be read as another's.
        """
        user, session_id = _check_user(user), check_session_id(session_id)
        if patient_id is not None and (not isinstance(patient_id, str) or not _PATIENT_ID.fullmatch(patient_id)):
            raise ValidationError(
                "A patient id must be 1-128 letters, digits, '.', '_', ':', '/' or '-', starting with a letter or digit."
            )
        now = self._now()
        with self._db.transaction():
            row = self._require(user, session_id, now)
            changed = row[4] != patient_id
            context = "{}" if changed and not keep_context else row[5]
            self._db.execute(
                "UPDATE sessions SET patient_id = ?, context = ?, updated_at = ? WHERE user = ? AND session_id = ?",
                (patient_id, context, now, user, session_id),
            )
            return self._session(user, session_id, now)

    def preferences(self, user: str, session_id: str) -> Preferences:
        return self.get(user, session_id).preferences

    def set_preferences(self, user: str, session_id: str, **changes: Any) -> Preferences:
        """Change some preferences (``citation_style``, ``answer_length``, ``specialty``); None sets one back
        to its default. Unknown names and values are refused with what is allowed."""
        user, session_id = _check_user(user), check_session_id(session_id)
        now = self._now()
        with self._db.transaction():
            row = self._require(user, session_id, now)
            merged = {**json.loads(row[6]), **changes}
            chosen = {key: value for key, value in merged.items() if value is not None}
            try:
                preferences = Preferences.model_validate(chosen)
            except PydanticValidationError as exc:
                raise ValidationError(_preference_problems(exc)) from None
            self._db.execute(
                "UPDATE sessions SET preferences = ?, updated_at = ? WHERE user = ? AND session_id = ?",
                (json.dumps(preferences.model_dump(exclude_unset=True)), now, user, session_id),
            )
        return preferences

    # --- model usage (the daily cost limit) ------------------------------------------------------
    def spent_today(self, user: str) -> float:
        """What ``user``'s turns spent on models today (UTC), at the configured prices."""
        row = self._db.one(
            "SELECT cost FROM model_usage WHERE user = ? AND day = ?", (_check_user(user), self._day())
        )
        return float(row[0]) if row else 0.0

    def record_usage(
        self, user: str, *, llm_calls: int, prompt_tokens: int, completion_tokens: int, cost: float
    ) -> None:
        """Add one turn's model use to ``user``'s day."""
        with self._db.transaction():
            self._db.execute(
                "INSERT INTO model_usage(user, day, turns, llm_calls, prompt_tokens, completion_tokens, cost) "
                "VALUES (?, ?, 1, ?, ?, ?, ?) ON CONFLICT(user, day) DO UPDATE SET turns = turns + 1, "
                "llm_calls = llm_calls + excluded.llm_calls, prompt_tokens = prompt_tokens + excluded.prompt_tokens, "
                "completion_tokens = completion_tokens + excluded.completion_tokens, cost = cost + excluded.cost",
                (_check_user(user), self._day(), llm_calls, prompt_tokens, completion_tokens, cost),
            )

    def usage(self, user: str | None = None, days: int = 30) -> builtins.list[dict[str, Any]]:
        """Per user and day, the newest first: turns, model calls, tokens, cost (the last ``days`` days)."""
        since = time.strftime("%Y-%m-%d", time.gmtime(self._now() - days * _DAY_S))
        where, params = ("day > ?", [since]) if user is None else ("user = ? AND day > ?", [_check_user(user), since])
        rows = self._db.rows(
            "SELECT user, day, turns, llm_calls, prompt_tokens, completion_tokens, cost FROM model_usage "
            f"WHERE {where} ORDER BY day DESC, user",
            params,
        )
        keys = ("user", "day", "turns", "llm_calls", "prompt_tokens", "completion_tokens", "cost")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def _day(self) -> str:
        return time.strftime("%Y-%m-%d", time.gmtime(self._now()))

    # --- purging -------------------------------------------------------------------------------
    def purge(
        self, user: str | None = None, session_id: str | None = None, older_than_days: float | None = None
    ) -> int:
        """Delete sessions with their messages: one (``user`` and ``session_id``), a user's, those unused
        for ``older_than_days``, or, with no argument, every one. Returns how many it deleted (expired
        sessions go too, counted when they match)."""
        conditions: builtins.list[str] = []
        params: builtins.list[Any] = []
        if user is not None:
            conditions.append("user = ?")
            params.append(_check_user(user))
        if session_id is not None:
            if user is None:
                raise ValidationError("Name the session's user to purge one session: ids are per user.")
            conditions.append("session_id = ?")
            params.append(check_session_id(session_id))
        now = self._now()
        if older_than_days is not None:
            if not (math.isfinite(older_than_days) and older_than_days >= 0):
                raise ValidationError(f"--older-than must be 0 or more days, not {older_than_days}.")
            conditions.append("updated_at <= ?")
            params.append(now - older_than_days * _DAY_S)
        where = " AND ".join(conditions) or "1"
        with self._db.transaction():
            self._db.execute(f"DELETE FROM sessions WHERE {where}", params)
            deleted = self._db.changes()
            self._sweep(now)
        self._checkpoint()
        return deleted

    def purge_expired(self) -> int:
        """Delete every expired session now (``open`` does it too, as it goes)."""
        with self._db.transaction():
            deleted = self._sweep(self._now())
        if deleted:
            self._checkpoint()
        return deleted

    def close(self) -> None:
        self._db.close()

    # --- inside ----------------------------------------------------------------------------
    @property
    def _ttl_s(self) -> float:
        return self.ttl_days * _DAY_S

    def _now(self) -> float:
        return float(self._clock())

    def _require(self, user: str, session_id: str, now: float) -> tuple[Any, ...]:
        row = self._db.one(
            f"SELECT {_COLUMNS} FROM sessions WHERE user = ? AND session_id = ? AND updated_at > ?",
            (user, session_id, now - self._ttl_s),
        )
        if row is None:
            raise NotFoundError(
                f"No session with this id: it was never opened by this user, was purged, or expired after "
                f"{self.ttl_days:g} days without use. Leave the id out to start a new session."
            )
        return row

    def _session(self, user: str, session_id: str, now: float) -> Session:
        sid, owner, created, updated, patient_id, context, preferences = self._require(user, session_id, now)
        return Session(
            session_id=sid,
            user=owner,
            created_at=_time(created),
            updated_at=_time(updated),
            expires_at=_time(updated + self._ttl_s),
            patient_id=patient_id,
            context=json.loads(context),
            preferences=Preferences.model_validate(json.loads(preferences)),
            messages=self._messages(user, session_id, self.max_messages),
        )

    def _messages(self, user: str, session_id: str, n: int) -> builtins.list[Message]:
        rows = self._db.rows(
            "SELECT role, text, at, payload FROM messages WHERE user = ? AND session_id = ? ORDER BY id DESC LIMIT ?",
            (user, session_id, n),
        )
        return [
            Message(role=role, text=text, at=_time(at), payload=None if payload is None else json.loads(payload))
            for role, text, at, payload in reversed(rows)
        ]

    def _touch(self, user: str, session_id: str, now: float) -> None:
        self._db.execute(
            "UPDATE sessions SET updated_at = ? WHERE user = ? AND session_id = ?", (now, user, session_id)
        )

    def _sweep(self, now: float) -> int:
        self._db.execute("DELETE FROM sessions WHERE updated_at <= ?", (now - self._ttl_s,))
        return self._db.changes()

    def _checkpoint(self) -> None:
        # the WAL still holds the deleted rows' old pages until a checkpoint copies and truncates it
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _check_user(user: object) -> str:
    if not isinstance(user, str) or not user.strip():
        raise ValidationError("A session needs the caller's user name (a non-empty string).")
    return user


def _json(what: str, value: Any, limit: int) -> str:
    """``value`` as stored JSON; ValidationError when it is not JSON or too large (the value is never quoted: PHI)."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"{what} must be plain JSON (objects, lists, strings, numbers, booleans, null).") from exc
    size = len(text.encode())
    if size > limit:
        raise ValidationError(f"{what} is {size:,} bytes as JSON; a session keeps at most {limit:,}.")
    return text


def _preference_problems(exc: PydanticValidationError) -> str:
    problems = []
    for error in exc.errors():
        name = ".".join(str(part) for part in error["loc"]) or "preferences"
        if error["type"] == "extra_forbidden":
            problems.append(f"{name!r} is not a preference (use citation_style, answer_length or specialty)")
        elif error["type"] == "literal_error":
            problems.append(f"{name} must be {error['ctx']['expected']}")
        else:
            problems.append(f"{name}: {error['msg']}")
    return "Preferences refused: " + "; ".join(problems) + "."


def _time(epoch_s: float) -> datetime:
    return datetime.fromtimestamp(epoch_s, UTC)


def _owner_only(path: Path) -> None:
    """A file made by an older version or by hand may be readable by others: it holds PHI, so tighten it."""
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        os.chmod(path, mode & 0o700)
