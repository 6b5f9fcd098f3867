"""``evidence.search_medical_guidelines`` over a real application: one real PMC .nxml ingested as a
guideline and one as a journal article, searched through ``Curbside.search`` (audited)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from curbside.app import Curbside
from curbside.kb.ingest import IngestOptions
from curbside.settings import Settings
from curbside.tools import ToolResult
from curbside.tools.evidence.common import EvidenceDeps
from curbside.tools.evidence.guidelines import NO_GUIDELINES, TOOL_NAME, compose_query, register
from curbside.tools.outbound import OutboundClient
from curbside.types import SearchFilters, ToolCaller
from tests.tools.evidence.replay import ReplayServer

Call = Callable[..., ToolResult]

GUIDELINE = "guidelines/pmc-nxml/1472-6831-8-11.nxml"  # the smallest of the eight (61 kB)
ARTICLE = "guidelines/pmc-nxml/pone.0000217.nxml"
OHIP_NL = (
    "The Dutch version of the Oral Health Impact Profile (OHIP-NL): Translation, reliability and construct validity"
)


@pytest.fixture(scope="module")
def _server() -> Iterator[ReplayServer]:
    server = ReplayServer()
    yield server
    server.close()


@pytest.fixture
def replay(_server: ReplayServer) -> ReplayServer:
    """One server for the module (each shutdown waits out a 0.5 s poll); this tool never calls it."""
    _server.reset()
    return _server


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Iterator[Curbside]:
    core = Curbside(Settings(home=tmp_path_factory.mktemp("guidelines") / "home"))
    first = core.ingestor.ingest([shared_data / GUIDELINE], IngestOptions(source_type="guideline"))
    second = core.ingestor.ingest([shared_data / ARTICLE], IngestOptions(source_type="journal"))
    assert not first.failed and not second.failed
    yield core
    core.close()


@pytest.fixture
def deps(evidence_settings: Settings, make_client: Callable[..., OutboundClient], app: Curbside) -> EvidenceDeps:
    client = make_client()
    return EvidenceDeps(evidence_settings, client=lambda: client, search=app.search, today=lambda: "2026-11-27")


def search(call_tool: Call, deps: EvidenceDeps, **args: Any) -> dict[str, Any]:
    out = call_tool(register, TOOL_NAME, args, deps=deps)
    assert out.ok, out.error
    return out.result or {}


def test_only_guideline_passages_come_back(call_tool: Call, deps: EvidenceDeps, app: Curbside) -> None:
    result = search(call_tool, deps, query="oral health related quality of life questionnaire reliability", k=5)
    hits = result["hits"]
    assert 1 <= len(hits) <= 5
    assert {h["title"] for h in hits} == {OHIP_NL}
    assert all(h["doc_key"] == "1472-6831-8-11" and h["chunk_id"].startswith("1472-6831-8-11:v1:") for h in hits)
    first = hits[0]
    assert first["section_path"] and first["snippet"] and len(first["snippet"]) <= 602
    assert first["relevance"] is None or 0.0 <= first["relevance"] <= 1.0
    assert first["citation"] == {
        "source": "knowledge base",
        "kind": "chunk",
        "id": first["chunk_id"],
        "url": None,
        "retrieved": "2026-11-27",
    }
    assert "Oral Health Impact Profile" in " ".join(h["snippet"] for h in hits)
    assert result["warnings"] == []
    # the search is the application's audited one, as the caller
    rows = list(app.audit.export(datetime(2000, 1, 1, tzinfo=UTC)))
    last = rows[-1]
    assert (last["action"], last["user"], last["channel"]) == ("search", "dr-a", "cli")


def test_a_journal_article_is_not_a_guideline(call_tool: Call, deps: EvidenceDeps, app: Curbside) -> None:
    query = "mutation accumulation fitness of small populations, RNA virus evolution"
    unfiltered = app.search(query, ToolCaller(user="dr-a", role="clinician"), channel="cli", k=3)
    assert unfiltered.hits and {h.source_type for h in unfiltered.hits} == {"journal"}
    result = search(call_tool, deps, query=query)
    assert result["hits"] == []
    assert result["warnings"] == [NO_GUIDELINES]
    assert "curbside guidelines fetch" in NO_GUIDELINES and "--source-type guideline" in NO_GUIDELINES


def test_condition_and_findings_make_one_query(call_tool: Call, deps: EvidenceDeps) -> None:
    result = search(
        call_tool, deps, condition="oral health-related quality of life", findings=["partial dentures", "Dutch"], k=3
    )
    assert result["query"] == "oral health-related quality of life; partial dentures, Dutch"
    assert result["hits"] and result["hits"][0]["title"] == OHIP_NL
    assert compose_query("which treatment?", "malaria", ["pregnant", "first trimester"]) == (
        "malaria; pregnant, first trimester; which treatment?"
    )
    assert compose_query("question only", None, None) == "question only"


def test_result_stays_under_the_cap(
    call_tool: Call, evidence_settings: Settings, make_client: Callable[..., OutboundClient], app: Curbside
) -> None:
    small = evidence_settings.model_copy(update={"evidence_result_bytes": 1500})
    deps = EvidenceDeps(small, client=make_client, search=app.search, today=lambda: "2026-11-27")
    result = search(call_tool, deps, query="OHIP-NL reliability validity translation questionnaire", k=10)
    assert len(json.dumps(result, ensure_ascii=False).encode()) <= 1500
    assert result["hits"]
    assert any("to stay under 1,500 bytes" in w for w in result["warnings"])


def test_without_the_knowledge_base_it_says_so(call_tool: Call, evidence_settings: Settings) -> None:
    deps = EvidenceDeps(evidence_settings, client=lambda: OutboundClient(evidence_settings))
    out = call_tool(register, TOOL_NAME, {"query": "malaria in pregnancy"}, deps=deps)
    assert out.status == "error" and out.error is not None
    assert out.error.code == "CONFIG_ERROR"
    assert "registered without" in out.error.message


@pytest.mark.parametrize("args", [{}, {"k": 3}, {"query": "x", "k": 21}, {"query": "x", "source_type": "journal"}])
def test_bad_arguments_are_refused(args: dict[str, Any], call_tool: Call, deps: EvidenceDeps) -> None:
    out = call_tool(register, TOOL_NAME, args, deps=deps)
    assert out.status == "error" and out.error is not None and out.error.code == "VALIDATION_ERROR"


def test_the_call_into_the_application(call_tool: Call, evidence_settings: Settings, app: Curbside) -> None:
    seen: list[tuple[str, ToolCaller, dict[str, Any]]] = []

    def recording(query: str, caller: ToolCaller, **kwargs: Any) -> Any:
        seen.append((query, caller, kwargs))
        return app.search(query, caller, **kwargs)

    deps = EvidenceDeps(evidence_settings, client=lambda: OutboundClient(evidence_settings), search=recording)
    out = call_tool(
        register, TOOL_NAME, {"condition": "edentulism", "findings": ["complete dentures"], "k": 4}, deps=deps
    )
    assert out.ok, out.error
    ((query, caller, kwargs),) = seen
    assert query == "edentulism; complete dentures"
    assert (caller.user, caller.role) == ("dr-a", "clinician")
    assert kwargs == {"channel": "cli", "k": 4, "filters": SearchFilters(source_type="guideline")}
