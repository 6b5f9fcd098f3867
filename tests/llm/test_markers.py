from __future__ import annotations

from curbside.llm.markers import check_markers


def test_valid_markers_are_renumbered_by_first_appearance() -> None:
    check = check_markers("Start low [3]. Titrate [1]. Monitor [3].", range(1, 6))
    assert check.text == "Start low [1]. Titrate [2]. Monitor [1]."
    assert check.cited == [3, 1]
    assert check.unknown == []


def test_unknown_markers_are_removed_and_reported() -> None:
    check = check_markers("Give ACT [7]. Refer [2].", range(1, 6))
    assert check.text == "Give ACT. Refer [1]."
    assert check.cited == [2]
    assert check.unknown == [7]


def test_groups_and_ranges() -> None:
    check = check_markers("Both agree [1, 2]. See also [2-4] and [5 and 9].", range(1, 6))
    assert check.text == "Both agree [1][2]. See also [2][3][4] and [5]."
    assert check.cited == [1, 2, 3, 4, 5]
    assert check.unknown == [9]


def test_text_without_markers_cites_nothing() -> None:
    check = check_markers("Metformin is safe.", range(1, 3))
    assert (check.text, check.cited, check.unknown) == ("Metformin is safe.", [], [])


def test_years_and_doses_in_brackets_are_not_markers() -> None:
    check = check_markers("Published [2019]; dose [0.5 mg] daily [1].", range(1, 3))
    assert check.text == "Published [2019]; dose [0.5 mg] daily [1]."
    assert check.cited == [1]
