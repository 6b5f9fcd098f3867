"""Every CLI action that reads or changes clinical content is an audit row, written as the local operator;
with a trail that cannot record, the action exits 6 (AUDIT_INTEGRITY) and changes nothing.

Through the real command line (click's runner, CURBSIDE_HOME in tmp_path), real files and real SQLite.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import apsw
import pytest
from click.testing import CliRunner

from curbside.cli import cli

GUIDE = """# Atrial fibrillation

## Stroke prevention

Oral anticoagulation is recommended for most patients with atrial fibrillation and a raised stroke risk.
"""
EMPTY_PDF = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer <<>>\n%%EOF"  # a PDF with no pages: its job fails


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def rows() -> list[dict[str, Any]]:
    """The trail as `curbside audit export` writes it (also from a broken trail, which exports with exit 6)."""
    _, out, _ = run("audit", "export", "--since", "2000-01-01")
    return [json.loads(line) for line in out.splitlines()]


def status() -> dict[str, Any]:
    code, out, _ = run("status", "--json")
    assert code == 0, out
    data: dict[str, Any] = json.loads(out)
    return data


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "af.md").write_text(GUIDE, encoding="utf-8")
    (tmp_path / "broken.pdf").write_bytes(EMPTY_PDF)
    (tmp_path / "new.md").write_text(GUIDE.replace("Atrial fibrillation", "Flutter"), encoding="utf-8")
    return {p.stem: p for p in tmp_path.iterdir() if p.is_file()}


@pytest.fixture
def ingested(home: Path, files: dict[str, Path]) -> int:
    """af ingested and broken failed, in one run (one row); returns the failed job's id."""
    code, out, err = run("ingest", str(files["af"]), str(files["broken"]), "--json")
    assert code == 1, out + err  # broken.pdf failed
    (failed,) = [o for o in json.loads(out)["outcomes"] if o["status"] == "failed"]
    return int(failed["job_id"])


def _head_removed(home: Path) -> None:
    (home / "audit.head").unlink()


def _last_row_deleted(home: Path) -> None:
    conn = apsw.Connection(str(home / "curbside.sqlite3"))
    try:  # as someone with the file would: drop the append-only trigger, then delete
        conn.execute("DROP TRIGGER IF EXISTS audit_log_no_delete")
        conn.execute("DELETE FROM audit_log WHERE seq = (SELECT MAX(seq) FROM audit_log)")
    finally:
        conn.close()


BREAKS: dict[str, Callable[[Path], None]] = {"head file removed": _head_removed, "last row deleted": _last_row_deleted}


def test_each_action_is_one_row_as_the_operator(ingested: int, files: dict[str, Path]) -> None:
    assert run("search", "anticoagulation in atrial fibrillation", "-k", "2")[0] == 0
    assert run("jobs", "retry", str(ingested))[0] == 1  # the stored original is still broken
    assert run("reindex")[0] == 0
    code, out, _ = run("tool", "source.passages", "--args", '{"chunk_ids": ["af:v1:0"]}')
    assert code == 0, out
    assert run("remove", "af")[0] == 0
    assert run("remove", "af")[0] == 2  # gone already: refused, and recorded with its code
    assert run("jobs", "list")[0] == 0 and run("status")[0] == 0  # listings: not recorded
    found = rows()
    assert [(r["action"], r["outcome"]) for r in found] == [
        ("documents.ingest", "failed"),
        ("search", "ok"),
        ("jobs.retry", "PARSE_ERROR"),
        ("documents.reindex", "ok"),
        ("tool", "ok"),
        ("documents.remove", "ok"),
        ("documents.remove", "NOT_FOUND"),
    ]
    assert {(r["user"], r["role"]) for r in found} == {("operator", "operator")}
    assert {r["channel"] for r in found if r["action"] != "tool"} == {"cli"}
    ingest, search, retry, reindex, _, remove, _ = found
    assert sorted(ingest["sources"]) == ["af", "broken"]
    assert ingest["details"] == {
        "ingested": 1,
        "unchanged": 0,
        "skipped": 0,
        "failed": 1,
        "error_codes": ["PARSE_ERROR"],
    }
    assert search["question"] == "anticoagulation in atrial fibrillation" and search["sources"] == ["af:v1:0"]
    assert search["details"] == {"mode": "hybrid", "namespace": "kb", "hits": 1}
    assert retry["sources"] == ["broken"] and retry["details"]["job_id"] == ingested
    assert reindex["details"]["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert (reindex["details"]["reembedded"], reindex["details"]["chunks"]) == (1, 1)
    assert remove["sources"] == ["af"] and remove["details"] == {"removed_version": 1}


def test_an_ingest_run_with_options_records_them(home: Path, files: dict[str, Path]) -> None:
    code, _, _ = run("ingest", str(files["af"]), "--source-type", "guideline", "--specialty", "cardiology")
    assert code == 0
    assert run("ingest", str(files["af"]))[0] == 0  # unchanged: still a run, still a row
    first, again = rows()
    assert (first["action"], first["outcome"], first["sources"]) == ("documents.ingest", "ok", ["af"])
    assert first["details"] == {
        "source_type": "guideline",
        "specialty": "cardiology",
        "ingested": 1,
        "unchanged": 0,
        "skipped": 0,
        "failed": 0,
    }
    assert (again["sources"], again["details"]["unchanged"]) == ([], 1)


@pytest.mark.parametrize("how", BREAKS)
def test_a_trail_that_cannot_record_stops_every_action_before_it_changes_anything(
    how: str, home: Path, ingested: int, files: dict[str, Path]
) -> None:
    before = status()
    BREAKS[how](home)
    kept = len(rows())
    refused = {
        "ingest": run("ingest", str(files["new"])),
        "search": run("search", "anticoagulation"),
        "remove": run("remove", "af"),
        "reindex": run("reindex"),
        "jobs retry": run("jobs", "retry", str(ingested)),
        "tool": run("tool", "source.passages", "--args", '{"chunk_ids": ["af:v1:0"]}'),
        "ask": run("ask", "anticoagulation in atrial fibrillation?"),
    }
    assert {name: code for name, (code, _, _) in refused.items()} == dict.fromkeys(refused, 6)
    for name, (_, out, err) in refused.items():
        message = json.loads(out)["error"]["message"] if name == "tool" else err
        assert "AUDIT_INTEGRITY" in out + err and "curbside audit acknowledge" in message, name
        if name != "tool":
            assert out == "", name  # no hit, no answer, no report printed
    assert len(rows()) == kept  # nothing recorded
    assert status() == before  # nothing ingested, removed or re-embedded
    code, out, _ = run("jobs", "show", str(ingested), "--json")
    assert code == 0 and json.loads(out)["retry_count"] == 0  # not retried
    code, out, _ = run("jobs", "list", "--doc-key", "new", "--json")
    assert json.loads(out) == {"jobs": []}  # not even a job was created


def test_a_broken_trail_is_a_json_error_with_json(home: Path, ingested: int) -> None:
    _head_removed(home)
    code, out, err = run("search", "anticoagulation", "--json")
    assert code == 6 and err == ""
    error = json.loads(out)["error"]
    assert error["code"] == "AUDIT_INTEGRITY" and "audit.head" in error["message"]
