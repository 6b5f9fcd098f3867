"""`curbside audit verify | export | acknowledge` as an operator runs them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from audit_helpers import entry, fake_redact, hand_edit
from click.testing import CliRunner

from curbside.audit import AuditTrail
from curbside.cli import cli
from curbside.settings import Settings


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def trail(home: Path) -> Iterator[AuditTrail]:
    """Three rows in the CLI's home (CURBSIDE_HOME is set by the `home` fixture)."""
    opened = AuditTrail.from_settings(Settings(home=home), redact=fake_redact)
    for n in range(1, 4):
        opened.append(entry(n, question=f"John Smith question {n}"))
    yield opened
    opened.close()


def test_verify_ok(trail: AuditTrail) -> None:
    code, out, _ = run("audit", "verify")
    assert code == 0 and out.startswith("OK: 3 rows") and "key fingerprint" in out
    code, out, _ = run("audit", "verify", "--json")
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["rows"] == 4  # the first verify recorded itself


def test_verify_names_the_first_bad_row_and_exits_6(trail: AuditTrail) -> None:
    hand_edit(trail, "UPDATE audit_log SET outcome = 'no_source' WHERE seq = 2")
    code, out, err = run("audit", "verify")
    assert code == 6 and out == ""
    assert "Error [AUDIT_INTEGRITY]: The audit trail fails verification at row 2: Row 2 fails its MAC" in err
    code, out, _ = run("audit", "verify", "--json")
    report = json.loads(out)
    assert code == 6 and report["ok"] is False and report["first_bad_row"] == 2


def test_export_writes_jsonl_filtered_by_time(trail: AuditTrail, tmp_path: Path) -> None:
    target = tmp_path / "out" / "audit.jsonl"
    target.parent.mkdir()
    code, _, err = run("audit", "export", "--since", "2000-01-01", "-o", str(target))
    assert code == 0 and "Exported 3 rows" in err
    rows = [json.loads(line) for line in target.read_text().splitlines()]
    assert [r["seq"] for r in rows] == [1, 2, 3] and rows[0]["question"] == "[PERSON] question 1"
    assert set(rows[0]) >= {"seq", "at", "action", "user", "role", "question", "outcome", "prev_mac", "mac"}
    assert target.stat().st_mode & 0o777 == 0o600
    code, out, _ = run("audit", "export", "--since", rows[1]["at"], "--until", rows[2]["at"])
    assert code == 0 and [json.loads(line)["seq"] for line in out.splitlines()] == [2]
    code, out, _ = run("audit", "export", "--since", "2999-01-01T00:00:00Z")
    assert code == 0 and out == ""


def test_export_of_a_tampered_trail_still_writes_and_exits_6(trail: AuditTrail) -> None:
    hand_edit(trail, "DELETE FROM audit_log WHERE seq = 3")
    code, out, err = run("audit", "export", "--since", "2000-01-01")
    assert code == 6 and len(out.splitlines()) == 2
    assert "warning: the trail fails verification at row 3" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--since", "last tuesday"], "since 'last tuesday' is not an ISO 8601 time"),
        (["--since", "2025-13-01"], "is not an ISO 8601 time"),
        (["--since", "2025-03-02", "--until", "2025-03-01"], "must be later than since"),
        ([], "Missing option '--since'"),
    ],
)
def test_malformed_export_arguments_exit_2(trail: AuditTrail, args: list[str], message: str) -> None:
    code, out, err = run("audit", "export", *args)
    assert code == 2 and message in err and out == ""


def test_export_to_an_unwritable_path_is_a_usage_error(trail: AuditTrail, tmp_path: Path) -> None:
    code, _, err = run("audit", "export", "--since", "2000-01-01", "-o", str(tmp_path / "no" / "such" / "dir.jsonl"))
    assert code == 2 and "cannot write" in err


def test_acknowledge_resumes_a_truncated_trail(trail: AuditTrail, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("curbside.redaction.phi_redactor", lambda settings, detector=None: fake_redact)  # the reason is screened too
    hand_edit(trail, "DELETE FROM audit_log WHERE seq = 3")
    trail.close()
    assert run("audit", "verify")[0] == 6
    code, out, _ = run("audit", "acknowledge", "--reason", "restored from backup after disk failure")
    assert code == 0 and "Row 3 records the acknowledgement" in out and "row 3 is gone" in out
    code, out, err = run("audit", "verify")
    assert code == 0 and out.startswith("OK:") and "Row 3 acknowledges a problem" in err


def test_a_missing_key_is_a_config_error(trail: AuditTrail) -> None:
    trail.close()
    trail.key_path.unlink()
    code, _, err = run("audit", "verify")
    assert code == 4 and "Error [CONFIG_ERROR]: The audit key file" in err and "Restore the key" in err


def test_a_world_readable_key_is_a_config_error(trail: AuditTrail) -> None:
    trail.key_path.chmod(0o644)
    code, _, err = run("audit", "export", "--since", "2000-01-01")
    assert code == 4 and "chmod 600" in err
