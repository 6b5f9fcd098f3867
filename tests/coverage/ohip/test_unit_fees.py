"""A unit's dollar value is answered by the Schedule's labelled unit fee line (#14).

Passages as stored from ohip-schedule-of-benefits-2025-03-03.txt: lines 5539-5544 (GP92, "Anaesthesiologist
Unit fee ... $15.49") and 5237-5242 (GP85, "Assistant Unit Fee ... $12.51"), dot leaders shortened.
"""

from __future__ import annotations

import pytest

from curbside.coverage.ohip.tool import ScheduleGetResult
from curbside.coverage.ohip.unit_fees import (
    SEVERAL_CONFIDENCE,
    UNIT_FEE_CONFIDENCE,
    asks_unit_value,
    unit_fees,
    with_unit_fee,
)
from curbside.coverage.reader import PassageRow

_ANAESTHESIA = (
    "ohip-gp92-anaesthesiologists-services:v1:5",
    "ohip-gp92-anaesthesiologists-services",
    "OHIP Schedule 2025-03-03",
    "CALCULATION OF FEE PAYABLE – BASIC AND TIME UNITS [GP92]",
    "OHIP Schedule 2025-03-03 — GP: Anaesthesiologists’ Services > CALCULATION OF FEE PAYABLE – BASIC AND TIME "
    "UNITS [GP92]\n\nThe amount payable for the anaesthesia service is calculated by adding the number of basic and "
    "time units and multiplying the total by the anaesthesiologist unit fee. Anaesthesiologist Unit fee "
    ".................. $15.49 Basic Units: The number of basic units is the number of basic units listed",
    1,
)
_ASSISTANT = (
    "ohip-gp85-surgical-assistants-services:v1:6",
    "ohip-gp85-surgical-assistants-services",
    "OHIP Schedule 2025-03-03",
    "CALCULATION OF FEE PAYABLE: BASIC UNITS AND TIME UNITS [GP85]",
    "OHIP Schedule 2025-03-03 — GP: Surgical Assistants’ Services > CALCULATION OF FEE PAYABLE: BASIC UNITS AND "
    "TIME UNITS [GP85]\n\nExcept where “nil” is listed opposite the service in the column headed with “Asst”, the "
    "amount payable for the surgical assistant service is calculated by adding together the number of basic and "
    "time units and multiplying that total by the unit fee. Assistant Unit Fee .................. $12.51 Basic "
    "Units: The number of basic units is the number of units listed",
    1,
)


class _Passages:
    """The stored passages holding each needle, as ``OhipReader.passages_containing`` finds them."""

    def passages_containing(self, namespace: str, needle: str, limit: int) -> list[PassageRow]:
        assert namespace == "ohip"
        return [row for row in (_ANAESTHESIA, _ASSISTANT) if needle in row[4]][:limit]


def _result() -> ScheduleGetResult:
    summary = "A210 Special anaesthetic consultation: $163.20 (Anaesthesia (01), A72). Source: OHIP Schedule."
    return ScheduleGetResult(query="q", summary=summary, provenance=["sql"], confidence=0.5, schedule=None)


def test_the_labelled_lines_are_read_with_page_section_and_rule() -> None:
    fees = {fee.amount: fee for fee in unit_fees(_Passages())}
    assert set(fees) == {"15.49", "12.51"}
    anaesthesia = fees["15.49"]
    assert (anaesthesia.label, anaesthesia.page, anaesthesia.section) == (
        "Anaesthesiologist Unit fee",
        "GP92",
        "Anaesthesiologists’ Services",
    )
    assert anaesthesia.rule.startswith("The amount payable for the anaesthesia service")
    assert fees["12.51"].page == "GP85" and fees["12.51"].rule.startswith("Except where “nil”")


@pytest.mark.parametrize(
    ("question", "amount"),
    [
        ("what's an anaesthesia unit worth in dollars right now?", "15.49"),
        ("what is the anesthesia unit value?", "15.49"),
        ("I assist in the OR - what's the surgical assistant unit fee?", "12.51"),
    ],
)
def test_the_unit_fee_of_the_service_named_is_the_answer(question: str, amount: str) -> None:
    out = with_unit_fee(_result(), question, False, unit_fees(_Passages()))
    assert out.summary.startswith("The Schedule's unit fee: ") and f"One unit is worth ${amount}." in out.summary
    assert "A210" not in out.summary and out.summary.endswith("Source: OHIP Schedule.")
    assert out.confidence == UNIT_FEE_CONFIDENCE and out.items == [] and len(out.citations) == 1
    other = "12.51" if amount == "15.49" else "15.49"
    assert other not in out.summary


def test_a_question_naming_both_services_gets_both_unit_fees_and_the_follow_up() -> None:
    question = "what's the unit fee when I assist at surgery versus giving the anaesthetic?"
    out = with_unit_fee(_result(), question, False, unit_fees(_Passages()))
    assert "$15.49" in out.summary and "$12.51" in out.summary and out.needs_more_info
    assert out.follow_up == "Which service is it: Anaesthesiologists’ Services or Surgical Assistants’ Services?"
    assert out.confidence == SEVERAL_CONFIDENCE


@pytest.mark.parametrize(
    "question",
    [
        "how much is one unit worth?",  # no service named
        "what's the unit fee for primary mental health care, individual?",  # a time-unit service's own fee
    ],
)
def test_a_unit_fee_of_no_labelled_service_keeps_the_answer(question: str) -> None:
    assert asks_unit_value(question)
    assert with_unit_fee(_result(), question, False, unit_fees(_Passages())).summary == _result().summary


@pytest.mark.parametrize(
    "question",
    [
        "visit in the special care unit, what's the fee?",  # a care unit, not a unit's value
        "how many units can I bill for a hip replacement anaesthetic?",
        "what's the fee for A210?",
    ],
)
def test_other_questions_keep_their_answer(question: str) -> None:
    assert not asks_unit_value(question)
    assert with_unit_fee(_result(), question, False, unit_fees(_Passages())).summary == _result().summary


def test_a_question_naming_a_code_keeps_its_answer() -> None:
    out = with_unit_fee(_result(), "A210 unit fee?", True, unit_fees(_Passages()))
    assert out.summary == _result().summary
