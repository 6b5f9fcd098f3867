"""MELD, MELD-Na, MELD 3.0, Child-Pugh and FIB-4 against their published definitions and dev notes."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from curbside.errors import ValidationError
from curbside.tools.calculators.catalog import calculator
from curbside.tools.calculators.kit import CalcResult, evaluate

_DEV = Path("/work/shared/data/calc/medcalc-oneshot-dev.json")


def _dev_note(calc_id: int) -> dict[str, Any]:
    if not _DEV.exists():
        pytest.skip("the shared MedCalc dev set is not on this machine")
    notes = [note for note in json.loads(_DEV.read_text()) if note["calculator_id"] == calc_id]
    assert len(notes) == 1
    return notes[0]


def _run(calc_id: str, missing: Any = "ask", **given: Any) -> CalcResult:
    return evaluate(calculator(calc_id), given, missing=missing)


def _inr_for_meld(score: float) -> float:
    """The INR that, with creatinine and bilirubin 1.0, gives 10 x MELD(i) = ``score``."""
    return math.exp((score / 10 - 0.643) / 1.120)


# --- MELD (original) --------------------------------------------------------------------------------


def test_meld_worked_examples() -> None:
    # computed by hand from OPTN Policy 9.1 (pre-2016) / Kamath 2001:
    # Cr 1.9, bili 4.2, INR 1.2: 0.957 ln 1.9 (0.6143) + 0.378 ln 4.2 (0.5425) + 1.120 ln 1.2 (0.2042)
    # + 0.643 = 2.004 -> 2.0 -> 20 (Wiesner 2003: 20-29, 19.6 % 3-month mortality)
    result = _run("meld", creatinine=1.9, bilirubin=4.2, inr=1.2, dialysis=False)
    assert (result.value, result.unit, result.category) == (20, "points", "20–29")
    assert "19.6 %" in (result.meaning or "")
    # Cr 1.5, bili 2.0, INR 1.5: 0.3880 + 0.2620 + 0.4541 + 0.643 = 1.747 -> 17
    assert _run("meld", creatinine=1.5, bilirubin=2.0, inr=1.5, dialysis=False).value == 17


def test_meld_bounds_and_dialysis() -> None:
    # values < 1 are set to 1: 10 x 0.643 = 6.4 -> 6, the minimum
    low = _run("meld", creatinine=0.6, bilirubin=0.5, inr=0.9, dialysis=False)
    assert low.value == 6
    assert low.extra == {"creatinine_used": 1.0, "bilirubin_used": 1.0, "inr_used": 1.0}
    # dialysis twice in the past week sets Cr to 4.0: 1.3267 + 0.2620 + 0.4541 + 0.643 = 2.686 -> 27
    dialysed = _run("meld", creatinine=1.5, bilirubin=2.0, inr=1.5, dialysis=True)
    assert dialysed.value == 27
    assert dialysed.extra["creatinine_used"] == 4.0
    # creatinine above 4.0 is capped at 4.0
    assert _run("meld", creatinine=6.0, bilirubin=2.0, inr=1.5, dialysis=False).value == 27
    # the maximum is 40: Cr 4, bili 30, INR 5 gives 50.6 -> 40
    assert _run("meld", creatinine=4.0, bilirubin=30, inr=5, dialysis=False).value == 40


def test_meld_si_units() -> None:
    # creatinine 168 µmol/L = 1.900 mg/dL, bilirubin 71.82 µmol/L = 4.2 mg/dL -> 20 as above
    result = _run(
        "meld",
        creatinine={"value": 168, "unit": "µmol/L"},
        bilirubin={"value": 71.82, "unit": "µmol/L"},
        inr=1.2,
        dialysis=False,
    )
    assert result.value == 20
    assert len(result.conversions) == 2


@pytest.mark.parametrize(
    ("score", "category"), [(9, "≤ 9"), (10, "10–19"), (19, "10–19"), (20, "20–29"), (29, "20–29"), (30, "30–39"),
                            (39, "30–39")],
)  # fmt: skip
def test_meld_wiesner_bands(score: float, category: str) -> None:
    # Wiesner 2003 bands <= 9, 10-19, 20-29, 30-39, >= 40
    result = _run("meld", creatinine=1.0, bilirubin=1.0, inr=_inr_for_meld(score), dialysis=False)
    assert (result.value, result.category) == (score, category)


def test_meld_band_40() -> None:
    # Cr 4.0 and INR 6.13: 1.3267 + 1.120 ln 6.13 (2.0303) + 0.643 = 4.000 -> 40 (71.3 %)
    result = _run("meld", creatinine=4.0, bilirubin=1.0, inr=6.13, dialysis=False)
    assert (result.value, result.category) == (40, "≥ 40")


def test_meld_refuses_impossible_and_lists_missing() -> None:
    with pytest.raises(ValidationError, match="not plausible"):
        _run("meld", creatinine=1.0, bilirubin=1.0, inr=45, dialysis=False)
    result = _run("meld", creatinine=1.0, bilirubin=1.0)
    assert [m.input for m in result.missing] == ["inr", "dialysis"]
    # dialysis can be scored absent when the note does not mention it
    absent = _run("meld", missing="absent", creatinine=1.9, bilirubin=4.2, inr=1.2)
    assert absent.value == 20
    assert absent.assumed_absent == [calculator("meld").input("dialysis").label]


# --- MELD-Na ----------------------------------------------------------------------------------------


def test_meld_na_worked_examples() -> None:
    # computed by hand from Kim 2008 NEJM and OPTN Policy 9.1.D (2016):
    # MELD(i) 20 (Cr 1.9, bili 4.2, INR 1.2), Na 130: 20 + 1.32 x 7 - 0.033 x 20 x 7 = 24.62 -> 25
    result = _run("meld_na", creatinine=1.9, bilirubin=4.2, inr=1.2, sodium=130, dialysis=False)
    assert (result.value, result.unit) == (25, "points")
    assert result.extra["meld_i"] == 20
    # Na 125: 20 + 15.84 - 7.92 = 27.92 -> 28
    assert _run("meld_na", creatinine=1.9, bilirubin=4.2, inr=1.2, sodium=125, dialysis=False).value == 28


def test_meld_na_sodium_bounds() -> None:
    labs = {"creatinine": 1.9, "bilirubin": 4.2, "inr": 1.2, "dialysis": False}
    # sodium below 125 is set to 125; above 137 to 137 (OPTN; Kim 2008 used 140)
    low = _run("meld_na", **labs, sodium=118)
    assert (low.value, low.extra["sodium_used"]) == (28, 125)
    high = _run("meld_na", **labs, sodium=142)
    assert (high.value, high.extra["sodium_used"]) == (20, 137)


def test_meld_na_applies_sodium_only_above_11() -> None:
    # MELD(i) 11: unchanged even at Na 125; MELD(i) 12 at Na 125: 12 + 15.84 - 0.033 x 12 x 12 = 23.09 -> 23
    eleven = _run("meld_na", creatinine=1.0, bilirubin=1.0, inr=_inr_for_meld(11), sodium=125, dialysis=False)
    assert (eleven.extra["meld_i"], eleven.value) == (11, 11)
    twelve = _run("meld_na", creatinine=1.0, bilirubin=1.0, inr=_inr_for_meld(12), sodium=125, dialysis=False)
    assert (twelve.extra["meld_i"], twelve.value) == (12, 23)


def test_meld_na_dialysis_cap_and_units() -> None:
    # dialysis: Cr 4.0 -> MELD(i) 27 (as above); Na 130: 27 + 9.24 - 0.033 x 27 x 7 = 30.00 -> 30
    result = _run(
        "meld_na",
        creatinine=1.5,
        bilirubin={"value": 34.2, "unit": "µmol/L"},  # 2.0 mg/dL
        inr=1.5,
        sodium={"value": 130, "unit": "mEq/L"},
        dialysis=True,
    )
    assert (result.extra["meld_i"], result.value) == (27, 30)
    # the maximum is 40
    assert _run("meld_na", creatinine=4.0, bilirubin=30, inr=5, sodium=125, dialysis=False).value == 40


def test_meld_na_refuses_impossible_and_lists_missing() -> None:
    with pytest.raises(ValidationError, match="not plausible"):
        _run("meld_na", creatinine=1.0, bilirubin=1.0, inr=1.0, sodium=20, dialysis=False)
    result = _run("meld_na", creatinine=1.0, bilirubin=1.0, inr=1.0, dialysis=False)
    assert [m.input for m in result.missing] == ["sodium"]


# --- MELD 3.0 ---------------------------------------------------------------------------------------


def test_meld_3_worked_examples() -> None:
    # computed by hand from Kim 2021 Gastroenterology 161:1887: female, bili 2.0, Na 130, INR 1.5, Cr 1.2,
    # albumin 3.0: 1.33 + 4.56 ln 2 (3.1608) + 0.82 x 7 (5.74) - 0.24 x 7 x ln 2 (1.1645) + 9.09 ln 1.5 (3.6857)
    # + 11.14 ln 1.2 (2.0311) + 1.85 x 0.5 (0.925) - 1.83 x 0.5 x ln 1.2 (0.1668) + 6 = 21.54 -> 22
    labs = {"bilirubin": 2.0, "sodium": 130, "inr": 1.5, "creatinine": 1.2, "albumin": 3.0, "dialysis": False}
    female = _run("meld_3", sex="female", **labs)
    assert (female.value, female.unit) == (22, "points")
    # the same man: 21.54 - 1.33 = 20.21 -> 20
    assert _run("meld_3", sex="male", **labs).value == 20
    # male, bili 3.0, Na 128, INR 1.8, Cr 2.0, albumin 2.5: 5.0097 + 7.38 - 2.3730 + 5.3430 + 7.7217 + 1.85
    # - 1.2685 + 6 = 29.66 -> 30
    assert (
        _run(
            "meld_3", sex="male", bilirubin=3.0, sodium=128, inr=1.8, creatinine=2.0, albumin=2.5, dialysis=False
        ).value
        == 30
    )


def test_meld_3_bounds_and_dialysis() -> None:
    base = {"sex": "male", "bilirubin": 3.0, "sodium": 128, "inr": 1.8, "albumin": 2.5}
    # creatinine capped at 3.0 (not 4.0): Cr 3.5 and Cr 3.0 both give 33.44 -> 33
    assert _run("meld_3", **base, creatinine=3.5, dialysis=False).value == 33
    assert _run("meld_3", **base, creatinine=3.0, dialysis=False).value == 33
    dialysed = _run("meld_3", **base, creatinine=1.5, dialysis=True)
    assert (dialysed.value, dialysed.extra["creatinine_used"]) == (33, 3.0)
    # sodium bounded 125-137 and albumin 1.5-3.5: Na 120 / albumin 1.0 as Na 125 / albumin 1.5 -> 31.91 -> 32
    low = _run("meld_3", **{**base, "sodium": 120, "albumin": 1.0}, creatinine=2.0, dialysis=False)
    assert (low.value, low.extra["sodium_used"], low.extra["albumin_used"]) == (32, 125, 1.5)
    # lower bounds 1.0 and Na 137 / albumin 3.5: every term 0 -> 6, the minimum
    floor = _run("meld_3", sex="male", bilirubin=0.5, sodium=141, inr=0.9, creatinine=0.7, albumin=4.2, dialysis=False)
    assert floor.value == 6
    # the maximum is 40: bili 20, Na 125, INR 4, Cr 3, albumin 1.5 gives 45.4 -> 40
    top = _run("meld_3", sex="male", bilirubin=20, sodium=125, inr=4, creatinine=3, albumin=1.5, dialysis=False)
    assert top.value == 40


def test_meld_3_si_units() -> None:
    # albumin 25 g/L = 2.5 g/dL, creatinine 176.8 µmol/L = 2.0 mg/dL, bilirubin 51.3 µmol/L = 3.0 mg/dL -> 30
    result = _run(
        "meld_3",
        sex="male",
        bilirubin={"value": 51.3, "unit": "µmol/L"},
        sodium=128,
        inr=1.8,
        creatinine={"value": 176.8, "unit": "µmol/L"},
        albumin={"value": 25, "unit": "g/L"},
        dialysis=False,
    )
    assert result.value == 30
    assert "Serum albumin: 25 g/L = 2.5 g/dL" in result.conversions


def test_meld_3_refuses_impossible_and_lists_missing() -> None:
    with pytest.raises(ValidationError, match="not plausible"):
        _run("meld_3", sex="male", bilirubin=1, sodium=137, inr=1, creatinine=1, albumin=15, dialysis=False)
    result = _run("meld_3", bilirubin=1, sodium=137, inr=1, creatinine=1, dialysis=False)
    assert [m.input for m in result.missing] == ["sex", "albumin"]


# --- Child-Pugh -------------------------------------------------------------------------------------


def _child_pugh(**given: Any) -> CalcResult:
    return _run("child_pugh", **{"ascites": "none", "encephalopathy": "none", **given})


def test_child_pugh_worked_examples() -> None:
    # Pugh 1973 Table I: bili 2.5 (2) + albumin 3.0 (2) + INR 1.5 (1) + mild ascites (2) + no encephalopathy (1)
    # = 8 -> class B
    result = _child_pugh(bilirubin=2.5, albumin=3.0, inr=1.5, ascites="mild")
    assert (result.value, result.category) == (8, "B")
    assert result.extra == {"bilirubin_points": 2, "albumin_points": 2, "inr_points": 1}
    # every part of the score, the labs' bands too, and they add up to it
    assert {p.input: p.points for p in result.points} == {
        "ascites": 2,
        "encephalopathy": 1,
        "bilirubin": 2,
        "albumin": 2,
        "inr": 1,
    }
    assert sum(p.points for p in result.points) == result.value
    # every item at its worst: 5 x 3 = 15 -> class C
    worst = _child_pugh(bilirubin=4.0, albumin=2.5, inr=2.5, ascites="moderate-severe", encephalopathy="grade 3-4")
    assert (worst.value, worst.category) == (15, "C")
    # every item normal: 5 -> class A
    assert _child_pugh(bilirubin=0.8, albumin=4.2, inr=1.0).value == 5


@pytest.mark.parametrize(
    ("lab", "value", "points"),
    [("bilirubin", 1.99, 1), ("bilirubin", 2.0, 2), ("bilirubin", 3.0, 2), ("bilirubin", 3.01, 3),
     ("albumin", 3.51, 1), ("albumin", 3.5, 2), ("albumin", 2.8, 2), ("albumin", 2.79, 3),
     ("inr", 1.69, 1), ("inr", 1.7, 2), ("inr", 2.3, 2), ("inr", 2.31, 3)],
)  # fmt: skip
def test_child_pugh_lab_thresholds(lab: str, value: float, points: int) -> None:
    # Pugh 1973 Table I: bilirubin < 2 / 2-3 / > 3 mg/dL; albumin > 3.5 / 2.8-3.5 / < 2.8 g/dL; INR < 1.7 /
    # 1.7-2.3 / > 2.3; a value at a shared limit gets the middle score
    labs = {"bilirubin": 1.0, "albumin": 4.0, "inr": 1.0, lab: value}
    result = _child_pugh(**labs)
    assert result.extra[f"{lab}_points"] == points
    assert result.value == 4 + points


@pytest.mark.parametrize(("encephalopathy", "total", "category"), [("none", 6, "A"), ("grade 1-2", 7, "B")])
def test_child_pugh_class_a_b_threshold(encephalopathy: str, total: int, category: str) -> None:
    # bili 2.5 (2) + 1 + 1 + no ascites (1) + encephalopathy: 6 -> A (5-6), 7 -> B (7-9)
    result = _child_pugh(bilirubin=2.5, albumin=4.0, inr=1.0, encephalopathy=encephalopathy)
    assert (result.value, result.category) == (total, category)


@pytest.mark.parametrize(("inr", "total", "category"), [(1.5, 9, "B"), (2.0, 10, "C")])
def test_child_pugh_class_b_c_threshold(inr: float, total: int, category: str) -> None:
    # bili 2.5 (2) + albumin 3.0 (2) + mild ascites (2) + grade 1-2 (2) + INR: 1 -> 9 (B), 2 -> 10 (C, 10-15)
    result = _child_pugh(bilirubin=2.5, albumin=3.0, inr=inr, ascites="mild", encephalopathy="grade 1-2")
    assert (result.value, result.category) == (total, category)


def test_child_pugh_cholestatic_bilirubin_scale() -> None:
    # Pugh 1973 Table I, primary biliary cirrhosis: bilirubin 1-4 / 4-10 / > 10 mg/dL
    standard = _child_pugh(bilirubin=3.5, albumin=4.0, inr=1.0)
    assert (standard.extra["bilirubin_points"], standard.conventions) == (3, {"bilirubin_scale": "standard (default)"})
    for bilirubin, points in ((3.5, 1), (4.0, 2), (10.0, 2), (10.5, 3)):
        result = _child_pugh(bilirubin=bilirubin, albumin=4.0, inr=1.0, bilirubin_scale="cholestatic")
        assert result.extra["bilirubin_points"] == points
        assert result.conventions == {"bilirubin_scale": "cholestatic"}


def test_child_pugh_si_units() -> None:
    # bilirubin 42.75 µmol/L = 2.5 mg/dL (2); albumin 30 g/L = 3.0 g/dL (2) -> with INR 1.5, mild ascites: 8
    result = _child_pugh(
        bilirubin={"value": 42.75, "unit": "µmol/L"}, albumin={"value": 30, "unit": "g/L"}, inr=1.5, ascites="mild"
    )
    assert (result.value, result.category) == (8, "B")
    assert result.conversions == ["Total bilirubin: 42.75 µmol/L = 2.5 mg/dL", "Serum albumin: 30 g/L = 3 g/dL"]


def test_child_pugh_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 15: INR 2.0 (2), bilirubin 28.1 µmol/L = 1.64 mg/dL (1),
    # albumin 3.7 g/dL (1), no ascites (1), no encephalopathy (1) = 6, class A.
    # DISAGREEMENT: its worked answer is 4 — it scores only INR, bilirubin and albumin and gives no points for
    # absent ascites and absent encephalopathy, but Pugh 1973 Table I scores "none"/"absent" as 1 point each
    # (the score runs 5-15). We keep 6.
    note = _dev_note(15)
    params = note["input_parameters"]
    assert note["worked_answer"]["answer"] == 4
    result = _run(
        "child_pugh",
        inr=params["inr"],
        bilirubin={"value": params["bilirubin"][0], "unit": params["bilirubin"][1]},
        albumin={"value": params["albumin"][0], "unit": params["albumin"][1]},
        ascites={"absent": "none"}[params["ascites"]],
        encephalopathy={"Grade 0": "none"}[params["encephalopathy"]],
    )
    assert (result.value, result.category) == (6, "A")
    assert result.extra == {"bilirubin_points": 1, "albumin_points": 1, "inr_points": 2}


def test_child_pugh_missing_and_refusal() -> None:
    labs = {"bilirubin": 1.0, "albumin": 4.0, "inr": 1.0}
    asked = _run("child_pugh", **labs)
    assert asked.status == "needs_more_info"
    assert [m.input for m in asked.missing] == ["ascites", "encephalopathy"]
    absent = _run("child_pugh", missing="absent", **labs)
    assert (absent.value, absent.category) == (5, "A")
    assert absent.assumed_absent == ["Ascites: none", "Hepatic encephalopathy: none"]
    with pytest.raises(ValidationError, match="not plausible"):
        _child_pugh(bilirubin=1.0, albumin={"value": 120, "unit": "g/L"}, inr=1.0)
    with pytest.raises(ValidationError, match="not an option"):
        _child_pugh(bilirubin=1.0, albumin=4.0, inr=1.0, ascites="tense")


# --- FIB-4 ------------------------------------------------------------------------------------------


def test_fib4_worked_examples() -> None:
    # computed by hand from Sterling 2006 (Hepatology 43:1317): age x AST / (platelets x sqrt(ALT))
    # 48 y, AST 60, ALT 45, platelets 150: 2880 / (150 x 6.708) = 2.86 -> high (> 2.67, Shah 2009)
    result = _run("fib4", age=48, ast=60, alt=45, platelets=150)
    assert (result.value, result.category) == (2.86, "high")
    assert result.conventions == {"cutoffs": "shah_2009 (default)"}
    # 40 y, AST 20, ALT 25, platelets 250: 800 / 1250 = 0.64 -> low
    assert _run("fib4", age=40, ast=20, alt=25, platelets=250).category == "low"


@pytest.mark.parametrize(
    ("ast", "value", "category"),
    [(25.8, 1.29, "low"), (26, 1.30, "indeterminate"), (53.4, 2.67, "indeterminate"), (53.6, 2.68, "high")],
)
def test_fib4_shah_thresholds(ast: float, value: float, category: str) -> None:
    # 50 y, ALT 100 (sqrt 10), platelets 100: FIB-4 = AST / 20; < 1.30 low, 1.30-2.67 indeterminate, > 2.67 high
    result = _run("fib4", age=50, ast=ast, alt=100, platelets=100)
    assert (result.value, result.category) == (value, category)


@pytest.mark.parametrize(
    ("ast", "category"), [(28.8, "low"), (29, "indeterminate"), (65, "indeterminate"), (65.2, "high")]
)
def test_fib4_sterling_thresholds(ast: float, category: str) -> None:
    # Sterling 2006: < 1.45 and > 3.25; FIB-4 = AST / 20 as above (1.44, 1.45, 3.25, 3.26)
    result = _run("fib4", age=50, ast=ast, alt=100, platelets=100, cutoffs="sterling_2006")
    assert result.category == category
    assert result.conventions == {"cutoffs": "sterling_2006"}


def test_fib4_units_and_age_warnings() -> None:
    # platelets written 10^3/µL and enzymes IU/L are the canonical units: same 2.86
    result = _run(
        "fib4",
        age=48,
        ast={"value": 60, "unit": "IU/L"},
        alt={"value": 45, "unit": "IU/L"},
        platelets={"value": 150, "unit": "10^3/µL"},
    )
    assert result.value == 2.86
    assert not any("Age" in warning for warning in result.warnings)
    assert any("Age < 35" in w for w in _run("fib4", age=30, ast=60, alt=45, platelets=150).warnings)
    assert any("Age > 65" in w for w in _run("fib4", age=70, ast=60, alt=45, platelets=150).warnings)
    assert not any("Age" in w for w in _run("fib4", age=65, ast=60, alt=45, platelets=150).warnings)


def test_fib4_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 19: 35 y, AST 107, ALT 104, platelets 181,000/µL = 181 x 10^9/L;
    # 35 x 107 / (181 x sqrt(104)) = 2.029 (its worked answer) -> 2.03, indeterminate
    note = _dev_note(19)
    params = note["input_parameters"]
    per_microlitre = params["platelet_count"][0]
    result = _run(
        "fib4",
        age=params["age"][0],
        ast={"value": params["ast"][0], "unit": params["ast"][1]},
        alt={"value": params["alt"][0], "unit": params["alt"][1]},
        platelets={"value": per_microlitre / 1000, "unit": "10^3/µL"},
    )
    assert result.value == round(note["worked_answer"]["answer"], 2) == 2.03
    assert result.category == "indeterminate"
    # the raw count per µL, given as if in 10^9/L, is refused rather than read as 181,000 x 10^9/L
    with pytest.raises(ValidationError, match="not plausible"):
        _run("fib4", age=35, ast=107, alt=104, platelets=per_microlitre)


def test_fib4_missing() -> None:
    result = _run("fib4", age=50, ast=40)
    assert result.status == "needs_more_info"
    assert [m.input for m in result.missing] == ["alt", "platelets"]
