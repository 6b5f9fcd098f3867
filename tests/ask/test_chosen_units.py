"""The units an answer quotes, chosen by the fitted model (src/curbside/llm/unit_choice.py), on the real CEP page:
questions of the guideline QA sets (blind 11) the hand score answered with another line of the right card."""

from __future__ import annotations

from tests.ask.test_trust import ask


def test_a_maximum_asked_in_other_words_is_quoted(make_core) -> None:
    # before: "GI bleeding (consider gastroprotective agent if high risk)" alone
    answer = ask(make_core(), "healthy 40M on paroxetine IR - how high can I go?")
    assert answer.status == "answered"
    assert "Max: 50 mg daily" in answer.answer, answer.answer
    assert "Paroxetine" in (answer.citations[0].section_path or "")


def test_a_patients_age_finds_the_warning_for_older_adults(make_core) -> None:
    # "76M" is read as an older adult (``extractive.age_group_terms``), the words the card uses for his age group
    answer = ask(make_core(), "76M w social anxiety - paxil ok at his age or any flag?")
    assert "older adults" in answer.answer, answer.answer
    assert "Paroxetine" in (answer.citations[0].section_path or "")


def test_a_resource_for_the_family_is_named(make_core) -> None:
    answer = ask(make_core(), "mom of a suicidal 30M wants info for herself - what resource?")
    assert "Canadian Association for Suicide Prevention" in answer.answer, answer.answer
