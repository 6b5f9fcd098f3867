"""`curbside sessions list|show|purge` through click's runner, on a real CURBSIDE_HOME in tmp_path: what
they print, their exit codes, and the audit rows `show` and `purge` leave (a digest of the id, no text)."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from curbside.cli import cli
from curbside.cli._common import CurbsideGroup
from curbside.cli.sessions import sessions_group
from curbside.sessions import SessionStore


@click.group(cls=CurbsideGroup)
def root() -> None:
    """The group as `curbside` registers it (its errors become codes and exit codes)."""


root.add_command(sessions_group)


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(root, list(args), input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def audit_rows() -> list[dict[str, Any]]:
    result = CliRunner().invoke(cli, ["audit", "export", "--since", "2000-01-01"])
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.fixture
def sessions(home: Path) -> dict[str, str]:
    """Two sessions of the operator (one with a patient and messages) and one of another user."""
    with SessionStore(home / "sessions.db") as store:
        case = store.open("operator", "case-1").session_id
        store.set_patient("operator", case, "p-123")
        store.set_context("operator", case, condition="hyperkalaemia")
        store.set_preferences("operator", case, citation_style="apa")
        store.append("operator", case, "user", "Latest potassium for Mrs Example?")
        store.append("operator", case, "assistant", "5.8 mmol/L on 2025-06-14 [1].", {"citations": [1]})
        empty = store.open("operator").session_id
        other = store.open("dr.patel", "case-1").session_id
    return {"case": case, "empty": empty, "other": other}


def test_list_shows_the_operators_sessions_without_clinical_content(sessions: dict[str, str], home: Path) -> None:
    code, out, _ = run("sessions", "list")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2 and {line.split()[0] for line in lines} == {"case-1", sessions["empty"]}
    case_line = next(line for line in lines if line.startswith("case-1"))
    assert "2 messages" in case_line and "patient set" in case_line and "p-123" not in out

    code, out, _ = run("sessions", "list", "--user", "dr.patel", "--json")
    assert code == 0
    (info,) = json.loads(out)
    assert info["session_id"] == "case-1" and info["messages"] == 0 and info["has_patient"] is False

    assert run("sessions", "list", "--user", "nobody") == (0, "No live sessions for nobody.\n", "")
    assert stat.S_IMODE((home / "sessions.db").stat().st_mode) == 0o600
    assert not any(r["action"].startswith("session.") for r in audit_rows())  # listing is not audited


def test_show_prints_the_session_and_is_audited_by_digest(sessions: dict[str, str]) -> None:
    code, out, _ = run("sessions", "show", "case-1")
    assert code == 0
    assert "Session case-1 of operator" in out
    assert "preferences: citations apa, answers normal, specialty -" in out
    assert "patient: p-123" in out and 'clinical context: {"condition": "hyperkalaemia"}' in out
    assert "user:\nLatest potassium for Mrs Example?" in out and "assistant:\n5.8 mmol/L" in out

    code, out, _ = run("sessions", "show", "case-1", "--json")
    shown = json.loads(out)
    assert [m["role"] for m in shown["messages"]] == ["user", "assistant"]
    assert shown["messages"][1]["payload"] == {"citations": [1]}

    rows = [r for r in audit_rows() if r["action"] == "session.show"]
    assert len(rows) == 2 and all(r["outcome"] == "ok" and r["details"]["messages"] == 2 for r in rows)
    assert rows[0]["session"].startswith("s_") and "case-1" not in json.dumps(rows)
    assert "potassium" not in json.dumps(rows).lower()


def test_show_of_another_users_or_unknown_session_is_not_found(sessions: dict[str, str]) -> None:
    code, _, err = run("sessions", "show", sessions["empty"], "--user", "dr.patel")
    assert code == 2 and err.startswith("Error [NOT_FOUND]: No session with this id")
    code, out, _ = run("sessions", "show", "bad id!", "--json")
    assert code == 2 and json.loads(out)["error"]["code"] == "VALIDATION_ERROR"
    # an id that breaks the rule is refused before anything is read, as the API refuses its header
    assert [r["outcome"] for r in audit_rows() if r["action"] == "session.show"] == ["NOT_FOUND"]


def test_purge_one_older_than_and_all(sessions: dict[str, str], home: Path) -> None:
    assert run("sessions", "purge", "case-1") == (0, "Purged 1 session.\n", "")
    code, _, err = run("sessions", "purge", "case-1")
    assert code == 2 and "NOT_FOUND" in err and "nothing was purged" in err
    with SessionStore(home / "sessions.db") as store:  # the other user's session of the same id stays
        assert [s.session_id for s in store.list("dr.patel")] == ["case-1"]

    code, out, _ = run("sessions", "purge", "--older-than", "1", "--json")
    assert code == 0 and json.loads(out) == {"deleted": 0}  # all were used just now

    code, out, _ = run("sessions", "purge", "--all", input="n\n")
    assert code == 1 and "Delete every session of every user?" in out  # declined: nothing deleted
    assert run("sessions", "purge", "--all", "--user", "dr.patel", "--yes") == (0, "Purged 1 session.\n", "")
    assert run("sessions", "purge", "--all", input="y\n")[1].endswith("Purged 1 session.\n")

    rows = [r for r in audit_rows() if r["action"] == "session.purge"]
    assert [(r["details"]["scope"], r["outcome"], r["details"].get("deleted")) for r in rows] == [
        ("one", "ok", 1),
        ("one", "NOT_FOUND", 0),
        ("older_than", "ok", 0),
        ("all", "ok", 1),
        ("all", "ok", 1),
    ]
    assert rows[3]["details"]["user"] == "dr.patel" and "user" not in rows[4]["details"]


@pytest.mark.parametrize(
    "args", [(), ("case-1", "--all"), ("--all", "--older-than", "3"), ("case-1", "--older-than", "0")]
)
def test_purge_needs_exactly_one_choice(sessions: dict[str, str], args: tuple[str, ...]) -> None:
    code, _, err = run("sessions", "purge", *args)
    assert code == 2 and "Give exactly one of ID, --all or --older-than DAYS." in err


def test_purge_refuses_a_negative_age(home: Path) -> None:
    code, _, err = run("sessions", "purge", "--older-than", "-2")
    assert code == 2 and "-2" in err
