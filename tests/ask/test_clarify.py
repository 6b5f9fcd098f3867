from __future__ import annotations

import pytest

from curbside.ask.clarify import SHORT_QUESTION, clarifying_question


@pytest.mark.parametrize("question", ["Wells", "Wells score?", "metformin dose", "  CKD  "])
def test_fewer_than_three_words_asks_for_more(question: str) -> None:
    assert clarifying_question(question) == SHORT_QUESTION


@pytest.mark.parametrize(
    ("question", "expected_word"),
    [
        ("kidney disease treatment options", "acute kidney injury"),
        ("first line drug for diabetes in adults", "type 1 or type 2"),
        ("how to manage heart failure at home", "ejection fraction"),
    ],
)
def test_ambiguous_term_without_qualifier(question: str, expected_word: str) -> None:
    asked = clarifying_question(question)
    assert asked is not None and expected_word in asked


@pytest.mark.parametrize(
    "question",
    [
        "chronic kidney disease stage 3 metformin dose",
        "kidney disease with eGFR 35: metformin?",
        "first line drug for type 2 diabetes in adults",
        "insulin start in T1DM adolescents",
        "gestational diabetes screening week",
        "treatment of heart failure with reduced ejection fraction",
        "acute heart failure diuretic dose",
        "can I start metformin if eGFR is 35?",
    ],
)
def test_qualified_or_unambiguous_questions_pass(question: str) -> None:
    assert clarifying_question(question) is None
