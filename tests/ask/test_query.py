from __future__ import annotations

import pytest

from curbside.ask.query import compose_query
from curbside.errors import ValidationError


def test_condition_and_findings_compose_in_the_plans_notation() -> None:
    text = compose_query("", "malaria", ["pregnant", " first  trimester ", "no drug allergies"], max_findings=20)
    assert text == "malaria + pregnant + first trimester + no drug allergies"


def test_question_follows_the_condition() -> None:
    assert compose_query("which drug?", "malaria", ["pregnant"], max_findings=5) == "malaria + pregnant. which drug?"


def test_plain_question_is_unchanged() -> None:
    assert compose_query("  dose of metformin in CKD 3?  ", None, [], max_findings=5) == "dose of metformin in CKD 3?"


def test_repeated_findings_count_once() -> None:
    assert compose_query("", "malaria", ["pregnant", "pregnant"], max_findings=5) == "malaria + pregnant"


@pytest.mark.parametrize(
    ("condition", "findings", "message"),
    [
        (None, ["pregnant"], "need a condition"),
        ("malaria", ["x"] * 6, "at most 5"),
        ("malaria", ["y" * 301], "at most 300"),
    ],
)
def test_bad_guideline_queries(condition: str | None, findings: list[str], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        compose_query("", condition, findings, max_findings=5)
