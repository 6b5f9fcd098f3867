"""The count of lesions, sites or views a question says, against the count a sibling's title bands by (#14).

Titles are the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt): Z159 / Z160 / Z161 "Removal by
electrocoagulation and/or curetting" (M2), Z119 (M4), X149 / X155 "Subsequent test - high risk patient" (D16)."""

from __future__ import annotations

import pytest

from curbside.coverage.ohip.counts import asked_counts, count_fit
from curbside.coverage.ohip.sql_path import in_band

CURETTING = "Removal by electrocoagulation and/or curetting"
TEXTS = {
    "Z159": f"{CURETTING} - single lesion",
    "Z160": f"{CURETTING} - two lesions",
    "Z161": f"{CURETTING} - three or more lesions",
    "Z119": "Other Areas: Cryotherapy treatment of at least 5 pre-malignant actinic keratosis lesions on the same day",
    "X149": "Subsequent test - high risk patient - one site",
    "X155": "Subsequent test - high risk patient - two or more sites",
}


@pytest.mark.parametrize(
    ("question", "thing", "count"),
    [
        ("curetted + electrocauteried 4 irritated seb keratoses today", "lesion", 4),
        ("curetted 2 keratoses (not cosmetic) same visit", "lesion", 2),
        ("repeat DEXA on a high risk pt, hip and spine (2 sites)", "site", 2),
    ],
)
def test_a_count_is_read_by_the_thing_it_counts(question: str, thing: str, count: float) -> None:
    assert asked_counts(question)[thing] == count


def test_times_sizes_and_patients_are_not_counted_here() -> None:
    # they are bands of their own (quantities): '2 cm' or '30 min' is no count of lesions
    assert asked_counts("closed a 2 cm lac, took 30 min, 3 pts waiting") == {}
    assert asked_counts("pt is 50 with type 2 diabetes") == {}  # a number naming a kind counts nothing


def test_a_titles_count_holds_excludes_or_says_nothing() -> None:
    four = asked_counts("curetted 4 seb keratoses")
    assert count_fit(four, TEXTS["Z161"]) == 1
    assert count_fit(four, TEXTS["Z160"]) == -1
    assert count_fit(four, TEXTS["Z119"]) == -1  # 'at least 5 … keratosis lesions': the count is of the lesions
    assert count_fit(four, TEXTS["X149"]) == 0  # sites are not lesions
    two_sites = asked_counts("hip and spine (2 sites)")
    assert (count_fit(two_sites, TEXTS["X149"]), count_fit(two_sites, TEXTS["X155"])) == (-1, 1)


def test_the_sibling_whose_count_excludes_the_questions_is_not_stated() -> None:
    question = "curetted + electrocauteried 4 irritated seb keratoses today (not cosmetic). which code?"
    scores = {"Z160": 3.0, "Z161": 2.9, "Z119": 2.5, "Z159": 2.9}
    assert in_band(["Z160", "Z119", "Z161"], scores, question, TEXTS) == ["Z161"]
    question = "repeat DEXA on a high risk pt, hip and spine (2 sites) - which X code?"
    assert in_band(["X149", "X155"], {"X149": 3.0, "X155": 2.9}, question, TEXTS) == ["X155"]


def test_a_count_that_holds_brings_no_code_forward() -> None:
    # 'one side' is a count of sides that R342 '… one side' holds: a thing too common to choose a service by
    texts = {"Z314": "Nose - cauterization - unilateral", "R342": "Mastectomy - simple - one side"}
    question = "silver nitrate cautery for a nosebleed, one side, in clinic"
    assert in_band(["Z314"], {"Z314": 3.0, "R342": 2.9}, question, texts) == ["Z314"]
