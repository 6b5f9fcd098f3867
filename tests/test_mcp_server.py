"""The MCP server: in process through ``mcp.Client``, and as real ``curbside mcp`` subprocesses
over stdio (the local operator) and streamable HTTP (clinician or admin API keys only)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from pydantic import BaseModel

from curbside.app import Curbside
from curbside.cli.demo import sample_paths
from curbside.mcp_server import CONFIRM_META_KEY, build_mcp_server
from curbside.settings import Settings
from curbside.tools import ToolContext, ToolSpec
from curbside.tools.passages import PassagesArgs
from curbside.types import SourcePassages, ToolCaller

HYPERTENSION = "sample-hypertension:v1:0"
PASSAGES_CALL = {
    "chunk_ids": [HYPERTENSION, "gone:v1:0"],
    "highlight_terms": ["ambulatory"],
}
LAUNCH = ["-c", "from curbside.cli import main; main()", "mcp"]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mcp-home")
    app = Curbside(Settings(home=path))
    assert not app.ingestor.ingest(sample_paths()).failed
    app.close()
    return path


@pytest.fixture
def app(home: Path) -> Iterator[Curbside]:
    core = Curbside(Settings(home=home))
    yield core
    core.close()


class Note(BaseModel):
    text: str


async def _save_note(ctx: ToolContext, args: Note) -> Note:
    return Note(text=f"{args.text} (by {ctx.caller.user})")


def _check_passages(structured: Any) -> None:
    passages = SourcePassages.model_validate(structured)
    assert [p.chunk_id for p in passages.passages] == [HYPERTENSION]
    assert passages.missing == ["gone:v1:0"] and passages.total_chunks == 1
    assert passages.passages[0].highlights == [
        "… measurement — home monitoring or 24-hour **ambulatory** monitoring — before making the …"
    ]


async def _list_and_call(client: Client) -> None:
    listed = {t.name: t for t in (await client.list_tools()).tools}
    # all five coverage tools of the spec are served (each has its own round trip in tests/coverage)
    assert {"coverage.answer", "schedule.get", "adp.get", "odb.get", "source.passages"} <= set(listed)
    tool = listed["source.passages"]
    assert tool.input_schema == PassagesArgs.model_json_schema()
    assert tool.output_schema == SourcePassages.model_json_schema(mode="serialization")
    assert tool.meta is not None and tool.meta["curbside/category"] == "search"
    result = await client.call_tool("source.passages", PASSAGES_CALL)
    assert not result.is_error
    _check_passages(result.structured_content)
    assert json.loads(result.content[0].text) == result.structured_content  # type: ignore[union-attr]
    await _calculator(client, listed)


async def _calculator(client: Client, listed: dict[str, Any]) -> None:
    """Every calculator is a tool with its schema, a line a model chooses it by, and its citation."""
    calculators = [name for name in listed if name.startswith("calc.")]
    assert len(calculators) >= 50 and "calc.wells_dvt" in calculators
    wells = listed["calc.wells_dvt"]
    assert wells.description.startswith("Wells score for DVT (2003):")
    assert wells.meta is not None and "N Engl J Med 2003;349:1227" in wells.meta["curbside/citation"]
    assert {"active_cancer", "alternative_diagnosis", "missing", "note"} <= set(wells.input_schema["properties"])
    result = await client.call_tool("calc.bmi", {"weight": {"value": 154, "unit": "lb"}, "height": 175})
    assert not result.is_error and result.structured_content is not None
    assert result.structured_content["display"] == "22.8 kg/m²" and result.structured_content["category"] == "normal"


def test_in_process_client_lists_and_calls_tools(app: Curbside) -> None:
    asyncio.run(_in_process(app))


async def _in_process(app: Curbside) -> None:
    async with Client(build_mcp_server(app)) as client:
        await _list_and_call(client)


def test_errors_are_mcp_tool_errors_with_code_and_message(app: Curbside) -> None:
    async def scenario() -> None:
        async with Client(build_mcp_server(app)) as client:
            bad = await client.call_tool("source.passages", {"chunk_ids": []})
            assert bad.is_error
            text = bad.content[0].text  # type: ignore[union-attr]
            assert text.startswith("VALIDATION_ERROR: Invalid arguments for tool 'source.passages': chunk_ids:")
            assert bad.structured_content["status"] == "error"
            assert bad.structured_content["error"]["code"] == "VALIDATION_ERROR"
            unknown = await client.call_tool("odb.gett", {})
            assert unknown.is_error
            assert unknown.content[0].text.startswith("NOT_FOUND: No tool named 'odb.gett'.")  # type: ignore[union-attr]

    asyncio.run(scenario())


def test_confirmation_travels_in_request_meta(app: Curbside) -> None:
    app.tools.registry.register(
        ToolSpec(
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
        )
    )

    async def scenario() -> None:
        server = build_mcp_server(app, caller=ToolCaller(user="mcp-user", role="clinician"))
        async with Client(server) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert tools["test.save_note"].meta["curbside/requires_confirmation"] is True  # type: ignore[index]
            asked = await client.call_tool("test.save_note", {"text": "hi"})
            assert asked.is_error and asked.structured_content["status"] == "needs_confirmation"
            assert asked.content[0].text.startswith("CONFIRMATION_REQUIRED: ")  # type: ignore[union-attr]
            done = await client.call_tool("test.save_note", {"text": "hi"}, meta={CONFIRM_META_KEY: True})
            assert not done.is_error and done.structured_content == {"text": "hi (by mcp-user)"}
            # the waiting call, shown to the clinician and answered by id through the confirmation tools
            waiting = asked.structured_content["confirmation"]
            listed = await client.call_tool("confirmations.pending", {})
            assert [c["id"] for c in listed.structured_content["confirmations"]] == [waiting["id"]]
            approved = await client.call_tool("confirmations.decide", {"id": waiting["id"], "decision": "approve"})
            assert not approved.is_error
            assert approved.structured_content["status"] == "ok"
            assert approved.structured_content["result"] == {"text": "hi (by mcp-user)"}
            again = await client.call_tool("confirmations.decide", {"id": waiting["id"], "decision": "approve"})
            assert again.is_error and again.structured_content["error"]["code"] == "NOT_FOUND"

    asyncio.run(scenario())


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "CURBSIDE_HOME": str(home)}


def test_stdio_subprocess_serves_the_tools(home: Path) -> None:
    params = StdioServerParameters(command=sys.executable, args=LAUNCH, env=_env(home))

    async def scenario() -> None:
        async with Client(params, read_timeout_seconds=60) as client:
            await _list_and_call(client)

    asyncio.run(scenario())


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_streamable_http_subprocess_serves_the_tools_to_api_keys_only(home: Path, tmp_path: Path) -> None:
    core = Curbside(Settings(home=home))
    keys = {role: core.users.add(f"mcp-{role}", role).key for role in ("clinician", "auditor")}
    seen = core.audit.count()
    core.close()
    port = _free_port()
    log = tmp_path / "mcp-http.log"
    with log.open("wb") as sink:
        server = subprocess.Popen(
            [sys.executable, *LAUNCH, "--transport", "http", "--port", str(port)],
            env=_env(home),
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text(errors="replace")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "curbside mcp --transport http did not start listening"
                time.sleep(0.1)

        url = f"http://127.0.0.1:{port}/mcp"
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        refused = {
            "none": httpx.post(url, json=ping),
            "bad": httpx.post(url, json=ping, headers={"Authorization": "Bearer cs_" + "x" * 43}),
            "auditor": httpx.post(url, json=ping, headers={"Authorization": f"Bearer {keys['auditor']}"}),
        }
        assert {who: r.status_code for who, r in refused.items()} == {"none": 401, "bad": 401, "auditor": 403}
        assert refused["none"].json()["error"]["code"] == "UNAUTHENTICATED"
        assert refused["none"].headers["www-authenticate"].startswith("Bearer")
        assert refused["auditor"].json()["error"]["code"] == "PERMISSION_DENIED"

        async def scenario() -> None:
            http = create_mcp_http_client(headers={"Authorization": f"Bearer {keys['clinician']}"})
            async with http, Client(streamable_http_client(url, http_client=http), read_timeout_seconds=60) as client:
                await _list_and_call(client)

        asyncio.run(scenario())
    finally:
        server.terminate()
        server.wait(timeout=10)
    core = Curbside(Settings(home=home))
    try:
        rows = [r for r in core.audit.export(datetime(2000, 1, 1)) if r["seq"] > seen]
    finally:
        core.close()
    denied = [r for r in rows if r["action"] == "access.denied"]
    assert [(r["user"], r["channel"]) for r in denied] == [("mcp-auditor", "mcp-http")]
    (call, calc) = [r for r in rows if r["action"] == "tool"]
    assert calc["tools"] == ["calc.bmi"] and calc["outcome"] == "ok"
    assert (call["user"], call["role"], call["tools"], call["outcome"]) == (
        "mcp-clinician",
        "clinician",
        ["source.passages"],
        "ok",
    )


def test_an_agent_can_search_then_ask_then_open_a_passage(app: Curbside) -> None:
    """kb.search finds chunk ids, kb.ask answers with citations, source.passages opens one: all over MCP,
    each call on the audit trail (a search row, an ask row, the tool rows) as the local operator."""
    from datetime import UTC

    from curbside.types import Answer, SearchResponse

    async def scenario() -> tuple[SearchResponse, Answer]:
        async with Client(build_mcp_server(app, caller=ToolCaller(user="agent", role="clinician", channel="mcp-stdio"))) as client:
            listed = {t.name for t in (await client.list_tools()).tools}
            assert {"kb.search", "kb.ask"} <= listed
            found = await client.call_tool("kb.search", {"query": "metformin and kidney function", "k": 3})
            assert not found.is_error
            answered = await client.call_tool("kb.ask", {"question": "can I start metformin if eGFR is 35?"})
            assert not answered.is_error
            return (
                SearchResponse.model_validate(found.structured_content),
                Answer.model_validate(answered.structured_content),
            )

    search, answer = asyncio.run(scenario())
    assert search.hits and search.hits[0].doc_key == "sample-metformin-renal"
    assert answer.status == "answered" and answer.citations
    assert answer.citations[0].doc_key == "sample-metformin-renal"
    rows = list(app.audit.export(datetime(2000, 1, 1, tzinfo=UTC)))
    actions = [(r["action"], r["user"], r["channel"]) for r in rows[-4:]]
    assert ("search", "agent", "mcp-stdio") in actions and ("ask", "agent", "mcp-stdio") in actions
    assert [r["tools"] for r in rows[-4:] if r["action"] == "tool"] == [["kb.search"], ["kb.ask"]]
