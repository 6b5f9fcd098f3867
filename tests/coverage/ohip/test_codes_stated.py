"""What schedule.get states (#14): a code found with high confidence is the answer, and another is stated beside it
only when it is as specific or answers another part of the question; an add-on printed with the first code is said
with its fee when the question names what it adds.

The Schedule's own page M27 (ohip-schedule-of-benefits-2025-03-03.txt, Operations of the Breast) lists R120
"Nipple-areola reconstruction by grafts and/or flaps" $300.00 and R142 "Nipple-areola tattooing - unilateral"
$175.00. Asked for the tattooing, R120 beside R142 would be read as a second answer.
"""

from __future__ import annotations

from curbside.coverage.ohip.merge import SURE, add_on_to, said_add_ons, stated_items
from curbside.coverage.ohip.query import plan
from curbside.coverage.ohip.store import ListingRow
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


def add_on(code: str, description: str, fee: float) -> ListingRow:
    return ListingRow(
        code=code, title=description, description=description, heading=None, page="S36", status="aligned", fee=fee,
        fee_text=f"{fee:.2f}", components={}, unit="add", percent=None, prefix=None, reason=None,
        section="Abdomen, Peritoneum and Omentum", part="S", part_title="Digestive System", specialty=None,
        section_page="S36",
    )  # fmt: skip


def test_an_add_on_holding_a_part_of_the_question_the_first_code_lacks_is_stated() -> None:
    # page S36 prints under S318 "Panniculectomy, including any necessary diastasis repair" its add-ons E748 "- with
    # repair of umbilical hernia, to S318 … add 122.05" and E809 "- excision of pannus that extends beyond the mid
    # thigh, to S318 … add 250.00"
    panniculectomy = item("S318", "Panniculectomy, including any necessary diastasis repair")
    hernia = add_on("E748", "with repair of umbilical hernia, to S318", 122.05)
    thigh = add_on("E809", "excision of pannus that extends beyond the mid thigh, to S318", 250.00)

    def said(question: str) -> list[str]:
        return [row.code for row in said_add_ons(plan(ScheduleGetArgs(q=question)), [hernia, thigh], [panniculectomy])]

    assert said("panniculectomy and I also fixed her umbilical hernia same op - codes + fees?") == ["E748"]
    assert said("panniculectomy - code + fee?") == []
    assert said("panniculectomy - any add-on?") == ["E748", "E809"]


def test_an_add_on_is_said_for_the_first_code_only() -> None:
    # page N12 prints E497 "pedicled vascularized bone graft, to R322 or R345" after R321 (non-union, metacarpal);
    # page P15 prints E683 "when performed thorascopically … (VATS) …, to M145, M149 or M151"
    nonunion = item("R321", "Bone - Pseudoarthrosis/non-union/avascular necrosis: Phalanx, metacarpal")
    graft = add_on("E497", "pedicled vascularized bone graft, to R322 or R345", 526.40)
    question = "metacarpal fracture non-union, reconstruction w/ bone graft - any add-on?"
    assert said_add_ons(plan(ScheduleGetArgs(q=question)), [graft], [nonunion]) == []
    vats = add_on(
        "E683", "when performed thorascopically, by video-assisted thoracic surgery (VATS), to M145, M149 or M151", 0
    )
    assert add_on_to(vats, "M149").endswith("(VATS), to M149")
    assert add_on_to(vats, "S318") == vats.description
