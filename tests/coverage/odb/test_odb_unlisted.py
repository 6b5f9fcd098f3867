"""Names the formulary does not hold (coverage/odb/unlisted.py)."""

from __future__ import annotations

import pytest

from curbside.coverage.odb.unlisted import class_of, unlisted_names


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("is Wegovy covered by ODB for obesity?", ["Wegovy"]),
        ("does ODB cover Mounjaro?", ["Mounjaro"]),
        ("is orlistat (Xenical) covered under ODB?", ["orlistat", "Xenical"]),
        ("is the formulary covering my patient's diabetes pills?", []),  # English words, ODB's own words
    ],
)
def test_rare_words_are_the_names_asked_about(question: str, names: list[str]) -> None:
    assert unlisted_names(question) == names


def test_a_class_from_an_inn_stem() -> None:
    assert class_of(["Saxenda", "liraglutide"]) == "glp1"
    assert class_of(["Wegovy"]) is None
