"""A code found with high confidence is the answer: another is stated beside it only when it is as specific or
answers another part of the question (#14).

The Schedule's own page M27 (ohip-schedule-of-benefits-2025-03-03.txt, Operations of the Breast) lists R120
"Nipple-areola reconstruction by grafts and/or flaps" $300.00 and R142 "Nipple-areola tattooing - unilateral"
$175.00. Asked for the tattooing, R120 beside R142 would be read as a second answer.
"""

from __future__ import annotations

from curbside.coverage.ohip.merge import SURE, stated_items
from curbside.coverage.ohip.query import plan
from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult, ScheduleItem


def item(code: str, description: str) -> ScheduleItem:
    return ScheduleItem(code=code, description=description, relation="matched", fee_text="", fee_status="unknown")


def shown(question: str, confidence: float, items: list[ScheduleItem]) -> list[str]:
    result = ScheduleGetResult(query=question, summary="", provenance=["sql"], confidence=confidence, schedule=None)
    return [i.code for i in stated_items(result, plan(ScheduleGetArgs(q=question)), items)]


def test_a_code_answering_another_part_of_the_question_stays_beside_the_first() -> None:
    # the special visit premium tables list the travel premium and the first person seen as two codes (GP70)
    travel = item("K961", "Special visit premium: Emergency Department — Travel premium, Daytime with sacrifice")
    first = item("K992", "Special visit premium: Emergency Department — First person seen, Daytime with sacrifice")
    question = "ER called me at 10am Tues, had to leave clinic - what travel + first-pt special visit premiums?"
    assert shown(question, 1.0, [travel, first]) == ["K961", "K992"]


def test_a_sure_code_is_stated_without_a_less_specific_neighbour_below_sure_all_three_are() -> None:
    tattoo = item("R142", "Nipple-areola tattooing - unilateral")
    graft = item("R120", "Nipple-areola reconstruction by grafts and/or flaps")
    question = "unilateral nipple-areola tattooing code?"
    assert shown(question, SURE - 0.01, [tattoo, graft]) == ["R142", "R120"]
    assert shown(question, SURE, [tattoo, graft]) == ["R142"]
