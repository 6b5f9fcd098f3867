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
