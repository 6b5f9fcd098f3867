from __future__ import annotations

import pytest

from curbside.sentences import split_sentences


def test_plain_sentences() -> None:
    assert split_sentences("Fever is common. Cough is rare! Is it malaria? Test it.") == [
        "Fever is common.",
        "Cough is rare!",
        "Is it malaria?",
        "Test it.",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Give an antipyretic, e.g. Paracetamol, to all children.",
        "Give an antipyretic, i.e. Paracetamol, to all children.",
        "The patient was seen by Dr. Smith in the clinic.",
        "The patient was seen by Mr. Jones in the clinic.",
        "The patient was seen by Mrs. Jones in the clinic.",
        "The patient was seen by Ms. Jones in the clinic.",
        "Artesunate vs. Quinine was compared in the trial.",
        "This was reported by Smith et al. in a large cohort.",
        "Smith et al. (2019) reported a large cohort.",
        "As shown in Fig. 2 the response was rapid.",
        "Guideline No. 5 covers severe malaria.",
        "Take 2.5 mg. daily with food.",
        "The dose is approx. 10 mg per kg.",
        "This is discussed elsewhere, cf. Chapter 4 of the guide.",
        "He was admitted to St. Mary's hospital.",
        "A dose of 2.5 mg was given twice.",
        "The review by J. Smith was published later.",
        "Doses are given at 8 a.m. and repeated at 8 p.m. daily.",
        "Programmes in the U.S. Army differ.",
    ],
)
def test_abbreviations_do_not_split(text: str) -> None:
    assert split_sentences(text) == [text]


def test_abbreviation_can_still_end_a_sentence() -> None:
    assert split_sentences("This was shown by Smith et al. The effect held.") == [
        "This was shown by Smith et al.",
        "The effect held.",
    ]
    assert split_sentences("Take it at 8 a.m. Then rest.") == ["Take it at 8 a.m.", "Then rest."]
    assert split_sentences("Take 2.5 mg. daily. Stop after 3 days.") == ["Take 2.5 mg. daily.", "Stop after 3 days."]


def test_decimals_and_digits() -> None:
    assert split_sentences("The dose rose from 2.5 to 3.75 mg. 40 patients responded.") == [
        "The dose rose from 2.5 to 3.75 mg. 40 patients responded."
    ]
    assert split_sentences("Mortality fell by half. 40 patients responded.") == [
        "Mortality fell by half.",
        "40 patients responded.",
    ]


def test_quotes_brackets_and_blank_lines() -> None:
    assert split_sentences('He said "stop." Then left. (See below.) Fine.') == [
        'He said "stop."',
        "Then left.",
        "(See below.)",
        "Fine.",
    ]
    assert split_sentences("first line without stop\n\nsecond line") == ["first line without stop", "second line"]


def test_empty_and_whitespace() -> None:
    assert split_sentences("") == []
    assert split_sentences("   \n\n  ") == []
    assert split_sentences("no final stop") == ["no final stop"]


def test_long_text_is_linear_enough() -> None:
    text = "Give 2.5 mg. daily, e.g. with food. " * 5000
    assert len(split_sentences(text)) == 5000
