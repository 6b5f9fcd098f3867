"""schedule.get over MCP, in process, on the loaded Schedule pages."""

from __future__ import annotations

import asyncio

from mcp import Client

from curbside.app import Curbside
from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult
from curbside.mcp_server import build_mcp_server


def test_schedule_get_round_trip_over_mcp(ohip_app: Curbside) -> None:
    async def scenario() -> None:
        async with Client(build_mcp_server(ohip_app)) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert tools["schedule.get"].input_schema == ScheduleGetArgs.model_json_schema()
            result = await client.call_tool(
                "schedule.get", {"q": "Can I bill C124 if the patient was discharged 36 hours after admission?"}
            )
            assert not result.is_error
            answer = ScheduleGetResult.model_validate(result.structured_content)
            assert answer.billable is False and answer.rule_checks[0].page == "GP45"
            assert "within 48 hours of admission" in answer.rule_checks[0].rule
            assert answer.schedule is not None and answer.schedule.effective == "2025-03-03"
            assert answer.citations and answer.citations[0].section_path.endswith("[GP45]")
            bad = await client.call_tool("schedule.get", {"codes": ["12345"]})
            assert bad.is_error and bad.content[0].text.startswith("VALIDATION_ERROR")  # type: ignore[union-attr]

    asyncio.run(scenario())
