"""``curbside coverage load`` and ``curbside coverage status`` through click's runner."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from curbside.app import Curbside
from curbside.cli import cli

LABEL = "ODB Formulary Edition 43 (2025-08-29)"


@pytest.fixture
def runner(odb_app: Curbside, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("CURBSIDE_HOME", str(odb_app.settings.home))
    return CliRunner()


def run(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_coverage_commands_import_nothing_heavy() -> None:
    probe = (
        "import sys, curbside.cli.coverage; "
        "print(sorted(m for m in ('lxml', 'numpy', 'onnxruntime', 'rich', 'curbside.coverage') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    help_text = CliRunner().invoke(cli, ["coverage", "--help"]).stdout
    assert "load" in help_text and "status" in help_text


def test_load_again_is_unchanged(runner: CliRunner, subset_dir: Path) -> None:
    code, out, _ = run(runner, "coverage", "load", str(subset_dir))
    assert code == 0
    assert f"= odb: {LABEL} is already loaded; nothing to do" in out
    assert "0 documents indexed, 5 unchanged, 0 failed, 0 removed" in out
    code, out, _ = run(runner, "coverage", "load", str(subset_dir), "--json")
    (source,) = json.loads(out)["sources"]
    assert (code, source["status"], source["edition"], source["error_code"]) == (0, "unchanged", LABEL, None)
    # each load is one audit row as the operator, with each source's status and edition
    code, out, _ = run(runner, "audit", "export", "--since", "2000-01-01")
    loads = [r for r in map(json.loads, out.splitlines()) if r["action"] == "coverage.load"]
    assert [(r["user"], r["channel"], r["outcome"], r["sources"]) for r in loads[-2:]] == [
        ("operator", "cli", "ok", []),
        ("operator", "cli", "ok", []),
    ]
    assert loads[-1]["details"] == {"status": {"odb": "unchanged"}, "editions": {"odb": LABEL}, "error_codes": []}


def test_status(runner: CliRunner) -> None:
    code, out, _ = run(runner, "coverage", "status", "--json")
    odb, ohip, adp = json.loads(out)["sources"]
    assert (ohip["source"], ohip["loaded"], adp["source"], adp["loaded"]) == ("ohip", False, "adp", False)
    assert code == 0 and odb["loaded"] and odb["edition"] == LABEL and odb["edition_code"] == "4345"
    assert odb["file"] == "odb-formulary-edition-43-2025-08-29.xml" and odb["passages"]["documents"] == 5
    code, out, _ = run(runner, "coverage", "status")
    assert out.startswith(f"odb: {LABEL}\n")


def test_bad_folders_exit_with_the_reason(runner: CliRunner, odb_xml: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run(runner, "coverage", "load", str(empty))
    assert (
        code == 2
        and err.strip()
        == f"Error [VALIDATION_ERROR]: No coverage source files in {empty} (expected odb: odb*formulary*.xml; "
        "ohip: ohip*schedule*benefits*.txt; adp: *adp*manual*.pdf)."
    )
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / odb_xml.name).write_bytes(b"<extract><formulary edition='43' formularyDate='2025-08-29'>")
    code, out, err = run(runner, "coverage", "load", str(broken))
    assert code == 1
    assert f"! odb: {odb_xml.name} looks truncated" in err
    code, out, _ = run(runner, "audit", "export", "--since", "2000-01-01")
    last = [r for r in map(json.loads, out.splitlines()) if r["action"] == "coverage.load"][-1]
    assert (last["outcome"], last["sources"], last["details"]["status"]) == ("failed", ["odb"], {"odb": "failed"})


def test_status_of_an_empty_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURBSIDE_HOME", str(tmp_path / "fresh"))
    code, out, _ = run(CliRunner(), "coverage", "status")
    assert code == 0
    assert out.splitlines()[0] == (
        "odb: not loaded (run `curbside coverage load DIR` with the ministry's odb*formulary*.xml in DIR)"
    )
    assert [line.split(":")[0] for line in out.splitlines()] == ["odb", "ohip", "adp"]


def test_a_trail_that_cannot_record_stops_a_load(subset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "fresh"
    monkeypatch.setenv("CURBSIDE_HOME", str(home))
    assert run(CliRunner(), "audit", "verify")[0] == 0  # the trail exists, with one row
    (home / "audit.head").unlink()
    code, out, err = run(CliRunner(), "coverage", "load", str(subset_dir))
    assert code == 6 and out == "" and err.startswith("Error [AUDIT_INTEGRITY]: The audit head")
    code, out, _ = run(CliRunner(), "coverage", "status", "--json")
    assert [s["loaded"] for s in json.loads(out)["sources"]] == [False, False, False]  # nothing loaded


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("odb.get", {"q": "is Ozempic covered for diabetes?"}, "No ODB formulary is loaded; run `curbside coverage load DIR`"),
        ("schedule.get", {"q": "can I bill C124?"}, "No OHIP Schedule of Benefits is loaded; run `curbside coverage load DIR`"),
        ("adp.get", {"q": "what does ADP pay for a walker?"}, "No ADP manuals are loaded; run `curbside coverage load DIR`"),
        ("coverage.answer", {"question": "can I bill C124?"}, "No coverage data is loaded: not the OHIP Schedule"),
    ],
)
def test_tools_with_nothing_loaded_say_so_and_exit_4(
    tool: str, args: dict[str, str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not "ok" with an answer that could not read anything and a "try again in a moment": NOT_LOADED, exit 4."""
    monkeypatch.setenv("CURBSIDE_HOME", str(tmp_path / "fresh"))
    code, out, _ = run(CliRunner(), "tool", tool, "--args", json.dumps(args))
    result = json.loads(out)
    assert code == 4 and result["status"] == "error" and result["result"] is None
    assert result["error"]["code"] == "NOT_LOADED" and result["error"]["message"].startswith(message)
    assert "try again" not in out.lower() and "DIR.." not in out
