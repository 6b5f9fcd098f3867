from __future__ import annotations

import pytest

from curbside.errors import ConfigError
from curbside.store.database import Database
from curbside.store.migrations import MIGRATIONS


def test_migrations_apply_once_and_record_versions(tmp_path) -> None:
    path = tmp_path / "db.sqlite3"
    db = Database(path)
    assert db.schema_version() == MIGRATIONS[-1].version
    for table in ("documents", "document_versions", "chunks", "chunks_fts", "jobs", "index_meta"):
        assert db.table_exists(table)
    db.close()
    reopened = Database(path)
    assert reopened.migrate() == []  # nothing pending on reopen
    assert reopened.scalar("SELECT COUNT(*) FROM schema_migrations") == len(MIGRATIONS)


def test_sqlite_vec_and_fts5_are_available(tmp_path) -> None:
    db = Database(tmp_path / "db.sqlite3")
    assert db.scalar("SELECT vec_version()").startswith("v")
    assert db.scalar("PRAGMA journal_mode") == "wal"


def test_meta_round_trip_and_transaction_rollback(tmp_path) -> None:
    db = Database(tmp_path / "db.sqlite3")
    db.set_meta("k", "1")
    db.set_meta("k", "2")
    assert db.get_meta("k") == "2"
    with pytest.raises(ZeroDivisionError), db.transaction():
        db.set_meta("k", "3")
        _ = 1 / 0
    assert db.get_meta("k") == "2"


def test_unopenable_path_is_a_config_error(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises((ConfigError, OSError)):
        Database(blocker / "sub" / "db.sqlite3")


def test_dicts_names_columns_and_handles_no_rows(tmp_path) -> None:
    db = Database(tmp_path / "d.sqlite3")
    assert db.dicts("SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y'") == [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]
    assert db.dicts("SELECT 1 AS a WHERE 0") == []
    db.close()


def test_threads_share_one_database_without_threading_violations(tmp_path) -> None:
    """Twenty threads reading at once: one shared apsw connection raised ThreadingViolationError here."""
    import threading

    db = Database(tmp_path / "threads.sqlite3")
    db.execute("CREATE TABLE numbers(x INTEGER)")
    with db.transaction():
        db.executemany("INSERT INTO numbers VALUES (?)", [(i,) for i in range(20_000)])
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(30):
                assert len(db.rows("SELECT x FROM numbers WHERE x % 7 = 0")) == 2858
                assert len(db.dicts("SELECT x, x * 2 AS y FROM numbers LIMIT 500")) == 500
                with db.transaction():
                    db.set_meta(f"k{threading.get_ident()}", "v")
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert db.connections() <= 21  # one per thread that used it, the finished ones closed as new ones open
    db.close()


def test_a_connection_per_thread_and_closed_ones_stay_closed(tmp_path) -> None:
    import threading

    from curbside.errors import ConfigError

    db = Database(tmp_path / "per-thread.sqlite3")
    seen: list[object] = []
    thread = threading.Thread(target=lambda: seen.append(db.conn))
    thread.start()
    thread.join()
    assert seen[0] is not db.conn  # another thread, another connection
    db.close()
    with pytest.raises(ConfigError, match="closed"):
        db.scalar("SELECT 1")


def test_a_new_database_file_is_owner_only(tmp_path) -> None:
    db = Database(tmp_path / "private.sqlite3")
    db.set_meta("k", "v")
    for name in ("private.sqlite3", "private.sqlite3-wal"):
        path = tmp_path / name
        assert path.stat().st_mode & 0o777 == 0o600, (name, oct(path.stat().st_mode))
    db.close()
