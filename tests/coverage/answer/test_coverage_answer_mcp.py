"""coverage.answer over MCP, in process, on the loaded formulary subset."""

from __future__ import annotations

import asyncio

from mcp import Client

from curbside.app import Curbside
from curbside.coverage.answer.models import CoverageAnswerArgs, CoverageAnswerResult
from curbside.mcp_server import build_mcp_server


def test_coverage_answer_round_trip_over_mcp(odb_app: Curbside) -> None:
    async def scenario() -> None:
        async with Client(build_mcp_server(odb_app)) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            listed = tools["coverage.answer"]
            assert listed.input_schema == CoverageAnswerArgs.model_json_schema()
            assert listed.meta is not None and listed.meta["curbside/requires_phi"] is True
            result = await client.call_tool(
                "coverage.answer", {"question": "Is there a generic for Januvia?", "patient": {"plan": "ODB"}}
            )
            assert not result.is_error
            answer = CoverageAnswerResult.model_validate(result.structured_content)
            assert answer.decision == "covered"
            assert [(t.tool, t.status) for t in answer.trace] == [("odb.get", "ok")]
            assert "PMS-Sitagliptin (DIN 02503840)" in answer.highlights[1].point
            empty = CoverageAnswerResult.model_validate(
                (await client.call_tool("coverage.answer", {"question": ""})).structured_content
            )
            assert empty.decision == "needs_more_info" and empty.followups
            bad = await client.call_tool("coverage.answer", {"question": "x", "patient": {"income": "lots"}})
            assert bad.is_error and bad.content[0].text.startswith("VALIDATION_ERROR")  # type: ignore[union-attr]

    asyncio.run(scenario())


def test_three_tools_behind_one_mcp_call(coverage_app: Curbside) -> None:
    async def scenario() -> None:
        async with Client(build_mcp_server(coverage_app)) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"coverage.answer", "schedule.get", "adp.get", "odb.get", "source.passages"} <= names
            result = await client.call_tool(
                "coverage.answer",
                {
                    "question": "Can I bill C124 if the patient was discharged 36 hours after admission? She needs a "
                    "walker and takes Januvia: what is covered?"
                },
            )
            assert not result.is_error
            answer = CoverageAnswerResult.model_validate(result.structured_content)
            assert [(t.tool, t.status) for t in answer.trace] == [
                ("schedule.get", "ok"),
                ("adp.get", "ok"),
                ("odb.get", "ok"),
            ]
            assert [d.decision for d in answer.domains] == ["not_billable", "eligible", "covered"]
            assert answer.decision == "not_billable"

    asyncio.run(scenario())
