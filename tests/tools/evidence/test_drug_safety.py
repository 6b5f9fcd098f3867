"""``evidence.check_drug_safety`` against the recorded HUMIRA label, served by the replay server."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from curbside.settings import Settings
from curbside.tools import ToolResult
from curbside.tools.evidence import drug_safety
from curbside.tools.evidence.common import EvidenceDeps
from curbside.tools.evidence.openfda import phrase, strip_heading
from curbside.tools.outbound import OutboundClient
from tests.tools.evidence.openfda_routes import OpenFda, install_openfda
from tests.tools.evidence.replay import Fault, ReplayServer

TOOL = drug_safety.TOOL
LABEL = "/openfda/drug/label.json"
HUMIRA_SET_ID = "608d4f0d-b19f-46d3-749a-7159aa5f933d"

Call = Callable[..., ToolResult]


@pytest.fixture
def fda(replay: ReplayServer, shared_data: Path) -> OpenFda:
    return install_openfda(replay, shared_data)


def _call(call_tool: Call, args: dict[str, Any], **kw: Any) -> ToolResult:
    return call_tool(drug_safety.register, TOOL, args, **kw)


def _sections(result: ToolResult) -> dict[str, dict[str, Any]]:
    assert result.result is not None
    return {s["section"]: s for s in result.result["sections"]}


def _deps(settings: Settings, client: OutboundClient) -> EvidenceDeps:
    return EvidenceDeps(settings, client=lambda: client, today=lambda: "2026-11-27")


def _searches(replay: ReplayServer) -> list[str]:
    return [r.arg("search") or "" for r in replay.calls(LABEL)]


def test_humira_by_brand_name_reads_the_recorded_label(fda: OpenFda, replay: ReplayServer, call_tool: Call) -> None:
    out = _call(call_tool, {"drug": "Humira"})
    assert out.ok, out.error
    res = out.result
    assert res is not None
    assert res["found"] is True
    assert res["brand_names"] == ["Humira"] and res["generic_names"] == ["ADALIMUMAB"]
    assert res["manufacturer"] == "AbbVie Inc."
    assert res["set_id"] == HUMIRA_SET_ID
    assert res["effective_time"] == "2016-08-29"
    assert res["matched_by"] == "openfda.brand_name" and res["labels_matched"] == 1
    assert "not a Canadian product monograph" in res["note"]
    assert res["citations"] == [
        {
            "source": "openFDA drug label (DailyMed SPL)",
            "kind": "openfda_set_id",
            "id": HUMIRA_SET_ID,
            "url": f"https://dailymed.nlm.nih.gov/dailymed/lookup.cfm?setid={HUMIRA_SET_ID}",
            "retrieved": "2026-11-27",
        }
    ]
    sections = _sections(out)
    assert list(sections) == list(drug_safety.ALL_SECTIONS)
    boxed = sections["boxed_warning"]
    assert boxed["present"] and boxed["text"].startswith("WARNING: SERIOUS INFECTIONS AND MALIGNANCY")
    assert boxed["truncated"] and boxed["text"].endswith("…") and len(boxed["text"]) <= 1200
    # the heading "4 CONTRAINDICATIONS" is gone; what the label says stays
    assert sections["contraindications"]["text"] == "None. None (4)"
    warnings = sections["warnings_and_cautions"]
    assert warnings["fields"] == ["warnings_and_cautions"]
    assert warnings["text"].startswith("Serious infections: Do not start HUMIRA during an active infection.")
    assert sections["pregnancy"]["text"].startswith("Risk Summary Limited clinical data are available from the Humira")
    # PLR lactation text sits in the label's nursing_mothers field ("8.2 Lactation Risk Summary …")
    lactation = sections["lactation"]
    assert lactation["fields"] == ["nursing_mothers"] and not lactation["truncated"]
    assert lactation["text"].startswith("Risk Summary Limited data from case reports")
    # HUMIRA's label says nothing on renal or hepatic impairment ("hepatosplenic" is not "hepatic")
    for organ in ("renal", "hepatic"):
        assert sections[organ]["present"] is False
        assert sections[organ]["text"].startswith("none on the label (no sentence on " + organ)
    assert _searches(replay) == ['openfda.brand_name:"Humira"']


def test_query_is_a_quoted_phrase_and_never_an_or(fda: OpenFda, replay: ReplayServer, call_tool: Call) -> None:
    out = _call(call_tool, {"drug": "adalimumab"})
    assert out.ok and out.result is not None
    assert out.result["matched_by"] == "openfda.generic_name"
    searches = _searches(replay)
    # brand name first (404 here), then the generic name: two requests, never "+OR+"
    assert searches == ['openfda.brand_name:"adalimumab"', 'openfda.generic_name:"adalimumab"']
    for request in replay.calls(LABEL):
        assert request.arg("limit") == "5"
        assert "api_key" not in request.query
    for search in searches:
        assert "+OR+" not in search and " OR " not in search and "+" not in search


def test_phrase_escapes_quotes_and_backslashes() -> None:
    assert phrase("openfda.brand_name", 'a"b\\c') == 'openfda.brand_name:"a\\"b\\\\c"'


def test_strip_heading_removes_number_and_heading_only() -> None:
    assert strip_heading("5 WARNINGS AND PRECAUTIONS Serious infections", ["WARNINGS AND PRECAUTIONS", "WARNINGS"]) == (
        "Serious infections"
    )
    assert strip_heading("WARNINGS: Hepatotoxicity", ["WARNINGS"]) == "Hepatotoxicity"
    assert strip_heading("8.2 Lactation Risk Summary", ["Lactation"]) == "Risk Summary"
    assert strip_heading("WARNING: SERIOUS INFECTIONS", ["BOXED WARNING"]) == "WARNING: SERIOUS INFECTIONS"


@pytest.mark.parametrize("bad", ['Humira" OR openfda.generic_name:"x', "Humira+OR+x", "x", "Humira*"])
def test_names_with_query_syntax_are_refused(fda: OpenFda, replay: ReplayServer, call_tool: Call, bad: str) -> None:
    out = _call(call_tool, {"drug": bad})
    assert out.status == "error" and out.error is not None and out.error.code == "VALIDATION_ERROR"
    assert replay.calls(LABEL) == []


def test_chosen_sections_cut_at_a_sentence(fda: OpenFda, call_tool: Call) -> None:
    out = _call(call_tool, {"drug": "humira", "sections": ["boxed_warning", "renal"], "max_chars_per_section": 300})
    sections = _sections(out)
    assert list(sections) == ["boxed_warning", "renal"]
    text = sections["boxed_warning"]["text"]
    assert len(text) <= 300 and text.endswith(" …")
    assert text.startswith("WARNING: SERIOUS INFECTIONS AND MALIGNANCY SERIOUS INFECTIONS Patients treated with HUMIRA")
    assert text[:-2].endswith(".")  # the cut is at a sentence end


def test_renal_and_hepatic_sentences_are_picked_from_specific_populations(fda: OpenFda, call_tool: Call) -> None:
    label = fda.humira
    label["set_id"] = "11111111-2222-3333-4444-555555555555"
    label["openfda"] = {"brand_name": ["Renalex"], "generic_name": ["RENALEXIN"]}
    label["use_in_specific_populations"] = [
        "8 USE IN SPECIFIC POPULATIONS 8.1 Pregnancy No data. 8.6 Renal Impairment Reduce the dose when creatinine "
        "clearance is below 30 mL/min. 8.7 Hepatic Impairment Avoid in patients with Child-Pugh C cirrhosis."
    ]
    label["dosage_and_administration"] = [
        "2 DOSAGE AND ADMINISTRATION Give 10 mg daily. In hemodialysis give after dialysis."
    ]
    fda.add_label(label, brand="Renalex")
    sections = _sections(_call(call_tool, {"drug": "Renalex", "sections": ["renal", "hepatic"]}))
    assert sections["renal"]["fields"] == ["use_in_specific_populations", "dosage_and_administration"]
    assert sections["renal"]["text"] == (
        "8.6 Renal Impairment Reduce the dose when creatinine clearance is below 30 mL/min. "
        "In hemodialysis give after dialysis."
    )
    assert sections["hepatic"]["text"] == "8.7 Hepatic Impairment Avoid in patients with Child-Pugh C cirrhosis."


def test_most_recent_of_several_labels_is_used_and_the_count_said(fda: OpenFda, call_tool: Call) -> None:
    older = fda.humira
    older["set_id"] = "00000000-0000-0000-0000-000000000001"
    older["effective_time"] = "20100101"
    fda.add_label(older, brand="Humira")
    out = _call(call_tool, {"drug": "Humira"})
    assert out.result is not None
    assert out.result["set_id"] == HUMIRA_SET_ID and out.result["labels_matched"] == 2
    assert any("2 openFDA labels matched 'Humira'" in w for w in out.result["warnings"])


def test_not_found_is_an_answer_not_an_error(fda: OpenFda, replay: ReplayServer, call_tool: Call) -> None:
    out = _call(call_tool, {"drug": "Nosuchdrug"})
    assert out.ok and out.result is not None
    assert out.result["found"] is False and out.result["sections"] == []
    assert out.result["message"].startswith("no openFDA label for 'Nosuchdrug'")
    assert out.result["citations"][0]["kind"] == "openfda_query"
    assert len(replay.calls(LABEL)) == 2  # brand, then generic


def test_a_404_that_is_not_openfdas_no_match_names_the_setting(
    replay: ReplayServer, evidence_settings: Settings, call_tool: Call
) -> None:
    # nothing is routed: the replay server's own 404 stands for a wrong base URL
    out = _call(call_tool, {"drug": "Humira"})
    assert out.status == "error" and out.error is not None and out.error.code == "UPSTREAM_ERROR"
    assert "CURBSIDE_OPENFDA_URL" in out.error.message and evidence_settings.openfda_url in out.error.message


def test_result_stays_under_the_cap_with_long_sections(
    fda: OpenFda, evidence_settings: Settings, call_tool: Call
) -> None:
    out = _call(call_tool, {"drug": "Humira", "max_chars_per_section": 6000})
    assert out.result is not None
    size = len(json.dumps(out.result, ensure_ascii=False).encode())
    assert size <= evidence_settings.evidence_result_bytes
    assert any("shortened further" in w for w in out.result["warnings"])
    assert _sections(out)["warnings_and_cautions"]["text"].endswith("…")


def test_429_with_retry_after_then_success(fda: OpenFda, replay: ReplayServer, call_tool: Call) -> None:
    replay.fail_next(LABEL, Fault("status", 429, retry_after="1"))
    started = time.perf_counter()
    out = _call(call_tool, {"drug": "Humira"})
    assert out.ok and out.result is not None and out.result["set_id"] == HUMIRA_SET_ID
    assert time.perf_counter() - started >= 0.9  # Retry-After was honoured
    assert len(replay.calls(LABEL)) == 2


def test_500_then_success(fda: OpenFda, replay: ReplayServer, call_tool: Call) -> None:
    replay.fail_next(LABEL, Fault("status", 500))
    out = _call(call_tool, {"drug": "Humira"})
    assert out.ok and len(replay.calls(LABEL)) == 2


def test_500_forever_is_an_upstream_error_naming_openfda(fda: OpenFda, replay: ReplayServer, call_tool: Call) -> None:
    replay.fail_next(LABEL, *[Fault("status", 500)] * 3)
    out = _call(call_tool, {"drug": "Humira"})
    assert out.status == "error" and out.error is not None
    assert out.error.code == "UPSTREAM_ERROR"
    assert out.error.message.startswith("openFDA answered HTTP 500")


@pytest.mark.parametrize("kind", ["malformed", "truncate"])
def test_broken_body_is_an_upstream_error(fda: OpenFda, replay: ReplayServer, call_tool: Call, kind: str) -> None:
    replay.fail_next(LABEL, Fault(kind))
    out = _call(call_tool, {"drug": "Humira"})
    assert out.status == "error" and out.error is not None and out.error.code == "UPSTREAM_ERROR"
    assert "openFDA sent a body that is not JSON" in out.error.message


def test_timeout_is_an_upstream_timeout(
    fda: OpenFda,
    replay: ReplayServer,
    evidence_settings: Settings,
    make_client: Callable[..., OutboundClient],
    call_tool: Call,
) -> None:
    settings = evidence_settings.model_copy(update={"outbound_timeout_s": 0.3, "outbound_retries": 0})
    replay.fail_next(LABEL, Fault("delay", delay_s=1.0))
    deps = _deps(settings, make_client(settings))
    out = _call(call_tool, {"drug": "Humira"}, deps=deps)
    assert out.status == "error" and out.error is not None
    assert out.error.code == "UPSTREAM_TIMEOUT" and "openFDA" in out.error.message


def test_a_second_call_is_answered_from_the_cache(
    fda: OpenFda, replay: ReplayServer, make_client: Callable[..., OutboundClient], call_tool: Call
) -> None:
    client = make_client()
    first = _call(call_tool, {"drug": "Humira"}, client=client)
    second = _call(call_tool, {"drug": "Humira"}, client=client)
    assert first.result == second.result
    assert len(replay.calls(LABEL)) == 1


def test_phi_in_the_name_is_refused_and_nothing_is_sent(
    fda: OpenFda, replay: ReplayServer, make_client: Callable[..., OutboundClient], call_tool: Call
) -> None:
    client = make_client(detect=lambda text: ["PERSON"] if "Smith" in text else [])
    out = _call(call_tool, {"drug": "Humira for John Smith"}, client=client)
    assert out.status == "error" and out.error is not None and out.error.code == "PHI_REFUSED"
    assert replay.calls(LABEL) == []


def test_api_key_is_sent_but_never_shown(
    fda: OpenFda,
    replay: ReplayServer,
    evidence_settings: Settings,
    make_client: Callable[..., OutboundClient],
    call_tool: Call,
) -> None:
    settings = evidence_settings.model_copy(update={"openfda_api_key": SecretStr("k-123")})
    deps = _deps(settings, make_client(settings))
    out = _call(call_tool, {"drug": "Nosuchdrug"}, deps=deps)
    assert [r.arg("api_key") for r in replay.calls(LABEL)] == ["k-123", "k-123"]
    assert "k-123" not in json.dumps(out.result)


def test_the_real_detector_refuses_a_name_and_date_and_lets_a_drug_name_through(
    fda: OpenFda, replay: ReplayServer, make_client: Callable[..., OutboundClient], call_tool: Call
) -> None:
    client = make_client(detect=None)  # Curbside's own PHI detector
    refused = _call(call_tool, {"drug": "Humira for John Smith born 1961-03-04"}, client=client)
    assert refused.status == "error" and refused.error is not None and refused.error.code == "PHI_REFUSED"
    assert "it was not sent to openFDA" in refused.error.message
    assert replay.calls(LABEL) == []
    assert _call(call_tool, {"drug": "Humira"}, client=client).ok
