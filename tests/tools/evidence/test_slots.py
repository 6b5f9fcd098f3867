"""The two pluggable slots, ``evidence.search_web`` and ``evidence.search_evidence_service``: off until
their URL is set, then against the replay server.

Neither has public recorded data (a SearXNG instance and an evidence service are whatever the
user runs), so their answers are written in tests/tools/evidence/trials_routes.py in the shapes
their APIs document.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pydantic import SecretStr

from curbside.settings import Settings
from curbside.tools import ToolRegistry, ToolResult
from curbside.tools.evidence.common import EvidenceDeps
from curbside.tools.evidence.slots import EVIDENCE_TOOL, WEB_TOOL, register
from curbside.tools.outbound import OutboundClient
from tests.tools.evidence.replay import Fault, ReplayServer, Reply
from tests.tools.evidence.trials_routes import (
    EVIDENCE_ANSWER,
    add_evidence_service_route,
    add_web_route,
)

Call = Callable[..., ToolResult]


@pytest.fixture(scope="module")
def _server() -> Iterator[ReplayServer]:
    server = ReplayServer()
    yield server
    server.close()


@pytest.fixture
def replay(_server: ReplayServer) -> ReplayServer:
    """One server for the module (each shutdown waits out a 0.5 s poll); routes and faults reset per test."""
    _server.reset()
    _server.routes.clear()
    return _server


@pytest.fixture
def on(evidence_settings: Settings, replay: ReplayServer) -> Settings:
    """Both slots configured, at the replay server."""
    return evidence_settings.model_copy(
        update={
            "web_search_url": f"{replay.url}/searx/search",
            "evidence_service_url": f"{replay.url}/evidence/search",
            "evidence_service_key": SecretStr("k-123"),
        }
    )


def call_on(call_tool: Call, make_client: Callable[..., OutboundClient], settings: Settings) -> Call:
    def call(name: str, args: dict[str, Any], detect: Any = "none") -> ToolResult:
        client = make_client(settings) if detect == "none" else make_client(settings, detect=detect)
        deps = EvidenceDeps(settings, client=lambda: client, today=lambda: "2026-11-27")
        return call_tool(register, name, args, deps=deps)

    return call


@pytest.fixture
def slot(call_tool: Call, make_client: Callable[..., OutboundClient], on: Settings) -> Call:
    return call_on(call_tool, make_client, on)


def test_both_are_registered_even_when_off(evidence_settings: Settings) -> None:
    registry = ToolRegistry()
    register(registry, EvidenceDeps(evidence_settings, client=lambda: OutboundClient(evidence_settings)))
    assert registry.names() == [WEB_TOOL, EVIDENCE_TOOL]
    for name in (WEB_TOOL, EVIDENCE_TOOL):
        spec = registry.get(name)
        assert (spec.category, spec.requires_phi) == ("evidence", False)
        assert "Off unless" in spec.description


@pytest.mark.parametrize(
    ("name", "args", "said"),
    [
        (WEB_TOOL, {"query": "tirzepatide"}, "Web search is off: set CURBSIDE_WEB_SEARCH_URL to "),
        (EVIDENCE_TOOL, {"query": "beta blockers"}, "The evidence service is off: set CURBSIDE_EVIDENCE_SERVICE_URL"),
    ],
)
def test_off_until_configured(
    name: str, args: dict[str, Any], said: str, call_tool: Call, replay: ReplayServer
) -> None:
    out = call_tool(register, name, args)
    assert out.status == "error" and out.error is not None
    assert out.error.code == "CONFIG_ERROR"
    assert out.error.message.startswith(said)
    assert replay.calls() == []  # nothing sent


# --- web search --------------------------------------------------------------------------------


def test_web_search(slot: Call, replay: ReplayServer) -> None:
    add_web_route(replay)
    out = slot(WEB_TOOL, {"query": "tirzepatide safety communication"})
    assert out.ok, out.error
    result = out.result or {}
    fda, medline, blog = result["results"]  # javascript: and the repeated page are gone
    assert fda["url"] == "https://www.fda.gov/drugs/drug-safety-and-availability/example-communication"
    assert (fda["domain"], fda["date"]) == ("fda.gov", "2024-01-12T00:00:00")
    assert fda["title"] == "FDA Drug Safety Communication (example)"
    assert fda["snippet"].startswith("The agency reviewed reports of adverse events.") and fda["snippet"].endswith("…")
    assert len(fda["snippet"]) <= 302
    assert fda["citation"] == {
        "source": "web (fda.gov)",
        "kind": "url",
        "id": fda["url"],
        "url": fda["url"],
        "retrieved": "2026-11-27",
    }
    assert (medline["domain"], medline["date"]) == ("medlineplus.gov", None)
    assert blog["domain"] == "example.org"
    assert result["warnings"] == ["Some search engines did not answer (google); results may be partial."]
    (request,) = replay.calls("/searx/search")
    assert (request.arg("q"), request.arg("format")) == ("tirzepatide safety communication", "json")


def test_web_search_keeps_chosen_sites(slot: Call, replay: ReplayServer) -> None:
    add_web_route(replay)
    out = slot(WEB_TOOL, {"query": "tirzepatide", "domains": ["FDA.gov", "medlineplus.gov"], "max_results": 5})
    assert [r["domain"] for r in (out.result or {})["results"]] == ["fda.gov", "medlineplus.gov"]
    out = slot(WEB_TOOL, {"query": "tirzepatide", "max_results": 1})
    assert [r["domain"] for r in (out.result or {})["results"]] == ["fda.gov"]
    out = slot(WEB_TOOL, {"query": "tirzepatide", "domains": ["who.int"]})
    result = out.result or {}
    assert result["results"] == []
    assert result["warnings"][0] == "3 results were on other sites than who.int."


def test_web_search_under_the_cap(
    call_tool: Call, make_client: Callable[..., OutboundClient], on: Settings, replay: ReplayServer
) -> None:
    sentence = "Long excerpt sentence about a drug safety topic. "
    many = {
        "results": [
            {"url": f"https://site{i}.example/page", "title": f"Page {i} " * 8, "content": sentence * 12}
            for i in range(10)
        ]
    }
    add_web_route(replay, many)
    small = on.model_copy(update={"evidence_result_bytes": 2000})
    out = call_on(call_tool, make_client, small)(WEB_TOOL, {"query": "drug safety", "max_results": 10})
    result = out.result or {}
    assert len(json.dumps(result, ensure_ascii=False).encode()) <= 2000
    assert 1 <= len(result["results"]) < 10
    assert all(len(r["snippet"]) <= 122 for r in result["results"])
    assert result["warnings"][-1].startswith("The last ") and "to stay under 2,000 bytes" in result["warnings"][-1]


def test_web_search_faults(slot: Call, replay: ReplayServer) -> None:
    add_web_route(replay)
    replay.fail_next("/searx/search", Fault("malformed"))
    out = slot(WEB_TOOL, {"query": "tirzepatide"})
    assert out.error is not None and out.error.code == "UPSTREAM_ERROR"
    assert out.error.message.startswith("web search sent a body that is not JSON")
    replay.fail_next("/searx/search", Fault("status", 429, retry_after="0"), Fault("status", 503))
    out = slot(WEB_TOOL, {"query": "semaglutide"})
    assert out.ok, out.error
    replay.routes.clear()
    replay.route("GET", "/searx/search", lambda request: Reply.of_json({"results": {"not": "a list"}}))
    out = slot(WEB_TOOL, {"query": "liraglutide"})
    assert out.error is not None and out.error.code == "UPSTREAM_ERROR"
    assert "without a 'results' list" in out.error.message


# --- evidence service --------------------------------------------------------------------------


def test_evidence_service(slot: Call, replay: ReplayServer) -> None:
    add_evidence_service_route(replay)
    out = slot(EVIDENCE_TOOL, {"query": "beta blockers in heart failure", "evidence_level": "high"})
    assert out.ok, out.error
    result = out.result or {}
    assert result["total_count"] == 42
    first, second = result["results"]
    assert first["title"] == EVIDENCE_ANSWER["results"][0]["title"]
    assert (first["evidence_level"], first["source"], first["pubmed_id"]) == (
        "high",
        "Example Journal of Cardiology",
        "10376614",
    )
    assert first["summary"].startswith("Beta-blockers reduce mortality")
    assert first["citation"] == {
        "source": "evidence service",
        "kind": "url",
        "id": "https://evidence.example/articles/1",
        "url": "https://evidence.example/articles/1",
        "retrieved": "2026-11-27",
    }
    assert second["pubmed_id"] == "11386263" and second["url"] is None
    assert second["citation"]["kind"] == "pmid"
    assert second["citation"]["url"] == "https://pubmed.ncbi.nlm.nih.gov/11386263/"
    assert result["warnings"] == ["1 result without a URL or PubMed id (nothing to cite) left out."]
    (request,) = replay.calls("/evidence/search")
    assert request.method == "POST"
    assert request.json() == {"query": "beta blockers in heart failure", "max_results": 5, "evidence_level": "high"}
    headers = {k.lower(): v for k, v in request.headers.items()}
    assert headers["authorization"] == "Bearer k-123"


def test_evidence_service_caps_and_faults(slot: Call, replay: ReplayServer) -> None:
    add_evidence_service_route(replay)
    out = slot(EVIDENCE_TOOL, {"query": "beta blockers", "max_results": 1})
    assert [r["pubmed_id"] for r in (out.result or {})["results"]] == ["10376614"]  # the service sent three
    replay.fail_next("/evidence/search", Fault("status", 500))
    out = slot(EVIDENCE_TOOL, {"query": "ace inhibitors"})
    assert out.ok, out.error
    replay.fail_next("/evidence/search", Fault("status", 401))
    out = slot(EVIDENCE_TOOL, {"query": "arbs"})
    assert out.error is not None and out.error.code == "UPSTREAM_ERROR"
    assert out.error.message == "evidence service answered HTTP 401: injected"
    replay.fail_next("/evidence/search", Fault("truncate"))
    out = slot(EVIDENCE_TOOL, {"query": "statins"})
    assert out.error is not None and "not JSON" in out.error.message
    replay.routes.clear()
    add_evidence_service_route(replay, {"results": []})
    out = slot(EVIDENCE_TOOL, {"query": "nothing known"})
    assert (out.result or {})["results"] == []
    assert (out.result or {})["warnings"] == [
        "The evidence service found nothing; try other words or no evidence_level."
    ]


# --- PHI -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [WEB_TOOL, EVIDENCE_TOOL])
def test_phi_is_refused_before_sending(
    name: str, call_tool: Call, make_client: Callable[..., OutboundClient], on: Settings, replay: ReplayServer
) -> None:
    add_web_route(replay)
    add_evidence_service_route(replay)
    call = call_on(call_tool, make_client, on)
    out = call(name, {"query": "heart failure in John Smith born 03/02/1950"}, detect=None)  # the real detector
    assert out.status == "error" and out.error is not None and out.error.code == "PHI_REFUSED"
    assert "John Smith" not in out.error.message
    assert replay.calls() == []


@pytest.mark.parametrize(
    ("name", "args"),
    [
        (WEB_TOOL, {"query": "x"}),
        (WEB_TOOL, {"query": "ok", "max_results": 11}),
        (WEB_TOOL, {"query": "ok", "domains": ["not a domain"]}),
        (EVIDENCE_TOOL, {"query": "ok", "evidence_level": "very high"}),
        (EVIDENCE_TOOL, {"query": "ok", "max_results": 0}),
    ],
)
def test_bad_arguments(name: str, args: dict[str, Any], slot: Call, replay: ReplayServer) -> None:
    out = slot(name, args)
    assert out.error is not None and out.error.code == "VALIDATION_ERROR"
    assert replay.calls() == []
