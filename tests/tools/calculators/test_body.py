"""Ideal and adjusted body weight, target weight and body surface area against their published formulas."""

from __future__ import annotations

import math

import pytest

from curbside.errors import ValidationError
from curbside.tools.calculators.catalog import calculator
from curbside.tools.calculators.kit import CalcResult, evaluate


def _run(calc_id: str, **given: object) -> CalcResult:
    return evaluate(calculator(calc_id), given)


# --- ideal body weight (Devine 1974) ----------------------------------------------------------------------


def test_ideal_body_weight_devine() -> None:
    # computed by hand from Devine 1974 (50 kg / 45.5 kg + 2.3 kg per inch over 5 ft):
    # man 70 in -> 50 + 2.3 x 10 = 73.0 kg; woman 64 in -> 45.5 + 2.3 x 4 = 54.7 kg
    man = _run("ideal_body_weight", sex="male", height={"value": 70, "unit": "in"})
    assert (man.value, man.unit, man.display) == (73.0, "kg", "73.0 kg")
    assert _run("ideal_body_weight", sex="female", height={"value": 64, "unit": "in"}).value == 54.7
    # exactly 5 ft: the base weight
    assert _run("ideal_body_weight", sex="female", height=152.4).value == 45.5


def test_ideal_body_weight_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 10: male, 173 cm -> 68.11 in -> 68.653 kg (its answer); 68.7 at 0.1 kg
    result = _run("ideal_body_weight", sex="male", height=173.0)
    assert result.value == 68.7
    assert 50 + 2.3 * (173.0 / 2.54 - 60) == pytest.approx(68.653, abs=1e-3)


def test_ideal_body_weight_below_five_feet_warns() -> None:
    result = _run("ideal_body_weight", sex="female", height=150)
    assert result.value == round(45.5 + 2.3 * (150 / 2.54 - 60), 1)  # 44.3
    assert any("under 5 ft" in w for w in result.warnings)
    assert not any("under 5 ft" in w for w in _run("ideal_body_weight", sex="female", height=152.4).warnings)


@pytest.mark.parametrize(
    ("height", "cm"),
    [
        ({"value": 1.778, "unit": "m"}, 177.8),
        ({"value": 70, "unit": "in"}, 177.8),
        ({"value": 70, "unit": "inch"}, 177.8),
        ({"value": 5.8333333, "unit": "ft"}, 177.8),
        ({"value": 1778, "unit": "mm"}, 177.8),
    ],
)
def test_height_units(height: dict[str, object], cm: float) -> None:
    # every height unit converts to cm before Devine: 177.8 cm = 70 in -> 73.0 kg (man)
    result = _run("ideal_body_weight", sex="male", height=height)
    assert result.inputs_used["height"] == pytest.approx(cm, rel=1e-4)
    assert result.value == 73.0
    assert result.conversions


def test_ideal_body_weight_refuses_impossible_and_lists_missing() -> None:
    with pytest.raises(ValidationError, match=r"not plausible .*expected 30–272 cm"):
        _run("ideal_body_weight", sex="male", height=300)
    with pytest.raises(ValidationError, match="not an option"):
        _run("ideal_body_weight", sex="unknown", height=170)
    missing = _run("ideal_body_weight", sex="male")
    assert missing.status == "needs_more_info"
    assert [m.input for m in missing.missing] == ["height"]
    assert [m.input for m in _run("ideal_body_weight").missing] == ["sex", "height"]


# --- adjusted body weight -----------------------------------------------------------------------------------


def test_adjusted_body_weight_formula() -> None:
    # computed by hand: IBW + 0.4 x (actual - IBW). Man 70 in (IBW 73.0), 120 kg -> 73 + 0.4 x 47 = 91.8 kg
    result = _run("adjusted_body_weight", sex="male", weight=120, height={"value": 70, "unit": "in"})
    assert result.value == 91.8
    assert result.extra == {"ideal_body_weight_kg": 73.0, "percent_of_ideal": 164}
    # woman 64 in (IBW 54.7), 100 kg -> 54.7 + 0.4 x 45.3 = 72.82 -> 72.8
    assert _run("adjusted_body_weight", sex="female", weight=100, height={"value": 64, "unit": "in"}).value == 72.8


def test_adjusted_body_weight_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 62: female, 160 cm, 78 kg; IBW 52.382, ABW 62.629 kg (its answer)
    result = _run("adjusted_body_weight", sex="female", weight=78.0, height=160.0)
    assert result.value == 62.6
    assert result.extra["ideal_body_weight_kg"] == 52.4


def test_adjusted_body_weight_at_or_below_ideal_warns() -> None:
    at_ideal = _run("adjusted_body_weight", sex="male", weight=73.0, height={"value": 70, "unit": "in"})
    assert at_ideal.value == 73.0
    assert any("at or below ideal" in w for w in at_ideal.warnings)
    above = _run("adjusted_body_weight", sex="male", weight=73.1, height={"value": 70, "unit": "in"})
    assert not any("at or below ideal" in w for w in above.warnings)


@pytest.mark.parametrize(
    ("weight", "kg"),
    [
        ({"value": 264.555, "unit": "lb"}, 120.0),
        ({"value": 264.555, "unit": "lbs"}, 120.0),
        ({"value": 120000, "unit": "g"}, 120.0),
    ],
)
def test_weight_units(weight: dict[str, object], kg: float) -> None:
    result = _run("adjusted_body_weight", sex="male", weight=weight, height={"value": 70, "unit": "in"})
    assert result.inputs_used["weight"] == pytest.approx(kg, rel=1e-4)
    assert result.value == 91.8


def test_adjusted_body_weight_refuses_and_lists_missing() -> None:
    with pytest.raises(ValidationError, match="not plausible"):
        _run("adjusted_body_weight", sex="male", weight={"value": 1200, "unit": "lb"}, height=170)
    result = _run("adjusted_body_weight", weight=90)
    assert [m.input for m in result.missing] == ["sex", "height"]


# --- target weight ---------------------------------------------------------------------------------------------


def test_target_weight_formula() -> None:
    # computed by hand from BMI = kg / m²: 25 x 1.80² = 81.0 kg
    result = _run("target_weight", target_bmi=25, height=180)
    assert (result.value, result.unit) == (81.0, "kg")
    assert result.category == "overweight"
    # 22 x 1.65² = 59.895 -> 59.9 kg (normal band)
    assert _run("target_weight", target_bmi=22, height=165).value == 59.9


def test_target_weight_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 61: 72 in, target BMI 23.2 -> 77.61 kg (its answer).
    # Exactly: 72 in = 1.8288 m; 23.2 x 1.8288² = 77.59 kg. The dataset rounded height to 1.829 m before
    # squaring (77.61); both are 77.6 kg at the 0.1 kg shown.
    result = _run("target_weight", target_bmi=23.2, height={"value": 72, "unit": "in"})
    assert result.value == 77.6
    assert 23.2 * 1.8288**2 == pytest.approx(77.59, abs=0.005)


def test_target_weight_band_thresholds() -> None:
    # the band of the target BMI, WHO TRS 894 Table 2.1, lower-inclusive
    assert _run("target_weight", target_bmi=18.4, height=170).category == "underweight"
    assert _run("target_weight", target_bmi=18.5, height=170).category == "normal"
    assert _run("target_weight", target_bmi=24.9, height=170).category == "normal"
    assert _run("target_weight", target_bmi=25, height=170).category == "overweight"


def test_target_weight_units_refusal_missing() -> None:
    # kg/m2 is the same unit as kg/m²
    result = _run("target_weight", target_bmi={"value": 25, "unit": "kg/m2"}, height={"value": 1.8, "unit": "m"})
    assert result.value == 81.0
    with pytest.raises(ValidationError, match=r"expected 12–60 kg/m²"):
        _run("target_weight", target_bmi=80, height=170)
    with pytest.raises(ValidationError, match="not a unit of bmi"):
        _run("target_weight", target_bmi={"value": 25, "unit": "lb/in2"}, height=170)
    assert [m.input for m in _run("target_weight", height=170).missing] == ["target_bmi"]


# --- body surface area -------------------------------------------------------------------------------------------


def test_bsa_mosteller_and_dubois() -> None:
    # computed by hand: Mosteller 1987 sqrt(170 x 70 / 3600) = 1.818 -> 1.82 m²;
    # Du Bois 1916 71.84 x 70^0.425 x 170^0.725 cm² = 1.810 -> 1.81 m²
    mosteller = _run("bsa", weight=70, height=170)
    assert (mosteller.value, mosteller.unit) == (1.82, "m²")
    assert mosteller.conventions == {"formula": "mosteller (default)"}
    dubois = _run("bsa", weight=70, height=170, formula="dubois")
    assert dubois.value == 1.81
    assert dubois.conventions == {"formula": "dubois"}
    assert dubois.extra == {"bsa_mosteller_m2": 1.82, "bsa_dubois_m2": 1.81}
    assert math.sqrt(170 * 70 / 3600) == pytest.approx(1.818, abs=1e-3)


def test_bsa_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 60: 85 kg, 180 cm -> sqrt(85 x 180 / 3600) = 2.062 (its answer)
    assert _run("bsa", weight=85.0, height=180.0).value == 2.06


def test_bsa_imperial_units_refusal_missing() -> None:
    # 154.32 lb = 70 kg, 66.93 in = 170 cm -> Mosteller 1.82 m²
    result = _run("bsa", weight={"value": 154.324, "unit": "lb"}, height={"value": 66.929, "unit": "in"})
    assert result.value == 1.82
    assert len(result.conversions) == 2
    with pytest.raises(ValidationError, match="not plausible"):
        _run("bsa", weight=0.1, height=170)
    with pytest.raises(ValidationError, match="not an option"):
        _run("bsa", weight=70, height=170, formula="haycock")
    assert [m.input for m in _run("bsa").missing] == ["weight", "height"]
