"""Maintenance fluids (Holliday-Segar), glucocorticoid equivalence and MME/day (CDC 2022)."""

from __future__ import annotations

import pytest

from curbside.errors import ValidationError
from curbside.tools.calculators.catalog import calculator
from curbside.tools.calculators.kit import CalcResult, evaluate


def _run(calc_id: str, **given: object) -> CalcResult:
    return evaluate(calculator(calc_id), given)


# --- maintenance fluids --------------------------------------------------------------------------------------


def test_maintenance_fluids_holliday_segar_steps() -> None:
    # Holliday & Segar 1957: 100 mL/kg/day to 10 kg, + 50 to 20 kg, + 20 above; hourly 4-2-1.
    # 10 kg -> 40 mL/h (1000 mL/day); 20 kg -> 60 mL/h (1500 mL/day); 70 kg -> 110 mL/h (2500 mL/day)
    ten = _run("maintenance_fluids", weight=10)
    assert (ten.value, ten.unit, ten.extra["ml_per_day_100_50_20"]) == (40.0, "mL/h", 1000)
    twenty = _run("maintenance_fluids", weight=20)
    assert (twenty.value, twenty.extra["ml_per_day_100_50_20"]) == (60.0, 1500)
    seventy = _run("maintenance_fluids", weight=70)
    assert (seventy.value, seventy.extra["ml_per_day_100_50_20"]) == (110.0, 2500)
    assert seventy.conventions == {"rule": "4-2-1 (default)"}


@pytest.mark.parametrize(
    ("weight", "ml_h"),
    [(3, 12.0), (9.9, 39.6), (10, 40.0), (10.1, 40.2), (19.9, 59.8), (20, 60.0), (20.1, 60.1)],
)
def test_maintenance_fluids_step_boundaries(weight: float, ml_h: float) -> None:
    # the rate is continuous across the 10 kg and 20 kg steps (computed by hand from the 4-2-1 rule)
    assert _run("maintenance_fluids", weight=weight).value == ml_h


def test_maintenance_fluids_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 22: 52 kg -> 92.0 mL/h (its answer): 40 + 20 + 32 = 92
    # (its step text misstates the formula — "60 + 1 mL/kg/h × (weight − 10)", then "60 + 2 × (52 − 10)" —
    # but its answer is the 4-2-1 rule's: 60 + 1 × (52 − 20) = 92)
    assert _run("maintenance_fluids", weight=52.0).value == 92.0


def test_maintenance_fluids_daily_rule_convention() -> None:
    # 100-50-20 mL/kg/day ÷ 24: 52 kg -> 1000 + 500 + 640 = 2140 mL/day = 89.2 mL/h
    result = _run("maintenance_fluids", weight=52, rule="100-50-20")
    assert result.value == 89.2
    assert result.conventions == {"rule": "100-50-20"}
    assert result.extra == {"ml_per_h_4_2_1": 92.0, "ml_per_day_100_50_20": 2140, "ml_per_h_100_50_20": 89.2}


def test_maintenance_fluids_units_refusal_missing() -> None:
    # 22 lb = 9.979 kg -> 39.9 mL/h; 3500 g = 3.5 kg -> 14.0 mL/h
    assert _run("maintenance_fluids", weight={"value": 22, "unit": "lb"}).value == 39.9
    assert _run("maintenance_fluids", weight={"value": 3500, "unit": "g"}).value == 14.0
    with pytest.raises(ValidationError, match=r"expected 0\.5–500 kg"):
        _run("maintenance_fluids", weight=700)
    with pytest.raises(ValidationError, match="not an option"):
        _run("maintenance_fluids", weight=20, rule="1-2-4")
    assert [m.input for m in _run("maintenance_fluids").missing] == ["weight"]


# --- glucocorticoid conversion --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "dose", "target", "expected"),
    [
        # equivalent doses (Meikle & Tyler 1977): hydrocortisone 20 = cortisone 25 = prednisone 5 = prednisolone 5
        # = methylprednisolone 4 = triamcinolone 4 = dexamethasone 0.75 mg
        ("prednisone", 60, "methylprednisolone", 48.0),
        ("prednisone", 40, "dexamethasone", 6.0),
        ("hydrocortisone", 100, "prednisolone", 25.0),
        ("cortisone", 25, "hydrocortisone", 20.0),
        ("dexamethasone", 4, "prednisone", 26.67),
        ("methylprednisolone", 4, "triamcinolone", 4.0),
        ("prednisolone", 5, "prednisone", 5.0),
    ],
)
def test_steroid_conversion_table(source: str, dose: float, target: str, expected: float) -> None:
    result = _run("steroid_conversion", from_drug=source, dose=dose, to_drug=target)
    assert (result.value, result.unit) == (expected, "mg")


def test_steroid_conversion_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 24: 65.867 mg hydrocortisone IV -> dexamethasone PO, its answer
    # 2.437 mg with a factor of 0.037. The table gives 0.75 / 20 = 0.0375: 65.867 × 0.0375 = 2.470 mg. The
    # dataset truncated the factor; 2.47 mg is kept.
    result = _run("steroid_conversion", from_drug="hydrocortisone", dose=65.867, to_drug="dexamethasone")
    assert result.value == 2.47
    assert 65.867 * 0.75 / 20 == pytest.approx(2.470, abs=5e-4)
    assert result.extra["prednisone_equivalent_mg"] == 16.47


def test_steroid_conversion_betamethasone_convention() -> None:
    # betamethasone equivalent to prednisone 5 mg: 0.6 mg by default (US tables), 0.75 mg (BNF)
    default = _run("steroid_conversion", from_drug="prednisone", dose=10, to_drug="betamethasone")
    assert default.value == 1.2
    assert default.conventions == {"betamethasone_mg": "0.6 (default)"}
    bnf = _run("steroid_conversion", from_drug="prednisone", dose=10, to_drug="betamethasone", betamethasone_mg="0.75")
    assert bnf.value == 1.5
    assert bnf.conventions == {"betamethasone_mg": "0.75"}
    # the convention changes nothing without betamethasone
    other = _run(
        "steroid_conversion", from_drug="prednisone", dose=10, to_drug="dexamethasone", betamethasone_mg="0.75"
    )
    assert other.value == 1.5


def test_steroid_conversion_units_refusal_missing() -> None:
    # 0.5 g methylprednisolone = 500 mg -> prednisone 625 mg; 750 mcg (or µg) dexamethasone -> prednisone 5 mg
    pulse = _run(
        "steroid_conversion", from_drug="methylprednisolone", dose={"value": 0.5, "unit": "g"}, to_drug="prednisone"
    )
    assert pulse.value == 625.0
    assert pulse.conversions == ["Dose of the glucocorticoid taken: 0.5 g = 500 mg"]
    mcg = _run(
        "steroid_conversion", from_drug="dexamethasone", dose={"value": 750, "unit": "mcg"}, to_drug="prednisone"
    )
    assert mcg.value == 5.0
    micro = _run(
        "steroid_conversion", from_drug="dexamethasone", dose={"value": 750, "unit": "µg"}, to_drug="prednisone"
    )
    assert micro.value == 5.0
    with pytest.raises(ValidationError, match="not plausible"):
        _run("steroid_conversion", from_drug="prednisone", dose=5000, to_drug="dexamethasone")
    with pytest.raises(ValidationError, match="not an option"):
        _run("steroid_conversion", from_drug="budesonide", dose=9, to_drug="prednisone")
    missing = _run("steroid_conversion", dose=10)
    assert [m.input for m in missing.missing] == ["from_drug", "to_drug"]
    assert missing.missing[0].options is not None and "dexamethasone" in missing.missing[0].options


# --- morphine milligram equivalents ----------------------------------------------------------------------------


def test_mme_cdc_2022_table_examples() -> None:
    # CDC 2022 Table footnote: hydrocodone 5 mg four times a day = 20 mg/day = 20 MME/day;
    # oxycodone ER 10 mg twice a day = 20 mg/day = 30 MME/day
    hydrocodone = _run("mme", hydrocodone_dose=5, hydrocodone_doses_per_day=4)
    assert (hydrocodone.value, hydrocodone.unit, hydrocodone.category) == (20.0, "MME/day", "< 50 MME/day")
    assert _run("mme", oxycodone_dose=10, oxycodone_doses_per_day=2).value == 30.0


@pytest.mark.parametrize(
    ("opioid", "factor"),
    [
        ("codeine", 0.15),
        ("hydrocodone", 1.0),
        ("hydromorphone", 5.0),
        ("methadone", 4.7),
        ("morphine", 1.0),
        ("oxycodone", 1.5),
        ("oxymorphone", 3.0),
        ("tapentadol", 0.4),
        ("tramadol", 0.2),
    ],
)
def test_mme_every_cdc_2022_factor(opioid: str, factor: float) -> None:
    # CDC 2022 Table conversion factors: 10 mg twice a day = 20 mg/day × factor
    result = _run("mme", **{f"{opioid}_dose": 10, f"{opioid}_doses_per_day": 2})
    assert result.value == round(20 * factor, 1)
    assert result.extra == {f"mme_{opioid}": round(20 * factor, 2)}


def test_mme_fentanyl_patch_and_units() -> None:
    # CDC 2022 Table: transdermal fentanyl mcg/h × 2.4: 25 mcg/h = 60 MME/day
    patch = _run("mme", fentanyl_patch=25)
    assert (patch.value, patch.category) == (60.0, "≥ 50 MME/day")
    assert _run("mme", fentanyl_patch={"value": 25, "unit": "µg/h"}).value == 60.0
    # morphine 0.03 g = 30 mg; 30000 mcg = 30 mg
    grams = _run("mme", morphine_dose={"value": 0.03, "unit": "g"}, morphine_doses_per_day=1)
    assert grams.value == 30.0
    assert _run("mme", morphine_dose={"value": 30000, "unit": "mcg"}, morphine_doses_per_day=1).value == 30.0


def test_mme_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 49: oxymorphone 10 mg once a day (30), fentanyl buccal 20 µg once
    # a day (0.13 MME/µg: 2.6), morphine 50 mg once a day (50) -> 82.6 MME/day (its answer)
    result = _run(
        "mme",
        oxymorphone_dose=10,
        oxymorphone_doses_per_day=1,
        fentanyl_buccal_dose={"value": 20, "unit": "µg"},
        fentanyl_buccal_doses_per_day=1,
        morphine_dose=50,
        morphine_doses_per_day=1,
    )
    assert result.value == 82.6
    assert result.extra == {"mme_oxymorphone": 30.0, "mme_fentanyl_buccal": 2.6, "mme_morphine": 50.0}
    assert result.category == "≥ 50 MME/day"
    assert any("analytic conversion file" in w for w in result.warnings)


@pytest.mark.parametrize(
    ("morphine_mg", "category", "warning"),
    [
        (49.9, "< 50 MME/day", None),
        (50, "≥ 50 MME/day", "≥ 50 MME/day"),
        (89.9, "≥ 50 MME/day", "≥ 50 MME/day"),
        (90, "≥ 90 MME/day", "≥ 90 MME/day"),
    ],
)
def test_mme_thresholds(morphine_mg: float, category: str, warning: str | None) -> None:
    # CDC 2022 recommendation 4 (≥ 50 MME/day) and CDC 2016 recommendation 5 (≥ 90 MME/day)
    result = _run("mme", morphine_dose=morphine_mg, morphine_doses_per_day=1)
    assert result.category == category
    threshold_warnings = [w for w in result.warnings if w.startswith("≥")]
    if warning is None:
        assert threshold_warnings == []
    else:
        assert len(threshold_warnings) == 1 and threshold_warnings[0].startswith(warning)


def test_mme_methadone_warns() -> None:
    result = _run("mme", methadone_dose=10, methadone_doses_per_day=3)
    assert result.value == 141.0  # 30 mg/day × 4.7
    assert any(w.startswith("Methadone") for w in result.warnings)


def test_mme_refusal_and_missing() -> None:
    with pytest.raises(ValidationError, match=r"expected 0\.1–1000 mg"):
        _run("mme", morphine_dose=5000, morphine_doses_per_day=1)
    # fentanyl buccal in mg: a bare 100 is 100 mg, refused (give µg with the unit)
    with pytest.raises(ValidationError, match=r"expected 0\.01–1\.6 mg"):
        _run("mme", fentanyl_buccal_dose=100, fentanyl_buccal_doses_per_day=1)
    with pytest.raises(ValidationError, match=r"morphine_doses_per_day is missing"):
        _run("mme", morphine_dose=30)
    with pytest.raises(ValidationError, match=r"oxycodone_dose is missing"):
        _run("mme", oxycodone_doses_per_day=2)
    with pytest.raises(ValidationError, match="at least one opioid"):
        _run("mme")
