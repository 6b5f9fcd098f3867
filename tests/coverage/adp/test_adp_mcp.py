"""adp.get over MCP, in process, on the loaded manuals; and through the tools layer's registry."""

from __future__ import annotations

import asyncio

from mcp import Client

from curbside.app import Curbside
from curbside.coverage.adp.tool import AdpGetArgs, AdpGetResult
from curbside.mcp_server import build_mcp_server


def test_adp_get_is_registered(adp_app: Curbside) -> None:
    spec = adp_app.tools.registry.get("adp.get")
    assert (spec.category, spec.requires_phi, spec.timeout_s, spec.rate_limit) == ("coverage", False, 2.0, 60)
    assert spec.args_model is AdpGetArgs and spec.result_model is AdpGetResult


def test_adp_get_round_trip_over_mcp(adp_app: Curbside) -> None:
    async def scenario() -> None:
        async with Client(build_mcp_server(adp_app)) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert tools["adp.get"].input_schema == AdpGetArgs.model_json_schema()
            result = await client.call_tool("adp.get", {"q": "Does ADP cover power wheelchair batteries?"})
            assert not result.is_error
            answer = AdpGetResult.model_validate(result.structured_content)
            assert [(e.source.section, e.source.page) for e in answer.exclusion_rules if e.asked] == [
                ("200.02", 19),
                ("225", 14),
            ]
            assert answer.citations and answer.edition is not None and "July 2023" in answer.edition
            structured = await client.call_tool(
                "adp.get", {"device": {"category": "mobility", "type": "walker"}, "social_assistance": "ODSP"}
            )
            funding = AdpGetResult.model_validate(structured.structured_content).funding
            assert funding is not None and (funding.adp_contribution, funding.client_share_percent) == (100.0, 0.0)
            bad = await client.call_tool("adp.get", {"q": "walker", "patient_income": "lots"})
            assert bad.is_error and bad.content[0].text.startswith("VALIDATION_ERROR")  # type: ignore[union-attr]

    asyncio.run(scenario())
