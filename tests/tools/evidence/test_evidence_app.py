"""The evidence family inside the application: every tool served over MCP against the replay
server, and a query holding PHI refused by the real detector, never sent, and on the audit trail."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from curbside.app import Curbside
from curbside.mcp_server import build_mcp_server
from curbside.settings import Settings
from tests.tools.evidence.literature_routes import EuropePmcRoutes, PubMedRoutes
from tests.tools.evidence.openfda_routes import install_openfda
from tests.tools.evidence.replay import ReplayServer
from tests.tools.evidence.trials_routes import add_evidence_service_route, add_trials_routes, add_web_route

# one call per tool, each answerable from the recorded responses
CALLS: dict[str, dict[str, Any]] = {
    "evidence.search_pubmed": {"query": "SGLT2 inhibitors heart failure preserved ejection fraction", "max_results": 3},
    "evidence.search_europepmc": {"query": "cancer", "max_results": 3},
    "evidence.find_clinical_trials": {"condition": "Crohn disease", "max_results": 3},
    "evidence.check_drug_safety": {"drug": "Humira"},
    "evidence.check_drug_interactions": {"drugs": ["Humira", "methotrexate"]},
    "evidence.adverse_events": {"drug": "adalimumab", "top": 5},
    "evidence.search_medical_guidelines": {"query": "oral health quality of life"},
    "evidence.search_web": {"query": "amiodarone boxed warning"},
    "evidence.search_evidence_service": {"query": "beta blockers in heart failure"},
}


@pytest.fixture
def served(shared_data: Path, tmp_path: Path) -> Iterator[tuple[Curbside, ReplayServer]]:
    replay = ReplayServer()
    PubMedRoutes(replay, shared_data)
    EuropePmcRoutes(replay, shared_data)
    add_trials_routes(replay, shared_data)
    install_openfda(replay, shared_data)
    add_web_route(replay)
    add_evidence_service_route(replay)
    settings = Settings(
        home=tmp_path / "home",
        pubmed_url=f"{replay.url}/eutils",
        europepmc_url=f"{replay.url}/europepmc",
        clinicaltrials_url=f"{replay.url}/ctgov",
        openfda_url=f"{replay.url}/openfda",
        web_search_url=f"{replay.url}/searx/search",
        evidence_service_url=f"{replay.url}/evidence/search",
        outbound_backoff_s=0.01,
    )
    app = Curbside(settings)
    yield app, replay
    app.close()
    replay.close()


def test_every_evidence_tool_answers_over_mcp(served: tuple[Curbside, ReplayServer]) -> None:
    app, replay = served

    async def scenario() -> dict[str, Any]:
        async with Client(build_mcp_server(app)) as client:
            listed = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert set(CALLS) <= set(listed)
            for name in CALLS:
                assert listed[name].meta is not None and listed[name].meta["curbside/category"] == "evidence"
            results = {}
            for name, arguments in CALLS.items():
                result = await client.call_tool(name, arguments)
                assert not result.is_error, (name, result.content)
                results[name] = result.structured_content
            return results

    results = asyncio.run(scenario())
    assert any(a["pmid"] for a in results["evidence.search_pubmed"]["articles"])
    assert results["evidence.check_drug_safety"]["set_id"] == "608d4f0d-b19f-46d3-749a-7159aa5f933d"
    assert results["evidence.find_clinical_trials"]["studies"][0]["nct_id"].startswith("NCT")
    assert "not an interaction database" in results["evidence.check_drug_interactions"]["disclaimer"]
    # the knowledge base is empty: the guideline search says so instead of guessing
    assert results["evidence.search_medical_guidelines"]["hits"] == []
    assert results["evidence.search_medical_guidelines"]["warnings"]
    for name, result in results.items():
        if name != "evidence.search_medical_guidelines":
            assert len(str(result)) < 3 * app.settings.evidence_result_bytes, name
    assert replay.calls("/openfda/drug/label.json")


def test_a_query_with_phi_is_refused_audited_and_never_sent(served: tuple[Curbside, ReplayServer]) -> None:
    app, replay = served
    result = asyncio.run(
        app.tools.call("evidence.search_pubmed", {"query": "Mr. John Smith DOB 1950-03-02 metformin lactic acidosis"})
    )
    assert result.status == "error" and result.error is not None and result.error.code == "PHI_REFUSED"
    assert "Smith" not in result.error.message and "PERSON" in result.error.message
    assert replay.calls("/eutils/") == []
    rows = list(app.audit.export(datetime.now(UTC) - timedelta(minutes=5)))
    refused = [row for row in rows if row["action"] == "tool" and row["outcome"] == "PHI_REFUSED"]
    assert len(refused) == 1 and refused[0]["tools"] == ["evidence.search_pubmed"]
    assert "Smith" not in str(refused[0])
