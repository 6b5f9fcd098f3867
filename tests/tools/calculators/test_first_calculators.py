"""Wells DVT, Cockcroft-Gault and BMI against their published definitions and worked examples."""

from __future__ import annotations

import pytest

from curbside.tools.calculators.catalog import calculator
from curbside.tools.calculators.kit import evaluate

_DVT_ITEMS = (
    "active_cancer", "paralysis_or_cast", "bedridden_or_surgery", "localized_tenderness", "entire_leg_swollen",
    "calf_swelling_3cm", "pitting_edema", "collateral_veins",
)  # fmt: skip


def _wells(calc_id: str, present: set[str]) -> tuple[float | None, str | None]:
    keys = [item.key for item in calculator(calc_id).inputs]
    result = evaluate(calculator(calc_id), {key: key in present for key in keys})
    return result.value, result.category


def test_wells_dvt_2003_thresholds() -> None:
    # Wells 2003 NEJM Table 1: each item +1, alternative diagnosis -2; >= 2 likely
    assert _wells("wells_dvt", {"active_cancer", "calf_swelling_3cm"}) == (2, "DVT likely")
    assert _wells("wells_dvt", {"active_cancer"}) == (1, "DVT unlikely")
    assert _wells("wells_dvt", {"previous_dvt", "entire_leg_swollen", "alternative_diagnosis"}) == (0, "DVT unlikely")
    assert _wells("wells_dvt", set(_DVT_ITEMS) | {"previous_dvt"}) == (9, "DVT likely")
    assert _wells("wells_dvt", {"alternative_diagnosis"}) == (-2, "DVT unlikely")


def test_wells_dvt_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 16 (shared data calc/medcalc-oneshot-dev.json): active cancer
    # and an alternative diagnosis as likely, nothing else -> 1 - 2 = -1 (its worked answer: -1)
    assert _wells("wells_dvt", {"active_cancer", "alternative_diagnosis"}) == (-1, "DVT unlikely")


def test_wells_dvt_1997_three_tiers() -> None:
    # Wells 1997 Lancet Table 1: low <= 0, moderate 1-2, high >= 3
    assert _wells("wells_dvt_1997", set()) == (0, "low")
    assert _wells("wells_dvt_1997", {"active_cancer"}) == (1, "moderate")
    assert _wells("wells_dvt_1997", {"active_cancer", "pitting_edema"}) == (2, "moderate")
    assert _wells("wells_dvt_1997", {"active_cancer", "pitting_edema", "collateral_veins"}) == (3, "high")
    assert "previous_dvt" not in {item.key for item in calculator("wells_dvt_1997").inputs}


def _cg(**given: object) -> object:
    return evaluate(calculator("cockcroft_gault"), given)


def test_cockcroft_gault_formula() -> None:
    # Cockcroft & Gault 1976, p. 35: (140 - age) x kg / (72 x SCr mg/dL), x 0.85 for women.
    # Male 60 y, 72 kg, SCr 1.0: 80 x 72 / 72 = 80 mL/min (mild band, FDA 2020 Table 1: 60-89)
    result = _cg(age=60, sex="male", weight=72, creatinine=1.0)
    assert (result.value, result.category) == (80, "mild")
    # the same woman: 80 x 0.85 = 68
    assert _cg(age=60, sex="female", weight=72, creatinine=1.0).value == 68
    # in SI units: 106 µmol/L = 1.199 mg/dL; male 60 y, 72 kg -> 66.7 -> 67
    assert _cg(age=60, sex="male", weight=72, creatinine={"value": 106, "unit": "µmol/L"}).value == 67


def test_cockcroft_gault_weight_conventions() -> None:
    # Devine IBW: male 70 in -> 50 + 2.3 x 10 = 73 kg; adjusted = 73 + 0.4 x (120 - 73) = 91.8 kg
    base = {"age": 50, "sex": "male", "weight": 120, "creatinine": 1.0, "height": {"value": 70, "unit": "in"}}
    actual = _cg(**base)
    ideal = _cg(**base, weight_basis="ideal")
    adjusted = _cg(**base, weight_basis="adjusted")
    assert actual.value == 150  # 90 x 120 / 72
    assert ideal.extra["weight_used_kg"] == pytest.approx(73.0)
    assert ideal.value == round(90 * 73 / 72)  # 91
    assert adjusted.extra["weight_used_kg"] == pytest.approx(91.8)
    assert adjusted.value == round(90 * 91.8 / 72)  # 115
    assert actual.conventions == {"weight_basis": "actual (default)"}
    assert ideal.conventions == {"weight_basis": "ideal"}


def test_cockcroft_gault_renal_bands_at_each_threshold() -> None:
    # FDA 2020 renal guidance Table 1 bands: weight chosen so (140-68) x w / 72 = w
    cases = {14.6: "kidney failure", 15: "severe", 29.6: "severe", 30: "moderate", 60: "mild", 90: "normal"}
    for weight, band in cases.items():
        result = _cg(age=68, sex="male", weight=weight, creatinine=1.0)
        assert result.category == band, (weight, result.value)


def test_bmi_who_categories() -> None:
    # WHO TRS 894 Table 2.1; 70 kg, 1.75 m -> 22.9 (normal)
    result = evaluate(calculator("bmi"), {"weight": 70, "height": 175})
    assert (result.value, result.unit, result.category) == (22.9, "kg/m²", "normal")
    # MedCalc-Bench one-shot note for calculator 6: 68 kg, 182 cm -> 20.529 (its worked answer) -> 20.5
    assert evaluate(calculator("bmi"), {"weight": 68, "height": 182}).value == 20.5
    assert evaluate(calculator("bmi"), {"weight": 18.5 * 4, "height": 200}).category == "normal"
    assert evaluate(calculator("bmi"), {"weight": 18.4 * 4, "height": 200}).category == "underweight"
    assert evaluate(calculator("bmi"), {"weight": 120, "height": 200}).category == "obese class I"
    assert evaluate(calculator("bmi"), {"weight": 160, "height": 200}).category == "obese class III"
    # imperial: 154 lb, 69 in -> 69.85 kg / 1.7526 m^2 = 22.7
    assert (
        evaluate(
            calculator("bmi"), {"weight": {"value": 154, "unit": "lb"}, "height": {"value": 69, "unit": "in"}}
        ).value
        == 22.7
    )
