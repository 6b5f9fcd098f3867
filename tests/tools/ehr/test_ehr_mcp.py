"""The chart over MCP, as an agent's client would use it: find the patient, read the chart, propose a
write, and the clinician's approval through confirmations.decide — on the sandbox EHR."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from mcp import Client

from curbside.app import Curbside
from curbside.mcp_server import build_mcp_server
from curbside.settings import Settings
from curbside.types import ToolCaller
from tests.tools.ehr.conftest import LoadedSandbox


def test_search_read_and_a_confirmed_write_over_mcp(
    adult_sandbox: LoadedSandbox, adult_bundles: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    app = Curbside(Settings(home=tmp_path / "home", fhir_url=adult_sandbox.url))
    caller = ToolCaller(user="dr-mcp", role="clinician", channel="mcp-stdio")

    async def scenario() -> None:
        async with Client(build_mcp_server(app, caller=caller)) as client:
            found = await client.call_tool("ehr.search_patient", {"name": "Prosacco", "birth_date": "1958-05-28"})
            assert not found.is_error
            (match,) = found.structured_content["matches"]
            patient_id = match["id"]
            assert patient_id in adult_bundles
            chart = await client.call_tool("ehr.get_patient_chart", {"patient_id": patient_id})
            assert not chart.is_error and chart.structured_content["patient"]["id"] == patient_id
            asked = await client.call_tool(
                "ehr.record_vital",
                {"patient_id": patient_id, "kind": "heart_rate", "value": 72, "unit": "/min"},
            )
            assert asked.is_error and asked.structured_content["status"] == "needs_confirmation"
            waiting = asked.structured_content["confirmation"]
            assert "72" in waiting["summary"] and patient_id in waiting["summary"]
            done = await client.call_tool("confirmations.decide", {"id": waiting["id"], "decision": "approve"})
            assert not done.is_error and done.structured_content["status"] == "ok"
            created = done.structured_content["result"]
            assert created["resource_type"] == "Observation"
            read_back = await client.call_tool(
                "ehr.get_observations", {"patient_id": patient_id, "code": "8867-4", "latest": True}
            )
            (latest,) = read_back.structured_content["observations"]
            assert latest["id"] == created["id"] and latest["value"] == 72

    try:
        asyncio.run(scenario())
    finally:
        app.close()
