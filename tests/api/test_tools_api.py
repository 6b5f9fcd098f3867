"""Tool routes through FastAPI's TestClient over a real application on the sample documents.

The client carries an admin key (admin may reach every route here: tools and /metrics).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel

from curbside.api import create_app
from curbside.app import Curbside
from curbside.cli.demo import sample_paths
from curbside.settings import Settings
from curbside.tools import ToolContext, ToolSpec
from curbside.tools.passages import PassagesArgs


@pytest.fixture(scope="module")
def core(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Curbside]:
    home = tmp_path_factory.mktemp("tools-api")
    app = Curbside(Settings(home=home))
    assert not app.ingestor.ingest(sample_paths()).failed
    app.tools.registry.register(_guarded_tool())
    yield app
    app.close()


@pytest.fixture(scope="module")
def client(core: Curbside) -> TestClient:
    key = core.users.add("tools-admin", "admin").key
    return TestClient(create_app(core, warm_up=False), headers={"Authorization": f"Bearer {key}"})


class Note(BaseModel):
    text: str


async def _save_note(ctx: ToolContext, args: Note) -> Note:
    return args


def _guarded_tool() -> ToolSpec[Note, Note]:
    """A state-changing test tool: high risk, so it needs confirmation; one call a minute."""
    return ToolSpec(
        name="test.save_note",
        description="Save a note (test).",
        args_model=Note,
        result_model=Note,
        handler=_save_note,
        category="test",
        requires_phi=True,
        timeout_s=1.0,
        requires_confirmation=True,
        risk_level="high",
        rate_limit=1,
    )


def test_list_tools_gives_schemas_from_the_argument_models(client: TestClient) -> None:
    response = client.get("/v1/tools")
    assert response.status_code == 200
    tools = {t["name"]: t for t in response.json()["tools"]}
    assert {"source.passages", "test.save_note"} <= set(tools)
    assert tools["source.passages"]["input_schema"] == PassagesArgs.model_json_schema()
    assert tools["test.save_note"]["requires_confirmation"] is True


def test_call_returns_the_tool_result(client: TestClient) -> None:
    body = {"chunk_ids": ["sample-metformin-renal:v1:0"], "highlight_terms": ["eGFR"]}
    response = client.post("/v1/tools/source.passages", json=body)
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "ok" and data["tool"] == "source.passages" and data["error"] is None
    passage = data["result"]["passages"][0]
    assert passage["chunk_id"] == "sample-metformin-renal:v1:0" and "**eGFR**" in passage["highlights"][0]


def test_bad_arguments_are_422_with_the_field_named(client: TestClient) -> None:
    response = client.post("/v1/tools/source.passages", json={"chunk_ids": "one"})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR" and "chunk_ids: Input should be a valid list" in error["message"]


def test_a_body_that_is_not_an_object_is_refused(client: TestClient) -> None:
    response = client.post(
        "/v1/tools/source.passages",
        content=json.dumps(["a"]),
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422 and response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_unknown_tool_is_404_not_found(client: TestClient) -> None:
    response = client.post("/v1/tools/odb.gett", json={})
    assert response.status_code == 404
    error = response.json()["error"]
    assert set(error) == {"code", "message"} and error["code"] == "NOT_FOUND"
    assert error["message"].startswith("No tool named 'odb.gett'. Known tools: ")


def test_confirmation_then_rate_limit_over_http(client: TestClient) -> None:
    asked = client.post("/v1/tools/test.save_note", json={"text": "call back"})
    assert asked.status_code == 409 and asked.json()["status"] == "needs_confirmation"
    done = client.post("/v1/tools/test.save_note?confirm=true", json={"text": "call back"})
    assert done.status_code == 200 and done.json()["result"] == {"text": "call back"}
    again = client.post("/v1/tools/test.save_note?confirm=true", json={"text": "again"})
    assert again.status_code == 429 and again.json()["status"] == "rate_limited"
    assert 1 <= int(again.headers["retry-after"]) <= 60


def test_openapi_documents_the_routes_with_models(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    post = paths["/v1/tools/{name}"]["post"]
    assert post["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ToolResult"
    }
    assert paths["/v1/tools"]["get"]["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ToolList"
    }
    refused = post["responses"]["422"]["content"]["application/json"]["schema"]["anyOf"]
    assert refused == [
        {"$ref": "#/components/schemas/ToolResult"},
        {"$ref": "#/components/schemas/ErrorBody"},
    ]


def _ok_count(client: TestClient) -> float:
    response = client.get("/metrics")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    prefix = 'tool_calls_total{status="ok",tool="source.passages"} '
    values = [float(line[len(prefix) :]) for line in response.text.splitlines() if line.startswith(prefix)]
    return values[0] if values else 0.0


def test_metrics_route_exposes_tool_counts(client: TestClient) -> None:
    before = _ok_count(client)
    client.post("/v1/tools/source.passages", json={"chunk_ids": ["nope:v1:0"]})
    assert _ok_count(client) == before + 1
    lines = client.get("/metrics").text.splitlines()
    assert any(line.startswith('tool_execution_duration_seconds_count{tool="source.passages"}') for line in lines)


def test_a_waiting_call_is_listed_then_approved_or_denied_by_id(core: Curbside, client: TestClient) -> None:
    spec = _guarded_tool()
    from dataclasses import replace

    core.tools.registry.register(replace(spec, name="test.note_by_id", rate_limit=None))
    asked = client.post("/v1/tools/test.note_by_id", json={"text": "follow up in 2 weeks"})
    assert asked.status_code == 409
    waiting = asked.json()["confirmation"]
    assert waiting["tool"] == "test.note_by_id" and waiting["id"] in asked.json()["error"]["message"]
    listed = client.get("/v1/confirmations").json()["confirmations"]
    assert waiting["id"] in [c["id"] for c in listed]
    approved = client.post(f"/v1/confirmations/{waiting['id']}", json={"decision": "approve"})
    assert approved.status_code == 200 and approved.json()["result"] == {"text": "follow up in 2 weeks"}
    assert client.post(f"/v1/confirmations/{waiting['id']}", json={"decision": "approve"}).status_code == 404
    second = client.post("/v1/tools/test.note_by_id", json={"text": "no"}).json()["confirmation"]
    denied = client.post(f"/v1/confirmations/{second['id']}", json={"decision": "deny"})
    assert denied.status_code == 409 and denied.json()["error"]["code"] == "CONFIRMATION_DENIED"
    assert client.post(f"/v1/confirmations/{second['id']}", json={"decision": "maybe"}).status_code in (400, 422)
