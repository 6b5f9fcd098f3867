"""The orchestrator's weighted confidence and the conflicts between tools."""

from __future__ import annotations

import pytest

from curbside.coverage.answer.confidence import combined_confidence
from curbside.coverage.answer.crosscheck import cross_tool_conflicts
from curbside.coverage.answer.findings import DomainFinding, subject_key
from curbside.coverage.answer.models import CallStatus, Domain, FollowUp

TOOLS: dict[Domain, str] = {"billing": "schedule.get", "device": "adp.get", "drug": "odb.get"}


def finding(domain: Domain, confidence: float, status: CallStatus = "ok", **subjects: bool) -> DomainFinding:
    return DomainFinding(
        domain=domain,
        tool=TOOLS[domain],
        status=status,
        decision=None,
        confidence=confidence,
        summary="",
        subjects={subject_key(k.replace("_", " ")): v for k, v in subjects.items()},
    )


@pytest.mark.parametrize(
    ("findings", "cross", "expected"),
    [
        ([finding("drug", 0.97)], 0, 0.97),  # one tool: its own confidence
        ([finding("billing", 0.9), finding("drug", 0.96)], 0, 0.93),  # (0.9 + 0.96) / 2
        ([finding("billing", 0.9), finding("device", 0.6), finding("drug", 0.99)], 0, 0.83),  # 2.49 / 3
        ([finding("billing", 0.9, "timeout"), finding("drug", 0.96)], 0, 0.48),  # a failed tool counts 0
        ([finding("billing", 0.9), finding("device", 0.9, "unavailable"), finding("drug", 0.9)], 0, 0.6),
        ([finding("device", 0.93), finding("drug", 0.97)], 1, 0.85),  # 0.95 - 0.1 per conflict between tools
        ([finding("drug", 0.05)], 1, 0.0),  # never below 0
        ([], 0, 0.0),
    ],
)
def test_weighted_confidence(findings: list[DomainFinding], cross: int, expected: float) -> None:
    assert combined_confidence(findings, cross_conflicts=cross) == expected


def test_weights_come_from_the_table() -> None:
    found = [finding("billing", 0.9), finding("drug", 0.6)]
    assert combined_confidence(found, weights={"schedule.get": 3.0, "odb.get": 1.0}) == 0.825  # (2.7 + 0.6) / 4


def test_a_part_that_asks_which_was_meant_caps_the_whole() -> None:
    # the OAT question: billing lists K682 and K683 and asks which was meant (0.5); the drug is found at 0.99
    asks = DomainFinding("billing", "schedule.get", "ok", "needs_more_info", 0.5, "", needs_more_info=True)
    assert combined_confidence([asks, finding("drug", 0.99)]) == 0.5  # not the average, 0.745
    which = FollowUp(ask="Which service was it: K682 or K683?", reason="two codes match", domain="billing")
    listed = DomainFinding("billing", "schedule.get", "ok", None, 0.5, "", followups=[which])
    assert combined_confidence([listed, finding("drug", 0.99)], followup_below=0.7) == 0.5  # its follow-up says so
    # a sure part's follow-up (ADP 0.93 asking about social assistance) leaves the average
    sure = DomainFinding("device", "adp.get", "ok", "eligible", 0.93, "", followups=[which])
    assert combined_confidence([sure, finding("drug", 0.97)], followup_below=0.7) == 0.95
    # a failed tool's needs_more_info says nothing about what was found: the average holds
    failed = DomainFinding("billing", "schedule.get", "timeout", None, 0.0, "", needs_more_info=True)
    assert combined_confidence([failed, finding("drug", 0.96)]) == 0.48


def test_two_programs_deciding_one_item_differently_is_a_conflict() -> None:
    odb = finding("drug", 0.97, FreeStyle_Libre_2_Sensor=True, FLASH_GLUCOSE_SENSOR=True)
    adp = finding("device", 0.9, libre_2_sensors=False)
    (conflict,) = cross_tool_conflicts([adp, odb])
    assert (conflict.field, conflict.subject, conflict.tool) == ("decision", "libre 2 sensor", "adp.get vs odb.get")
    assert conflict.values == {"adp.get": "not eligible", "odb.get": "covered"}
    assert conflict.resolution.startswith(
        "Both answers stand: adp.get answers for the Assistive Devices Program (not eligible), odb.get for the "
        "Ontario Drug Benefit formulary (covered)."
    )


@pytest.mark.parametrize(
    ("adp_subjects", "odb_subjects"),
    [
        ({"walker": False}, {"apixaban": True}),  # different items
        ({"libre_2_sensor": True}, {"FreeStyle_Libre_2_Sensor": True}),  # the same item, the same answer
        ({"device": False}, {"device": True}),  # a word too common to name an item
    ],
)
def test_no_conflict_without_a_shared_item_decided_differently(
    adp_subjects: dict[str, bool], odb_subjects: dict[str, bool]
) -> None:
    assert cross_tool_conflicts([finding("device", 0.9, **adp_subjects), finding("drug", 0.9, **odb_subjects)]) == []


def test_a_tool_that_did_not_answer_decides_nothing() -> None:
    failed = finding("device", 0.0, "timeout", walker=False)
    assert cross_tool_conflicts([failed, finding("drug", 0.9, walker=True)]) == []


def test_subject_keys_ignore_case_punctuation_and_plurals() -> None:
    assert subject_key("Power Wheelchairs") == subject_key("power-wheelchair") == "power wheelchair"
    assert subject_key("glass") == "glass"
