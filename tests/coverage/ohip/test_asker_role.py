"""The asker who bills as the emergency department's physician (#14): who bills decides the section and the
premium, not a specialist the question names besides. Titles are the Schedule's own
(ohip-schedule-of-benefits-2025-03-03.txt, GP104, A12-A14, A12)."""

from __future__ import annotations

from curbside.coverage.ohip.asker_role import bills_as_ed_physician, for_ed_physician
from curbside.coverage.ohip.definitions import definitions


def test_the_asker_says_they_work_in_the_emergency_department() -> None:
    assert bills_as_ed_physician("ER shift saturday afternoon, chest pain pt")
    assert bills_as_ed_physician("working emerg, I wrote the interim admission orders")
    assert bills_as_ed_physician("I'm the ER doc on shift and reduced a dislocated shoulder")
    assert not bills_as_ed_physician("internist consult in the ER for chest pain")  # the internist bills
    assert not bills_as_ed_physician("saw a sprain in the ER department, a minor assessment")
    assert not bills_as_ed_physician("she ordered an x-ray")  # 'ordered' ends in 'ed', no ED


def test_the_premium_for_another_physician_is_left_out() -> None:
    texts = {
        "E413": "Emergency Department Physician: Nights (00:00h – 07:00h) - increase the procedural fee(s) by",
        "E410": "Physician – other than an Emergency Department Physician: Nights (00:00h – 07:00h) - increase the "
        "procedural fee(s) by",
        "D015": "Glenohumeral joint - closed reduction without anaesthetic",
    }
    assert for_ed_physician(["E410", "E413", "D015"], texts) == ["E413", "D015"]


def test_a_definition_passage_gives_its_words_to_the_codes_titled_with_its_name_in_its_section() -> None:
    head = "OHIP Schedule 2025-03-03 — A: Family Practice & Practice in General (00)"
    passages = [
        (
            "ohip",
            "Comprehensive assessment and care [A12]",
            f"{head} > Comprehensive assessment and care [A12]\n\nComprehensive assessment and care is a service "
            "rendered in an emergency department … that requires a full history …",
        ),
        ("ohip", "Nights [A13]", f"{head} > Nights [A13]\n\nH122 Comprehensive assessment and care: $76.95"),
        (  # the same title in another section does not take the definition
            "ohip",
            "Other [X1]",
            "OHIP Schedule 2025-03-03 — X: Other\n\nX999 Comprehensive assessment and care: $1.00",
        ),
    ]
    titles = {"H122": "Comprehensive assessment and care", "X999": "Comprehensive assessment and care"}
    defined = definitions(passages, titles)
    assert list(defined) == ["H122"] and "full history" in defined["H122"]
