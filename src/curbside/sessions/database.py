"""The sessions file: the store layer's ``Database`` (one connection per thread, WAL, the busy wait,
a file created 0600) over its own schema, kept apart from ``curbside.sqlite3``.

Apart because conversations are PHI with a short life: the whole file can be purged, copied or
wiped without touching the knowledge base or the audit trail.
"""

from __future__ import annotations

import apsw

from curbside.store.database import Database
from curbside.store.migrations import Migration

__all__ = ["SESSION_MIGRATIONS", "SessionDatabase"]

_INITIAL = """
CREATE TABLE schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
);

-- a session id names a session within its user: another user's id is another session (or none)
CREATE TABLE sessions (
    user        TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    created_at  REAL NOT NULL,            -- seconds since the epoch, by the store's clock
    updated_at  REAL NOT NULL,            -- the last write: the TTL runs from here
    patient_id  TEXT,
    context     TEXT NOT NULL DEFAULT '{}',
    preferences TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (user, session_id)
) WITHOUT ROWID;
CREATE INDEX sessions_updated ON sessions(updated_at);

CREATE TABLE messages (
    id         INTEGER PRIMARY KEY,       -- the order of the conversation (two messages may share a time)
    user       TEXT NOT NULL,
    session_id TEXT NOT NULL,
    role       TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    text       TEXT NOT NULL,
    payload    TEXT,
    at         REAL NOT NULL,
    FOREIGN KEY (user, session_id) REFERENCES sessions(user, session_id) ON DELETE CASCADE
);
CREATE INDEX messages_session ON messages(user, session_id, id);
"""

# what each user's turns spent on models, per UTC day: counts, not content (the daily cost limit reads it)
_USAGE = """
CREATE TABLE model_usage (
    user              TEXT NOT NULL,
    day               TEXT NOT NULL,      -- YYYY-MM-DD, UTC
    turns             INTEGER NOT NULL DEFAULT 0,
    llm_calls         INTEGER NOT NULL DEFAULT 0,
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    cost              REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (user, day)
) WITHOUT ROWID;
"""

SESSION_MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "sessions", _INITIAL),
    Migration(2, "model usage", _USAGE),
)


class SessionDatabase(Database):
    """``Database`` with the sessions schema, and deletes that overwrite what they delete."""

    migrations = SESSION_MIGRATIONS

    def _connect(self) -> apsw.Connection:
        conn = super()._connect()
        # a purged conversation must not linger in free pages of the file: zero them on delete
        conn.execute("PRAGMA secure_delete = ON")
        return conn
