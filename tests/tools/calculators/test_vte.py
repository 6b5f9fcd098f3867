"""Wells PE, PERC and Caprini against their published definitions, thresholds and worked examples."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pytest

from curbside.errors import ValidationError
from curbside.tools.calculators.catalog import calculator
from curbside.tools.calculators.kit import CalcResult, Choice, Criterion, evaluate


def _criteria(calc_id: str) -> list[str]:
    return [item.key for item in calculator(calc_id).inputs if isinstance(item, Criterion)]


def _run(calc_id: str, present: Collection[str] = (), **others: Any) -> CalcResult:
    """Every criterion given (True when in ``present``), plus the other inputs."""
    unknown = set(present) - set(_criteria(calc_id))
    assert not unknown, unknown
    arguments: dict[str, Any] = {key: key in present for key in _criteria(calc_id)}
    arguments.update(others)
    return evaluate(calculator(calc_id), arguments)


# --- Wells PE ----------------------------------------------------------------------------------------


def test_wells_pe_item_points() -> None:
    # Wells 2000 Thromb Haemost point score: DVT signs 3, PE most likely 3, HR > 100 1.5, immobilisation/surgery
    # 1.5, previous DVT/PE 1.5, haemoptysis 1, malignancy 1 (computed by hand from that table)
    points = {item.key: item.points for item in calculator("wells_pe").inputs if isinstance(item, Criterion)}
    assert points == {
        "clinical_signs_dvt": 3, "pe_most_likely": 3, "heart_rate_over_100": 1.5, "immobilisation_or_surgery": 1.5,
        "previous_dvt_pe": 1.5, "haemoptysis": 1, "malignancy": 1,
    }  # fmt: skip
    # all seven: 3 + 3 + 1.5 + 1.5 + 1.5 + 1 + 1 = 12.5
    assert _run("wells_pe", set(_criteria("wells_pe"))).value == 12.5


def test_wells_pe_worked_examples() -> None:
    # computed by hand from the Wells 2000 point score: leg signs of DVT and a pulse of 110 -> 3 + 1.5 = 4.5, PE likely
    result = _run("wells_pe", {"clinical_signs_dvt", "heart_rate_over_100"})
    assert (result.value, result.display, result.category) == (4.5, "4.5 points", "PE likely")
    assert result.conventions == {"tiers": "two (default)"}
    # haemoptysis in a patient on chemotherapy: 1 + 1 = 2 -> PE unlikely (two tiers), moderate (three tiers)
    assert _run("wells_pe", {"haemoptysis", "malignancy"}).category == "PE unlikely"
    three = _run("wells_pe", {"haemoptysis", "malignancy"}, tiers="three")
    assert (three.value, three.category, three.conventions) == (2, "moderate", {"tiers": "three"})


def test_wells_pe_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 8 (shared data calc/medcalc-oneshot-dev.json): pulse 150,
    # every other item absent (immobilisation, surgery, previous PE, previous DVT all false) -> 1.5.
    # Its worked answer: 1.5. The heart rate enters as the criterion: 150 > 100.
    heart_rate = 150.0
    result = _run("wells_pe", {"heart_rate_over_100"} if heart_rate > 100 else set())
    assert (result.value, result.category) == (1.5, "PE unlikely")


def test_wells_pe_two_tier_threshold() -> None:
    # 'PE likely' > 4 (Wells 2001; van Belle 2006): 4 unlikely, 4.5 likely
    assert _run("wells_pe", {"clinical_signs_dvt", "malignancy"}).category == "PE unlikely"  # 4
    assert _run("wells_pe", {"pe_most_likely", "previous_dvt_pe"}).category == "PE likely"  # 4.5
    assert _run("wells_pe", set()).category == "PE unlikely"  # 0


def test_wells_pe_three_tier_thresholds() -> None:
    # Wells 2000: low < 2, moderate 2-6, high > 6
    cases = {
        frozenset({"heart_rate_over_100"}): (1.5, "low"),
        frozenset({"haemoptysis", "malignancy"}): (2, "moderate"),
        frozenset({"clinical_signs_dvt", "pe_most_likely"}): (6, "moderate"),
        frozenset({"clinical_signs_dvt", "heart_rate_over_100", "haemoptysis", "malignancy"}): (6.5, "high"),
    }
    for present, expected in cases.items():
        result = _run("wells_pe", set(present), tiers="three")
        assert (result.value, result.category) == expected, present


def test_wells_pe_refuses_what_is_not_an_answer() -> None:
    with pytest.raises(ValidationError, match="not an option"):
        _run("wells_pe", set(), tiers="four")
    with pytest.raises(ValidationError, match="not yes or no"):
        evaluate(calculator("wells_pe"), {"heart_rate_over_100": 150})


def test_wells_pe_missing_items_are_listed() -> None:
    result = evaluate(calculator("wells_pe"), {"clinical_signs_dvt": True, "heart_rate_over_100": False})
    assert result.status == "needs_more_info" and result.value is None
    assert [m.input for m in result.missing] == [
        "pe_most_likely", "immobilisation_or_surgery", "previous_dvt_pe", "haemoptysis", "malignancy",
    ]  # fmt: skip
    absent = evaluate(calculator("wells_pe"), {"clinical_signs_dvt": True}, missing="absent")
    assert (absent.value, len(absent.assumed_absent)) == (3, 6)


# --- PERC --------------------------------------------------------------------------------------------

_PERC_CLEAR = {"age": 35, "heart_rate": 80, "oxygen_saturation": 98}


def test_perc_negative_only_when_all_absent() -> None:
    # Kline 2004: all eight absent -> PERC negative (computed by hand: 35 y, pulse 80, SaO2 98 %, no history)
    result = _run("perc", set(), **_PERC_CLEAR)
    assert (result.value, result.category) == (0, "PERC negative")
    assert "pretest probability" in (result.meaning or "")
    # one history item is enough to be positive: oestrogen use
    positive = _run("perc", {"hormone_use"}, **_PERC_CLEAR)
    assert (positive.value, positive.category) == (1, "PERC positive")
    assert "oestrogen use" in (positive.meaning or "")


def test_perc_worked_example_all_positive() -> None:
    # computed by hand from Kline 2004's eight criteria: 72 y, pulse 118, SaO2 91 %, all five history items -> 8
    result = _run("perc", set(_criteria("perc")), age=72, heart_rate=118, oxygen_saturation=91)
    assert (result.value, result.category) == (8, "PERC positive")
    assert result.extra == {"age_50_or_more": 1.0, "heart_rate_100_or_more": 1.0, "saturation_below_95": 1.0}


def test_perc_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 48: 64 y, HR 72, SaO2 100 %, previous PE true, the rest
    # false -> age >= 50 and prior PE/DVT: 2 criteria (its worked answer: 2)
    result = _run("perc", {"previous_dvt_pe"}, age=64, heart_rate=72, oxygen_saturation=100)
    assert (result.value, result.category) == (2, "PERC positive")


def test_perc_measured_thresholds() -> None:
    # Kline 2004: age >= 50, heart rate >= 100, SaO2 < 95 % are positive; just inside each limit is not
    assert _run("perc", set(), **{**_PERC_CLEAR, "age": 49}).value == 0
    assert _run("perc", set(), **{**_PERC_CLEAR, "age": 50}).value == 1
    assert _run("perc", set(), **{**_PERC_CLEAR, "heart_rate": 99}).value == 0
    assert _run("perc", set(), **{**_PERC_CLEAR, "heart_rate": 100}).value == 1
    assert _run("perc", set(), **{**_PERC_CLEAR, "oxygen_saturation": 95}).value == 0
    assert _run("perc", set(), **{**_PERC_CLEAR, "oxygen_saturation": 94}).value == 1


def test_perc_units() -> None:
    # age in months: 600 months = 50 years -> positive, and the conversion is shown
    result = _run("perc", set(), **{**_PERC_CLEAR, "age": {"value": 600, "unit": "months"}})
    assert result.value == 1
    assert result.conversions == ["Age: 600 months = 50 years"]
    # 'bpm' is the canonical /min: no conversion note
    bpm = _run("perc", set(), **{**_PERC_CLEAR, "heart_rate": {"value": 100, "unit": "bpm"}})
    assert (bpm.value, bpm.conversions) == (1, [])


def test_perc_refuses_impossible_values() -> None:
    with pytest.raises(ValidationError, match=r"not plausible .*expected 20–100 %"):
        _run("perc", set(), **{**_PERC_CLEAR, "oxygen_saturation": 0.97})  # a fraction, not a percentage
    with pytest.raises(ValidationError, match="not plausible"):
        _run("perc", set(), **{**_PERC_CLEAR, "heart_rate": 400})


def test_perc_missing_measurements_are_asked_for_even_with_absent() -> None:
    result = evaluate(calculator("perc"), {"age": 30, "haemoptysis": False}, missing="absent")
    assert result.status == "needs_more_info"
    assert [m.input for m in result.missing] == ["heart_rate", "oxygen_saturation"]
    asked = evaluate(calculator("perc"), {"age": 30, "heart_rate": 80, "oxygen_saturation": 99})
    assert [m.input for m in asked.missing] == [
        "unilateral_leg_swelling", "haemoptysis", "recent_surgery_or_trauma", "previous_dvt_pe", "hormone_use",
    ]  # fmt: skip


# --- Caprini -----------------------------------------------------------------------------------------


def _caprini(present: Collection[str] = (), **others: Any) -> CalcResult:
    return _run("caprini", present, **{"surgery": "none", "mobility": "ambulatory", **others})


def test_caprini_point_values() -> None:
    # Caprini 2005 form: each factor's points (checked against the form, item by item)
    points = {item.key: item.points for item in calculator("caprini").inputs if isinstance(item, Criterion)}
    by_value: dict[float, set[str]] = {}
    for key, value in points.items():
        by_value.setdefault(value, set()).add(key)
    assert by_value[5] == {"hip_pelvis_leg_fracture", "stroke", "multiple_trauma", "spinal_cord_injury"}
    assert by_value[3] == {
        "history_vte", "family_history_thrombosis", "factor_v_leiden", "prothrombin_20210a",
        "elevated_homocysteine", "lupus_anticoagulant", "anticardiolipin", "hit", "other_thrombophilia",
    }  # fmt: skip
    assert by_value[2] == {"malignancy", "plaster_cast", "central_venous_access"}
    assert by_value[1] == {
        "prior_major_surgery", "varicose_veins", "inflammatory_bowel_disease", "swollen_legs", "obesity", "acute_mi",
        "heart_failure", "sepsis", "serious_lung_disease", "abnormal_pulmonary_function", "hormones",
        "pregnancy_postpartum", "adverse_pregnancy_history", "other_risk_factor",
    }  # fmt: skip
    assert set(by_value) == {1, 2, 3, 5}
    # the grouped items: minor surgery 1, major/laparoscopic/arthroscopic 2, arthroplasty 5; bed rest 1, > 72 h 2
    surgery, mobility = calculator("caprini").input("surgery"), calculator("caprini").input("mobility")
    assert isinstance(surgery, Choice) and isinstance(mobility, Choice)
    assert dict(surgery.options) == {"none": 0, "minor": 1, "major": 2, "arthroplasty": 5}
    assert dict(mobility.options) == {"ambulatory": 0, "bed_rest": 1, "confined_over_72h": 2}


def test_caprini_worked_examples() -> None:
    # computed by hand from the Caprini 2005 form: 66-year-old (2) for open colectomy > 45 min (major, 2)
    # with colon cancer (2) and BMI 31 (1) -> 7, highest (Bahl 2010: >= 5)
    result = _caprini({"malignancy", "obesity"}, age=66, surgery="major")
    assert (result.value, result.category) == (7, "highest")
    assert result.extra == {"age_points": 2.0}
    # 35-year-old for a minor procedure, nothing else: 0 + 1 -> 1, low
    assert (_caprini(age=35, surgery="minor").value, _caprini(age=35, surgery="minor").category) == (1, "low")
    # 80-year-old with a hip fracture for arthroplasty, confined to bed > 72 h: 3 + 5 + 5 + 2 = 15
    hip = _caprini({"hip_pelvis_leg_fracture"}, age=80, surgery="arthroplasty", mobility="confined_over_72h")
    assert (hip.value, hip.category) == (15, "highest")


def test_caprini_age_bands() -> None:
    # 2005 form: <= 40 none, 41-60 1, 61-74 2, >= 75 3
    for age, points in {40: 0, 41: 1, 60: 1, 61: 2, 74: 2, 75: 3}.items():
        assert _caprini(age=age).value == points, age


def test_caprini_risk_level_thresholds() -> None:
    # Bahl 2010: 0-1 low, 2 moderate, 3-4 high, >= 5 highest (age 30 scores nothing)
    cases = {1: "low", 2: "moderate", 3: "high", 4: "high", 5: "highest"}
    make = {
        1: {"varicose_veins"},
        2: {"central_venous_access"},
        3: {"history_vte"},
        4: {"history_vte", "sepsis"},
        5: {"stroke"},
    }
    for total, level in cases.items():
        result = _caprini(make[total], age=30)
        assert (result.value, result.category) == (total, level)
    assert _caprini(age=30).category == "low"


def test_caprini_units_and_refusal() -> None:
    # age in months: 900 months = 75 years -> 3 points
    result = _caprini(age={"value": 900, "unit": "months"})
    assert result.value == 3 and result.conversions == ["Age: 900 months = 75 years"]
    with pytest.raises(ValidationError, match="not plausible"):
        _caprini(age=150)
    with pytest.raises(ValidationError, match="not an option"):
        _caprini(age=50, surgery="huge")


def test_caprini_missing_inputs() -> None:
    result = evaluate(calculator("caprini"), {"age": 50})
    assert result.status == "needs_more_info"
    assert [m.input for m in result.missing] == ["surgery", "mobility", *_criteria("caprini")]
    absent = evaluate(calculator("caprini"), {"age": 50, "malignancy": True}, missing="absent")
    assert (absent.status, absent.value) == ("complete", 3)  # age 1 + malignancy 2
    assert "Surgery (this admission): none" in absent.assumed_absent
    assert len(absent.assumed_absent) == len(_criteria("caprini")) - 1 + 2
    no_age = evaluate(calculator("caprini"), {}, missing="absent")
    assert [m.input for m in no_age.missing] == ["age"]
