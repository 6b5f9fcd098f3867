"""What the tests against published sources share (``test_primary_sources*.py``): running a calculator as a
source's table would, with every criterion not given scored absent, and the points one criterion adds.

Every check in those files cites the paper or page it was read from, the table, figure or section read, and the
URL of the stored copy (the ``search`` tool's ``pages`` corpus). Where only a reproduction of the primary table
was available, the comment says so and names it: the check is against what that copy prints. Nothing there is
written from memory; a value a test computes (an equation at a point) uses the coefficients as the cited copy
prints them, not our code.
"""

from __future__ import annotations

from typing import Any

from curbside.tools.calculators.catalog import calculator
from curbside.tools.calculators.kit import CalcResult, evaluate

__all__ = ["criterion_points", "run"]


def run(calc_id: str, **given: Any) -> CalcResult:
    result = evaluate(calculator(calc_id), given, missing="absent")
    assert result.status == "complete", result.missing
    return result


def criterion_points(calc_id: str, key: str, **base: Any) -> float:
    """Points for one criterion: the score with it present minus the score without it."""
    with_it = run(calc_id, **base, **{key: True}).value
    without = run(calc_id, **base).value
    assert with_it is not None and without is not None
    return with_it - without
