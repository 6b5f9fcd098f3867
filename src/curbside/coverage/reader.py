"""Read a coverage source's tables from worker threads: one read-only connection per thread.

Each tool's SQL path runs on a worker thread next to the search engine, which
uses the application's own connection, so the sources read through
``ThreadReader``: every thread opens its own read-only apsw connection to the
Curbside database file and keeps it. ``interrupt()`` is the one call another
thread makes on a connection (SQLite allows it): ``Cancel`` uses it to stop a
query that ran past its path's timeout. Writes never come through here; they
go through the application's ``Database`` (its lock and transaction).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import apsw

from curbside.errors import NotLoadedError

__all__ = ["Cancel", "PassageRow", "ThreadReader"]


# chunk_id, doc_key, title, section_path, text, version: a stored passage, as the SQL path cites it
PassageRow = tuple[str, str, str, str, str, int]


class ThreadReader:
    """Read-only per-thread connections and snapshots; each source's reader adds its queries."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        self._lock = threading.Lock()
        self._open: list[apsw.Connection] = []

    def connection(self) -> apsw.Connection:
        conn: apsw.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = apsw.Connection(str(self.path))
            conn.set_busy_timeout(2_000)
            conn.execute("PRAGMA query_only = ON")
            self._local.conn = conn
            with self._lock:
                self._open.append(conn)
        return conn

    def close(self) -> None:
        """Close every connection (call when no query is running)."""
        with self._lock:
            conns, self._open = self._open, []
        for conn in conns:
            conn.close()

    @contextmanager
    def snapshot(self) -> Iterator[apsw.Connection]:
        """One read transaction: every query inside sees the same edition, even while a load commits."""
        conn = self.connection()
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            if not conn.getautocommit():
                conn.execute("COMMIT")

    def current_rows(self, table: str, columns: str, not_loaded: str) -> list[tuple[Any, ...]]:
        """The rows of the loaded edition in an editions table; ``NotLoadedError(not_loaded)`` when there are none."""
        rows = list(self.connection().execute(f"SELECT {columns} FROM {table} WHERE status = 'current'"))
        if not rows:
            raise NotLoadedError(not_loaded)
        return rows

    def has_current(self, table: str) -> bool:
        """Whether an editions table holds a loaded (current) edition."""
        found = self.connection().execute(f"SELECT 1 FROM {table} WHERE status = 'current' LIMIT 1").fetchone()
        return found is not None

    def passages_containing(self, namespace: str, needle: str, limit: int) -> list[PassageRow]:
        """Current passages of ``namespace`` whose text contains ``needle``, in stored order."""
        rows = self.connection().execute(
            "SELECT c.chunk_id, d.doc_key, v.title, c.section_path, c.text, v.version FROM chunks c "
            "JOIN documents d ON d.current_version_id = c.version_id JOIN document_versions v ON v.id = c.version_id "
            "WHERE d.namespace = ? AND instr(c.text, ?) > 0 ORDER BY c.id LIMIT ?",
            (namespace, needle, limit),
        )
        return list(rows)


class Cancel:
    """Lets the waiting coroutine stop the query its worker thread is running."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conn: apsw.Connection | None = None
        self.cancelled = False

    def attach(self, conn: apsw.Connection) -> None:
        with self._lock:
            self._conn = conn
            if self.cancelled:
                conn.interrupt()

    def interrupt(self) -> None:
        with self._lock:
            self.cancelled = True
            if self._conn is not None:
                self._conn.interrupt()
