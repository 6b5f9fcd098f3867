"""A title's qualifier ('- female', 'unilateral') that the question contradicts rules its twin out (#14). Titles
are the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt: K018/K021 A52, G536 J56)."""

from __future__ import annotations

from curbside.coverage.ohip.qualifiers import by_qualifier

TITLES = {
    "K018": "Sexual assault examination - female",
    "K021": "Sexual assault examination - male",
    "K061": "Taking of blood samples in a hospital setting at the request of a police officer",
    "G536": "Sclerotherapy including one post injection visit, unilateral",
    "G999": "Sclerotherapy, bilateral",
}


def test_a_woman_rules_out_the_male_twin_and_a_man_the_female_one() -> None:
    codes = ["K018", "K021", "K061"]
    assert by_qualifier(codes, "did a sexual assault exam on a woman", TITLES) == ["K018", "K061"]
    assert by_qualifier(codes, "sexual assault exam, 19 year old man", TITLES) == ["K021", "K061"]


def test_both_legs_rules_out_the_unilateral_title() -> None:
    assert by_qualifier(["G536", "G999"], "sclerotherapy on both legs", TITLES) == ["G999"]
    assert by_qualifier(["G536", "G999"], "sclerotherapy, one leg only", TITLES) == ["G536"]


def test_a_question_naming_both_sides_or_neither_keeps_every_code() -> None:
    codes = ["K018", "K021", "K061"]
    assert by_qualifier(codes, "sexual assault exam", TITLES) == codes
    assert by_qualifier(codes, "a woman and a man both examined", TITLES) == codes
    assert by_qualifier(["K021"], "exam on a woman", TITLES) == ["K021"]  # nothing else is left: the words choose
    assert by_qualifier(codes, "her female partner ... the male", TITLES) == codes
