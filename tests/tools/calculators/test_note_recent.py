"""Criteria with a time window read from an explicit elapsed time (note_recent.py), and the common names
added for a prior DVT or PE, cervical nodes and diabetes (note_criteria.py).

The sentences are written for these tests in the manner of clinical notes, not copied from the
development notes.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from curbside.tools.calculators.catalog import calculator
from curbside.tools.calculators.kit import Criterion, Recent
from curbside.tools.calculators.note import evaluate_note
from curbside.tools.calculators.note_recent import elapsed_times


def _read(calc_id: str, note: str) -> dict[str, dict[str, Any]]:
    result = asyncio.run(evaluate_note(calculator(calc_id), note, {}))
    return {e["input"]: e for e in result.extracted if e["value"] in ("yes", "no") and e["method"] == "parsed"}


# --- elapsed times ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "least", "most"),
    [
        ("She had a knee replacement 3 weeks ago.", 21, 21),
        ("Ten days prior to admission he fell.", 10, 10),
        ("CABG 5 months prior, for aortic stenosis.", 140, 155),
        ("A stroke two years ago.", 730, 732),
        ("Surgery a month ago.", 28, 31),
        ("Hip fracture 4 days before presentation.", 4, 4),
    ],
)
def test_elapsed_times_counted_back_from_the_present(sentence: str, least: float, most: float) -> None:
    (elapsed,) = elapsed_times(sentence)
    assert (elapsed.least, elapsed.most) == (least, most)


@pytest.mark.parametrize(
    "sentence",
    [
        "She underwent surgery 1 year earlier at another hospital.",  # counted from another event
        "Fever 3 days after surgery.",
        "Surgery a few weeks ago.",  # no number
        "Three weeks prior to the surgery she was well.",  # prior to another event
        "Recent surgery.",
    ],
)
def test_no_elapsed_time_without_an_explicit_one_from_the_present(sentence: str) -> None:
    assert elapsed_times(sentence) == []


# --- "surgery in the previous 4 weeks" (Wells PE), "within the past 4 weeks" (PERC) ------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "She underwent a left knee replacement 3 weeks ago.",
        "Ten days prior to admission, he had a hip arthroplasty.",
        "Surgery 2 weeks ago for a perforated appendix.",
    ],
)
def test_surgery_inside_four_weeks_is_read_yes_with_its_sentence(sentence: str) -> None:
    read = _read("wells_pe", f"A 61-year-old with pleuritic chest pain. {sentence} Heart rate 92.")
    found = read["immobilisation_or_surgery"]
    assert (found["value"], found["method"], found["sentence"]) == ("yes", "parsed", sentence)
    assert "inside the criterion's time window" in found["note"]


@pytest.mark.parametrize(
    "sentence",
    [
        "She had a knee replacement 3 years ago.",  # outside, but the criterion is also immobilisation
        "Knee replacement 1 month ago.",  # a month is 28-31 days: on the edge of 4 weeks
        "No surgery 2 weeks ago.",  # negated
        "Possible surgery 2 weeks ago, details unclear.",  # uncertain
        "Knee replacement 2 weeks ago and a fall 3 days ago.",  # two times: which is the surgery's?
        "Surgery 2 weeks later was uneventful.",  # a narrative clock
        "Her mother had surgery 2 weeks ago.",  # a relative
    ],
)
def test_surgery_not_dated_plainly_inside_the_window_is_not_read(sentence: str) -> None:
    read = _read("wells_pe", f"A 61-year-old with pleuritic chest pain. {sentence}")
    assert "immobilisation_or_surgery" not in read


def test_denied_recent_surgery_is_still_read_no() -> None:
    read = _read("wells_pe", "A 61-year-old with chest pain. No recent surgery or immobilization.")
    assert read["immobilisation_or_surgery"]["value"] == "no"


def test_perc_times_major_surgery_only() -> None:
    assert _read("perc", "Age 44. Hip replacement 10 days ago.")["recent_surgery_or_trauma"]["value"] == "yes"
    # PERC asks for surgery needing hospitalisation or intubation: an unnamed "surgery" is not timed
    assert "recent_surgery_or_trauma" not in _read("perc", "Age 44. Surgery 10 days ago.")
    # and a dated surgery outside the window says nothing of trauma
    assert "recent_surgery_or_trauma" not in _read("perc", "Age 44. Knee replacement 2 years ago.")


def test_wells_dvt_major_surgery_within_twelve_weeks() -> None:
    read = _read("wells_dvt", "Swollen left calf. She had a laparotomy 8 weeks ago.")
    assert read["bedridden_or_surgery"]["value"] == "yes"
    assert "bedridden_or_surgery" not in _read("wells_dvt", "Swollen left calf. Laparotomy 4 months ago.")


# --- one-concept windows: "no" from the one dated mention outside it --------------------------------------


def test_caprini_one_dated_event_outside_the_window_is_read_no() -> None:
    read = _read("caprini", "A 70-year-old man. He had a laparotomy 2 years ago. Stroke 2 weeks ago.")
    assert read["prior_major_surgery"]["value"] == "no"
    assert "outside the criterion's time window" in read["prior_major_surgery"]["note"]
    assert read["stroke"]["value"] == "yes"


def test_caprini_no_is_not_read_when_the_event_is_mentioned_again() -> None:
    # two mentions: the second may be another stroke, undated
    read = _read("caprini", "A 70-year-old man. Stroke 3 years ago. Admitted with a stroke.")
    assert "stroke" not in read
    read = _read("caprini", "A 70-year-old man. Stroke 3 years ago. Recent stroke suspected.")
    assert "stroke" not in read


def test_a_window_declared_with_its_events() -> None:
    # a criterion's own words are its events unless Recent names others
    item = Criterion("x", "Fracture (< 1 month)", aliases=("fracture",), recent=Recent(27, 31))
    assert item.recent is not None and item.recent.events == ()


# --- common names ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("calc_id", ["wells_pe", "perc"])
def test_denies_prior_dvt_or_pe_is_read_no(calc_id: str) -> None:
    found = _read(calc_id, "A 50-year-old with dyspnoea. Denies prior DVT or PE.")["previous_dvt_pe"]
    assert (found["value"], found["sentence"]) == ("no", "Denies prior DVT or PE.")


def test_one_of_the_pair_denied_is_not_read_for_both() -> None:
    # "no prior PE" says nothing of a DVT
    assert "previous_dvt_pe" not in _read("wells_pe", "A 50-year-old with dyspnoea. No prior PE.")


def test_a_history_of_pulmonary_embolism_is_read_yes_for_perc() -> None:
    found = _read("perc", "A 50-year-old. History of pulmonary embolism in 2019.")["previous_dvt_pe"]
    assert found["value"] == "yes"


def test_enlarged_cervical_lymph_nodes_for_centor() -> None:
    read = _read("centor", "A 17-year-old with sore throat and enlarged cervical lymph nodes.")
    assert read["tender_anterior_nodes"]["value"] == "yes"
    assert "tender_anterior_nodes" not in _read("centor", "Sore throat, enlarged cervical lymph nodes? Unclear.")
    # the label joins two findings ("Swollen, tender"), so one denied name is not read "no" (note_criteria.py)
    assert "tender_anterior_nodes" not in _read(
        "centor", "A 17-year-old with sore throat. No cervical lymphadenopathy."
    )


def test_type_one_diabetes_but_not_diabetes_insipidus() -> None:
    assert _read("cha2ds2_vasc", "Man, 70. Type 1 diabetes since childhood.")["diabetes"]["value"] == "yes"
    assert "diabetes" not in _read("cha2ds2_vasc", "Man, 70. Central diabetes insipidus.")
