"""``evidence.find_clinical_trials`` against the recorded ClinicalTrials.gov v2 page, replayed on loopback."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from curbside.settings import Settings
from curbside.tools import ToolRegistry, ToolResult
from curbside.tools.evidence.common import EvidenceDeps
from curbside.tools.evidence.trials import FIELDS, TOOL_NAME, parse_studies, register
from curbside.tools.outbound import OutboundClient
from tests.tools.evidence.replay import Fault, ReplayServer
from tests.tools.evidence.trials_routes import EMPTY_CONDITION, add_trials_routes

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
def recorded(replay: ReplayServer, shared_data: Path) -> dict[str, Any]:
    return add_trials_routes(replay, shared_data)


def trials(call_tool: Call, **args: Any) -> ToolResult:
    return call_tool(register, TOOL_NAME, {"condition": "knee arthroplasty", **args})


def test_registered_as_an_evidence_tool(evidence_settings: Settings) -> None:
    registry = ToolRegistry()
    register(registry, EvidenceDeps(evidence_settings, client=lambda: OutboundClient(evidence_settings)))
    spec = registry.get(TOOL_NAME)
    assert (spec.category, spec.requires_phi, spec.timeout_s) == ("evidence", False, 30.0)
    assert spec.citation and "clinicaltrials.gov/data-api" in spec.citation
    schema = spec.input_schema()
    assert schema["required"] == ["condition"]
    assert schema["properties"]["max_results"]["maximum"] == 20


def test_first_page_of_the_recording(call_tool: Call, replay: ReplayServer, recorded: dict[str, Any]) -> None:
    out = trials(call_tool, max_results=5)
    assert out.ok, out.error
    result = out.result or {}
    assert len(result["studies"]) == 5
    assert result["total"] is None  # the recording was made without countTotal
    assert result["next_page_token"] == "KV165pePlfg"
    assert result["warnings"] == []
    first = result["studies"][0]
    assert first["nct_id"] == "NCT05013879"
    assert first["title"] == "Kinesiotape for Edema After Bilateral Total Knee Arthroplasty"
    assert (first["status"], first["phases"], first["study_type"]) == ("COMPLETED", ["NA"], "INTERVENTIONAL")
    assert first["conditions"] == ["Arthroplasty Complications", "Arthroplasty, Replacement, Knee"]
    assert first["interventions"] == ["Device: Kinesio(R)Tape for edema control"]
    assert first["sponsor"] == "Montefiore Medical Center"
    assert (first["start_date"], first["completion_date"]) == ("2021-10-18", "2023-11-24")
    assert (first["enrollment"], first["enrollment_type"]) == (65, "ACTUAL")
    assert first["summary"].startswith("The purpose of this study is to determine if kinesiotaping")
    assert first["sites"] == ["Burke Rehabilitation Hospital, White Plains, New York, United States"]
    assert (first["sites_total"], first["sites_note"]) == (1, None)
    assert first["url"] == "https://clinicaltrials.gov/study/NCT05013879"
    assert first["citation"] == {
        "source": "ClinicalTrials.gov",
        "kind": "nct",
        "id": "NCT05013879",
        "url": "https://clinicaltrials.gov/study/NCT05013879",
        "retrieved": "2026-11-27",
    }
    by_id = {s["nct_id"]: s for s in result["studies"]}
    assert by_id["NCT06714279"]["phases"] == ["PHASE1"] and by_id["NCT06714279"]["sites"] == []
    assert by_id["NCT06714279"]["interventions"] == [
        "Drug: Tap Block - Bupivacaine",
        "Drug: Intraperitoneal infiltration to liver",
    ]
    long_summary = by_id["NCT06714279"]["summary"]  # 1,626 characters in the registry
    assert len(long_summary) <= 302 and long_summary.endswith("…")
    assert by_id["NCT05600179"]["phases"] == []  # an observational study lists no phase
    (request,) = replay.calls("/ctgov/studies")
    assert request.arg("format") == "json"
    assert request.arg("query.cond") == "knee arthroplasty"
    assert (request.arg("pageSize"), request.arg("countTotal"), request.arg("pageToken")) == ("5", "true", None)
    assert request.arg("fields") == FIELDS and "NCTId" in FIELDS and "LocationCity" in FIELDS


def test_a_full_page_fits_the_cap_by_trimming(call_tool: Call, recorded: dict[str, Any]) -> None:
    out = trials(call_tool, max_results=10)
    assert out.ok, out.error
    result = out.result or {}
    assert len(json.dumps(result, ensure_ascii=False).encode()) <= 10_000
    assert len(result["studies"]) == 10  # every study kept; their summaries give way first
    assert result["warnings"] == ["To stay under 10,000 bytes, summaries were left out and site lists were shortened."]
    crohn = result["studies"][8]
    assert crohn["nct_id"] == "NCT03058679" and crohn["summary"] is None
    assert (len(crohn["sites"]), crohn["sites_total"], crohn["sites_note"]) == (2, 35, "and 33 more sites")


def test_filters_become_the_apis_parameters(call_tool: Call, replay: ReplayServer, recorded: dict[str, Any]) -> None:
    out = trials(
        call_tool,
        intervention="tofersen",
        status=["RECRUITING", "NOT_YET_RECRUITING"],
        phase=["PHASE2", "PHASE3"],
        location="Boston",
        max_results=3,
    )
    assert out.ok, out.error
    assert len((out.result or {})["studies"]) == 3
    out = trials(call_tool, phase=["PHASE1"], max_results=2)
    assert out.ok, out.error
    first, second = replay.calls("/ctgov/studies")
    assert first.arg("query.intr") == "tofersen"
    assert first.arg("query.locn") == "Boston"
    assert first.arg("filter.overallStatus") == "RECRUITING,NOT_YET_RECRUITING"
    assert first.arg("filter.advanced") == "AREA[Phase](PHASE2 OR PHASE3)"
    assert first.arg("pageSize") == "3"
    assert second.arg("filter.advanced") == "AREA[Phase]PHASE1"
    assert second.arg("filter.overallStatus") is None and second.arg("query.locn") is None


def test_sites_matching_the_location_come_first(
    call_tool: Call, evidence_settings: Settings, make_client: Callable[..., OutboundClient], recorded: dict[str, Any]
) -> None:
    roomy = evidence_settings.model_copy(update={"evidence_result_bytes": 50_000})
    deps = EvidenceDeps(roomy, client=lambda: make_client(roomy), today=lambda: "2026-11-27")
    out = call_tool(register, TOOL_NAME, {"condition": "crohn", "location": "New York", "max_results": 10}, deps=deps)
    assert out.ok, out.error
    crohn = next(s for s in (out.result or {})["studies"] if s["nct_id"] == "NCT03058679")
    assert crohn["sites"] == [
        "NYU Langone Medical Center, New York, New York, United States",
        "Weill Cornell - NewYork Presbyterian, New York, New York, United States",
        "Icahn School of Medicine at Mount Sinai, New York, New York, United States",
        "Lenox Hill Hospital, New York, New York, United States",
        "University of Arizona, Tucson, Arizona, United States",  # then the registry's own order
    ]
    assert (crohn["sites_total"], crohn["sites_note"]) == (35, "and 30 more sites")
    out = call_tool(
        register, TOOL_NAME, {"condition": "crohn", "location": "Boston, Massachusetts", "max_results": 10}, deps=deps
    )
    studies = {s["nct_id"]: s for s in (out.result or {})["studies"]}
    assert studies["NCT03058679"]["sites"][0] == "Boston Children's Hospital, Boston, Massachusetts, United States"
    assert studies["NCT01511679"]["sites"][:2] == [
        "Massachusetts General Hospital, Boston, Massachusetts, United States",
        "Boston University School of Medicine, Boston, Massachusetts, United States",
    ]


def test_paging_passes_the_token_back(call_tool: Call, replay: ReplayServer, recorded: dict[str, Any]) -> None:
    first = trials(call_tool, max_results=5)
    token = (first.result or {})["next_page_token"]
    assert [s["nct_id"] for s in (first.result or {})["studies"]][:2] == ["NCT05013879", "NCT00517179"]
    second = trials(call_tool, max_results=5, page_token=token)
    assert second.ok, second.error
    page = second.result or {}
    assert [s["nct_id"] for s in page["studies"]] == ["NCT01126879", "NCT03058679", "NCT05531279"]
    assert page["next_page_token"] is None
    assert replay.calls("/ctgov/studies")[-1].arg("pageToken") == "KV165pePlfg"
    stale = trials(call_tool, page_token="not-a-token-it-issued")
    assert stale.status == "error" and stale.error is not None
    assert stale.error.code == "UPSTREAM_ERROR"
    assert "HTTP 400" in stale.error.message and "pageToken" in stale.error.message


def test_total_is_read_when_counted(call_tool: Call, replay: ReplayServer, shared_data: Path) -> None:
    add_trials_routes(replay, shared_data, total=1234)
    out = trials(call_tool, max_results=1)
    assert (out.result or {})["total"] == 1234


def test_result_stays_under_the_cap(
    call_tool: Call, evidence_settings: Settings, make_client: Callable[..., OutboundClient], recorded: dict[str, Any]
) -> None:
    small = evidence_settings.model_copy(update={"evidence_result_bytes": 3000})
    deps = EvidenceDeps(small, client=lambda: make_client(small), today=lambda: "2026-11-27")
    out = call_tool(register, TOOL_NAME, {"condition": "knee arthroplasty", "max_results": 10}, deps=deps)
    assert out.ok, out.error
    result = out.result or {}
    assert len(json.dumps(result, ensure_ascii=False).encode()) <= 3000
    assert 1 <= len(result["studies"]) < 10
    assert result["warnings"][1].startswith("7 more studies on this page were left out to stay under 3,000 bytes")
    assert all(len(s["sites"]) <= 2 and s["summary"] is None for s in result["studies"])


def test_empty_result(call_tool: Call, recorded: dict[str, Any]) -> None:
    out = call_tool(register, TOOL_NAME, {"condition": EMPTY_CONDITION})
    assert out.ok, out.error
    result = out.result or {}
    assert result["studies"] == [] and result["next_page_token"] is None
    assert result["warnings"] == [
        "No registered study matches; try a broader condition, fewer filters, or no location."
    ]


# --- faults --------------------------------------------------------------------------------------


def test_429_with_retry_after_then_success(call_tool: Call, replay: ReplayServer, recorded: dict[str, Any]) -> None:
    replay.fail_next("/ctgov/studies", Fault("status", 429, retry_after="1"))
    out = trials(call_tool, max_results=2)
    assert out.ok, out.error
    assert len(replay.calls("/ctgov/studies")) == 2
    assert out.duration_ms >= 900  # the Retry-After was honoured


def test_500_then_success(call_tool: Call, replay: ReplayServer, recorded: dict[str, Any]) -> None:
    replay.fail_next("/ctgov/studies", Fault("status", 500))
    out = trials(call_tool, max_results=2)
    assert out.ok, out.error
    assert [s["nct_id"] for s in (out.result or {})["studies"]] == ["NCT05013879", "NCT00517179"]


def test_500_forever_is_a_clear_error(call_tool: Call, replay: ReplayServer, recorded: dict[str, Any]) -> None:
    replay.fail_next("/ctgov/studies", *[Fault("status", 500)] * 3)
    out = trials(call_tool)
    assert out.status == "error" and out.error is not None
    assert out.error.code == "UPSTREAM_ERROR"
    assert out.error.message.startswith("ClinicalTrials.gov answered HTTP 500")
    assert len(replay.calls("/ctgov/studies")) == 3  # the first try and two retries


def test_timeout(
    call_tool: Call,
    evidence_settings: Settings,
    make_client: Callable[..., OutboundClient],
    replay: ReplayServer,
    recorded: dict[str, Any],
) -> None:
    quick = evidence_settings.model_copy(update={"outbound_timeout_s": 0.3, "outbound_retries": 0})
    replay.fail_next("/ctgov/studies", Fault("delay", delay_s=1.0))
    deps = EvidenceDeps(quick, client=lambda: make_client(quick), today=lambda: "2026-11-27")
    out = call_tool(register, TOOL_NAME, {"condition": "knee arthroplasty"}, deps=deps)
    assert out.status == "error" and out.error is not None
    assert out.error.code == "UPSTREAM_TIMEOUT"
    assert "ClinicalTrials.gov" in out.error.message and "did not answer in time" in out.error.message


@pytest.mark.parametrize("kind", ["malformed", "truncate"])
def test_broken_body_is_an_upstream_error(
    kind: str, call_tool: Call, replay: ReplayServer, recorded: dict[str, Any]
) -> None:
    replay.fail_next("/ctgov/studies", Fault(kind))
    out = trials(call_tool)
    assert out.status == "error" and out.error is not None
    assert out.error.code == "UPSTREAM_ERROR"
    assert "ClinicalTrials.gov sent a body that is not JSON" in out.error.message


@pytest.mark.parametrize("body", [{"studies": "none"}, {"message": "maintenance"}, [1, 2]])
def test_a_body_without_studies_is_an_upstream_error(body: Any, call_tool: Call, replay: ReplayServer) -> None:
    from tests.tools.evidence.replay import Reply

    replay.route("GET", "/ctgov/studies", lambda request: Reply.of_json(body))
    out = trials(call_tool)
    assert out.error is not None and out.error.code == "UPSTREAM_ERROR"
    assert "without a 'studies' list" in out.error.message


def test_parsing_tolerates_missing_fields() -> None:
    data = {
        "studies": [
            {"protocolSection": {"identificationModule": {"nctId": "NCT00000001"}}},
            {"protocolSection": {"identificationModule": {"briefTitle": "no NCT number"}}},
            "not a study",
            {
                "protocolSection": {
                    "identificationModule": {"nctId": "NCT00000002", "officialTitle": "Official only"},
                    "designModule": {"phases": "PHASE2", "enrollmentInfo": {"count": "many"}},
                    "contactsLocationsModule": {"locations": [None, {"city": "Toronto"}]},
                }
            },
        ],
        "totalCount": True,
    }
    result = parse_studies(data, location="toronto", retrieved="2026-11-27")
    bare, other = result.studies
    assert bare.nct_id == "NCT00000001" and bare.title is None and bare.sites == [] and bare.enrollment is None
    assert other.title == "Official only" and other.phases == [] and other.enrollment is None
    assert other.sites == ["Toronto"]
    assert result.total is None
    assert result.warnings == ["2 studies without an NCT number were left out."]


# --- arguments and PHI ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        {"condition": "als", "status": ["OPEN"]},
        {"condition": "als", "phase": ["PHASE5"]},
        {"condition": "als", "max_results": 21},
        {"condition": "als", "page_token": "a token with spaces"},
        {"condition": "als", "sort": "date"},
        {"condition": " "},
    ],
)
def test_bad_arguments_are_refused(args: dict[str, Any], call_tool: Call, replay: ReplayServer) -> None:
    out = call_tool(register, TOOL_NAME, args)
    assert out.status == "error" and out.error is not None and out.error.code == "VALIDATION_ERROR"
    assert replay.calls() == []


def test_phi_is_refused_and_a_city_is_not(
    call_tool: Call, make_client: Callable[..., OutboundClient], replay: ReplayServer, recorded: dict[str, Any]
) -> None:
    real = make_client(detect=None)  # Curbside's own PHI detector
    out = call_tool(
        register, TOOL_NAME, {"condition": "ALS in John Smith born 03/02/1950", "location": "Toronto"}, client=real
    )
    assert out.status == "error" and out.error is not None and out.error.code == "PHI_REFUSED"
    assert "'condition'" in out.error.message and "John Smith" not in out.error.message
    assert replay.calls() == []
    out = call_tool(
        register, TOOL_NAME, {"condition": "amyotrophic lateral sclerosis", "location": "Toronto"}, client=real
    )
    assert out.ok, out.error
    assert replay.calls("/ctgov/studies")[0].arg("query.locn") == "Toronto"
