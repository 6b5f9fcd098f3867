"""The calculator kit: units, refusal of impossible values, missing inputs, conventions."""

from __future__ import annotations

import pytest

from curbside.errors import ValidationError
from curbside.tools.calculators.catalog import calculator, calculators
from curbside.tools.calculators.kit import Band, band_for, evaluate
from curbside.tools.calculators.units import DIMENSIONS, convert, normalize_unit


@pytest.mark.parametrize(
    ("value", "unit", "dimension", "expected"),
    [
        (88.4, "µmol/L", "creatinine", 1.0),  # 1 mg/dL = 88.4 µmol/L
        (88.4, "umol/l", "creatinine", 1.0),
        (88.4, "μmol/L", "creatinine", 1.0),  # Greek mu as well as the micro sign
        (17.1, "µmol/L", "bilirubin", 1.0),
        (5.5, "mmol/L", "glucose", 99.088),
        (10.0, "mmol/L", "bun", 28.0),
        (2.5, "mmol/L", "calcium", 10.02),
        (5.0, "mmol/L", "cholesterol", 193.35),
        (1.0, "mmol/L", "triglycerides", 88.57),
        (60.0, "pmol/L", "insulin", 10.0),
        (40.0, "g/L", "albumin", 4.0),
        (130.0, "g/L", "hemoglobin", 13.0),
        (220.0, "lb", "weight", 99.79032),
        (70.0, "in", "height", 177.8),
        (1.8, "m", "height", 180.0),
        (98.6, "°F", "temperature", 37.0),
        (310.15, "K", "temperature", 37.0),
        (10.0, "kPa", "pressure", 75.0062),
    ],
)
def test_every_conversion(value: float, unit: str, dimension: str, expected: float) -> None:
    converted, note = convert(value, unit, dimension)
    assert converted == pytest.approx(expected, rel=1e-4)
    assert note is not None and DIMENSIONS[dimension].unit in note


def test_the_canonical_unit_converts_to_itself_silently() -> None:
    assert convert(1.2, "mg/dL", "creatinine") == (1.2, None)
    assert convert(1.2, None, "creatinine") == (1.2, None)


def test_an_unknown_unit_names_the_accepted_ones() -> None:
    with pytest.raises(ValidationError, match=r"accepted: .*µmol/L"):
        convert(1.0, "grains", "creatinine")


def test_unit_spellings_normalize() -> None:
    assert normalize_unit(" µmol / L ") == normalize_unit("umol/l") == "umol/l"


def test_bands_are_lower_inclusive() -> None:
    bands = (Band(float("-inf"), "low", ""), Band(2, "high", ""))
    assert band_for(1.99, bands).category == "low"
    assert band_for(2, bands).category == "high"


def test_impossible_values_are_refused_with_the_plausible_range() -> None:
    with pytest.raises(ValidationError, match=r"not plausible .*expected 0\.1–25 mg/dL"):
        evaluate(calculator("cockcroft_gault"), {"age": 60, "sex": "male", "weight": 70, "creatinine": 90})
    with pytest.raises(ValidationError, match="not plausible"):
        evaluate(calculator("bmi"), {"weight": {"value": 2000, "unit": "lb"}, "height": 170})


def test_missing_criteria_are_never_assumed() -> None:
    result = evaluate(calculator("wells_dvt"), {"active_cancer": True})
    assert result.status == "needs_more_info"
    assert result.value is None
    assert {m.input for m in result.missing} == {
        "paralysis_or_cast", "bedridden_or_surgery", "localized_tenderness", "entire_leg_swollen",
        "calf_swelling_3cm", "pitting_edema", "collateral_veins", "previous_dvt", "alternative_diagnosis",
    }  # fmt: skip


def test_missing_absent_scores_them_absent_and_lists_them() -> None:
    result = evaluate(calculator("wells_dvt"), {"active_cancer": True}, missing="absent")
    assert result.status == "complete"
    assert result.value == 1
    assert len(result.assumed_absent) == 9


def test_missing_numbers_are_asked_for_even_with_absent() -> None:
    result = evaluate(calculator("cockcroft_gault"), {"age": 60, "sex": "male"}, missing="absent")
    assert result.status == "needs_more_info"
    assert [m.input for m in result.missing] == ["weight", "creatinine"]
    assert result.missing[1].unit == "mg/dL"


def test_unknown_inputs_and_options_are_errors() -> None:
    with pytest.raises(ValidationError, match="has no input 'creatinin'"):
        evaluate(calculator("cockcroft_gault"), {"creatinin": 1.0})
    with pytest.raises(ValidationError, match="not an option"):
        evaluate(calculator("cockcroft_gault"), {"age": 60, "sex": "other", "weight": 70, "creatinine": 1})
    with pytest.raises(ValidationError, match="not yes or no"):
        evaluate(calculator("wells_dvt"), {"active_cancer": "perhaps"})


def test_every_calculator_is_declared_well() -> None:
    """Ids are tool-name safe, each has a citation and a summary, input keys are unique."""
    for calc_id, calc in calculators().items():
        assert calc_id == calc.id and calc_id.replace("_", "").isalnum() and calc_id.islower()
        assert calc.citation.strip() and calc.summary.strip() and calc.formula.strip()
        keys = [item.key for item in calc.inputs]
        assert len(keys) == len(set(keys)), calc_id
        assert "missing" not in keys, calc_id


def test_an_equation_on_a_points_scale_has_no_remainder_row() -> None:
    # MELD 3.0 is an equation reported in points; its one criterion (dialysis) only switches a bound and
    # scores nothing, so no "Points from the other inputs" row holds the whole score
    from curbside.tools.calculators.catalog import calculator
    from curbside.tools.calculators.kit import evaluate

    labs = {"sex": "male", "bilirubin": 2.0, "sodium": 130, "inr": 1.5, "creatinine": 1.2, "albumin": 3.0}
    result = evaluate(calculator("meld_3"), {**labs, "dialysis": False})
    assert result.status == "complete" and result.value is not None and result.value > 0
    assert not any(part.label == "Points from the other inputs" for part in result.points)
