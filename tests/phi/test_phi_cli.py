"""`curbside eval phi`: JSON keys, the table, errors with codes; `eval retrieval` still there."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from curbside.cli import cli

ROWS = [
    {"text": "Dr. Marder saw pt on 7/22.", "phi": [{"start": 4, "end": 10, "type": "HCPName", "text": "Marder"}]},
    {"text": "BP stable, lungs clear.", "phi": []},
]


def test_eval_phi_json(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS), encoding="utf-8")
    result = CliRunner().invoke(cli, ["eval", "phi", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"notes", "gold", "detected", "recall", "precision", "f2", "by_type"} <= set(data)
    assert (data["notes"], data["gold"], data["recall"]) == (2, 1, 1.0)
    assert data["detected"] == 2 and data["precision"] == 0.5  # "7/22" is a date the gold did not mark
    assert data["by_type"] == {"HCPName": 1.0}


def test_eval_phi_table(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS), encoding="utf-8")
    result = CliRunner().invoke(cli, ["eval", "phi", str(path)])
    assert result.exit_code == 0, result.output
    assert "recall 1.0000" in result.output and "HCPName" in result.output and "notes/s" in result.output


def test_eval_phi_errors_have_codes(tmp_path: Path) -> None:
    missing = CliRunner().invoke(cli, ["eval", "phi", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "Error [NOT_FOUND]" in missing.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "ok"}\n{broken\n', encoding="utf-8")
    broken = CliRunner().invoke(cli, ["eval", "phi", str(bad)])
    assert broken.exit_code == 2 and "Error [VALIDATION_ERROR]" in broken.output and "line 2" in broken.output


def test_eval_help_lists_both_commands() -> None:
    result = CliRunner().invoke(cli, ["eval", "--help"])
    assert result.exit_code == 0 and "phi" in result.output and "retrieval" in result.output
    assert "presidio-synth" in CliRunner().invoke(cli, ["eval", "phi", "--help"]).output
