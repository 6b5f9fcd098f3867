"""A question's 'no X' / 'without X' against a title's 'with X' / 'without X' (#14). Titles are the Schedule's own
(ohip-schedule-of-benefits-2025-03-03.txt, N26-N27: lines 33209, 33246)."""

from __future__ import annotations

from curbside.coverage.ohip.with_without import by_with_or_without

TEXTS = {
    "F110": "Neck without dislocation of head: closed reduction with anaesthetic",
    "D015": "Glenohumeral joint - closed reduction without anaesthetic",
    "D016": "Glenohumeral joint - closed reduction with anaesthetic",
    "F201": "Closed reduction, fracture/dislocation (Halo or caliper traction)",
}
SCORES = {"F110": 3.0, "D016": 2.8, "F201": 2.0, "D015": 1.9}


def test_no_x_in_the_question_puts_a_title_without_x_first_and_one_with_x_last() -> None:
    question = "reduced an anterior shoulder dislocation with just traction, no anaesthetic at all"
    # 'without dislocation' in F110's title does not count for it: the question's 'no' is of the anaesthetic
    assert by_with_or_without(["F110", "D016", "F201"], SCORES, question, TEXTS, 0.5) == [
        "D015",
        "F201",
        "F110",
        "D016",
    ]


def test_with_x_in_the_question_puts_a_title_without_x_last() -> None:
    question = "closed reduction of a shoulder dislocation with anaesthetic"
    assert by_with_or_without(["D015", "F201", "D016"], SCORES, question, TEXTS, 0.5)[-1] == "D015"
    assert by_with_or_without(["D015", "F201", "D016"], SCORES, question, TEXTS, 0.5)[0] == "F110"


def test_a_question_naming_neither_or_only_contradicted_titles_keeps_the_order() -> None:
    codes = ["F110", "D016", "F201"]
    assert by_with_or_without(codes, SCORES, "closed reduction of a shoulder dislocation", TEXTS, 0.5) == codes
    only = {"F110": TEXTS["F110"], "D016": TEXTS["D016"]}
    assert by_with_or_without(["F110", "D016"], {"F110": 3.0, "D016": 2.8}, "no anaesthetic", only, 0.5) == [
        "F110",
        "D016",
    ]


def test_an_agreeing_title_far_below_the_best_words_is_not_brought_forward() -> None:
    scores = {"F110": 3.0, "D016": 2.8, "F201": 2.0, "D015": 0.5}
    ordered = by_with_or_without(["F110", "D016", "F201"], scores, "no anaesthetic", TEXTS, 0.5)
    assert ordered == ["F201", "F110", "D016"]
