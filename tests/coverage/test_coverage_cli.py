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


def test_status_of_an_empty_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURBSIDE_HOME", str(tmp_path / "fresh"))
    code, out, _ = run(CliRunner(), "coverage", "status")
    assert code == 0
    assert out.splitlines()[0] == (
        "odb: not loaded (run `curbside coverage load DIR` with the ministry's odb*formulary*.xml in DIR)"
    )
    assert [line.split(":")[0] for line in out.splitlines()] == ["odb", "ohip", "adp"]
