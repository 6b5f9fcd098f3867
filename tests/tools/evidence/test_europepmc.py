"""``evidence.search_europepmc`` against recorded Europe PMC answers on a replay server, faults included."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from curbside.settings import Settings
from curbside.tools import ToolResult
from curbside.tools.evidence import europepmc
from curbside.tools.evidence.common import EvidenceDeps
from curbside.tools.outbound import OutboundClient
from tests.tools.evidence.literature_routes import EuropePmcRoutes
from tests.tools.evidence.replay import Fault, ReplayServer, Reply

SEARCH = "/europepmc/search"
FIRST_NEXT = "AoIIP4ZawSg1MzEyODI1MA=="  # nextCursorMark of the recorded first page
SECOND_NEXT = "AoIIP4lkIig1MzE0NTMwOA=="  # nextCursorMark of the recorded second page

Call = Callable[..., ToolResult]


def search(call_tool: Call, **args: Any) -> ToolResult:
    return call_tool(europepmc.register, europepmc.TOOL_NAME, {"query": "cancer", **args})


def size(result: ToolResult) -> int:
    return len(json.dumps(result.result, ensure_ascii=False).encode())


def test_a_core_page_has_abstracts_open_access_links_and_citations(
    replay: ReplayServer, shared_data: Path, call_tool: Call
) -> None:
    EuropePmcRoutes(replay, shared_data)
    result = search(call_tool, max_results=6)
    assert result.ok, result.error
    out = result.result
    assert out is not None
    assert (out["query"], out["hit_count"], out["next_cursor"]) == ("cancer", 5059039, FIRST_NEXT)
    assert [a["id"] for a in out["articles"]] == [
        "39709209",
        "39709208",
        "40468710",
        "40464630",
        "40493882",
        "40437959",
    ]
    lancet = out["articles"][0]
    assert lancet["title"] == (
        "Abscopal response in a patient with fibrolamellar hepatocellular carcinoma following radiotherapy."
    )
    assert lancet["authors"] == "Schoenfeld JD, Haas-Kogan DA, O'Neill AF"
    assert (lancet["journal"], lancet["year"], lancet["source"]) == ("Lancet", 2025, "MED")
    assert lancet["doi"] == "10.1016/s0140-6736(24)02600-x"
    assert lancet["is_open_access"] is False and lancet["full_text_url"] is None  # subscription only
    assert lancet["url"] == "https://europepmc.org/article/MED/39709209"
    assert lancet["citation"] == {
        "source": "Europe PMC",
        "kind": "pmid",
        "id": "39709209",
        "url": "https://europepmc.org/article/MED/39709209",
        "retrieved": "2026-11-27",
    }
    erratum = out["articles"][1]  # free to read on Europe PMC, though not open access
    assert erratum["pmcid"] == "PMC12124214" and erratum["is_open_access"] is False
    assert erratum["full_text_url"] == "https://europepmc.org/articles/PMC12124214"
    flexibility = out["articles"][2]
    assert flexibility["abstract"].startswith("OBJECTIVE: This study investigated whether psychological flexibility")
    assert "CONCLUSIONS: The findings show that psychological flexibility" in flexibility["abstract"]
    assert "<h4>" not in flexibility["abstract"]
    assert flexibility["journal"] == "Br J Health Psychol"
    screening = out["articles"][5]
    assert screening["is_open_access"] is True and screening["pmcid"] == "PMC12120539"
    assert screening["full_text_url"] == "https://europepmc.org/articles/PMC12120539"  # the OA html copy
    assert size(result) <= 10_000

    (sent,) = replay.calls(SEARCH)
    assert (sent.arg("query"), sent.arg("format"), sent.arg("resultType")) == ("cancer", "json", "core")
    assert (sent.arg("pageSize"), sent.arg("cursorMark")) == ("6", "*")


def test_a_lite_page_has_titles_and_the_pmc_link_of_open_access_articles(
    replay: ReplayServer, shared_data: Path, call_tool: Call
) -> None:
    EuropePmcRoutes(replay, shared_data)
    result = search(call_tool, max_results=6, abstracts=False)
    assert result.ok, result.error
    out = result.result
    assert out is not None
    assert replay.calls(SEARCH)[0].arg("resultType") == "lite"
    assert all(a["abstract"] is None for a in out["articles"])
    assert out["articles"][0]["journal"] == "Lancet"
    assert out["articles"][0]["publication_types"] == ["journal article"]
    assert out["articles"][5]["full_text_url"] == "https://europepmc.org/article/PMC/PMC12120539"
    assert out["articles"][1]["full_text_url"] is None  # not open access, and lite lists no links
    assert out["warnings"] == []


def test_the_cursor_brings_the_next_page(replay: ReplayServer, shared_data: Path, call_tool: Call) -> None:
    EuropePmcRoutes(replay, shared_data)
    first = search(call_tool, max_results=5, abstracts=False)
    assert first.ok and first.result is not None
    assert first.result["next_cursor"] == FIRST_NEXT
    second = search(call_tool, max_results=5, abstracts=False, cursor=first.result["next_cursor"])
    assert second.ok, second.error
    assert second.result is not None
    assert second.result["next_cursor"] == SECOND_NEXT
    assert len(second.result["articles"]) == 5
    assert [r.arg("cursorMark") for r in replay.calls(SEARCH)] == ["*", FIRST_NEXT]


def test_the_same_cursor_coming_back_means_the_last_page(
    replay: ReplayServer, shared_data: Path, call_tool: Call
) -> None:
    page = json.loads((shared_data / "api-responses" / "europepmc" / "search_cancer_page2.json").read_text())
    page["nextCursorMark"] = FIRST_NEXT  # Europe PMC's sign of the end: the mark sent comes back
    replay.route("GET", SEARCH, lambda request: Reply.of_json(page))
    result = search(call_tool, max_results=5, abstracts=False, cursor=FIRST_NEXT)
    assert result.ok and result.result is not None
    assert len(result.result["articles"]) == 5 and result.result["next_cursor"] is None


def test_open_access_and_years_become_query_filters(replay: ReplayServer, shared_data: Path, call_tool: Call) -> None:
    EuropePmcRoutes(replay, shared_data)
    result = search(call_tool, open_access_only=True, from_year=2020, to_year=2024)
    assert result.ok, result.error
    query = "(cancer) AND OPEN_ACCESS:y AND FIRST_PDATE:[2020-01-01 TO 2024-12-31]"
    assert result.result is not None and result.result["query"] == query
    assert replay.calls(SEARCH)[0].arg("query") == query
    only_from = search(call_tool, from_year=2023)
    assert only_from.result is not None
    assert only_from.result["query"] == "(cancer) AND FIRST_PDATE:[2023-01-01 TO 3000-12-31]"


def test_no_results_is_a_note_not_an_error(replay: ReplayServer, shared_data: Path, call_tool: Call) -> None:
    EuropePmcRoutes(replay, shared_data, empty=True)
    result = call_tool(europepmc.register, europepmc.TOOL_NAME, {"query": "asdkfjhasdkfjhasdfasdasdasdfgsagsd"})
    assert result.ok, result.error
    out = result.result
    assert out is not None
    assert (out["hit_count"], out["next_cursor"], out["articles"]) == (0, None, [])
    assert out["note"].startswith("No Europe PMC articles match 'asdkfjhasdkfjhasdfasdasdasdfgsagsd'.")


def test_the_247_kb_core_page_is_cut_under_the_cap_and_says_so(
    replay: ReplayServer, shared_data: Path, call_tool: Call
) -> None:
    recorded = shared_data / "api-responses" / "europepmc" / "search_cancer_core.json"
    assert recorded.stat().st_size > 240_000
    EuropePmcRoutes(replay, shared_data)
    result = search(call_tool, max_results=25)
    assert result.ok, result.error
    out = result.result
    assert out is not None
    assert size(result) <= 10_000
    shortened, dropped = out["warnings"]
    assert "abstracts were shortened at sentence ends (marked …)" in shortened
    assert "the whole result under 10,000 bytes" in shortened
    kept = len(out["articles"])
    assert 5 < kept < 25
    assert dropped.startswith(f"{25 - kept} of 25 articles were left out to keep the result under 10,000 bytes")
    assert "MED 40476859" in dropped  # the last recorded article went first
    assert out["articles"][0]["id"] == "39709209"  # the first stay, in order


# --- faults ----------------------------------------------------------------------------------------


def test_a_429_with_retry_after_is_waited_out(replay: ReplayServer, shared_data: Path, call_tool: Call) -> None:
    EuropePmcRoutes(replay, shared_data)
    replay.fail_next(SEARCH, Fault("status", 429, retry_after="1"))
    result = search(call_tool)
    assert result.ok, result.error
    assert len(replay.calls(SEARCH)) == 2 and result.duration_ms >= 900


def test_a_500_then_success_is_retried(replay: ReplayServer, shared_data: Path, call_tool: Call) -> None:
    EuropePmcRoutes(replay, shared_data)
    replay.fail_next(SEARCH, Fault("status", 500))
    result = search(call_tool)
    assert result.ok, result.error
    assert result.result is not None and result.result["articles"][0]["id"] == "39709209"


def test_failing_every_time_is_a_clear_error(replay: ReplayServer, shared_data: Path, call_tool: Call) -> None:
    EuropePmcRoutes(replay, shared_data)
    replay.fail_next(SEARCH, *[Fault("status", 502)] * 3)
    result = search(call_tool)
    assert result.status == "error" and result.error is not None
    assert result.error.code == "UPSTREAM_ERROR"
    assert "Europe PMC" in result.error.message and "502" in result.error.message
    assert len(replay.calls(SEARCH)) == 3


def test_a_timeout_is_reported_as_such(
    replay: ReplayServer,
    shared_data: Path,
    call_tool: Call,
    evidence_settings: Settings,
    make_client: Callable[..., OutboundClient],
) -> None:
    EuropePmcRoutes(replay, shared_data)
    replay.fail_next(SEARCH, Fault("delay", delay_s=1.5))
    settings = evidence_settings.model_copy(update={"outbound_timeout_s": 0.3, "outbound_retries": 0})
    client = make_client(settings)
    deps = EvidenceDeps(settings, client=lambda: client, today=lambda: "2026-11-27")
    result = call_tool(europepmc.register, europepmc.TOOL_NAME, {"query": "cancer"}, client=client, deps=deps)
    assert result.status == "error" and result.error is not None
    assert result.error.code == "UPSTREAM_TIMEOUT", result.error


@pytest.mark.parametrize("kind", ["malformed", "truncate"])
def test_a_broken_body_is_an_upstream_error(
    replay: ReplayServer, shared_data: Path, call_tool: Call, kind: str
) -> None:
    EuropePmcRoutes(replay, shared_data)
    replay.fail_next(SEARCH, Fault(kind))
    result = search(call_tool)
    assert result.status == "error" and result.error is not None
    assert result.error.code == "UPSTREAM_ERROR"
    assert "Europe PMC sent a body that is not JSON" in result.error.message


def test_json_without_a_result_list_is_an_upstream_error(
    replay: ReplayServer, shared_data: Path, call_tool: Call
) -> None:
    replay.route("GET", SEARCH, lambda request: Reply.of_json({"version": "6.9", "hitCount": 3}))
    result = search(call_tool)
    assert result.status == "error" and result.error is not None
    assert result.error.code == "UPSTREAM_ERROR" and "without a result list" in result.error.message


def test_odd_records_are_read_without_crashing(replay: ReplayServer, call_tool: Call) -> None:
    rows: list[Any] = [
        {"id": "PPR123", "source": "PPR", "title": "A <i>preprint</i> with p < .05", "pubYear": "n/a"},
        {"source": "MED", "title": "no id"},
        "not a record",
        {"id": 42, "authorString": "A B, C D, E F, G H, I J.", "isOpenAccess": "Y", "pmcid": "PMC9"},
    ]
    replay.route("GET", SEARCH, lambda request: Reply.of_json({"hitCount": 4, "resultList": {"result": rows}}))
    result = search(call_tool, abstracts=False)
    assert result.ok, result.error
    out = result.result
    assert out is not None
    preprint, bare = out["articles"]
    assert preprint["title"] == "A preprint with p < .05" and preprint["year"] is None
    assert preprint["citation"]["kind"] == "url" and preprint["url"] == "https://europepmc.org/article/PPR/PPR123"
    assert bare["id"] == "42" and bare["authors"] == "A B, C D, E F, et al."
    assert bare["full_text_url"] == "https://europepmc.org/article/PMC/PMC9"
    assert bare["citation"]["kind"] == "pmcid"
    assert out["warnings"] == ["2 record(s) without an id were left out."]
    assert out["next_cursor"] is None  # no nextCursorMark in the answer


# --- PHI and arguments ------------------------------------------------------------------------------


def test_a_query_with_phi_is_refused_by_the_real_detector_and_never_sent(
    replay: ReplayServer, shared_data: Path, call_tool: Call, make_client: Callable[..., OutboundClient]
) -> None:
    EuropePmcRoutes(replay, shared_data)
    client = make_client(detect=None)  # PhiScreen(settings): Curbside's own detector
    result = call_tool(
        europepmc.register, europepmc.TOOL_NAME, {"query": "John Smith born 1950-03-02 metformin"}, client=client
    )
    assert result.status == "error" and result.error is not None
    assert result.error.code == "PHI_REFUSED"
    assert "'query'" in result.error.message and "Europe PMC" in result.error.message
    assert replay.calls() == []


def test_bad_arguments_are_refused_before_anything_is_sent(
    replay: ReplayServer, shared_data: Path, call_tool: Call
) -> None:
    EuropePmcRoutes(replay, shared_data)
    for args in (
        {"from_year": 2024, "to_year": 2020},
        {"max_results": 26},
        {"cursor": "not a cursor; DROP"},
        {"open_access_only": "maybe"},
    ):
        result = search(call_tool, **args)
        assert result.status == "error" and result.error is not None
        assert result.error.code == "VALIDATION_ERROR", args
    assert replay.calls() == []
