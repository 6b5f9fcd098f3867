"""Charlson comorbidity index and Glasgow-Blatchford score against their published tables."""

from __future__ import annotations

import math
from typing import Any

import pytest

from curbside.errors import ValidationError
from curbside.tools.calculators.catalog import calculator
from curbside.tools.calculators.kit import CalcResult, evaluate


def _charlson(**given: Any) -> CalcResult:
    return evaluate(calculator("charlson"), given, missing="absent")


# --- Charlson ---------------------------------------------------------------------------------------


def test_charlson_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 32 (82-year-old woman: chronic bronchitis, rheumatoid
    # arthritis, gastric ulcer on a PPI). Its inputs: age 82, connective tissue disease, COPD, peptic ulcer;
    # TIA, CVA, AIDS, hemiplegia, CKD, diabetes absent; the rest unmentioned (scored absent).
    # Age ≥ 80 → 4 + 1 + 1 + 1 = 7 (its worked answer: 7). MedCalc scores the age-adjusted index.
    result = _charlson(
        age=82,
        connective_tissue_disease=True,
        chronic_pulmonary_disease=True,
        peptic_ulcer_disease=True,
        cerebrovascular_disease=False,
        aids=False,
        hemiplegia=False,
        moderate_to_severe_renal_disease=False,
        diabetes="none",
    )
    assert result.value == 7
    assert result.conventions == {"version": "age_adjusted (default)"}
    assert result.extra["comorbidity_points"] == 3
    assert result.extra["age_points"] == 4
    assert result.category == "3–4"
    assert "Myocardial infarction (history, not ECG changes alone)" in result.assumed_absent


def test_charlson_weights_by_hand() -> None:
    # Computed by hand from Charlson 1987 Table 3: diabetes with end-organ damage 2 + CHF 1 + metastatic
    # solid tumour 6 = 9 comorbidity points; age 65 → 2 (Charlson 1994) → 11.
    base: dict[str, Any] = {
        "age": 65,
        "diabetes": "end_organ_damage",
        "congestive_heart_failure": True,
        "solid_tumor": "metastatic",
    }
    adjusted = _charlson(**base)
    assert (adjusted.value, adjusted.category) == (11, "≥ 5")
    original = _charlson(**base, version="original")
    assert original.value == 9
    assert original.conventions == {"version": "original"}
    # every weight once: 1 × 8 + mild liver 1 → replaced by moderate-severe 3, diabetes 2, hemiplegia 2,
    # renal 2, localized tumour 2, leukaemia 2, lymphoma 2, AIDS 6 = 8 + 3 + 2 + 2 + 2 + 2 + 2 + 2 + 6 = 29
    everything: dict[str, Any] = {
        key: True
        for key in (
            "myocardial_infarction",
            "congestive_heart_failure",
            "peripheral_vascular_disease",
            "cerebrovascular_disease",
            "dementia",
            "chronic_pulmonary_disease",
            "connective_tissue_disease",
            "peptic_ulcer_disease",
            "hemiplegia",
            "moderate_to_severe_renal_disease",
            "leukemia",
            "lymphoma",
            "aids",
        )
    }
    full = _charlson(
        age=40,
        version="original",
        liver_disease="moderate_to_severe",
        diabetes="end_organ_damage",
        solid_tumor="localized",
        **everything,
    )
    assert full.value == 29
    assert _charlson(age=40, liver_disease="mild").value == 1
    assert _charlson(age=40, diabetes="uncomplicated").value == 1
    assert _charlson(age=40, solid_tumor="localized").value == 2


@pytest.mark.parametrize(
    ("age", "points"), [(49, 0), (50, 1), (59, 1), (60, 2), (69, 2), (70, 3), (79, 3), (80, 4), (95, 4)]
)
def test_charlson_age_points(age: int, points: int) -> None:
    # Charlson 1994: a point per decade from 50 (≥ 80: 4, as MDCalc/MedCalc-Bench score it)
    assert _charlson(age=age).extra["age_points"] == points


def test_charlson_groups_and_ten_year_survival() -> None:
    # Charlson 1987 abstract groups of the comorbidity index: 0, 1–2, 3–4, ≥ 5
    assert _charlson(age=40).category == "0"
    assert _charlson(age=40, dementia=True).category == "1–2"
    assert _charlson(age=40, hemiplegia=True).category == "1–2"
    assert _charlson(age=40, hemiplegia=True, dementia=True).category == "3–4"
    assert _charlson(age=40, aids=True).category == "≥ 5"
    # 10-year survival 0.983^(e^(0.9 × score)), computed by hand: score 0 → 98.3 %;
    # score 2 → 0.983^6.0496 = 90.1 %; score 7 → 0.983^544.6 ≈ 0.0 %
    assert _charlson(age=40).extra["ten_year_survival_percent"] == 98.3
    assert _charlson(age=65).extra["ten_year_survival_percent"] == 90.1
    assert _charlson(age=82, dementia=True, lymphoma=True).extra["ten_year_survival_percent"] == 0.0
    assert math.isclose(0.983 ** math.exp(1.8) * 100, 90.15, abs_tol=0.01)


def test_charlson_age_in_months_converts() -> None:
    result = _charlson(age={"value": 984, "unit": "months"})  # 82 years
    assert result.extra["age_points"] == 4
    assert any("82 years" in note for note in result.conversions)


def test_charlson_refuses_impossible_age_and_asks_for_missing() -> None:
    with pytest.raises(ValidationError, match="age"):
        _charlson(age=130)
    with pytest.raises(ValidationError, match="not an option"):
        _charlson(age=60, solid_tumor="huge")
    asked = evaluate(calculator("charlson"), {})
    assert asked.status == "needs_more_info"
    expected = [item.key for item in calculator("charlson").inputs if item.key != "version"]
    assert [m.input for m in asked.missing] == expected


# --- Glasgow-Blatchford -----------------------------------------------------------------------------


def _gbs(**given: Any) -> CalcResult:
    base: dict[str, Any] = {
        "bun": 10,
        "hemoglobin": 14,
        "sex": "male",
        "systolic_bp": 130,
        "heart_rate": 80,
        "melena": False,
        "syncope": False,
        "hepatic_disease": False,
        "cardiac_failure": False,
    }
    return evaluate(calculator("glasgow_blatchford"), base | given)


def test_glasgow_blatchford_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 27: man, BUN 51 mg/dL (urea 18.2 mmol/L → 4), Hb 11 g/dL
    # (men 10–11.9 → 3), SBP 110 (0), HR 90 (0), hepatic disease (2) → 9 (its worked answer: 9).
    result = _gbs(bun=51, hemoglobin=11, systolic_bp=110, heart_rate=90, hepatic_disease=True)
    assert (result.value, result.category) == (9, "not low risk")
    assert result.extra["urea_mmol_l"] == pytest.approx(18.21, abs=0.01)


def test_glasgow_blatchford_by_hand() -> None:
    # Computed by hand from Blatchford 2000 Table: woman, urea 9 mmol/L (3), Hb 9.5 g/dL (6), SBP 95 (2),
    # pulse 110 (1), melaena (1), syncope (2), cardiac failure (2) → 17
    result = _gbs(
        bun={"value": 9, "unit": "mmol/L"},
        hemoglobin=9.5,
        sex="female",
        systolic_bp=95,
        heart_rate=110,
        melena=True,
        syncope=True,
        cardiac_failure=True,
    )
    assert result.value == 17
    # a well man with normal values scores 0 (very low risk, Stanley 2009)
    assert (_gbs().value, _gbs().category) == (0, "very low risk")


@pytest.mark.parametrize(
    ("urea", "points"), [(6.4, 0), (6.5, 2), (7.9, 2), (8.0, 3), (9.9, 3), (10.0, 4), (24.9, 4), (25.0, 6)]
)
def test_glasgow_blatchford_urea_bands(urea: float, points: int) -> None:
    # Blatchford 2000 Table, urea mmol/L: ≥ 6.5 < 8 → 2, ≥ 8 < 10 → 3, ≥ 10 < 25 → 4, ≥ 25 → 6
    result = _gbs(bun={"value": urea, "unit": "mmol/L"})
    assert result.extra["urea_points"] == points
    assert any("mg/dL" in note for note in result.conversions)


def test_glasgow_blatchford_bun_mg_dl_converts_by_2_8() -> None:
    # urea mmol/L = BUN mg/dL / 2.8: BUN 18.2 = urea 6.5 (2 points); 18.1 → 6.46 (0); 28 = 10 (4); 70 = 25 (6)
    assert _gbs(bun=18.2).extra["urea_points"] == 2
    assert _gbs(bun=18.1).extra["urea_points"] == 0
    assert _gbs(bun=28).extra["urea_points"] == 4
    assert _gbs(bun=70).extra["urea_points"] == 6


@pytest.mark.parametrize(
    ("sex", "hemoglobin", "points"),
    [
        ("male", 13.0, 0),
        ("male", 12.9, 1),
        ("male", 12.0, 1),
        ("male", 11.9, 3),
        ("male", 10.0, 3),
        ("male", 9.9, 6),
        ("female", 12.0, 0),
        ("female", 11.9, 1),
        ("female", 10.0, 1),
        ("female", 9.9, 6),
    ],
)
def test_glasgow_blatchford_hemoglobin_by_sex(sex: str, hemoglobin: float, points: int) -> None:
    # Blatchford 2000 Table: men 120–129 g/L → 1, 100–119 → 3, < 100 → 6; women 100–119 → 1, < 100 → 6
    assert _gbs(sex=sex, hemoglobin=hemoglobin).extra["hemoglobin_points"] == points


def test_glasgow_blatchford_hemoglobin_in_g_per_l() -> None:
    result = _gbs(hemoglobin={"value": 125, "unit": "g/L"})  # 12.5 g/dL, man → 1
    assert result.extra["hemoglobin_points"] == 1
    assert result.conversions == ["Haemoglobin: 125 g/L = 12.5 g/dL"]


@pytest.mark.parametrize(("sbp", "points"), [(110, 0), (109, 1), (100, 1), (99, 2), (90, 2), (89, 3)])
def test_glasgow_blatchford_systolic_bands(sbp: int, points: int) -> None:
    assert _gbs(systolic_bp=sbp).extra["systolic_bp_points"] == points


def test_glasgow_blatchford_pulse_and_risk_bands() -> None:
    assert _gbs(heart_rate=99).value == 0
    one = _gbs(heart_rate=100)
    assert (one.value, one.category) == (1, "low risk")  # 0–1 low risk (ACG 2021)
    assert _gbs(heart_rate=100, melena=True).category == "not low risk"
    assert _gbs(hepatic_disease=True).value == 2


def test_glasgow_blatchford_refusal_and_missing() -> None:
    with pytest.raises(ValidationError, match="hemoglobin"):
        _gbs(hemoglobin=40)
    asked = evaluate(calculator("glasgow_blatchford"), {"bun": 20, "sex": "male"})
    assert [m.input for m in asked.missing] == [
        "hemoglobin",
        "systolic_bp",
        "heart_rate",
        "melena",
        "syncope",
        "hepatic_disease",
        "cardiac_failure",
    ]
    absent = evaluate(
        calculator("glasgow_blatchford"),
        {"bun": 20, "sex": "male", "hemoglobin": 14, "systolic_bp": 120, "heart_rate": 70},
        missing="absent",
    )
    assert absent.value == 2 and len(absent.assumed_absent) == 4
