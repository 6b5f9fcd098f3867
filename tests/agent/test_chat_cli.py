"""`curbside chat` and `curbside turn` on the sandbox EHR: a conversation that finds the patient once
and keeps them, with the timeline shown as it happens; a turn's JSON carries its timeline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from curbside.cli import cli
from tests.tools.ehr.conftest import LoadedSandbox, adult_bundles_dir, adult_sandbox  # noqa: F401

FELICA = "a59944cf-1153-25c3-cc82-e5bfa70d63c2"


@pytest.fixture
def runner(adult_sandbox: LoadedSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:  # noqa: F811
    monkeypatch.setenv("CURBSIDE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CURBSIDE_FHIR_URL", adult_sandbox.url)
    return CliRunner()


def test_chat_finds_the_patient_once_then_answers_about_her(runner: CliRunner) -> None:
    typed = "find Felica Prosacco born 1958-05-28\nlast a1c?\n/quit\n"
    result = runner.invoke(cli, ["chat"], input=typed)
    assert result.exit_code == 0, result.output
    assert f"Found Felica690 Prosacco716, born 1958-05-28 (Patient/{FELICA}" in result.stdout
    assert "Latest HbA1c: 6.77 % on 2024-01-24 [1]." in result.stdout
    assert "· tool ehr.get_observations: read hba1c → ok" in result.stderr
    assert "the active patient kept" in result.stderr


def test_turn_json_carries_the_timeline_and_the_sources(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["turn", "last a1c?", "--patient", FELICA, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "answered" and data["sources_used"][0]["tool"] == "ehr.get_observations"
    assert [s["step"] for s in data["reasoning_timeline"]][:3] == ["context", "triage", "plan"]


def test_turn_without_a_patient_asks_which_and_exits_3(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["turn", "last a1c?"])
    assert result.exit_code == 3 and "Which patient" in result.stdout
