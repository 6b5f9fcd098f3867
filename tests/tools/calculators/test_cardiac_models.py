"""GRACE (in-hospital), Framingham hard CHD (ATP III), QTc and MAP against their published definitions,
thresholds, worked examples and the MedCalc-Bench development notes."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from curbside.cli import cli
from curbside.errors import ValidationError
from curbside.tools.calculators.catalog import calculator
from curbside.tools.calculators.kit import CalcResult, band_for, evaluate
from curbside.tools.calculators.library.cardiac_models import FRAMINGHAM_BANDS, GRACE_MORTALITY, MAP_BANDS


def _run(calc_id: str, **given: Any) -> CalcResult:
    return evaluate(calculator(calc_id), given)


# --- GRACE -------------------------------------------------------------------------------------------

_GRACE_NONE = {"killip_class": "I", "cardiac_arrest": False, "st_deviation": False, "elevated_enzymes": False}


def _grace(age: float, heart_rate: float, sbp: float, creatinine: Any, **items: Any) -> CalcResult:
    arguments = {**_GRACE_NONE, **items}
    return _run("grace", age=age, heart_rate=heart_rate, systolic_bp=sbp, creatinine=creatinine, **arguments)


def test_grace_item_points() -> None:
    # Granger 2003 Figure 4: Killip I/II/III/IV 0/20/39/59; arrest 39; ST deviation 28; enzymes 14
    base = _grace(25, 45, 210, 0.3)  # every measured bin at its lowest: 0 + 0 + 0 + 1
    assert base.value == 1
    assert _grace(25, 45, 210, 0.3, killip_class="II").value == 21
    assert _grace(25, 45, 210, 0.3, killip_class="III").value == 40
    assert _grace(25, 45, 210, 0.3, killip_class="IV").value == 60
    assert _grace(25, 45, 210, 0.3, cardiac_arrest=True).value == 40
    assert _grace(25, 45, 210, 0.3, st_deviation=True).value == 29
    assert _grace(25, 45, 210, 0.3, elevated_enzymes=True).value == 15
    # the maximum, 372: age >= 90, HR >= 200, SBP < 80, Cr >= 4, Killip IV, all three items
    top = _grace(95, 210, 70, 4.5, killip_class="IV", cardiac_arrest=True, st_deviation=True, elevated_enzymes=True)
    assert top.value == 372


@pytest.mark.parametrize(
    ("field", "value", "points"),
    [
        # age (years): < 30 0, 30-39 8, 40-49 25, 50-59 41, 60-69 58, 70-79 75, 80-89 91, >= 90 100
        ("age_points", {"age": 29.9}, 0), ("age_points", {"age": 30}, 8), ("age_points", {"age": 40}, 25),
        ("age_points", {"age": 50}, 41), ("age_points", {"age": 60}, 58), ("age_points", {"age": 70}, 75),
        ("age_points", {"age": 80}, 91), ("age_points", {"age": 89.9}, 91), ("age_points", {"age": 90}, 100),
        # heart rate: < 50 0, 50-69 3, 70-89 9, 90-109 15, 110-149 24, 150-199 38, >= 200 46
        ("heart_rate_points", {"heart_rate": 49}, 0), ("heart_rate_points", {"heart_rate": 50}, 3),
        ("heart_rate_points", {"heart_rate": 70}, 9), ("heart_rate_points", {"heart_rate": 90}, 15),
        ("heart_rate_points", {"heart_rate": 110}, 24), ("heart_rate_points", {"heart_rate": 150}, 38),
        ("heart_rate_points", {"heart_rate": 199}, 38), ("heart_rate_points", {"heart_rate": 200}, 46),
        # systolic BP: < 80 58, 80-99 53, 100-119 43, 120-139 34, 140-159 24, 160-199 10, >= 200 0
        ("systolic_bp_points", {"sbp": 79}, 58), ("systolic_bp_points", {"sbp": 80}, 53),
        ("systolic_bp_points", {"sbp": 100}, 43), ("systolic_bp_points", {"sbp": 120}, 34),
        ("systolic_bp_points", {"sbp": 140}, 24), ("systolic_bp_points", {"sbp": 160}, 10),
        ("systolic_bp_points", {"sbp": 199}, 10), ("systolic_bp_points", {"sbp": 200}, 0),
        # creatinine (mg/dL): < 0.40 1, 0.40-0.79 4, 0.80-1.19 7, 1.20-1.59 10, 1.60-1.99 13, 2.00-3.99 21, >= 4 28
        ("creatinine_points", {"creatinine": 0.39}, 1), ("creatinine_points", {"creatinine": 0.40}, 4),
        ("creatinine_points", {"creatinine": 0.80}, 7), ("creatinine_points", {"creatinine": 1.19}, 7),
        ("creatinine_points", {"creatinine": 1.20}, 10), ("creatinine_points", {"creatinine": 1.60}, 13),
        ("creatinine_points", {"creatinine": 2.00}, 21), ("creatinine_points", {"creatinine": 3.99}, 21),
        ("creatinine_points", {"creatinine": 4.00}, 28),
    ],
)  # fmt: skip
def test_grace_measured_bins_at_each_edge(field: str, value: dict[str, float], points: int) -> None:
    # Granger 2003 Figure 4; a value on a shared bin end falls in the upper bin
    arguments = {"age": 65.0, "heart_rate": 80.0, "sbp": 130.0, "creatinine": 1.0, **value}
    result = _grace(arguments["age"], arguments["heart_rate"], arguments["sbp"], arguments["creatinine"])
    assert result.extra[field] == points


def test_grace_worked_examples() -> None:
    # computed by hand from Granger 2003 Figure 4: 65 y (58), HR 95 (15), SBP 130 (34), Cr 1.1 (7), Killip II (20),
    # ST deviation (28), enzymes (14) = 176 -> high; the nomogram gives 7.3 % at 170 and 9.8 % at 180 -> 8.8 %
    first = _grace(65, 95, 130, 1.1, killip_class="II", st_deviation=True, elevated_enzymes=True)
    assert (first.value, first.category) == (176, "high")
    assert first.extra["in_hospital_mortality_percent"] == pytest.approx(8.8)
    assert "about 8.8 %" in (first.meaning or "")
    # 45 y (25), HR 72 (9), SBP 150 (24), Cr 0.9 (7), Killip I, enzymes (14) = 79 -> low; 0.3 % at 70, 0.4 % at 80
    second = _grace(45, 72, 150, 0.9, elevated_enzymes=True)
    assert (second.value, second.category) == (79, "low")
    assert second.extra["in_hospital_mortality_percent"] == pytest.approx(0.4)
    # on a printed row, 200 points -> 18 % (Figure 4): 72 y (75), HR 60 (3), SBP 90 (53), Cr 2.4 (21), Killip II (20),
    # ST deviation (28) = 200
    row = _grace(72, 60, 90, 2.4, killip_class="II", st_deviation=True)
    assert (row.value, row.category) == (200, "high")
    assert row.extra["in_hospital_mortality_percent"] == 18.0
    # between rows: 75 + 15 + 43 + 7 + 28 = 168 -> 5.4 + 0.8 x (7.3 - 5.4) = 6.9 %
    between = _grace(75, 100, 110, 1.0, st_deviation=True)
    assert between.value == 168
    assert between.extra["in_hospital_mortality_percent"] == pytest.approx(6.9)


def test_grace_mortality_table_ends() -> None:
    # Granger 2003 Figure 4: <= 60 points -> <= 0.2 %; >= 250 -> >= 52 %
    low = _grace(25, 45, 210, 0.3)
    assert low.extra["in_hospital_mortality_percent"] == 0.2
    assert "≤ 0.2 %" in (low.meaning or "")
    top = _grace(95, 210, 70, 4.5, killip_class="IV", cardiac_arrest=True, st_deviation=True, elevated_enzymes=True)
    assert top.extra["in_hospital_mortality_percent"] == 52.0
    assert "≥ 52 %" in (top.meaning or "")
    assert dict(GRACE_MORTALITY)[140] == 2.9 and dict(GRACE_MORTALITY)[200] == 18.0


def test_grace_nste_acs_bands_at_each_threshold() -> None:
    # GRACE coordinating centre risk table (NSTE-ACS, in-hospital): <= 108 low, 109-140 intermediate, > 140 high
    assert _grace(65, 80, 130, 1.0).value == 108  # 58 + 9 + 34 + 7
    assert _grace(65, 80, 130, 1.0).category == "low"
    at_109 = _grace(55, 75, 150, 1.0, st_deviation=True)  # 41 + 9 + 24 + 7 + 28
    assert (at_109.value, at_109.category) == (109, "intermediate")
    at_140 = _grace(55, 100, 110, 0.9, killip_class="II", elevated_enzymes=True)  # 41 + 15 + 43 + 7 + 20 + 14
    assert (at_140.value, at_140.category) == (140, "intermediate")
    at_141 = _grace(55, 100, 90, 0.6, st_deviation=True)  # 41 + 15 + 53 + 4 + 28
    assert (at_141.value, at_141.category) == (141, "high")
    assert at_141.conventions == {"acs_type": "nste_acs (default)"}


def test_grace_stemi_bands() -> None:
    # GRACE coordinating centre risk table (STE-ACS, in-hospital): <= 125 low, 126-154 intermediate, >= 155 high
    at_140 = _grace(55, 100, 110, 0.9, killip_class="II", elevated_enzymes=True, acs_type="stemi")
    assert (at_140.value, at_140.category) == (140, "intermediate")
    assert _grace(65, 80, 130, 1.0, acs_type="stemi").category == "low"  # 108
    high = _grace(65, 95, 130, 1.1, killip_class="II", st_deviation=True, elevated_enzymes=True, acs_type="stemi")
    assert (high.value, high.category) == (176, "high")


def test_grace_creatinine_in_micromol() -> None:
    # 106 µmol/L / 88.4 = 1.199 mg/dL -> 0.80-1.19 bin (7); 115 µmol/L = 1.30 mg/dL -> 10
    result = _grace(65, 80, 130, {"value": 106, "unit": "µmol/L"})
    assert result.extra["creatinine_points"] == 7
    assert result.conversions and "mg/dL" in result.conversions[0]
    assert _grace(65, 80, 130, {"value": 115, "unit": "µmol/L"}).extra["creatinine_points"] == 10


def test_grace_refuses_impossible_values() -> None:
    with pytest.raises(ValidationError, match="not plausible"):
        _grace(65, 80, 130, 40)  # creatinine 40 mg/dL
    with pytest.raises(ValidationError, match="not plausible"):
        _grace(65, 400, 130, 1.0)


def test_grace_missing_inputs() -> None:
    result = _run("grace", age=65, heart_rate=80)
    assert result.status == "needs_more_info"
    assert [m.input for m in result.missing] == [
        "systolic_bp", "creatinine", "killip_class", "cardiac_arrest", "st_deviation", "elevated_enzymes",
    ]  # fmt: skip
    # missing="absent": Killip I and the three items absent; the numbers are still asked for
    absent = evaluate(calculator("grace"), {"age": 65, "heart_rate": 80, "systolic_bp": 130}, missing="absent")
    assert [m.input for m in absent.missing] == ["creatinine"]
    complete = evaluate(
        calculator("grace"), {"age": 65, "heart_rate": 80, "systolic_bp": 130, "creatinine": 1.0}, missing="absent"
    )
    assert complete.value == 108
    assert "Killip class at presentation: I" in complete.assumed_absent


# --- Framingham hard CHD -----------------------------------------------------------------------------


def _fram(**given: Any) -> CalcResult:
    arguments: dict[str, Any] = {"bp_treated": False, "smoker": False}
    arguments.update(given)
    return _run("framingham_hard_chd", **arguments)


def test_framingham_worked_examples() -> None:
    # computed by hand from the ATP III Cox model (men): 52.00961 ln50 + 20.014077 ln200 - 0.905964 ln50
    # + 1.305784 ln120 - 4.605038 ln50 ln200 - 2.93323 ln50² - 172.300168 = -0.4284; 1 - 0.9402^e^-0.4284 = 3.94 %
    man = _fram(age=50, sex="male", total_cholesterol=200, hdl_cholesterol=50, systolic_bp=120)
    assert man.extra["linear_predictor"] == pytest.approx(-0.4284, abs=1e-4)
    assert (man.value, man.unit, man.category) == (3.9, "%", "low")
    # the same in a woman: L = -0.6284; 1 - 0.98767^e^-0.6284 = 0.66 %
    woman = _fram(age=50, sex="female", total_cholesterol=200, hdl_cholesterol=50, systolic_bp=120)
    assert woman.extra["linear_predictor"] == pytest.approx(-0.6284, abs=1e-4)
    assert woman.value == 0.7
    # a treated smoker, man 60, TC 250, HDL 35, SBP 150: L = 1.8921 -> 33.6 % (high, > 20 %)
    high = _fram(
        age=60, sex="male", total_cholesterol=250, hdl_cholesterol=35, systolic_bp=150, bp_treated=True, smoker=True
    )
    assert (high.value, high.category) == (33.6, "high")


def test_framingham_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 46: woman 60, SBP 120 treated, TC 199 mg/dL, HDL 76 mg/dL,
    # smoking not mentioned (scored no). Its worked answer is 0.0 %, because it converted the cholesterols to
    # mmol/L (5.15, 1.97) before the logs, and the model's coefficients are for mg/dL (ATP III; MDCalc states
    # mg/dL). With mg/dL: L = 31.764001 ln60 + 22.465206 ln199 - 1.187731 ln76 + 2.552905 ln120 + 0.420251
    # - 5.060998 ln60 ln199 - 146.5933061 = 0.1881; 1 - 0.98767^e^0.1881 = 1.49 % -> 1.5 %.
    result = _fram(age=60, sex="female", total_cholesterol=199, hdl_cholesterol=76, systolic_bp=120, bp_treated=True)
    assert result.extra["linear_predictor"] == pytest.approx(0.1881, abs=1e-4)
    assert (result.value, result.category) == (1.5, "low")


def test_framingham_smoking_age_cap() -> None:
    # the age x smoking term uses ln(70) above 70 in men (ln(78) above 78 in women)
    def linear(age: float, smoker: bool, sex: str = "male") -> float:
        result = _fram(age=age, sex=sex, total_cholesterol=200, hdl_cholesterol=50, systolic_bp=130, smoker=smoker)
        return result.extra["linear_predictor"]

    assert linear(75, True) - linear(75, False) == pytest.approx(12.096316 - 2.84367 * math.log(70), abs=2e-4)
    assert linear(65, True) - linear(65, False) == pytest.approx(12.096316 - 2.84367 * math.log(65), abs=2e-4)
    assert linear(79, True, "female") - linear(79, False, "female") == pytest.approx(
        13.07543 - 2.996945 * math.log(78), abs=2e-4
    )


def test_framingham_cholesterol_in_mmol() -> None:
    # 5.17 mmol/L x 38.67 = 199.9 mg/dL; 1.29 mmol/L = 49.9 mg/dL: close to the 200/50 example (3.9 %)
    result = _fram(
        age=50,
        sex="male",
        total_cholesterol={"value": 5.17, "unit": "mmol/L"},
        hdl_cholesterol={"value": 1.29, "unit": "mmol/L"},
        systolic_bp=120,
    )
    assert result.value == 3.9
    assert len(result.conversions) == 2 and all("mg/dL" in note for note in result.conversions)
    # the MedCalc note's cholesterols in mmol/L, converted back, give its correct mg/dL answer
    note = _fram(
        age=60,
        sex="female",
        total_cholesterol={"value": 199 / 38.67, "unit": "mmol/L"},
        hdl_cholesterol={"value": 76 / 38.67, "unit": "mmol/L"},
        systolic_bp=120,
        bp_treated=True,
    )
    assert note.value == 1.5


def test_framingham_bands_at_each_threshold() -> None:
    # ATP III: < 10 %, 10-20 %, > 20 %
    assert band_for(9.9, FRAMINGHAM_BANDS).category == "low"
    assert band_for(10.0, FRAMINGHAM_BANDS).category == "intermediate"
    assert band_for(20.0, FRAMINGHAM_BANDS).category == "intermediate"
    assert band_for(20.1, FRAMINGHAM_BANDS).category == "high"
    # through the formula (computed by hand from the ATP III model): man 60, HDL 45, untreated non-smoker
    cases = {(100, 268): (9.9, "low"), (100, 271): (10.0, "intermediate"), (150, 328): (20.0, "intermediate")}
    cases[(151, 327)] = (20.1, "high")
    for (sbp, tc), expected in cases.items():
        result = _fram(age=60, sex="male", total_cholesterol=tc, hdl_cholesterol=45, systolic_bp=sbp)
        assert (result.value, result.category) == expected, (sbp, tc)


def test_framingham_refusals() -> None:
    with pytest.raises(ValidationError, match="ages 20–79"):
        _fram(age=82, sex="male", total_cholesterol=200, hdl_cholesterol=50, systolic_bp=120)
    with pytest.raises(ValidationError, match="lower than total cholesterol"):
        _fram(age=50, sex="male", total_cholesterol=150, hdl_cholesterol=160, systolic_bp=120)
    with pytest.raises(ValidationError, match="not plausible"):
        _fram(age=50, sex="male", total_cholesterol=5000, hdl_cholesterol=50, systolic_bp=120)


def test_framingham_missing_inputs() -> None:
    result = _run("framingham_hard_chd", age=50, sex="male", total_cholesterol=200)
    assert result.status == "needs_more_info"
    assert [m.input for m in result.missing] == ["hdl_cholesterol", "systolic_bp", "bp_treated", "smoker"]
    absent = evaluate(
        calculator("framingham_hard_chd"),
        {"age": 50, "sex": "male", "total_cholesterol": 200, "hdl_cholesterol": 50, "systolic_bp": 120},
        missing="absent",
    )
    assert absent.value == 3.9
    assert set(absent.assumed_absent) == {"Blood pressure treated with medication", "Current smoker"}


def test_framingham_point_table_band_edges() -> None:
    # ATP III point table bands are lower-inclusive: TC 199.9 is 160-199, 200 is 200-239; HDL 40 is 40-49, 39.9
    # is < 40; SBP 160 is >= 160; age 60 is 60-64 (and the 60-69 decade for cholesterol and smoking)
    def points(**given: Any) -> dict[str, float]:
        arguments = {"age": 60, "sex": "male", "total_cholesterol": 200, "hdl_cholesterol": 50, "systolic_bp": 120}
        arguments.update(given)
        return _fram(method="points", **arguments).extra

    assert points(total_cholesterol=199.9)["total_cholesterol_points"] == 1  # 60-69: 160-199 1
    assert points(total_cholesterol=159.9)["total_cholesterol_points"] == 0
    assert points(total_cholesterol=280)["total_cholesterol_points"] == 3
    assert points(hdl_cholesterol=40)["hdl_cholesterol_points"] == 1
    assert points(hdl_cholesterol=39.9)["hdl_cholesterol_points"] == 2
    assert points(hdl_cholesterol=60)["hdl_cholesterol_points"] == -1
    assert points(systolic_bp=160)["systolic_bp_points"] == 2
    assert points(systolic_bp=160, bp_treated=True)["systolic_bp_points"] == 3
    assert points(systolic_bp=119, bp_treated=True)["systolic_bp_points"] == 0
    assert points(age=59.9)["age_points"] == 8 and points()["age_points"] == 10
    assert points(age=59.9)["total_cholesterol_points"] == 3  # 50-59: 200-239 3
    # cholesterol given in mmol/L is scored on its mg/dL value (5.17 mmol/L = 199.9 mg/dL: 160-199)
    assert points(total_cholesterol={"value": 5.17, "unit": "mmol/L"})["total_cholesterol_points"] == 1


def test_framingham_breakdown_names_no_points_the_equation_does_not_have() -> None:
    # the equation has no points: smoking and treatment are not shown as a point each
    result = _fram(age=55, sex="male", total_cholesterol=220, hdl_cholesterol=45, systolic_bp=135, smoker=True)
    assert all(part.points == 0 for part in result.points)
    # the table scores smoking by age: its row shows those points, once
    table = _fram(age=45, sex="female", total_cholesterol=220, hdl_cholesterol=45, systolic_bp=135, smoker=True,
                  method="points")  # fmt: skip
    assert [(part.input, part.points) for part in table.points if part.input == "smoker"] == [("smoker", 7.0)]
    assert sum(part.points for part in table.points) == table.extra["point_total"]


# --- QTc ---------------------------------------------------------------------------------------------


def test_qtc_every_formula_at_80_per_min() -> None:
    # computed by hand: QT 400 ms, HR 80 -> RR 0.75 s. Bazett 400/√0.75 = 461.9; Fridericia 400/0.75^(1/3) = 440.3;
    # Framingham (Sagie 1992) 400 + 154 x 0.25 = 438.5; Hodges 400 + 1.75 x 20 = 435; Rautaharju 400 x 200/180 = 444.4
    result = _run("qtc", qt_interval=400, heart_rate=80)
    assert (result.value, result.unit) == (462, "ms")
    assert result.conventions == {"formula": "bazett (default)", "sex": "unspecified (default)"}
    assert result.extra == {
        "qtc_bazett_ms": 461.9, "qtc_fridericia_ms": 440.3, "qtc_framingham_ms": 438.5, "qtc_hodges_ms": 435.0,
        "qtc_rautaharju_ms": 444.4, "rr_interval_s": 0.75,
    }  # fmt: skip
    for formula, expected in {"fridericia": 440, "framingham": 438, "hodges": 435, "rautaharju": 444}.items():
        assert _run("qtc", qt_interval=400, heart_rate=80, formula=formula).value == expected


def test_qtc_at_60_per_min_every_formula_returns_the_qt() -> None:
    # RR = 1 s: each correction leaves the QT unchanged (Bazett 1920, Fridericia 1920, Sagie 1992, Hodges 1983,
    # Rautaharju 2014 are all normalised to 60/min)
    result = _run("qtc", qt_interval=420, heart_rate=60)
    assert {v for k, v in result.extra.items() if k.startswith("qtc_")} == {420.0}


def test_qtc_medcalc_dev_notes() -> None:
    # MedCalc-Bench one-shot note for calculator 58 (Hodges): HR 101, QT 330 -> 330 + 1.75 x 41 = 401.75;
    # its worked answer 401.768 comes from rounding RR to 0.594 s first. We show whole ms: 402.
    hodges = _run("qtc", qt_interval=330, heart_rate=101, formula="hodges")
    assert hodges.value == 402
    assert hodges.extra["qtc_hodges_ms"] == pytest.approx(401.768, abs=0.05)
    # note for calculator 59 (Rautaharju): HR 68, QT 330 -> 330 x 188 / 180 = 344.667 (its answer) -> 345
    rautaharju = _run("qtc", qt_interval=330, heart_rate=68, formula="rautaharju")
    assert rautaharju.value == 345
    assert rautaharju.extra["qtc_rautaharju_ms"] == pytest.approx(344.667, abs=0.05)
    assert rautaharju.category == "short"  # <= 390 ms, AHA/ACCF/HRS 2009


@pytest.mark.parametrize(
    ("qt", "sex", "category"),
    [
        (390, "male", "short"), (391, "male", "normal"), (449, "male", "normal"), (450, "male", "prolonged"),
        (500, "male", "prolonged"), (501, "male", "markedly prolonged"),
        (459, "female", "normal"), (460, "female", "prolonged"), (501, "female", "markedly prolonged"),
        (449, "unspecified", "normal"), (450, "unspecified", "borderline"), (459, "unspecified", "borderline"),
        (460, "unspecified", "prolonged"), (390, "unspecified", "short"),
    ],
)  # fmt: skip
def test_qtc_thresholds_by_sex(qt: int, sex: str, category: str) -> None:
    # AHA/ACCF/HRS 2009 (Rautaharju, Circulation 2009;119:e241): >= 450 ms men, >= 460 ms women, <= 390 short;
    # > 500 ms high risk of torsade (Drew, Circulation 2010;121:1047). HR 60 so QTc = QT.
    assert _run("qtc", qt_interval=qt, heart_rate=60, sex=sex).category == category


def test_qtc_units_and_warnings() -> None:
    # QT in seconds: 0.4 s = 400 ms
    result = _run("qtc", qt_interval={"value": 0.4, "unit": "s"}, heart_rate={"value": 80, "unit": "bpm"})
    assert result.value == 462
    assert result.conversions == ["QT interval (measured): 0.4 s = 400 ms"]
    fast = _run("qtc", qt_interval=320, heart_rate=130)
    assert any("outside 60–100" in w for w in fast.warnings)
    assert not any("outside 60–100" in w for w in result.warnings)


def test_qtc_refusals_and_missing() -> None:
    with pytest.raises(ValidationError, match="not plausible"):
        _run("qtc", qt_interval=2000, heart_rate=70)
    with pytest.raises(ValidationError, match="not plausible"):
        _run("qtc", qt_interval=400, heart_rate=0)
    with pytest.raises(ValidationError, match="not an option"):
        _run("qtc", qt_interval=400, heart_rate=70, formula="mayeda")
    missing = _run("qtc", formula="hodges")
    assert missing.status == "needs_more_info"
    assert [m.input for m in missing.missing] == ["qt_interval", "heart_rate"]


# --- MAP ---------------------------------------------------------------------------------------------


def test_map_medcalc_dev_note_and_examples() -> None:
    # MedCalc-Bench one-shot note for calculator 5: 110/70 -> 70 + 40/3 = 83.333 (its worked answer) -> 83.3
    note = _run("map", systolic_bp=110, diastolic_bp=70)
    assert (note.value, note.unit, note.category) == (83.3, "mmHg", "65 or more")
    assert note.extra == {"pulse_pressure_mmhg": 40.0, "map_meaney_mmhg": 86.5}  # 70 + 0.412 x 40 (Meaney 2000)
    # computed by hand: 120/80 -> 80 + 40/3 = 93.3; 80/40 -> 40 + 40/3 = 53.3 (below 65)
    assert _run("map", systolic_bp=120, diastolic_bp=80).value == 93.3
    low = _run("map", systolic_bp=80, diastolic_bp=40)
    assert (low.value, low.category) == (53.3, "below 65")


def test_map_threshold_65() -> None:
    # Surviving Sepsis Campaign 2021: initial target MAP 65 mmHg
    assert _run("map", systolic_bp=95, diastolic_bp=50).value == 65.0  # 50 + 45/3
    assert _run("map", systolic_bp=95, diastolic_bp=50).category == "65 or more"
    below = _run("map", systolic_bp=94, diastolic_bp=50)  # 64.67 -> 64.7
    assert (below.value, below.category) == (64.7, "below 65")
    assert band_for(64.9, MAP_BANDS).category == "below 65" and band_for(65, MAP_BANDS).category == "65 or more"


def test_map_in_kpa() -> None:
    # 16 kPa x 7.50062 = 120.0 mmHg; 10.6 kPa = 79.5 mmHg -> 79.5 + 40.5/3 = 93.0
    result = _run("map", systolic_bp={"value": 16, "unit": "kPa"}, diastolic_bp={"value": 10.6, "unit": "kPa"})
    assert result.value == 93.0
    assert len(result.conversions) == 2


def test_map_refusals_and_missing() -> None:
    with pytest.raises(ValidationError, match="below diastolic_bp"):
        _run("map", systolic_bp=70, diastolic_bp=110)
    with pytest.raises(ValidationError, match="not plausible"):
        _run("map", systolic_bp=400, diastolic_bp=80)
    missing = _run("map", systolic_bp=120)
    assert missing.status == "needs_more_info"
    assert [m.input for m in missing.missing] == ["diastolic_bp"]


def test_cli_shows_each_points_row_once(home: Path) -> None:
    # the table's points are rows of the breakdown; they are not printed again as extra figures
    result = CliRunner().invoke(
        cli,
        ["calc", "framingham_hard_chd", "age=55", "sex=male", "total_cholesterol=220", "hdl_cholesterol=45",
         "systolic_bp=135", "smoker=no", "bp_treated=no", "method=points"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "+8  Age" in result.stdout and "point_total: 13" in result.stdout
    assert "age_points" not in result.stdout
