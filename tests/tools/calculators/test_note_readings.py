"""Yes/no criteria read without a model from how a note words them (issue #15): a name reworded
(note_match.py), a broader finding denied (note_broader.py), a difference between the sides stated
(note_compared.py), the symptomatic side in place of a role (note_side.py).

Each reading has its affirmed and denied forms, a doubtful one, a relative's, and a near miss that
must not be read. The sentences are written for these tests, in the manner of clinical notes.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from curbside.tools.calculators.catalog import calculator, calculators
from curbside.tools.calculators.kit import Criterion
from curbside.tools.calculators.note import evaluate_note
from curbside.tools.calculators.note_broader import label_head
from curbside.tools.calculators.note_compared import label_difference
from curbside.tools.calculators.note_match import term_pattern


def _read(calc_id: str, note: str) -> dict[str, dict[str, Any]]:
    result = asyncio.run(evaluate_note(calculator(calc_id), note, {}))
    return {e["input"]: e for e in result.extracted if e["value"] in ("yes", "no")}


def _value(calc_id: str, note: str, key: str) -> str | None:
    found = _read(calc_id, note).get(key)
    return None if found is None else found["value"]


# --- a name reworded ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("term", "text"),
    [
        ("entire leg swollen", "entire left leg is swollen"),
        ("leg swelling", "swelling of the right leg"),
        ("leg swelling", "swollen leg"),
        ("calf tenderness", "calf is tender"),
        ("enlarged tonsils", "tonsils are enlarged"),
        ("symptom onset", "onset of symptoms"),
        ("prior DVT", "prior left DVT"),
    ],
)
def test_a_name_found_as_a_note_words_it(term: str, text: str) -> None:
    pattern = term_pattern([term])
    assert pattern is not None and pattern.fullmatch(text)


@pytest.mark.parametrize(
    ("term", "text"),
    [
        ("leg swelling", "leg is not swollen"),  # a negation is never skipped over
        ("calf swelling", "calf pain and swelling"),  # nor a conjunction
        ("care home", "care at home"),  # nor a content word
        ("care home", "home care"),  # a plain swap is another thing
        ("nursing home", "home nursing"),
        ("calf tenderness", "calf non-tender"),
        ("paralysis", "sedated and paralysed"),  # a neuromuscular blocker, not a paralysed limb
    ],
)
def test_a_near_miss_is_not_found(term: str, text: str) -> None:
    pattern = term_pattern([term])
    assert pattern is not None and not pattern.search(text)


def test_a_reworded_finding_is_read_with_its_sentence() -> None:
    note = "Seen for leg pain. On exam the entire left leg is swollen; no calf tenderness."
    read = _read("wells_dvt", note)
    assert read["entire_leg_swollen"]["value"] == "yes"
    assert read["entire_leg_swollen"]["text"] == "entire left leg is swollen"
    assert read["entire_leg_swollen"]["sentence"].startswith("On exam the entire left leg is swollen")
    assert _value("wells_dvt", "Swelling of the entire right leg.", "entire_leg_swollen") == "yes"


@pytest.mark.parametrize(
    ("note", "value"),
    [
        ("No swelling of the entire leg.", "no"),
        ("The entire leg is possibly swollen.", None),  # in doubt
        ("His brother had a swollen entire leg after surgery.", None),  # a relative's
        ("The leg is not swollen.", None),  # not found, so not read either way
        ("Left leg pain and swelling.", None),  # swelling, but not of the entire leg
    ],
)
def test_a_reworded_finding_denied_doubtful_or_missed(note: str, value: str | None) -> None:
    assert _value("wells_dvt", note, "entire_leg_swollen") == value


def test_a_place_stated_makes_tenderness_localised() -> None:
    assert _value("wells_dvt", "Tenderness along the deep venous system.", "localized_tenderness") == "yes"
    assert _value("wells_dvt", "Not tender along the deep venous system.", "localized_tenderness") == "no"
    assert _value("wells_dvt", "Diffuse tenderness of the thigh.", "localized_tenderness") is None


def test_one_side_or_both_is_no_unilateral_swelling() -> None:
    # PERC: "unilateral leg swelling"; a bare or bilateral swelling is not that, a denied one is no
    assert _value("perc", "Bilateral leg swelling.", "unilateral_leg_swelling") is None
    assert _value("perc", "Swollen legs.", "unilateral_leg_swelling") is None
    assert _value("perc", "No swelling of the legs.", "unilateral_leg_swelling") == "no"


# --- a broader finding denied --------------------------------------------------------------------------


def test_the_head_of_a_qualified_label() -> None:
    heads = {
        (calc.id, item.key): label_head(item)
        for calc in calculators().values()
        for item in calc.inputs
        if isinstance(item, Criterion)
    }
    assert heads["wells_dvt", "active_cancer"] == "cancer"
    assert heads["has_bled", "hypertension"] == "Hypertension"
    assert heads["apache_ii", "acute_renal_failure"] == "renal failure"
    assert heads["wells_pe", "malignancy"] == "Malignancy"  # its brackets only qualify it
    assert heads["rcri", "heart_failure"] is None  # its brackets list signs, not qualifications
    assert heads["wells_dvt", "bedridden_or_surgery"] is None  # two findings
    assert heads["wells_pe", "heart_rate_over_100"] is None  # decided by a measurement
    assert heads["framingham_hard_chd", "bp_treated"] is None  # "blood pressure" is no finding
    assert heads["charlson", "dementia"] is None  # not qualified: read as it is


@pytest.mark.parametrize(
    "note", ["No history of cancer.", "Denies cancer.", "He has no known cancer.", "Cancer was ruled out."]
)
def test_no_cancer_at_all_is_no_active_cancer(note: str) -> None:
    read = _read("wells_dvt", note)
    assert read["active_cancer"]["value"] == "no"
    assert read["active_cancer"]["text"].lower() == "cancer"
    assert "none at all" in read["active_cancer"]["note"]


@pytest.mark.parametrize(
    "note",
    [
        "History of cancer.",  # affirmed broader: not the qualified criterion
        "Treated for breast cancer in 2010.",
        "No skin cancer.",  # a narrower denial: other cancers are not denied
        "Possible cancer. No history of cancer.",  # in doubt
        "Her mother had no cancer.",  # a relative's
        "No cancer. Palliative chemotherapy for lymphoma.",  # another name of it affirmed
    ],
)
def test_active_cancer_not_read(note: str) -> None:
    assert _value("wells_dvt", note, "active_cancer") is None


def test_other_qualified_criteria_denied_by_their_head() -> None:
    assert _value("has_bled", "Denies hypertension.", "hypertension") == "no"
    assert _value("has_bled", "No pulmonary hypertension.", "hypertension") is None  # another condition
    assert _value("has_bled", "History of hypertension.", "hypertension") is None
    assert _value("apache_ii", "No renal failure.", "acute_renal_failure") == "no"
    assert _value("apache_ii", "No chronic renal failure.", "acute_renal_failure") is None
    assert _value("rcri", "No diabetes.", "insulin") == "no"
    assert _value("wells_pe", "No evidence of malignancy.", "malignancy") == "no"


# --- a difference between the sides stated ----------------------------------------------------------------


def test_the_labels_threshold_on_a_difference() -> None:
    item = calculator("wells_dvt").input("calf_swelling_3cm")
    assert isinstance(item, Criterion)
    threshold = label_difference(item)
    assert threshold is not None and (threshold.least_mm, threshold.inclusive) == (30.0, True)
    assert threshold.met(30) and not threshold.met(29)


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("Left calf circumference is 4 cm greater than the right.", "yes"),
        ("Left calf circumference is 3 cm greater than the right.", "yes"),  # ≥ 3 cm
        ("Calf circumference 35 mm larger than the other side.", "yes"),
        ("Left calf circumference is 1 cm greater than the right.", "no"),
        ("Calf swelling 2 cm more than the right.", "no"),
    ],
)
def test_a_stated_difference_decides_calf_swelling(sentence: str, value: str) -> None:
    read = _read("wells_dvt", f"Three days of left calf pain. {sentence}")
    assert read["calf_swelling_3cm"]["value"] == value
    assert read["calf_swelling_3cm"]["sentence"] == sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "Calf circumference is about 4 cm greater than the right.",  # approximate
        "Calf circumference is not 4 cm greater than the right.",  # denied comparison
        "Calf circumference 4 cm and 3 cm greater than the right.",  # two numbers in the clause
        "Right calf circumference is 4 cm greater than the left.",  # the other side larger
        "If calf circumference is 4 cm greater than the right, treat.",  # in doubt
        "His father's calf circumference is 4 cm greater than the right.",  # a relative's
        "Calf circumference is 4 inches greater than the right.",  # not the label's unit
        "A 4 cm difference in calf circumference.",  # written another way
    ],
)
def test_a_difference_not_stated_plainly_is_not_read(sentence: str) -> None:
    assert _value("wells_dvt", f"Three days of left calf pain. {sentence}", "calf_swelling_3cm") is None


def test_another_length_in_another_clause_is_no_bar() -> None:
    note = "Left calf pain. Left calf circumference is 4 cm greater than the right, measured 10 cm below the tibia."
    assert _value("wells_dvt", note, "calf_swelling_3cm") == "yes"


# --- the symptomatic side in place of a role ----------------------------------------------------------------


def test_pitting_oedema_confined_to_the_symptomatic_leg() -> None:
    note = "Four days of left calf pain and swelling. Pitting oedema confined to the left leg."
    read = _read("wells_dvt", note)
    assert read["pitting_edema"]["value"] == "yes"
    assert read["pitting_edema"]["text"] == "Pitting oedema confined to the left leg"
    assert read["pitting_edema"]["sentence"] == "Pitting oedema confined to the left leg."
    lower_limb = "Right leg pain. Pitting edema is confined to the right lower limb."
    assert _value("wells_dvt", lower_limb, "pitting_edema") == "yes"


@pytest.mark.parametrize(
    ("note", "value"),
    [
        ("Left leg pain. No pitting oedema.", "no"),
        ("Pitting oedema confined to the left leg.", None),  # no symptomatic side named elsewhere
        ("Swelling of the left calf. Pitting oedema confined to the right leg.", None),  # the other leg
        ("Left leg pain. Right knee swelling. Pitting oedema confined to the left leg.", None),  # both sides
        ("Left leg pain. Possible pitting oedema confined to the left leg.", None),  # in doubt
        ("Left leg pain. Her sister has pitting oedema confined to the left leg.", None),  # a relative's
        ("No swelling of the right leg. Pitting oedema confined to the left leg.", None),  # a denial names no side
        ("Left leg pain. Pitting oedema in the left leg.", None),  # not said to be confined
        ("Swelling of the left calf. No pitting oedema in the right leg.", None),  # denied on the other leg
        ("Pain in the left calf. No pitting oedema of the right lower limb.", None),
        ("Leg pain. No pitting oedema in the right leg.", None),  # no symptomatic side to compare with
        ("Swelling of the left calf. No pitting oedema in the left leg.", "no"),  # denied on the symptomatic leg
    ],
)
def test_pitting_oedema_not_read_without_a_plain_side(note: str, value: str | None) -> None:
    assert _value("wells_dvt", note, "pitting_edema") == value


# --- the clinician's note of issue #15 ----------------------------------------------------------------------

_WELLS_NOTE = (
    "68-year-old man presents with 4 days of left calf pain and swelling. He underwent a left total knee "
    "replacement 3 weeks ago and has been mobilising with a walker. Denies prior DVT or PE. No history of "
    "cancer. On exam the entire left leg is swollen; left calf circumference is 4 cm greater than the right, "
    "measured 10 cm below the tibial tuberosity. Pitting oedema confined to the left leg. Tenderness along the "
    "deep venous system. No collateral superficial veins. No paralysis or recent plaster cast."
)


def test_the_clinicians_note_is_read_but_for_the_judgement() -> None:
    result = asyncio.run(evaluate_note(calculator("wells_dvt"), _WELLS_NOTE, {}))
    read = {e["input"]: e["value"] for e in result.extracted}
    assert read == {
        "active_cancer": "no",
        "paralysis_or_cast": "no",
        "bedridden_or_surgery": "yes",
        "localized_tenderness": "yes",
        "entire_leg_swollen": "yes",
        "calf_swelling_3cm": "yes",
        "pitting_edema": "yes",
        "collateral_veins": "no",
        "previous_dvt": "no",
    }
    assert [m.input for m in result.missing] == ["alternative_diagnosis"]  # a judgement: asked
