"""APACHE II, SOFA and SIRS against Knaus 1985, Vincent 1996 and Bone 1992."""

from __future__ import annotations

from typing import Any

import pytest

from curbside.errors import ValidationError
from curbside.tools.calculators.catalog import calculator
from curbside.tools.calculators.kit import CalcResult, evaluate
from curbside.tools.calculators.library.severity_icu import alveolar_arterial_gradient

# --- APACHE II --------------------------------------------------------------------------------------

_APACHE_NORMAL: dict[str, Any] = {
    "temperature": 37.0,
    "mean_arterial_pressure": 90,
    "heart_rate": 80,
    "respiratory_rate": 16,
    "fio2": 0.21,
    "pao2": 90,
    "ph": 7.40,
    "sodium": 140,
    "potassium": 4.0,
    "creatinine": 1.0,
    "acute_renal_failure": False,
    "hematocrit": 40,
    "wbc": 8,
    "gcs": 15,
    "age": 30,
    "chronic_health": "none",
}


def _apache(**given: Any) -> CalcResult:
    return evaluate(calculator("apache_ii"), _APACHE_NORMAL | given)


def test_apache_ii_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 28 (57-year-old man, CKD stage 5, immunocompromised).
    # Its inputs: T 37.2, BP 154/103 (MAP 120), HR 63, RR 25, FiO2 35 %, PaO2 65, pH 7.29, Na 140.12,
    # K 3.5, creatinine 2.24 (no ARF), Hct 47, WBC 15,402/µL, GCS 15, age 57, chronic health with
    # surgery type "Elective". Knaus 1985 Fig. 1: T 0, MAP 2, HR 2, RR 1, PaO2 1, pH 2, Na 0, K 0,
    # creatinine 3, Hct 1, WBC 1, GCS 15 − 15 = 0 → APS 13; age 3; chronic 2 → 18.
    # Disagreement: its worked answer is 32. MedCalc (a) adds the GCS itself (15) instead of 15 − GCS (0);
    # (b) scores WBC 15.4 as "above 40" (4) instead of 15–19.9 (1); (c) skips heart rate 63 (55–69 → 2)
    # and (d) pH 7.29 (7.25–7.32 → 2): 18 + 15 + 3 − 2 − 2 = 32. Also the note describes a medical
    # (nonoperative) admission, which scores 5 chronic-health points, not 2 → 21.
    note = {
        "temperature": 37.2,
        "mean_arterial_pressure": None,
        "systolic_bp": 154,
        "diastolic_bp": 103,
        "heart_rate": 63,
        "respiratory_rate": 25,
        "fio2": {"value": 35, "unit": "%"},
        "pao2": 65,
        "ph": 7.29,
        "sodium": 140.12,
        "potassium": 3.5,
        "creatinine": 2.24,
        "acute_renal_failure": False,
        "hematocrit": 47,
        "wbc": {"value": 15.402, "unit": "10^3/µL"},
        "gcs": 15,
        "age": 57,
        "chronic_health": "elective_postoperative",
    }
    result = _apache(**note)
    assert result.value == 18
    assert result.extra["mean_arterial_pressure_mmhg"] == 120.0
    assert result.extra["acute_physiology_score"] == 13
    assert (result.extra["heart_rate_points"], result.extra["ph_points"], result.extra["wbc_points"]) == (2, 2, 1)
    assert result.extra["gcs_points"] == 0
    assert _apache(**(note | {"chronic_health": "nonoperative"})).value == 21


def test_apache_ii_worked_examples_by_hand() -> None:
    # Computed by hand from Knaus 1985 Fig. 1.
    # All values normal, age 30, no chronic illness → 0
    assert _apache().value == 0
    # 70-year-old, emergency postoperative, cirrhosis: T 39.5 (3), MAP 60 (2), HR 125 (2), RR 36 (3),
    # FiO2 0.6 with A-aDO2 360 (3), pH 7.20 (3), Na 128 (2), K 3.2 (1), creatinine 2.5 with ARF (3 × 2 = 6),
    # Hct 28 (2), WBC 22 (2), GCS 10 (5) → APS 34; age 5; chronic 5 → 44
    sick = _apache(
        temperature=39.5,
        mean_arterial_pressure=60,
        heart_rate=125,
        respiratory_rate=36,
        fio2=0.6,
        aa_gradient=360,
        ph=7.20,
        sodium=128,
        potassium=3.2,
        creatinine=2.5,
        acute_renal_failure=True,
        hematocrit=28,
        wbc=22,
        gcs=10,
        age=70,
        chronic_health="emergency_postoperative",
    )
    assert sick.extra["acute_physiology_score"] == 34
    assert sick.value == 44


def _points(key: str, value: Any, part: str) -> float:
    return _apache(**{key: value}).extra[part]


@pytest.mark.parametrize(
    ("value", "points"),
    [
        (41, 4),
        (40.9, 3),
        (39, 3),
        (38.9, 1),
        (38.5, 1),
        (38.4, 0),
        (36, 0),
        (35.9, 1),
        (34, 1),
        (33.9, 2),
        (32, 2),
        (31.9, 3),
        (30, 3),
        (29.9, 4),
    ],
)
def test_apache_ii_temperature(value: float, points: int) -> None:
    assert _points("temperature", value, "temperature_points") == points


@pytest.mark.parametrize(
    ("value", "points"),
    [(160, 4), (159, 3), (130, 3), (129, 2), (110, 2), (109, 0), (70, 0), (69, 2), (50, 2), (49, 4)],
)
def test_apache_ii_mean_arterial_pressure(value: float, points: int) -> None:
    assert _points("mean_arterial_pressure", value, "map_points") == points


@pytest.mark.parametrize(
    ("value", "points"),
    [(180, 4), (179, 3), (140, 3), (139, 2), (110, 2), (109, 0), (70, 0), (69, 2), (55, 2), (54, 3), (40, 3), (39, 4)],
)
def test_apache_ii_heart_rate(value: float, points: int) -> None:
    assert _points("heart_rate", value, "heart_rate_points") == points


@pytest.mark.parametrize(
    ("value", "points"),
    [(50, 4), (49, 3), (35, 3), (34, 1), (25, 1), (24, 0), (12, 0), (11, 1), (10, 1), (9, 2), (6, 2), (5, 4)],
)
def test_apache_ii_respiratory_rate(value: float, points: int) -> None:
    assert _points("respiratory_rate", value, "respiratory_rate_points") == points


@pytest.mark.parametrize(("value", "points"), [(71, 0), (70, 1), (61, 1), (60, 3), (55, 3), (54, 4)])
def test_apache_ii_pao2_when_fio2_below_half(value: float, points: int) -> None:
    assert _points("pao2", value, "oxygenation_points") == points


@pytest.mark.parametrize(("gradient", "points"), [(500, 4), (499, 3), (350, 3), (349, 2), (200, 2), (199, 0)])
def test_apache_ii_aa_gradient_when_fio2_half_or_more(gradient: float, points: int) -> None:
    assert _apache(fio2=0.5, aa_gradient=gradient).extra["oxygenation_points"] == points


def test_apache_ii_aa_gradient_computed_from_paco2() -> None:
    # alveolar gas equation at sea level: FiO2 0.6, PaCO2 40, PaO2 80 → 0.6 × 713 − 40 / 0.8 − 80 = 297.8 → 2
    assert alveolar_arterial_gradient(0.6, 80, 40) == pytest.approx(297.8)
    result = _apache(fio2={"value": 60, "unit": "%"}, pao2=80, paco2=40)
    assert result.extra["aa_gradient_mmhg"] == 297.8
    assert result.extra["oxygenation_points"] == 2
    assert any("sea level" in w for w in result.warnings)
    with pytest.raises(ValidationError, match="A-a gradient"):
        _apache(fio2=0.5)


@pytest.mark.parametrize(
    ("value", "points"),
    [
        (7.7, 4),
        (7.69, 3),
        (7.6, 3),
        (7.59, 1),
        (7.5, 1),
        (7.49, 0),
        (7.33, 0),
        (7.32, 2),
        (7.25, 2),
        (7.24, 3),
        (7.15, 3),
        (7.14, 4),
    ],
)
def test_apache_ii_ph(value: float, points: int) -> None:
    assert _points("ph", value, "ph_points") == points


@pytest.mark.parametrize(
    ("value", "points"),
    [
        (180, 4),
        (179, 3),
        (160, 3),
        (159, 2),
        (155, 2),
        (154, 1),
        (150, 1),
        (149, 0),
        (130, 0),
        (129, 2),
        (120, 2),
        (119, 3),
        (111, 3),
        (110, 4),
    ],
)
def test_apache_ii_sodium(value: float, points: int) -> None:
    assert _points("sodium", value, "sodium_points") == points


@pytest.mark.parametrize(
    ("value", "points"),
    [
        (7.0, 4),
        (6.9, 3),
        (6.0, 3),
        (5.9, 1),
        (5.5, 1),
        (5.4, 0),
        (3.5, 0),
        (3.4, 1),
        (3.0, 1),
        (2.9, 2),
        (2.5, 2),
        (2.4, 4),
    ],
)
def test_apache_ii_potassium(value: float, points: int) -> None:
    assert _points("potassium", value, "potassium_points") == points


@pytest.mark.parametrize(
    ("value", "points"), [(3.5, 4), (3.4, 3), (2.0, 3), (1.9, 2), (1.5, 2), (1.4, 0), (0.6, 0), (0.5, 2)]
)
def test_apache_ii_creatinine_and_acute_renal_failure(value: float, points: int) -> None:
    assert _points("creatinine", value, "creatinine_points") == points
    doubled = _apache(creatinine=value, acute_renal_failure=True)
    assert doubled.extra["creatinine_points"] == 2 * points


@pytest.mark.parametrize(
    ("value", "points"),
    [(60, 4), (59.9, 2), (50, 2), (49.9, 1), (46, 1), (45.9, 0), (30, 0), (29.9, 2), (20, 2), (19.9, 4)],
)
def test_apache_ii_hematocrit(value: float, points: int) -> None:
    assert _points("hematocrit", value, "hematocrit_points") == points


@pytest.mark.parametrize(
    ("value", "points"),
    [(40, 4), (39.9, 2), (20, 2), (19.9, 1), (15, 1), (14.9, 0), (3, 0), (2.9, 2), (1, 2), (0.9, 4)],
)
def test_apache_ii_wbc(value: float, points: int) -> None:
    assert _points("wbc", value, "wbc_points") == points


@pytest.mark.parametrize(("gcs", "points"), [(15, 0), (14, 1), (8, 7), (3, 12)])
def test_apache_ii_gcs(gcs: int, points: int) -> None:
    assert _points("gcs", gcs, "gcs_points") == points


@pytest.mark.parametrize(
    ("age", "points"), [(44, 0), (45, 2), (54, 2), (55, 3), (64, 3), (65, 5), (74, 5), (75, 6), (90, 6)]
)
def test_apache_ii_age(age: int, points: int) -> None:
    assert _apache(age=age).value == points


@pytest.mark.parametrize(
    ("option", "points"),
    [("none", 0), ("nonoperative", 5), ("emergency_postoperative", 5), ("elective_postoperative", 2)],
)
def test_apache_ii_chronic_health(option: str, points: int) -> None:
    assert _apache(chronic_health=option).value == points


def test_apache_ii_unit_conversions() -> None:
    # 102.2 °F = 39 °C (3); creatinine 309.4 µmol/L = 3.5 mg/dL (4); Hct 0.47 L/L = 47 % (1);
    # WBC 16 K/µL = 16 ×10⁹/L (1); PaO2 8 kPa = 60.0 mmHg (3); K 5.6 mEq/L (1)
    assert _apache(temperature={"value": 102.2, "unit": "°F"}).value == 3
    assert _apache(creatinine={"value": 309.4, "unit": "µmol/L"}).value == 4
    assert _apache(hematocrit={"value": 0.47, "unit": "L/L"}).value == 1
    assert _apache(wbc={"value": 16, "unit": "K/uL"}).value == 1
    assert _apache(pao2={"value": 8, "unit": "kPa"}).value == 3
    assert _apache(potassium={"value": 5.6, "unit": "mEq/L"}).value == 1


def test_apache_ii_checks_refusal_and_missing() -> None:
    with pytest.raises(ValidationError, match="mean_arterial_pressure"):
        _apache(mean_arterial_pressure=None)
    with pytest.raises(ValidationError, match="above diastolic"):
        _apache(mean_arterial_pressure=None, systolic_bp=70, diastolic_bp=90)
    with pytest.raises(ValidationError, match="gcs"):
        _apache(gcs=2)
    with pytest.raises(ValidationError, match="fio2"):
        _apache(fio2=1.5)
    asked = evaluate(calculator("apache_ii"), {"age": 60})
    assert [m.input for m in asked.missing] == [
        "temperature",
        "heart_rate",
        "respiratory_rate",
        "fio2",
        "pao2",
        "ph",
        "sodium",
        "potassium",
        "creatinine",
        "acute_renal_failure",
        "hematocrit",
        "wbc",
        "gcs",
        "chronic_health",
    ]


# --- SOFA -------------------------------------------------------------------------------------------

_SOFA_NORMAL: dict[str, Any] = {
    "pao2": 95,
    "fio2": 0.21,
    "respiratory_support": False,
    "platelets": 250,
    "bilirubin": 0.8,
    "mean_arterial_pressure": 85,
    "vasopressors": False,
    "gcs": 15,
    "creatinine": 0.9,
}


def _sofa(**given: Any) -> CalcResult:
    return evaluate(calculator("sofa"), _SOFA_NORMAL | given)


def test_sofa_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 43: FiO2 53 %, no ventilation, PaO2 87 (P/F 164 → 2 without
    # support), BP 62/42 (MAP 48.7 → 1), GCS 15, platelets 157,000/µL (0), "creatinine 3.12 mg/L",
    # "bilirubin 2.43 mg/" — MedCalc read both as µmol/L and answered 3.
    # Disagreement: creatinine 3.12 µmol/L is 0.035 mg/dL — not a possible serum value; the calculator refuses it.
    note = {
        "pao2": 87,
        "fio2": {"value": 53, "unit": "%"},
        "respiratory_support": False,
        "platelets": {"value": 157, "unit": "10^3/µL"},
        "mean_arterial_pressure": None,
        "systolic_bp": 62,
        "diastolic_bp": 42,
        "gcs": 15,
        "vasopressors": False,
    }
    with pytest.raises(ValidationError, match="creatinine"):
        _sofa(**note, creatinine={"value": 3.12, "unit": "µmol/L"}, bilirubin={"value": 2.43, "unit": "µmol/L"})
    # Taking the note's units literally (creatinine 3.12 mg/L = 0.312 mg/dL) and MedCalc's bilirubin reading
    # (2.43 µmol/L = 0.14 mg/dL) reproduces MedCalc's 3 = respiration 2 + cardiovascular 1.
    literal = _sofa(**note, creatinine=0.312, bilirubin={"value": 2.43, "unit": "µmol/L"})
    assert literal.value == 3
    assert (literal.extra["respiration_points"], literal.extra["cardiovascular_points"]) == (2, 1)
    # The likely intended mg/dL (creatinine 3.12 → 2, bilirubin 2.43 → 2) gives 7.
    intended = _sofa(**note, creatinine=3.12, bilirubin=2.43)
    assert intended.value == 7
    assert any("without respiratory support" in w for w in intended.warnings)


def test_sofa_worked_examples_by_hand() -> None:
    # Computed by hand from Vincent 1996 Table 1: ventilated, PaO2 80 on FiO2 0.8 (P/F 100 → 3),
    # platelets 45 (3), bilirubin 3.0 (2), norepinephrine 0.2 µg/kg/min (4), GCS 8 (3), creatinine 4.0 (3) → 18
    sick = _sofa(
        pao2=80,
        fio2=0.8,
        respiratory_support=True,
        platelets=45,
        bilirubin=3.0,
        vasopressors=True,
        norepinephrine=0.2,
        gcs=8,
        creatinine=4.0,
    )
    assert sick.value == 18
    assert sick.extra["pf_ratio"] == 100
    assert sick.category == "organ dysfunction"
    well = _sofa()
    assert (well.value, well.category) == (0, "below sepsis threshold")


@pytest.mark.parametrize(
    ("pao2", "fio2", "support", "points"),
    [
        (84, 0.21, False, 0),  # P/F 400
        (83, 0.21, False, 1),  # 395
        (90, 0.3, False, 1),  # 300
        (89, 0.3, False, 2),  # 297
        (80, 0.4, False, 2),  # 200
        (79, 0.4, True, 3),  # 197.5
        (79, 0.4, False, 2),  # < 200 without support: 2
        (100, 1.0, True, 3),  # 100
        (99, 1.0, True, 4),  # 99
        (99, 1.0, False, 2),
    ],
)
def test_sofa_respiration(pao2: float, fio2: float, support: bool, points: int) -> None:
    assert _sofa(pao2=pao2, fio2=fio2, respiratory_support=support).extra["respiration_points"] == points


@pytest.mark.parametrize(
    ("platelets", "points"), [(150, 0), (149, 1), (100, 1), (99, 2), (50, 2), (49, 3), (20, 3), (19, 4)]
)
def test_sofa_coagulation(platelets: float, points: int) -> None:
    assert _sofa(platelets=platelets).extra["coagulation_points"] == points


@pytest.mark.parametrize(
    ("bilirubin", "points"), [(1.1, 0), (1.2, 1), (1.9, 1), (2.0, 2), (5.9, 2), (6.0, 3), (11.9, 3), (12.0, 4)]
)
def test_sofa_liver(bilirubin: float, points: int) -> None:
    assert _sofa(bilirubin=bilirubin).extra["liver_points"] == points


@pytest.mark.parametrize(
    ("given", "points"),
    [
        ({"mean_arterial_pressure": 70}, 0),
        ({"mean_arterial_pressure": 69}, 1),
        ({"vasopressors": True, "dopamine": 5}, 2),
        ({"vasopressors": True, "dobutamine": 10}, 2),
        ({"vasopressors": True, "dopamine": 5.1}, 3),
        ({"vasopressors": True, "dopamine": 15}, 3),
        ({"vasopressors": True, "dopamine": 15.1}, 4),
        ({"vasopressors": True, "epinephrine": 0.1}, 3),
        ({"vasopressors": True, "epinephrine": 0.11}, 4),
        ({"vasopressors": True, "norepinephrine": 0.05}, 3),
        ({"vasopressors": True, "norepinephrine": 0.1}, 3),
        ({"vasopressors": True, "norepinephrine": 0.12, "dobutamine": 5}, 4),
    ],
)
def test_sofa_cardiovascular(given: dict[str, Any], points: int) -> None:
    assert _sofa(**given).extra["cardiovascular_points"] == points


def test_sofa_vasopressor_checks_and_units() -> None:
    with pytest.raises(ValidationError, match="dose"):
        _sofa(vasopressors=True)
    with pytest.raises(ValidationError, match="norepinephrine"):
        _sofa(norepinephrine=0.1)
    result = _sofa(vasopressors=True, norepinephrine={"value": 0.2, "unit": "mcg/kg/min"})
    assert result.extra["cardiovascular_points"] == 4


@pytest.mark.parametrize(("gcs", "points"), [(15, 0), (14, 1), (13, 1), (12, 2), (10, 2), (9, 3), (6, 3), (5, 4)])
def test_sofa_cns(gcs: int, points: int) -> None:
    assert _sofa(gcs=gcs).extra["cns_points"] == points


@pytest.mark.parametrize(
    ("creatinine", "points"), [(1.1, 0), (1.2, 1), (1.9, 1), (2.0, 2), (3.4, 2), (3.5, 3), (4.9, 3), (5.0, 4)]
)
def test_sofa_renal_creatinine(creatinine: float, points: int) -> None:
    assert _sofa(creatinine=creatinine).extra["renal_points"] == points


def test_sofa_renal_urine_output() -> None:
    # < 500 mL/day → 3, < 200 → 4; the worse of creatinine and urine output counts
    assert _sofa(urine_output=500).extra["renal_points"] == 0
    assert _sofa(urine_output=499).extra["renal_points"] == 3
    assert _sofa(urine_output=200).extra["renal_points"] == 3
    assert _sofa(urine_output=199).extra["renal_points"] == 4
    assert _sofa(urine_output={"value": 0.15, "unit": "L"}).extra["renal_points"] == 4
    assert _sofa(creatinine=5.5, urine_output=1500).extra["renal_points"] == 4


def test_sofa_unit_conversions() -> None:
    # bilirubin 205.2 µmol/L = 12.0 mg/dL (4); creatinine 442 µmol/L = 5.0 mg/dL (4);
    # PaO2 10 kPa = 75 mmHg on FiO2 0.21 → P/F 357 (1)
    assert _sofa(bilirubin={"value": 205.2, "unit": "µmol/L"}).extra["liver_points"] == 4
    assert _sofa(creatinine={"value": 442, "unit": "µmol/L"}).extra["renal_points"] == 4
    assert _sofa(pao2={"value": 10, "unit": "kPa"}).extra["respiration_points"] == 1


def test_sofa_refusal_and_missing() -> None:
    with pytest.raises(ValidationError, match="platelets"):
        _sofa(platelets=-5)
    with pytest.raises(ValidationError, match="mean_arterial_pressure"):
        _sofa(mean_arterial_pressure=None)
    asked = evaluate(calculator("sofa"), {"pao2": 80})
    assert [m.input for m in asked.missing] == [
        "fio2",
        "respiratory_support",
        "platelets",
        "bilirubin",
        "vasopressors",
        "gcs",
        "creatinine",
    ]


# --- SIRS -------------------------------------------------------------------------------------------

_SIRS_NORMAL: dict[str, Any] = {"temperature": 37, "heart_rate": 80, "respiratory_rate": 16, "wbc": 8}


def _sirs(**given: Any) -> CalcResult:
    return evaluate(calculator("sirs"), _SIRS_NORMAL | given)


def test_sirs_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 51: T 37 °C (no), HR 95 (> 90), RR 25 (> 20),
    # WBC 13,500/mm³ = 13.5 ×10⁹/L (> 12) → 3 criteria (its worked answer: 3)
    result = _sirs(temperature=37, heart_rate=95, respiratory_rate=25, wbc={"value": 13.5, "unit": "10^3/mm3"})
    assert (result.value, result.unit, result.category) == (3, "criteria", "SIRS")


def test_sirs_worked_examples_by_hand() -> None:
    # Computed by hand from Bone 1992 p. 1645: T 38.5 °C and HR 100 → 2 → SIRS
    assert (_sirs(temperature=38.5, heart_rate=100).value, _sirs(temperature=38.5, heart_rate=100).category) == (
        2,
        "SIRS",
    )
    # hypothermia 35.5 alone → 1, criteria not met
    one = _sirs(temperature=35.5)
    assert (one.value, one.category) == (1, "SIRS criteria not met")
    # all four: T 39, HR 120, PaCO2 28, bands 15 %
    assert _sirs(temperature=39, heart_rate=120, paco2=28, band_forms=15).value == 4


@pytest.mark.parametrize(
    ("given", "count"),
    [
        ({"temperature": 38.0}, 0),
        ({"temperature": 38.1}, 1),
        ({"temperature": 36.0}, 0),
        ({"temperature": 35.9}, 1),
        ({"heart_rate": 90}, 0),
        ({"heart_rate": 91}, 1),
        ({"respiratory_rate": 20}, 0),
        ({"respiratory_rate": 21}, 1),
        ({"paco2": 32}, 0),
        ({"paco2": 31.9}, 1),
        ({"respiratory_rate": 24, "paco2": 30}, 1),  # one criterion, however many of its parts
        ({"wbc": 12}, 0),
        ({"wbc": 12.1}, 1),
        ({"wbc": 4}, 0),
        ({"wbc": 3.9}, 1),
        ({"band_forms": 10}, 0),
        ({"band_forms": 11}, 1),
    ],
)
def test_sirs_each_threshold(given: dict[str, Any], count: int) -> None:
    assert _sirs(**given).value == count


def test_sirs_optional_parts_warn_when_absent() -> None:
    result = _sirs()
    assert any("PaCO2" in w for w in result.warnings)
    assert any("band" in w for w in result.warnings)
    assert not any("PaCO2" in w for w in _sirs(respiratory_rate=24).warnings)


def test_sirs_unit_conversions() -> None:
    # 100.4 °F = 38.0 °C exactly: not > 38; 101 °F = 38.3 °C: > 38; PaCO2 4 kPa = 30 mmHg: < 32
    assert _sirs(temperature={"value": 100.4, "unit": "°F"}).value == 0
    assert _sirs(temperature={"value": 101, "unit": "°F"}).value == 1
    assert _sirs(paco2={"value": 4, "unit": "kPa"}).value == 1


def test_sirs_refusal_and_missing() -> None:
    with pytest.raises(ValidationError, match="temperature"):
        _sirs(temperature=55)
    asked = evaluate(calculator("sirs"), {"temperature": 38.5})
    assert [m.input for m in asked.missing] == ["heart_rate", "respiratory_rate", "wbc"]
