"""CKD-EPI 2021, MDRD and FENa against their published equations, KDIGO categories and a dev note each."""

from __future__ import annotations

import json
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


def _run(calc_id: str, **given: Any) -> CalcResult:
    return evaluate(calculator(calc_id), given)


# --- CKD-EPI 2021 -----------------------------------------------------------------------------------


def test_ckd_epi_2021_worked_examples() -> None:
    # computed by hand from the Inker 2021 NEJM equation: 142 x min(Scr/k,1)^a x max(Scr/k,1)^-1.200
    # x 0.9938^age x 1.012 (female); 0.9938^50 = 0.73275
    # female 50 y, Scr 0.7 = k: 142 x 0.73275 x 1.012 = 105.3 -> 105 (G1)
    result = _run("ckd_epi_2021", age=50, sex="female", creatinine=0.7)
    assert (result.value, result.unit, result.category) == (105, "mL/min/1.73 m²", "G1")
    # female 50 y, Scr 1.0: (1.0/0.7)^-1.2 = 0.6518 -> 68.6 -> 69 (G2)
    assert _run("ckd_epi_2021", age=50, sex="female", creatinine=1.0).value == 69
    # female 30 y, Scr 0.5 < k: (0.5/0.7)^-0.241 = 1.0845; 0.9938^30 = 0.8297 -> 129.3 -> 129
    assert _run("ckd_epi_2021", age=30, sex="female", creatinine=0.5).value == 129
    # male 60 y, Scr 0.9 = k: 142 x 0.9938^60 (0.6886) = 97.8 -> 98; Scr 1.2: (1.2/0.9)^-1.2 = 0.7080 -> 69.2 -> 69
    assert _run("ckd_epi_2021", age=60, sex="male", creatinine=0.9).value == 98
    assert _run("ckd_epi_2021", age=60, sex="male", creatinine=1.2).value == 69


def test_ckd_epi_2021_si_creatinine() -> None:
    # 106 µmol/L / 88.4 = 1.199 mg/dL; male 60 y -> 69.3 -> 69
    result = _run("ckd_epi_2021", age=60, sex="male", creatinine={"value": 106, "unit": "µmol/L"})
    assert result.value == 69
    assert result.conversions == ["Serum creatinine: 106 µmol/L = 1.199 mg/dL"]


def test_ckd_epi_2021_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 3: male 81 y, creatinine 1.7 mg/dL;
    # 142 x (1.7/0.9)^-1.2 x 0.9938^81 = 40.0 (its worked answer: 40.0) -> G3b
    note = _dev_note(3)
    params = note["input_parameters"]
    result = _run(
        "ckd_epi_2021",
        age=params["age"][0],
        sex=params["sex"].lower(),
        creatinine={"value": params["creatinine"][0], "unit": params["creatinine"][1]},
    )
    assert result.value == round(note["worked_answer"]["answer"]) == 40
    assert result.category == "G3b"


def _male_creatinine_for(egfr: float, age: float = 50) -> float:
    """The creatinine (> 0.9 mg/dL) at which a man of ``age`` has CKD-EPI 2021 eGFR ``egfr``."""
    return 0.9 * (egfr / (142 * 0.9938**age)) ** (-1 / 1.200)


@pytest.mark.parametrize(
    ("egfr", "category"),
    [(90, "G1"), (89.4, "G2"), (60, "G2"), (59.4, "G3a"), (45, "G3a"), (44.4, "G3b"), (30, "G3b"),
     (29.4, "G4"), (15, "G4"), (14.4, "G5")],
)  # fmt: skip
def test_ckd_epi_2021_kdigo_thresholds(egfr: float, category: str) -> None:
    # KDIGO 2012 Table 5: G1 >= 90, G2 60-89, G3a 45-59, G3b 30-44, G4 15-29, G5 < 15 (on the eGFR shown)
    result = _run("ckd_epi_2021", age=50, sex="male", creatinine=_male_creatinine_for(egfr))
    assert result.value == round(egfr)
    assert result.category == category


def test_ckd_epi_2021_refuses_impossible_and_lists_missing() -> None:
    with pytest.raises(ValidationError, match="not plausible"):
        _run("ckd_epi_2021", age=50, sex="male", creatinine=40)
    with pytest.raises(ValidationError, match="not plausible"):
        _run("ckd_epi_2021", age=150, sex="male", creatinine=1.0)
    result = _run("ckd_epi_2021", age=50)
    assert result.status == "needs_more_info"
    assert [m.input for m in result.missing] == ["sex", "creatinine"]


# --- MDRD -------------------------------------------------------------------------------------------


def test_mdrd_worked_examples() -> None:
    # computed by hand from Levey 2006 (Ann Intern Med 145:247): 175 x Scr^-1.154 x age^-0.203 x 0.742 (F)
    # male 50 y, Scr 1.0: 175 x 50^-0.203 (0.45197) = 79.1 -> 79 (G2), above 60 so the '> 60' warning
    result = _run("mdrd", age=50, sex="male", creatinine=1.0)
    assert (result.value, result.category) == (79, "G2")
    assert any("> 60" in warning for warning in result.warnings)
    assert result.conventions == {"race_coefficient": "none (default)"}
    # female 60 y, Scr 2.0: 175 x 2^-1.154 (0.4492) x 60^-0.203 (0.4355) x 0.742 = 25.4 -> 25 (G4)
    result = _run("mdrd", age=60, sex="female", creatinine=2.0)
    assert (result.value, result.category) == (25, "G4")
    assert not any("> 60" in warning for warning in result.warnings)


def test_mdrd_race_coefficient_is_explicit_and_warned() -> None:
    # 25.41 x 1.212 = 30.8 -> 31 (G3b), only when asked for, with the race-free recommendation
    result = _run("mdrd", age=60, sex="female", creatinine=2.0, race_coefficient="black")
    assert (result.value, result.category) == (31, "G3b")
    assert result.conventions == {"race_coefficient": "black"}
    assert any("ckd_epi_2021" in warning for warning in result.warnings)
    default = _run("mdrd", age=60, sex="female", creatinine=2.0)
    assert not any("ckd_epi_2021" in warning for warning in default.warnings)
    with pytest.raises(ValidationError, match="not an option"):
        _run("mdrd", age=60, sex="female", creatinine=2.0, race_coefficient="white")


def test_mdrd_si_creatinine() -> None:
    # 177 µmol/L = 2.002 mg/dL; female 60 y -> 25.4 -> 25
    result = _run("mdrd", age=60, sex="female", creatinine={"value": 177, "unit": "µmol/L"})
    assert result.value == 25
    assert result.conversions == ["Serum creatinine: 177 µmol/L = 2.002 mg/dL"]


def test_mdrd_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 9: female 85 y, creatinine 1.36 mg/dL, race not given;
    # 175 x 1.36^-1.154 x 85^-0.203 x 0.742 = 36.954 (its worked answer) -> 37 (G3b)
    note = _dev_note(9)
    params = note["input_parameters"]
    result = _run(
        "mdrd",
        age=params["age"][0],
        sex=params["sex"].lower(),
        creatinine={"value": params["creatinine"][0], "unit": params["creatinine"][1]},
    )
    assert note["worked_answer"]["answer"] == pytest.approx(36.954)
    assert result.value == round(note["worked_answer"]["answer"]) == 37
    assert result.category == "G3b"


@pytest.mark.parametrize(("egfr", "category"), [(60, "G2"), (59.4, "G3a"), (30, "G3b"), (29.4, "G4"), (15, "G4")])
def test_mdrd_kdigo_thresholds(egfr: float, category: str) -> None:
    # the creatinine giving this eGFR for a man of 50: (eGFR / (175 x 50^-0.203))^(-1/1.154)
    creatinine = (egfr / (175 * 50**-0.203)) ** (-1 / 1.154)
    result = _run("mdrd", age=50, sex="male", creatinine=creatinine)
    assert (result.value, result.category) == (round(egfr), category)


def test_mdrd_refuses_impossible_and_lists_missing() -> None:
    with pytest.raises(ValidationError, match="not plausible"):
        _run("mdrd", age=50, sex="male", creatinine={"value": 5000, "unit": "µmol/L"})
    result = _run("mdrd", sex="male")
    assert [m.input for m in result.missing] == ["age", "creatinine"]  # the race coefficient has a default


# --- FENa -------------------------------------------------------------------------------------------


def test_fena_worked_examples() -> None:
    # computed by hand from Espinel 1976 (JAMA 236:579): (UNa x PCr) / (PNa x UCr) x 100
    # UNa 20, PCr 2.0, PNa 140, UCr 100: 40 / 14000 x 100 = 0.286 -> 0.29 % (prerenal)
    result = _run("fena", sodium=140, creatinine=2.0, urine_sodium=20, urine_creatinine=100)
    assert (result.value, result.unit, result.category) == (0.29, "%", "prerenal")
    # UNa 60, PCr 3.0, PNa 135, UCr 40: 180 / 5400 x 100 = 3.33 % (intrinsic)
    result = _run("fena", sodium=135, creatinine=3.0, urine_sodium=60, urine_creatinine=40)
    assert (result.value, result.category) == (3.33, "intrinsic")


def test_fena_creatinine_units_cancel_when_converted() -> None:
    # serum creatinine 176.8 µmol/L = 2.0 mg/dL; urine creatinine 8.84 mmol/L = 100 mg/dL -> 0.29 % as above
    si = _run(
        "fena",
        sodium={"value": 140, "unit": "mEq/L"},
        creatinine={"value": 176.8, "unit": "µmol/L"},
        urine_sodium={"value": 20, "unit": "mEq/L"},
        urine_creatinine={"value": 8.84, "unit": "mmol/L"},
    )
    assert si.value == 0.29
    assert "Urine creatinine: 8.84 mmol/L = 100 mg/dL" in si.conversions
    # urine creatinine in µmol/L (8840 µmol/L = 100 mg/dL) with serum creatinine in mg/dL
    mixed = _run(
        "fena", sodium=140, creatinine=2.0, urine_sodium=20, urine_creatinine={"value": 8840, "unit": "µmol/L"}
    )
    assert mixed.value == 0.29


@pytest.mark.parametrize(
    ("urine_sodium", "value", "category"),
    [(99, 0.99, "prerenal"), (100, 1.0, "indeterminate"), (200, 2.0, "indeterminate"), (201, 2.01, "intrinsic")],
)
def test_fena_thresholds(urine_sodium: float, value: float, category: str) -> None:
    # PCr 1.4, PNa 140, UCr 100: FENa = UNa / 100 %; < 1 prerenal, 1-2 indeterminate, > 2 intrinsic
    result = _run("fena", sodium=140, creatinine=1.4, urine_sodium=urine_sodium, urine_creatinine=100)
    assert (result.value, result.category) == (value, category)


def test_fena_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 40: Na 197, Cr 1.56, urine Na 12, urine Cr 128.1;
    # 100 x (1.56 x 12) / (197 x 128.1) = 0.074 % (its worked answer) -> 0.07 % prerenal
    note = _dev_note(40)
    params = note["input_parameters"]
    result = _run(
        "fena",
        **{key: {"value": value, "unit": unit} for key, (value, unit) in params.items()},
    )
    assert result.value == round(note["worked_answer"]["answer"], 2) == 0.07
    assert result.category == "prerenal"


def test_fena_refuses_impossible_and_lists_missing() -> None:
    with pytest.raises(ValidationError, match="not plausible"):
        _run("fena", sodium=300, creatinine=1.0, urine_sodium=20, urine_creatinine=100)
    with pytest.raises(ValidationError, match="not plausible"):
        _run("fena", sodium=140, creatinine=1.0, urine_sodium=20, urine_creatinine=5000)
    result = _run("fena", sodium=140, creatinine=1.0)
    assert result.status == "needs_more_info"
    assert [m.input for m in result.missing] == ["urine_sodium", "urine_creatinine"]
