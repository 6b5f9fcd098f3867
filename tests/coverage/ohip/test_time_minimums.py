"""The minutes a question states choose the code whose time minimum they meet, the longest one (#14).

Passage texts are the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt, A112 lines 12019-12046, A115), in
the shape the passage builder stores them.
"""

from __future__ import annotations

import asyncio

from curbside.app import Curbside
from curbside.coverage.ohip.time_minimums import asked_minutes, by_time_minimum, time_minimums, within_minutes
from curbside.coverage.ohip.tool import ScheduleGetArgs

_A112 = (
    "OHIP Schedule 2025-03-03 — A: Geriatrics (07) > Comprehensive geriatric consultation [A112]\n\n"
    "A comprehensive geriatric consultation is a consultation performed by a physician … and where the physician "
    "spends at least 75 minutes with the patient exclusive of time spent rendering any other service.\n\n"
    "A775 Comprehensive geriatric consultation: $310.45\n\n"
    "Payment rules: A comprehensive geriatric consultation is only eligible for payment if this service has not "
    "been rendered on the same patient by the same consultant within the previous 2 years.\n\n"
    "An extended comprehensive geriatric consultation is a consultation performed by a physician … where the "
    "physician spends at least 90 minutes with the patient exclusive of time spent rendering any other service.\n\n"
    "A770 Extended comprehensive geriatric consultation: $401.30\n"
    "A771 Certification of death: $20.60\n"
)
_A115 = (
    "OHIP Schedule 2025-03-03 — A: Geriatrics (07) > Hospital in-patient services [A115]\n\n"
    "C775 Comprehensive geriatric consultation - subject to the same conditions as A775: $310.45\n"
    "C770 Extended comprehensive geriatric consultation - subject to the same conditions as A770: $401.30\n"
)
MINIMUMS = time_minimums([("a112", "A112", _A112), ("a115", "A115", _A115)])


def test_the_minimum_is_read_from_the_paragraph_before_the_listing_and_shared_by_same_condition_copies() -> None:
    assert MINIMUMS == {"A775": 75, "A770": 90, "C775": 75, "C770": 90}  # A771 follows a listing: no paragraph


def test_the_longest_minimum_met_goes_first_and_the_lesser_or_unmet_ones_go() -> None:
    scores = {"A775": 3.0, "A770": 2.9, "C775": 2.5, "C770": 2.4, "A771": 1.0}
    codes = ["A775", "A770", "C775", "A771"]
    assert asked_minutes("did a 95 min consult") == 95
    assert by_time_minimum(codes, scores, "did a 95 min consult", MINIMUMS, 0.5) == ["A770", "A771"]
    assert by_time_minimum(codes, scores, "~80 minutes face to face", MINIMUMS, 0.5) == ["A775", "C775", "A771"]
    assert by_time_minimum(codes, scores, "a 60 min consult", MINIMUMS, 0.5) == ["A771"]  # neither minimum met


def test_a_code_of_the_longest_minimum_is_brought_from_the_pool_without_its_copies() -> None:
    scores = {"A775": 3.0, "A770": 2.9, "C775": 2.5, "C770": 2.4, "A771": 1.0}
    assert by_time_minimum(["A775", "A771"], scores, "did a 95 min consult", MINIMUMS, 0.5) == ["A770", "A771"]
    far = {"A775": 3.0, "A770": 1.0, "C770": 0.9, "A771": 1.0}  # below half the best: not brought
    assert by_time_minimum(["A775", "A771"], far, "did a 95 min consult", MINIMUMS, 0.5) == ["A775", "A771"]


def test_no_minutes_asked_keeps_the_order() -> None:
    codes = ["A775", "A770"]
    assert asked_minutes("an extended geriatric consult, 2 hours after admission") is None
    assert by_time_minimum(codes, {"A775": 3.0, "A770": 2.9}, "geriatric consult", MINIMUMS, 0.5) == codes


def test_a_related_code_whose_minimum_is_not_met_is_not_offered() -> None:
    minimums = {"K032": 20, "K042": 46}  # specific and diagnostic neurocognitive assessments (A53)
    assert within_minutes(["K042", "E080"], "a 25 min cognitive test battery", minimums) == ["E080"]
    assert within_minutes(["K042", "E080"], "a 50 min cognitive test battery", minimums) == ["K042", "E080"]
    assert within_minutes(["K042"], "a cognitive test battery", minimums) == ["K042"]


def test_the_minutes_choose_the_level_after_the_words(ohip_app: Curbside) -> None:
    """'consult ran 80 min' answered A605 "Consultation", a title all said, before A600 "Comprehensive cardiology
    consultation" (a minimum of seventy-five minutes, A75): the words chose after the minutes had."""
    service = ohip_app.coverage_service("ohip")
    service.warm_up()
    question = "cardiologist - consult ran 80 min face to face, start/stop charted - code?"
    result = asyncio.run(service.get(ScheduleGetArgs(q=question)))
    assert result.items[0].code == "A600" and "310.45" in result.summary
    # A605 "Consultation" says nothing A600's title does not: the lesser level the minutes went past
    assert "A605" not in [item.code for item in result.items]
    # minutes the question rules out choose nothing
    ruled = "cardiologist saw my 62 yo on referral, regular office consult (not the 75 min comprehensive one) - fee?"
    assert asyncio.run(service.get(ScheduleGetArgs(q=ruled))).items[0].code == "A605"
