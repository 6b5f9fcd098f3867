"""The consult turn on the sandbox EHR with the shared Synthea adults: the state machine, the
planner and the renderers, with triage given (its rules have their own tests), so each path is
checked against the bundle's exact values."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from curbside.agent.intents import Intent, Triage
from curbside.agent.models import TurnRequest, TurnResult
from curbside.agent.turn import ConsultTurn
from curbside.app import Curbside
from curbside.settings import Settings
from curbside.tools.calculators.catalog import calculators
from curbside.types import ToolCaller
from tests.tools.ehr.conftest import LoadedSandbox, adult_bundles, adult_bundles_dir, adult_sandbox  # noqa: F401

FELICA = "a59944cf-1153-25c3-cc82-e5bfa70d63c2"  # 1061938-bundle.json: no allergies recorded
NOW = datetime(2024, 2, 1, 9, 0, tzinfo=UTC)
DR = ToolCaller(user="dr-turn", role="clinician", channel="cli")

# what the rules would say for each message (their own tests check that they do)
TRIAGED: dict[str, Triage] = {
    "last a1c?": Triage("lookup", (Intent("patient_labs", {"lab": "hba1c", "latest": True}),), True, "a lab"),
    "allergies?": Triage("lookup", (Intent("patient_allergies"),), True, "allergies"),
    "meds and allergies": Triage(
        "multi_step", (Intent("patient_medications"), Intent("patient_allergies")), True, "two lists"
    ),
    "bmi for her": Triage("lookup", (Intent("calculator", {"calculator": "bmi"}),), True, "a calculator"),
    "hr 72, record it": Triage(
        "lookup",
        (Intent("chart_write", {"write": "record_vital", "kind": "heart_rate", "value": 72, "unit": "/min"}),),
        True,
        "a chart write",
    ),
    "hello": Triage("direct", (Intent("greeting"),), True, "a greeting"),
    "book me a flight": Triage("lookup", (Intent("unknown"),), False, "no rule fired"),
}


def fixed_triage(message: str, **_: Any) -> Triage:
    return TRIAGED[message]


@pytest.fixture
def app(adult_sandbox: LoadedSandbox, tmp_path: Path) -> Iterator[Curbside]:  # noqa: F811
    core = Curbside(Settings(home=tmp_path / "home", fhir_url=adult_sandbox.url))
    yield core
    core.close()


def turn(app: Curbside, message: str, *, patient: str | None = FELICA, approve: bool = False) -> TurnResult:
    consult = ConsultTurn(
        app.tools, triage=fixed_triage, calculators=lambda: {c: k.title for c, k in calculators().items()}
    )
    request = TurnRequest(message=message, patient_id=patient, now=NOW, approve_writes=approve)
    return asyncio.run(consult.run(request, DR))


def _bundle_latest(bundles: dict[str, dict[str, Any]], code: str) -> dict[str, Any]:
    observations = [
        e["resource"]
        for e in bundles[FELICA]["entry"]
        if e["resource"]["resourceType"] == "Observation"
        and any(c.get("code") == code for c in e["resource"]["code"]["coding"])
    ]
    return max(observations, key=lambda o: o["effectiveDateTime"])


def test_the_latest_lab_is_the_charts_with_its_source(
    app: Curbside,
    adult_bundles: dict[str, dict[str, Any]],  # noqa: F811
) -> None:
    expected = _bundle_latest(adult_bundles, "4548-4")
    result = turn(app, "last a1c?")
    assert result.status == "answered" and result.confidence_level == "high"
    value = expected["valueQuantity"]["value"]
    assert result.final_response == f"Latest HbA1c: {value} % on {expected['effectiveDateTime'][:10]} [1]."
    (source,) = result.sources_used
    assert source.id == f"Observation/{expected['id']}" and source.tool == "ehr.get_observations"
    steps = [(s.step, s.tool) for s in result.reasoning_timeline]
    assert steps[:3] == [("context", "ehr.get_patient_chart"), ("triage", None), ("plan", None)]
    assert ("tool", "ehr.get_observations") in steps and steps[-1] == ("synthesis", None)


def test_no_allergies_is_said_as_none_recorded(app: Curbside) -> None:
    result = turn(app, "allergies?")
    assert "None recorded" in result.final_response and not result.sources_used


def test_two_intents_run_in_order(app: Curbside) -> None:
    result = turn(app, "meds and allergies")
    tools = [c.tool for c in result.tool_calls]
    assert tools == ["ehr.get_patient_chart", "ehr.get_medications", "ehr.get_allergies"]
    assert result.final_response.startswith("Active medications (")


def test_a_calculator_takes_its_inputs_from_the_chart(
    app: Curbside,
    adult_bundles: dict[str, dict[str, Any]],  # noqa: F811
) -> None:
    weight = _bundle_latest(adult_bundles, "29463-7")["valueQuantity"]["value"]
    height = _bundle_latest(adult_bundles, "8302-2")["valueQuantity"]["value"]
    result = turn(app, "bmi for her")
    (call,) = [c for c in result.tool_calls if c.tool == "calc.bmi"]
    assert call.arguments["weight"] == {"value": weight, "unit": "kg"} and call.status == "ok"
    bmi = weight / (height / 100) ** 2
    assert f"{bmi:.1f} kg/m²" in result.final_response


def test_a_chart_write_waits_for_approval_then_is_written_with_yes(app: Curbside) -> None:
    waiting = turn(app, "hr 72, record it")
    (write,) = waiting.proposed_writes
    assert write.outcome == "waiting" and write.confirmation is not None and "72" in write.summary
    assert "waiting for your approval" in waiting.final_response
    done = turn(app, "hr 72, record it", approve=True)
    (written,) = done.proposed_writes
    assert written.outcome == "approved" and written.resource and written.resource.startswith("Observation/")


def test_a_patient_question_without_a_patient_asks_which(app: Curbside) -> None:
    result = turn(app, "last a1c?", patient=None)
    assert result.status == "clarify" and "Which patient" in (result.clarifying_question or "")
    assert result.tool_calls == []


def test_a_greeting_needs_no_tool_and_an_unknown_request_is_refused_plainly(app: Curbside) -> None:
    hello = turn(app, "hello", patient=None)
    assert hello.status == "answered" and hello.tool_calls == [] and hello.route == "direct"
    nothing = turn(app, "book me a flight", patient=None)
    assert nothing.status == "cannot" and "I cannot do this here" in nothing.final_response
    assert nothing.confidence_level == "low"


def test_the_result_is_json_with_the_timeline(app: Curbside) -> None:
    data = json.loads(turn(app, "last a1c?").model_dump_json())
    assert {"final_response", "reasoning_timeline", "sources_used", "tool_calls", "proposed_writes"} <= set(data)


def test_a_conversation_keeps_its_patient_and_its_messages(app: Curbside) -> None:
    consult = ConsultTurn(app.tools, triage=fixed_triage, sessions=lambda: app.sessions)
    first = asyncio.run(
        consult.run(TurnRequest(message="last a1c?", patient_id=FELICA, session_id="visit-1", now=NOW), DR)
    )
    later = asyncio.run(consult.run(TurnRequest(message="allergies?", session_id="visit-1", now=NOW), DR))
    assert first.status == later.status == "answered" and "None recorded" in later.final_response
    assert any("the active patient kept" in s.what for s in later.reasoning_timeline)
    messages = app.sessions.recent(DR.user, "visit-1")
    assert [m.role for m in messages] == ["user", "assistant", "user", "assistant"]
    assert messages[1].text == first.final_response
    other = ToolCaller(user="dr-other", role="clinician", channel="cli")
    assert app.sessions.list(other.user) == []  # another clinician does not see it


def test_blood_pressure_reads_systolic_over_diastolic_by_code_and_averages(
    app: Curbside,
    adult_bundles: dict[str, dict[str, Any]],  # noqa: F811
) -> None:
    panels = [
        e["resource"]
        for e in adult_bundles[FELICA]["entry"]
        if e["resource"]["resourceType"] == "Observation"
        and any(c.get("code") == "85354-9" for c in e["resource"]["code"]["coding"])
    ]
    latest = max(panels, key=lambda o: o["effectiveDateTime"])
    by_code = {c["code"]["coding"][0]["code"]: c["valueQuantity"]["value"] for c in latest["component"]}
    TRIAGED["her bp"] = Triage("lookup", (Intent("patient_vitals", {"vital": "bp", "latest": True}),), True, "bp")
    result = turn(app, "her bp")
    assert f"{by_code['8480-6']:g}/{by_code['8462-4']:g}" in result.final_response  # systolic first
    TRIAGED["avg bp"] = Triage(
        "lookup", (Intent("patient_vitals", {"vital": "bp", "window": "10y", "aggregate": "average"}),), True, "bp"
    )
    averaged = turn(app, "avg bp")
    (fact,) = [f for f in averaged.facts if f["tool"] == "ehr.get_observations"]
    systolic = [
        {c["code"]["coding"][0]["code"]: c["valueQuantity"]["value"] for c in p["component"]}["8480-6"]
        for p in panels
        if p["effectiveDateTime"][:10] >= (NOW - timedelta(days=3650)).date().isoformat()  # the planner's "10y"
    ]
    assert fact["values"]["average"] == pytest.approx(sum(systolic) / len(systolic))
