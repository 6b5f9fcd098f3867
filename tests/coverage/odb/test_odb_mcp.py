"""odb.get over MCP, in process, on the loaded formulary."""

from __future__ import annotations

import asyncio

from mcp import Client

from curbside.app import Curbside
from curbside.coverage.odb.tool import OdbGetArgs, OdbGetResult
from curbside.mcp_server import build_mcp_server


def test_odb_get_round_trip_over_mcp(odb_app: Curbside) -> None:
    async def scenario() -> None:
        async with Client(build_mcp_server(odb_app)) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert tools["odb.get"].input_schema == OdbGetArgs.model_json_schema()
            result = await client.call_tool("odb.get", {"q": "is Ozempic covered for diabetes?"})
            assert not result.is_error
            answer = OdbGetResult.model_validate(result.structured_content)
            assert answer.coverage is not None and answer.coverage.din == "02540258"
            assert answer.coverage.lu_required is True
            assert answer.citations and "Edition 43 (2025-08-29)" in answer.citations[0].title
            bad = await client.call_tool("odb.get", {"nonsense": 1})
            assert bad.is_error and bad.content[0].text.startswith("VALIDATION_ERROR")  # type: ignore[union-attr]

    asyncio.run(scenario())
