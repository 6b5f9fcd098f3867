"""POST /v1/turns: one JSON result, or server-sent events (steps, a waiting write, the final result)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from curbside.api import create_app
from curbside.app import Curbside
from curbside.settings import Settings
from tests.tools.ehr.conftest import LoadedSandbox, adult_bundles_dir, adult_sandbox  # noqa: F401

FELICA = "a59944cf-1153-25c3-cc82-e5bfa70d63c2"


@pytest.fixture
def client(adult_sandbox: LoadedSandbox, tmp_path: Path) -> Iterator[TestClient]:  # noqa: F811
    core = Curbside(Settings(home=tmp_path / "home", fhir_url=adult_sandbox.url))
    key = core.users.add("dr-api", "clinician").key
    yield TestClient(create_app(core, warm_up=False), headers={"Authorization": f"Bearer {key}"})
    core.close()


def test_a_turn_as_json(client: TestClient) -> None:
    response = client.post("/v1/turns", json={"message": "last a1c?", "patient_id": FELICA})
    assert response.status_code == 200
    assert response.json()["final_response"].startswith("Latest HbA1c: 6.77 %")


def test_a_turn_as_events_with_a_write_waiting(client: TestClient) -> None:
    body = {"message": "record HR 72", "patient_id": FELICA}
    with client.stream("POST", "/v1/turns", json=body, headers={"Accept": "text/event-stream"}) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        events = [block for block in response.read().decode().split("\n\n") if block]
    kinds = [block.split("\n")[0].removeprefix("event: ") for block in events]
    assert kinds[0] == "step" and kinds[-1] == "final" and "confirmation" in kinds
    final = json.loads(events[-1].split("\n", 1)[1].removeprefix("data: "))
    (write,) = final["proposed_writes"]
    assert write["outcome"] == "waiting"
    decided = client.post(f"/v1/confirmations/{write['confirmation']['id']}", json={"decision": "approve"})
    assert decided.status_code == 200 and decided.json()["result"]["resource_type"] == "Observation"


def test_writes_are_never_approved_over_http(client: TestClient) -> None:
    response = client.post("/v1/turns", json={"message": "record HR 72", "patient_id": FELICA, "approve_writes": True})
    assert response.status_code == 400 and "POST /v1/confirmations" in response.json()["error"]["message"]


def test_a_turn_has_its_own_audit_row_with_the_message_redacted(adult_sandbox: LoadedSandbox, tmp_path: Path) -> None:  # noqa: F811
    from datetime import UTC, datetime, timedelta

    core = Curbside(Settings(home=tmp_path / "home", fhir_url=adult_sandbox.url))
    try:
        key = core.users.add("dr-audit", "clinician").key
        client = TestClient(create_app(core, warm_up=False), headers={"Authorization": f"Bearer {key}"})
        message = "Mrs Felica Prosacco wants to know her last a1c"
        assert client.post("/v1/turns", json={"message": message, "patient_id": FELICA}).status_code == 200
        rows = list(core.audit.export(datetime.now(UTC) - timedelta(minutes=5)))
        (turn,) = [row for row in rows if row["action"] == "turn"]
        assert turn["outcome"] == "answered" and turn["user"] == "dr-audit" and turn["phi"] is True
        assert turn["tools"] == ["ehr.get_patient_chart", "ehr.get_observations"]
        assert "Prosacco" not in str(turn) and "[PERSON]" in (turn["question"] or "")
        tool_rows = [row for row in rows if row["action"] == "tool"]
        assert {r["tools"][0] for r in tool_rows} >= {"ehr.get_patient_chart", "ehr.get_observations"}
    finally:
        core.close()
