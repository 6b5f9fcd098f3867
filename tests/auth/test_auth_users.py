"""API users: keys stored hashed, roles checked, revocation, hand-made rows refused, and the `users` CLI."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import apsw
import pytest
from click.testing import CliRunner

from curbside.app import Curbside
from curbside.auth import UserStore
from curbside.cli import cli
from curbside.errors import NotFoundError, StateError, UnauthenticatedError, ValidationError
from curbside.settings import Settings


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Curbside]:
    core = Curbside(Settings(home=tmp_path / "home"))
    yield core
    core.close()


def test_a_key_is_shown_once_and_only_its_hash_is_stored(app: Curbside) -> None:
    new = app.users.add("dr-a", "clinician")
    assert new.key.startswith("cs_") and len(new.key) == 46
    stored = app.db.rows("SELECT name, role, key_prefix, key_sha256 FROM api_users")
    assert stored == [("dr-a", "clinician", new.key[:11], hashlib.sha256(new.key.encode()).hexdigest())]
    assert new.key not in json.dumps([list(r) for r in app.db.rows("SELECT * FROM api_users")])
    user = app.users.authenticate(new.key)
    assert (user.name, user.role, user.intact) == ("dr-a", "clinician", True)


def test_keys_are_unique_per_user_and_the_wrong_key_is_refused(app: Curbside) -> None:
    a, b = app.users.add("dr-a", "clinician"), app.users.add("dr-b", "admin")
    assert a.key != b.key and app.users.authenticate(b.key).role == "admin"
    almost = a.key[:-1] + ("A" if a.key[-1] != "A" else "B")
    with pytest.raises(UnauthenticatedError, match="not valid"):
        app.users.authenticate(almost)


@pytest.mark.parametrize("role", ["doctor", "Operator", "", "root"])
def test_unknown_roles_are_refused(app: Curbside, role: str) -> None:
    with pytest.raises(ValidationError, match="Unknown role"):
        app.users.add("dr-a", role)


@pytest.mark.parametrize("name", ["", "has space", "-leading-dash", "x" * 65, "operator", "OPERATOR", "a/b"])
def test_bad_names_are_refused(app: Curbside, name: str) -> None:
    with pytest.raises(ValidationError):
        app.users.add(name, "clinician")


def test_a_name_holds_one_active_key_and_can_be_reissued_after_revocation(app: Curbside) -> None:
    first = app.users.add("dr-a", "clinician")
    with pytest.raises(StateError, match="already has an active key"):
        app.users.add("dr-a", "admin")
    app.users.revoke("dr-a")
    with pytest.raises(UnauthenticatedError):
        app.users.authenticate(first.key)
    second = app.users.add("dr-a", "admin")
    assert app.users.authenticate(second.key).role == "admin"
    assert [(u.name, u.revoked_at is None) for u in app.users.list(include_revoked=True)] == [
        ("dr-a", False),
        ("dr-a", True),
    ]
    with pytest.raises(NotFoundError):
        app.users.revoke("nobody")


def test_a_role_raised_by_hand_in_the_database_is_refused(app: Curbside) -> None:
    new = app.users.add("dr-a", "clinician")
    conn = apsw.Connection(str(app.settings.db_path))
    conn.execute("UPDATE api_users SET role = 'admin' WHERE name = 'dr-a'")
    conn.close()
    with pytest.raises(UnauthenticatedError):
        app.users.authenticate(new.key)
    assert [u.intact for u in app.users.list()] == [False]


def test_a_user_typed_into_the_database_is_refused(app: Curbside) -> None:
    app.users.add("dr-a", "clinician")  # a real row, so the table and key exist
    key = "cs_" + "Q" * 43
    conn = apsw.Connection(str(app.settings.db_path))
    conn.execute(
        "INSERT INTO api_users (name, role, key_prefix, key_sha256, created_at, mac) VALUES (?, ?, ?, ?, ?, ?)",
        ("mallory", "admin", key[:11], hashlib.sha256(key.encode()).hexdigest(), "2025-01-01", "0" * 64),
    )
    conn.close()
    with pytest.raises(UnauthenticatedError):
        app.users.authenticate(key)


def test_an_unrevoked_row_restored_by_hand_is_refused(app: Curbside) -> None:
    new = app.users.add("dr-a", "clinician")
    app.users.revoke("dr-a")
    conn = apsw.Connection(str(app.settings.db_path))
    conn.execute("UPDATE api_users SET revoked_at = NULL")
    conn.close()
    with pytest.raises(UnauthenticatedError):
        app.users.authenticate(new.key)


def test_a_revoked_user_restored_with_its_old_genuine_row_is_refused(app: Curbside) -> None:
    """The old row and its MAC were genuine once; the anchor shows the table has gone back in time."""
    new = app.users.add("dr-a", "clinician")
    keeper = app.users.add("dr-b", "clinician")
    conn = apsw.Connection(str(app.settings.db_path))
    old_row = conn.execute("SELECT revoked_at, mac FROM api_users WHERE name = 'dr-a'").fetchone()
    app.users.revoke("dr-a")
    conn.execute("UPDATE api_users SET revoked_at = ?, mac = ? WHERE name = 'dr-a'", old_row)
    conn.close()
    assert app.users.list(include_revoked=True)[0].intact  # the row's own MAC holds...
    with pytest.raises(UnauthenticatedError):  # ...but the table is not the one the anchor vouches for
        app.users.authenticate(new.key)
    with pytest.raises(UnauthenticatedError):  # and nobody gets in until an administrator looks
        app.users.authenticate(keeper.key)
    app.users.reanchor()  # `curbside users anchor`, after checking the table (here: accepting the restore)
    assert app.users.authenticate(keeper.key).name == "dr-b"


def test_the_anchor_follows_every_change_and_refuses_a_deleted_anchor(app: Curbside) -> None:
    first = app.users.add("dr-a", "clinician")
    app.users.add("dr-b", "admin")
    app.users.revoke("dr-b")
    assert app.users.authenticate(first.key).name == "dr-a"
    anchor = app.settings.home / "users.anchor"
    assert anchor.stat().st_mode & 0o777 == 0o600
    anchor.unlink()
    with pytest.raises(UnauthenticatedError):
        app.users.authenticate(first.key)


def test_users_signed_with_another_key_are_refused(app: Curbside, tmp_path: Path) -> None:
    new = app.users.add("dr-a", "clinician")
    other = UserStore(app.db, key=b"k" * 32)
    with pytest.raises(UnauthenticatedError):
        other.authenticate(new.key)


# --- the CLI ------------------------------------------------------------------------------------------
def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_cli_add_list_remove(home: Path) -> None:
    code, out, err = run("users", "add", "dr-a", "--role", "clinician")
    assert code == 0 and "shown only this once" in err
    key = out.strip()
    assert key.startswith("cs_") and len(key) == 46
    code, out, _ = run("users", "add", "aud", "--role", "AUDITOR", "--json")
    assert code == 0 and json.loads(out)["role"] == "auditor" and json.loads(out)["key"].startswith("cs_")
    code, out, _ = run("users", "list")
    assert code == 0 and "dr-a" in out and "clinician" in out and key[:11] in out and key not in out
    code, out, _ = run("users", "list", "--json")
    assert [(u["name"], u["role"], u["intact"]) for u in json.loads(out)] == [
        ("aud", "auditor", True),
        ("dr-a", "clinician", True),
    ]
    code, out, _ = run("users", "remove", "dr-a")
    assert code == 0 and "Revoked the key of dr-a" in out
    code, out, _ = run("users", "revoke", "aud")
    assert code == 0
    assert json.loads(run("users", "list", "--json")[1]) == []
    assert len(json.loads(run("users", "list", "--all", "--json")[1])) == 2
    core = Curbside(Settings(home=home))
    try:
        actions = [(r["action"], r["user"], r["role"], r["channel"]) for r in core.audit.export(datetime(2000, 1, 1))]
        assert actions == [
            ("user.add", "operator", "operator", "cli"),
            ("user.add", "operator", "operator", "cli"),
            ("user.revoke", "operator", "operator", "cli"),
            ("user.revoke", "operator", "operator", "cli"),
        ]
        assert core.audit.verify().ok
    finally:
        core.close()


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["users", "add", "dr-a", "--role", "boss"], 2, "'boss' is not one of 'clinician', 'admin', 'auditor'"),
        (["users", "add", "dr-a"], 2, "Missing option '--role'"),
        (["users", "add", "bad name", "--role", "admin"], 2, "User name 'bad name' is not allowed"),
        (["users", "remove", "nobody"], 2, "No active user named 'nobody'"),
    ],
)
def test_cli_bad_input(home: Path, args: list[str], code: int, message: str) -> None:
    exit_code, _, err = run(*args)
    assert exit_code == code and message in err


def test_cli_refuses_to_add_when_the_key_file_is_unsafe(home: Path) -> None:
    assert run("users", "add", "dr-a", "--role", "clinician")[0] == 0
    (home / "audit.key").chmod(0o644)
    code, out, err = run("users", "add", "dr-b", "--role", "clinician")
    assert code == 4 and "CONFIG_ERROR" in err and "chmod 600" in err and out == ""
