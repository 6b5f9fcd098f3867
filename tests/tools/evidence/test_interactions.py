"""``evidence.check_drug_interactions`` on the recorded HUMIRA label's real 'Drug Interactions' text.

HUMIRA's section (7 DRUG INTERACTIONS) names abatacept, anakinra, live vaccines, methotrexate,
rituximab, "TNF blockers", warfarin, cyclosporine and theophylline; it does not name lisinopril.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from curbside.settings import Settings
from curbside.tools import ToolResult
from curbside.tools.evidence import interactions
from curbside.tools.outbound import OutboundClient
from tests.tools.evidence.openfda_routes import OpenFda, install_openfda
from tests.tools.evidence.replay import ReplayServer

TOOL = interactions.TOOL
LABEL = "/openfda/drug/label.json"
HUMIRA_SET_ID = "608d4f0d-b19f-46d3-749a-7159aa5f933d"

Call = Callable[..., ToolResult]


@pytest.fixture
def fda(replay: ReplayServer, shared_data: Path) -> OpenFda:
    return install_openfda(replay, shared_data)


def _call(call_tool: Call, drugs: list[str], **kw: Any) -> ToolResult:
    return call_tool(interactions.register, TOOL, {"drugs": drugs}, **kw)


def _entry(out: ToolResult, drug: str) -> dict[str, Any]:
    assert out.ok and out.result is not None, out.error
    return next(e for e in out.result["labels"] if e["drug"] == drug)


def _mention(entry: dict[str, Any], drug: str, kind: str = "name") -> dict[str, Any]:
    return next(m for m in entry["mentions"] if m["drug"] == drug and m["kind"] == kind)


def _synthetic(fda: OpenFda, brand: str, generic: str, set_id: str, epc: list[str], text: str) -> None:
    """A second label for the class tests; its text is made up, HUMIRA's stays real."""
    label = {
        "set_id": set_id,
        "effective_time": "20200101",
        "drug_interactions": [text],
        "openfda": {"brand_name": [brand], "generic_name": [generic], "pharm_class_epc": epc},
    }
    fda.add_label(label, brand=brand, generic=generic)


def test_humira_section_mentions_the_named_drugs_with_their_sentences(
    fda: OpenFda, replay: ReplayServer, call_tool: Call
) -> None:
    out = _call(call_tool, ["Humira", "methotrexate", "abatacept", "warfarin", "lisinopril"])
    assert out.result is not None
    assert "not an interaction database" in out.result["disclaimer"]
    assert "absence of a mention is not evidence" in out.result["disclaimer"]
    assert out.result["not_found"] == ["methotrexate", "abatacept", "warfarin", "lisinopril"]
    assert any("No openFDA label for 'methotrexate'" in w for w in out.result["warnings"])
    humira = _entry(out, "Humira")
    assert humira["set_id"] == HUMIRA_SET_ID and humira["effective_time"] == "2016-08-29"
    assert humira["pharm_classes"][0] == "Tumor Necrosis Factor Blocker [EPC]"
    assert humira["interactions_text"].startswith("Abatacept: Increased risk of serious infection")  # heading stripped
    assert humira["truncated"] and humira["interactions_text"].endswith("…")
    mtx = _mention(humira, "methotrexate")
    assert mtx["sentences"] == [
        "7.1 Methotrexate HUMIRA has been studied in rheumatoid arthritis (RA) patients taking concomitant "
        "methotrexate (MTX)."
    ]
    abatacept = _mention(humira, "abatacept")
    assert len(abatacept["sentences"]) == 3
    assert all("abatacept" in s.lower() for s in abatacept["sentences"])
    # warfarin is named past the text shown: mentions are sought in the whole section
    warfarin = _mention(humira, "warfarin")
    assert "monitoring of the effect (e.g., warfarin)" in warfarin["sentences"][0]
    assert "warfarin" not in humira["interactions_text"]
    assert all(len(s) <= 310 for m in humira["mentions"] for s in m["sentences"])
    assert humira["not_mentioned"] == ["lisinopril"]
    assert [c["id"] for c in out.result["citations"]] == [HUMIRA_SET_ID]
    # one request per drug, a generic-name retry for the names with no brand label, never an OR
    searches = sorted(r.arg("search") or "" for r in replay.calls(LABEL))
    assert len(searches) == 9 and 'openfda.brand_name:"Humira"' in searches
    assert 'openfda.generic_name:"lisinopril"' in searches
    assert not any(" OR " in s or "+OR+" in s for s in searches)


def test_class_mention_is_reported_as_a_class_and_worded_carefully(fda: OpenFda, call_tool: Call) -> None:
    _synthetic(
        fda,
        "Remicade",
        "INFLIXIMAB",
        "22222222-0000-0000-0000-000000000002",
        ["Tumor Necrosis Factor Blocker [EPC]"],
        "7 DRUG INTERACTIONS 7.1 Use with adalimumab Do not combine with other TNF blockers.",
    )
    out = _call(call_tool, ["Humira", "Remicade"])
    humira = _entry(out, "Humira")
    # HUMIRA's real text speaks of "TNF blockers", never of infliximab or Remicade
    assert [m["kind"] for m in humira["mentions"]] == ["class"]
    klass = humira["mentions"][0]
    assert klass["drug"] == "Remicade" and klass["term"].lower() in ("tnf blockers", "tnf blocker")
    assert "Tumor Necrosis Factor Blocker [EPC]" in klass["note"] and "class" in klass["note"]
    assert "in particular" in klass["note"]
    assert any("combination of TNF blockers with anakinra" in s for s in klass["sentences"])
    remicade = _entry(out, "Remicade")
    # the made-up Remicade text names adalimumab (HUMIRA's generic name as openFDA lists it)
    assert _mention(remicade, "Humira")["term"] == "adalimumab"
    assert out.result is not None and len(out.result["citations"]) == 2


def test_generic_names_are_matched_without_their_salt(fda: OpenFda, call_tool: Call) -> None:
    _synthetic(
        fda,
        "Lipitorix",
        "ATORVASTATIN CALCIUM",
        "33333333-0000-0000-0000-000000000003",
        [],
        "7 DRUG INTERACTIONS No interactions with adalimumab are known.",
    )
    text = "7 DRUG INTERACTIONS Strong CYP3A4 inhibitors raise atorvastatin levels."
    _synthetic(fda, "Clarix", "CLARITHROMYCIN", "44444444-0000-0000-0000-000000000004", [], text)
    out = _call(call_tool, ["Clarix", "Lipitorix"])
    assert _mention(_entry(out, "Clarix"), "Lipitorix")["term"] == "atorvastatin"
    assert _entry(out, "Lipitorix")["not_mentioned"] == ["Clarix"]


def test_two_names_for_one_label_are_not_checked_against_itself(fda: OpenFda, call_tool: Call) -> None:
    out = _call(call_tool, ["Humira", "adalimumab"])
    assert out.result is not None
    assert all(e["mentions"] == [] for e in out.result["labels"])
    assert "'Humira' and 'adalimumab' found the same label; it is not checked against itself." in out.result["warnings"]


@pytest.mark.parametrize("drugs", [["Humira"], ["Humira", "HUMIRA"], ["a1", "b2", "c3", "d4", "e5", "f6", "g7"]])
def test_fewer_than_two_or_more_than_six_drugs_are_refused(
    fda: OpenFda, replay: ReplayServer, call_tool: Call, drugs: list[str]
) -> None:
    out = _call(call_tool, drugs)
    assert out.status == "error" and out.error is not None and out.error.code == "VALIDATION_ERROR"
    assert replay.calls(LABEL) == []


def test_one_name_with_phi_stops_the_call_before_anything_is_sent(
    fda: OpenFda, replay: ReplayServer, make_client: Callable[..., OutboundClient], call_tool: Call
) -> None:
    client = make_client(detect=lambda text: ["PERSON"] if "Smith" in text else [])
    out = _call(call_tool, ["Humira", "John Smith"], client=client)
    assert out.status == "error" and out.error is not None and out.error.code == "PHI_REFUSED"
    assert "drugs[1]" in out.error.message
    assert replay.calls(LABEL) == []


def test_a_label_that_cannot_be_fetched_gives_a_partial_answer(
    fda: OpenFda, replay: ReplayServer, call_tool: Call
) -> None:
    fda.broken_names.add("brokenol")
    out = _call(call_tool, ["Humira", "Brokenol"])
    assert out.result is not None
    assert out.result["unavailable"] == ["Brokenol"]
    assert any("'Brokenol' could not be fetched (openFDA answered HTTP 500" in w for w in out.result["warnings"])
    assert _entry(out, "Humira")["not_mentioned"] == ["Brokenol"]


def test_every_label_failing_is_an_upstream_error(fda: OpenFda, call_tool: Call) -> None:
    fda.broken_names.update({"brokenol", "crashamine"})
    out = _call(call_tool, ["Brokenol", "Crashamine"])
    assert out.status == "error" and out.error is not None
    assert out.error.code == "UPSTREAM_ERROR" and "openFDA" in out.error.message


def test_six_long_labels_stay_under_the_cap(fda: OpenFda, evidence_settings: Settings, call_tool: Call) -> None:
    real = " ".join(fda.humira["drug_interactions"])
    names = ["Alphamab", "Betamab", "Gammamab", "Deltamab", "Epsilomab", "Zetamab"]
    for i, name in enumerate(names):
        # each copy of HUMIRA's real text, plus a sentence naming every other drug
        others = ", ".join(n for n in names if n != name)
        text = f"{real} Monitor when given with {others}. Avoid {others} in sepsis."
        _synthetic(fda, name, name.upper() + "INE", f"55555555-0000-0000-0000-00000000000{i}", [], text)
    out = call_tool(interactions.register, TOOL, {"drugs": names, "max_chars_per_drug": 4000})
    assert out.ok and out.result is not None
    assert len(json.dumps(out.result, ensure_ascii=False).encode()) <= evidence_settings.evidence_result_bytes
    assert any("shortened" in w for w in out.result["warnings"])
    assert all(len(e["mentions"]) == 5 for e in out.result["labels"])


def test_repeated_call_is_served_from_the_cache(
    fda: OpenFda, replay: ReplayServer, make_client: Callable[..., OutboundClient], call_tool: Call
) -> None:
    client = make_client()
    _call(call_tool, ["Humira", "methotrexate"], client=client)
    sent = len(replay.calls(LABEL))
    assert sent == 3  # Humira (brand), methotrexate (brand, then generic)
    _call(call_tool, ["methotrexate", "Humira"], client=client)
    assert len(replay.calls(LABEL)) == sent


def test_a_label_without_an_interactions_section_says_so(fda: OpenFda, call_tool: Call) -> None:
    fda.add_label(
        {"set_id": "66666666-0000-0000-0000-000000000006", "openfda": {"brand_name": ["Oldtab"]}}, brand="Oldtab"
    )
    out = _call(call_tool, ["Oldtab", "Humira"])
    oldtab = _entry(out, "Oldtab")
    assert oldtab["interactions_text"] is None and oldtab["truncated"] is False
    assert oldtab["mentions"] == [] and oldtab["not_mentioned"] == ["Humira"]
    assert out.result is not None
    assert any("'Oldtab' has no 'Drug Interactions' section" in w for w in out.result["warnings"])
