"""A code whose tail the question contradicts gives its place to its twin (#14). Titles are the Schedule's own
(ohip-schedule-of-benefits-2025-03-03.txt, Obstetrics K4: A920, A921, A922; A11: H002, H003)."""

from __future__ import annotations

from curbside.coverage.ohip.query import WordIndex
from curbside.coverage.ohip.twins import with_twins

ROWS = [
    ("A920", "Medical management of early pregnancy - initial service", ""),
    ("A921", "Medical management of early or ectopic pregnancy - follow-up visit", ""),
    (
        "A922",
        "Medical management of ectopic pregnancy – initial service: Medical management of ectopic pregnancy - initial service",
        "",
    ),
    ("P004", "Minor prenatal assessment", ""),
    ("H002", "Low birth weight baby care (uncomplicated) - initial visit (per baby)", ""),
    ("H003", "Low birth weight baby care (uncomplicated) - subsequent visit", ""),
]
INDEX = WordIndex(ROWS)


def test_the_initial_twin_is_put_before_the_follow_up_a_first_visit_rules_out() -> None:
    question = "seeing a pt w/ an ectopic, giving methotrexate in clinic today (first visit for it)"
    words = ("ectopic", "methotrexate", "clinic", "first", "visit")
    # A922 holds 'ectopic', A920 does not: of the two initial twins, the one holding more of the question
    assert with_twins(["A921", "P004"], question, words, INDEX, None) == ["A922", "A921", "P004"]
    assert with_twins(["A921"], question, words, INDEX, {"A921", "A920"}) == ["A920", "A921"]  # the specialty's
    assert with_twins(["A921", "P004", "A922"], question, words, INDEX, None) == ["A922", "A921", "P004"]  # moved up


def test_nothing_is_added_when_the_question_says_the_code_s_own_stage_or_none() -> None:
    words = ("ectopic", "visit")
    assert with_twins(["A921"], "ectopic pregnancy, follow up visit", words, INDEX, None) == ["A921"]
    assert with_twins(["A921"], "ectopic pregnancy visit", words, INDEX, None) == ["A921"]
    assert with_twins(["H002", "H003"], "low birth weight baby, first visit", ("baby",), INDEX, None) == [
        "H002",
        "H003",
    ]
