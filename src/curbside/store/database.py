"""The embedded store: one SQLite file (through apsw, which ships SQLite with
FTS5 and can load the sqlite-vec extension — the stdlib ``sqlite3`` of pyenv
builds cannot), with schema migrations and a small key/value table.

Every thread gets its own connection to the file. apsw refuses (it raises
``ThreadingViolationError``) when two threads use one connection at once, and a
server answers requests on many threads. WAL mode lets those readers run beside
one writer and see only committed states, so a document's new version appears
to every reader at once, when its transaction commits.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import apsw
import sqlite_vec

from curbside.errors import ConfigError
from curbside.store.migrations import MIGRATIONS, Migration

__all__ = ["Database"]

# a writer waits this long for another connection's write transaction before SQLITE_BUSY
DEFAULT_BUSY_TIMEOUT_MS = 30_000


class _BusyWait:
    """Wait for another connection's write lock in short, jittered sleeps, up to ``limit_s``.

    SQLite's own busy timeout sleeps in whole seconds in this build (no usleep): twenty threads
    writing at once took minutes and some gave up. A sleep here releases the GIL as well.
    """

    def __init__(self, limit_s: float) -> None:
        self.limit_s = limit_s
        self._started = threading.local()

    def __call__(self, prior_calls: int) -> bool:
        now = time.monotonic()
        if prior_calls == 0:
            self._started.at = now
        if now - getattr(self._started, "at", now) >= self.limit_s:
            return False  # SQLITE_BUSY: 'database is locked'
        time.sleep(min(0.0005 * 2 ** min(prior_calls, 6), 0.025) * (0.5 + random.random()))
        return True


class Database:
    """The Curbside SQLite file, with one connection per thread.

    ``transaction()`` nests (savepoints inside one outer transaction); the outer one begins
    IMMEDIATE, taking the write lock at once, so two writers queue on the busy timeout
    instead of one failing when it upgrades a read to a write.
    """

    migrations: tuple[Migration, ...] = MIGRATIONS  # the schema this file holds (a subclass names its own)

    def __init__(
        self, path: Path | str, *, mmap_bytes: int = 1 << 30, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS
    ) -> None:
        if str(path) == ":memory:":
            raise ConfigError("Curbside needs a database file (threads each open their own connection to it).")
        self.path = Path(path)
        self.mmap_bytes = mmap_bytes
        self.busy_timeout_ms = busy_timeout_ms
        self._local = threading.local()
        self._guard = threading.Lock()
        self._open: dict[int, tuple[threading.Thread, apsw.Connection]] = {}
        self._closed = False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():  # owner-only from the start; SQLite gives -wal and -shm the same mode
            try:
                os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
            except FileExistsError:  # another process created it first
                pass
            except OSError as exc:
                raise ConfigError(f"Cannot create the database {str(self.path)!r}: {exc.strerror}. Check CURBSIDE_HOME.") from exc
        _ = self.conn  # opens (and so checks) the file now, in the constructing thread
        self.migrate()

    # --- connections ---------------------------------------------------------------------
    @property
    def conn(self) -> apsw.Connection:
        """This thread's connection (opened on first use)."""
        conn: apsw.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
        return conn

    def _connect(self) -> apsw.Connection:
        if self._closed:
            raise ConfigError(f"The database {str(self.path)!r} is closed.")
        try:
            conn = apsw.Connection(str(self.path))
            conn.execute("PRAGMA schema_version")  # fail here, not at the first query
        except (apsw.CantOpenError, apsw.NotADBError) as exc:
            raise ConfigError(f"Cannot open the database {str(self.path)!r}: {exc}. Check CURBSIDE_HOME.") from exc
        conn.set_busy_handler(_BusyWait(self.busy_timeout_ms / 1000))
        conn.transaction_mode = "IMMEDIATE"
        conn.enable_load_extension(True)
        conn.load_extension(sqlite_vec.loadable_path())
        conn.enable_load_extension(False)
        # mmap lets sqlite-vec's brute-force scan read vector chunks without copying them
        # through the page cache: ~40 ms instead of ~70 ms per query at 100k x 384 here
        pragmas = ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "temp_store=MEMORY",
                   f"mmap_size={self.mmap_bytes}", "cache_size=-16384")
        for pragma in pragmas:
            conn.execute(f"PRAGMA {pragma}")
        with self._guard:
            self._close_dead_threads()
            self._open[threading.get_ident()] = (threading.current_thread(), conn)
        return conn

    def _close_dead_threads(self) -> None:
        """Close connections whose thread has ended (a thread pool may replace its workers)."""
        for ident, (thread, conn) in list(self._open.items()):
            if not thread.is_alive():
                del self._open[ident]
                conn.close()

    def connections(self) -> int:
        """How many connections are open (one per thread that used the database)."""
        with self._guard:
            return len(self._open)

    # --- queries -----------------------------------------------------------------------
    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> apsw.Cursor:
        return self.conn.execute(sql, params)

    def executemany(self, sql: str, rows: Any) -> None:
        self.conn.executemany(sql, rows)

    def one(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> tuple[Any, ...] | None:
        return self.conn.execute(sql, params).fetchone()

    def rows(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql, params).fetchall()

    def dicts(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[dict[str, Any]]:
        cursor = self.conn.execute(sql, params)
        try:
            names = [d[0] for d in cursor.get_description()]  # apsw: only while the statement is running
        except apsw.ExecutionCompleteError:  # no row at all
            return []
        return [dict(zip(names, row, strict=True)) for row in cursor]

    def scalar(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Any:
        row = self.one(sql, params)
        return None if row is None else row[0]

    def last_rowid(self) -> int:
        """The rowid of this thread's last INSERT."""
        return int(self.conn.last_insert_rowid())

    def changes(self) -> int:
        """Rows changed by this thread's last statement."""
        return int(self.conn.changes())

    @contextmanager
    def transaction(self) -> Iterator[Database]:
        """All writes inside commit together or not at all (nestable; this thread's connection)."""
        with self.conn:
            yield self

    @contextmanager
    def snapshot(self) -> Iterator[Database]:
        """Reads inside see one committed state, even while another connection commits."""
        conn = self.conn
        if not conn.getautocommit():  # already inside a transaction: that is the snapshot
            yield self
            return
        conn.execute("BEGIN DEFERRED")
        try:
            yield self
        finally:
            if not conn.getautocommit():
                conn.execute("COMMIT")

    def table_exists(self, name: str) -> bool:
        return self.scalar("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)) is not None

    # --- metadata ------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        return self.scalar("SELECT value FROM index_meta WHERE key = ?", (key,))

    def set_meta(self, key: str, value: str) -> None:
        self.execute(
            "INSERT INTO index_meta(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # --- migrations ----------------------------------------------------------------------
    def schema_version(self) -> int:
        if not self.table_exists("schema_migrations"):
            return 0
        return int(self.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))

    def migrate(self) -> list[int]:
        """Apply this file's pending migrations (``self.migrations``) in order, each in its own transaction."""
        applied: list[int] = []
        if self.schema_version() >= self.migrations[-1].version:
            return applied
        for migration in self.migrations:
            with self.transaction():  # IMMEDIATE: two processes starting together migrate one after the other
                if migration.version <= self.schema_version():
                    continue
                self.conn.execute(migration.sql)
                self.execute(
                    "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, datetime('now'))",
                    (migration.version, migration.name),
                )
            applied.append(migration.version)
        return applied

    def close(self) -> None:
        """Close every thread's connection; the object cannot be used afterwards."""
        with self._guard:
            self._closed = True
            opened, self._open = list(self._open.values()), {}
        for _, conn in opened:
            conn.close()
        self._local = threading.local()
