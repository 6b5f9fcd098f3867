"""``curbside coverage load`` and ``status`` print the Schedule's parse report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from curbside.app import Curbside
from curbside.cli import cli

REPORT = (
    "parse report: 152 codes found, 147 with an aligned fee (96.7%: 144 read (94.7%), 3 I.C or no fee of their own), "
    "5 whose fee could not be aligned (marked 'fee unknown', never guessed)"
)


@pytest.fixture
def runner(ohip_app: Curbside, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("CURBSIDE_HOME", str(ohip_app.settings.home))
    return CliRunner()


def test_load_prints_the_parse_report(runner: CliRunner, ohip_subset_dir: Path) -> None:
    result = runner.invoke(cli, ["coverage", "load", str(ohip_subset_dir)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "= ohip: OHIP Schedule of Benefits (effective 2025-03-03) is already loaded; nothing to do"
    assert f"    {REPORT}" in lines


def test_status_prints_the_parse_report(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["coverage", "status"])
    assert result.exit_code == 0, result.output
    assert "ohip: OHIP Schedule of Benefits (effective 2025-03-03)" in result.stdout
    assert f"    {REPORT}; " in result.stdout  # then the cross-check against the Schedule's Numeric Index
    assert " 0 disagreeing\n" in result.stdout
    data = json.loads(runner.invoke(cli, ["coverage", "status", "--json"]).stdout)
    (ohip,) = [s for s in data["sources"] if s["source"] == "ohip"]
    assert ohip["parse_report"]["codes_with_fee"] == 147 and ohip["passages"]["documents"] == 8
    assert (ohip["counts"]["codes_fee_read"], ohip["counts"]["codes_no_fee"]) == (144, 3)
