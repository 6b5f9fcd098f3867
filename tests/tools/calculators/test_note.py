"""Calculator inputs read from a note (issue #15, "From a note"): numbers by parsing, criteria by a model.

Most notes below are sentences of the MedCalc-Bench one-shot development notes
(../shared/data/calc/medcalc-oneshot-dev.json), quoted with the calculator id they belong to.
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import date
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from curbside.cli import cli
from curbside.errors import UpstreamError
from curbside.llm.endpoints import ModelRouter
from curbside.settings import Settings
from curbside.tools import ToolExecutor, ToolRegistry
from curbside.tools.calculators import MAX_NOTE_CHARS, CalculatorDeps, args_model, register
from curbside.tools.calculators.catalog import calculator
from curbside.tools.calculators.kit import CalcResult, Calculator, Choice, Criterion, Day, Given, Number, Outcome
from curbside.tools.calculators.note import evaluate_note, parse_note
from curbside.tools.calculators.note_model import (
    NO_MODEL,
    ChatJsonModel,
    NoteModel,
    item_schema,
    note_model_for,
)
from curbside.types import ToolCaller


def _zero(given: Given) -> Outcome:
    return Outcome(0, "points")


def _calc(*inputs: Any) -> Calculator:
    """A calculator of the given inputs, for what the parser reads (its formula is beside the point)."""
    return Calculator(
        id="probe", title="Probe", summary="reads inputs", formula="none", citation="none", inputs=inputs, compute=_zero
    )


VITALS = _calc(
    Number("age", "Age", "age", 0, 120),
    Choice("sex", "Sex", {"male": 0, "female": 0}),
    Number("sys_bp", "Systolic blood pressure", "pressure", 30, 300),
    Number("dia_bp", "Diastolic blood pressure", "pressure", 10, 200),
    Number("heart_rate", "Heart rate", "rate", 20, 300),
    Number("respiratory_rate", "Respiratory rate", "rate", 2, 80),
    Number("temperature", "Temperature", "temperature", 25, 45),
    Number("weight", "Weight", "weight", 0.5, 500),
    Number("height", "Height", "height", 30, 272),
)
LABS = _calc(
    Number("creatinine", "Serum creatinine", "creatinine", 0.1, 25, aliases=("creatinine", "Cr", "SCr")),
    Number("sodium", "Sodium", "electrolyte", 90, 200),
    Number("chloride", "Chloride", "electrolyte", 50, 150),
    Number("bicarbonate", "Bicarbonate", "electrolyte", 1, 60),
    Number("bun", "Blood urea nitrogen", "bun", 1, 300),
    Number("glucose", "Glucose", "glucose", 10, 2000),
    Number("albumin", "Albumin", "albumin", 0.5, 7),
    Number("platelets", "Platelet count", "platelets", 1, 2000),
    Number("wbc", "White blood cell count", "wbc", 0.1, 500),
    Number("insulin", "Fasting insulin", "insulin", 0.5, 500),
    Number("fio2", "FiO2", "fio2", 0.21, 1),
    Number("gcs", "Glasgow Coma Scale", "count", 3, 15),
)
URINE = _calc(
    Number("creatinine", "Serum creatinine", "creatinine", 0.1, 25),
    Number("sodium", "Serum sodium", "electrolyte", 90, 200),
    Number("urine_sodium", "Urine sodium", "electrolyte", 1, 400),
    Number("urine_creatinine", "Urine creatinine", "creatinine", 1, 1000),
)
PREGNANCY = _calc(
    Day("lmp", "First day of the last menstrual period"),
    Day("today", "Current date"),
    Number("cycle_length", "Cycle length", "days", 20, 45),
)


def _values(calc: Calculator, note: str) -> dict[str, Any]:
    return {key: found.argument for key, found in parse_note(calc, note).found.items()}


def _q(value: float, unit: str) -> dict[str, Any]:
    return {"value": value, "unit": unit}


# --- numbers from the dev notes -------------------------------------------------------------------------


def test_creatinine_age_and_sex_from_the_ckd_epi_note() -> None:
    # calculator 3: the value sits in parentheses with its reference range, which is skipped
    note = (
        "An 81-year-old male presented to our emergency department (ED) with painless post-prandial epigastric "
        "discomfort for five days. Apart from elevated blood urea nitrogen (55.5 mg/dL, 9.0–23.0 mg/L) and "
        "creatinine (1.7 mg/dL, 0.7–1.3 mg/dL) levels, his blood tests were within normal ranges."
    )
    reading = parse_note(calculator("cockcroft_gault"), note)
    assert {k: f.argument for k, f in reading.found.items()} == {
        "age": 81.0,
        "sex": "male",
        "creatinine": _q(1.7, "mg/dL"),
    }
    creatinine = reading.found["creatinine"]
    assert (creatinine.value, creatinine.unit, creatinine.method) == (1.7, "mg/dL", "parsed")
    assert creatinine.text == "creatinine (1.7 mg/dL"
    assert creatinine.sentence.startswith("Apart from elevated blood urea nitrogen")
    assert reading.found["sex"].text == "81-year-old male"


def test_bmi_from_a_note_sentence() -> None:
    # calculator 6: "On admission, the patient was 182 cm tall and weighed 68 kg." -> 68 / 1.82² = 20.5
    note = "A 22-year-old Chinese man. On admission, the patient was 182 cm tall and weighed 68 kg."
    result = asyncio.run(evaluate_note(calculator("bmi"), note, {}))
    assert (result.status, result.value) == ("complete", 20.5)
    assert [(e["input"], e["value"], e["unit"]) for e in result.extracted] == [
        ("weight", 68, "kg"),
        ("height", 182, "cm"),
    ]
    assert all(
        e["sentence"] == "On admission, the patient was 182 cm tall and weighed 68 kg." for e in result.extracted
    )


def test_blood_pressure_pairs_rates_and_temperatures() -> None:
    # calculator 7: two names, then two values with their units
    note = "On arrival the patient's BP was 130/70 mm Hg, and her heart rate and temperature were 88 bpm and 37.6 °C, respectively."
    assert _values(VITALS, note) == {
        "sys_bp": _q(130, "mmHg"),
        "dia_bp": _q(70, "mmHg"),
        "heart_rate": _q(88, "/min"),
        "temperature": _q(37.6, "°C"),
    }
    # calculator 45: a pair with no unit; "38.3° Celsius"; "breaths per minute"
    note = (
        "The patient was a 72-year-old Caucasian male. Vital signs on arrival included a temperature of 38.3° Celsius, "
        "a heart rate of 92 beats per minute, respiratory rate of 30 breaths per minute, blood pressure of 144/65, "
        "and an oxygen saturation of 97% on 15 liters of supplemental oxygen via non-rebreather."
    )
    values = _values(VITALS, note)
    assert (values["sys_bp"], values["dia_bp"]) == (144, 65)
    assert values["respiratory_rate"] == _q(30, "/min")
    assert values["heart_rate"] == _q(92, "/min")
    assert values["temperature"] == _q(38.3, "°C")
    assert (values["age"], values["sex"]) == (72, "male")
    # calculators 5 and 26: "37.5℃", "36.3oC"; 130 beats per minute known by its unit alone
    assert _values(VITALS, "He had subfebrile fever of 37.5℃ and blood pressure of 110/70 mmHg.")["temperature"] == _q(
        37.5, "°C"
    )
    assert _values(VITALS, "Blood pressure was 80/56 mmHg, heart rate 121/min, and body temperature 36.3oC.") == {
        "sys_bp": _q(80, "mmHg"),
        "dia_bp": _q(56, "mmHg"),
        "heart_rate": _q(121, "/min"),
        "temperature": _q(36.3, "°C"),
    }
    assert _values(VITALS, "the patient developed tachycardia (130 beats per minute)")["heart_rate"] == _q(130, "/min")


def test_a_fetal_heart_rate_is_not_the_patients() -> None:
    # calculator 8: "... pulse was 150 beats per minute ..." then the fetus's 70 beats per minute
    note = (
        "The systolic blood pressure was 60 mmHg as determined by palpation, pulse was 150 beats per minute, and body "
        "temperature was 38.2°C. An ultrasound study of the abdomen showed a singleton fetus with a fetal heart rate "
        "of 70 beats per minute and free peritoneal fluid."
    )
    values = _values(VITALS, note)
    assert values["heart_rate"] == _q(150, "/min")
    assert values["sys_bp"] == _q(60, "mmHg")
    assert "dia_bp" not in values  # a lone systolic value gives no diastolic one
    assert _values(VITALS, "A fetal heart rate of 70 beats per minute was recorded.") == {}


def test_laboratory_lists_one_per_line() -> None:
    # calculator 30: "Serum:\nNa+: 137 mEq/L\nCl-: 100 mEq/L ..."
    note = (
        "Leukocyte count: 16,000/mm^3 with normal differential\nPlatelet count: 190,000/mm^3\n\nSerum:\n"
        "Na+: 137 mEq/L\nCl-: 100 mEq/L\nK+: 3.7 mEq/L\nHCO3-: 23 mEq/L\nBUN: 40 mg/dL\nGlucose: 110 mg/dL\n"
        "Creatinine: 0.8 mg/dL\nCa2+: 9.1 mg/dL"
    )
    reading = parse_note(LABS, note)
    assert {k: f.argument for k, f in reading.found.items()} == {
        "creatinine": _q(0.8, "mg/dL"),
        "sodium": _q(137, "mEq/L"),
        "chloride": _q(100, "mEq/L"),
        "bicarbonate": _q(23, "mEq/L"),
        "bun": _q(40, "mg/dL"),
        "glucose": _q(110, "mg/dL"),
        "platelets": _q(190, "10^3/uL"),  # 190,000 per mm³ = 190 ×10⁹/L
        "wbc": _q(16, "10^3/uL"),
    }
    assert reading.found["sodium"].sentence == "Na+: 137 mEq/L"
    assert reading.found["platelets"].note == "190,000 per µL = 190 ×10⁹/L"


def test_cell_counts_in_each_way_they_are_written() -> None:
    # calculator 19 (reference range skipped), 38 ("× 109/L" is ×10⁹/L), 45 ("x109/L"), 28 ("count/µL")
    assert _values(LABS, "platelet, 181,000 cells/mcL (reference range, 150,000–450,000 cells/mcL)") == {
        "platelets": _q(181, "10^3/uL")
    }
    note = "the patient had a normal white blood cell (WBC) of 6.6 × 109/L and platelets of 167 × 109/L."
    assert _values(LABS, note) == {"wbc": _q(6.6, "10^9/L"), "platelets": _q(167, "10^9/L")}
    assert _values(LABS, "a white blood cell (WBC) count of 19.75 x109/L")["wbc"] == _q(19.75, "10^9/L")
    assert _values(LABS, "white blood cell count of 15,402 count/µL indicating leukocytosis")["wbc"] == _q(
        15.402, "10^3/uL"
    )


def test_values_written_after_their_name_and_scores() -> None:
    # calculator 28: "... (PaO₂) of 65 mmHg on 35 % FiO₂. ... with a GCS of 15."
    note = "his arterial blood gas shows a pH of 7.29 and a partial pressure of oxygen (PaO₂) of 65 mmHg on 35 % FiO₂. On the physical exam he is alert and oriented, with a GCS of 15."
    values = _values(LABS, note)
    assert values["fio2"] == _q(35, "%")
    assert values["gcs"] == 15


def test_urine_values_are_not_the_serum_ones() -> None:
    # calculator 40 (FENa)
    note = (
        "Initial blood laboratory test results showed a sodium level of 197mEq/L (range, 135-146mEq/L), creatinine "
        "level of 1.56mg/dL (range, 0.67-1.17mg/dL). Urinalysis showed a specific gravity of 1.030, osmolality of "
        "885mOsm/kgH2O, urine sodium level of 12.0mEq/L, and urine creatinine level of 128.1mg/dL."
    )
    assert _values(URINE, note) == {
        "creatinine": _q(1.56, "mg/dL"),
        "sodium": _q(197, "mEq/L"),
        "urine_sodium": _q(12.0, "mEq/L"),
        "urine_creatinine": _q(128.1, "mg/dL"),
    }
    assert _values(URINE, "urine sodium level of 12.0mEq/L") == {"urine_sodium": _q(12.0, "mEq/L")}


def test_a_weight_loss_is_not_a_weight() -> None:
    # calculator 38: "He had poor appetite and weight loss of 22 kg." — MedCalc's input_parameters give weight
    # 22 kg from this sentence, which is a loss, not the patient's weight: nothing is read
    assert "weight" not in _values(VITALS, "He had poor appetite and weight loss of 22 kg.")
    # calculator 62: "(160 cm, 78 kg)" is the patient; "loosing 40 kg weight afterward" is not
    note = (
        "A 47-year-old female (body mass index, 30.5 kg/m2 (160 cm, 78 kg)) presented with acute pain in the upper "
        "abdomen after gastric bypass and cholecystectomy 9 years earlier and loosing 40 kg weight afterward."
    )
    values = _values(VITALS, note)
    assert (values["weight"], values["height"], values["sex"]) == (_q(78, "kg"), _q(160, "cm"), "female")


# inputs declared the way the library's modules declare them: aliases a note uses, some of them generic
DECLARED = _calc(
    Number(
        "systolic_bp",
        "Systolic blood pressure",
        "pressure",
        30,
        300,
        aliases=("systolic", "SBP", "blood pressure", "BP"),
    ),
    Number(
        "diastolic_bp",
        "Diastolic blood pressure",
        "pressure",
        10,
        200,
        aliases=("diastolic", "DBP", "blood pressure", "BP"),
    ),
    Number("respiratory_rate", "Respiratory rate", "rate", 0, 100, aliases=("respiratory rate", "RR", "breaths")),
    Number("heart_rate", "Heart rate", "rate", 10, 300, aliases=("heart rate", "HR", "pulse", "P")),
    Number(
        "total_cholesterol",
        "Total cholesterol",
        "cholesterol",
        40,
        1000,
        aliases=("total cholesterol", "TC", "cholesterol"),
    ),
    Number("hdl_cholesterol", "HDL cholesterol", "cholesterol", 5, 200, aliases=("HDL", "HDL-C", "HDL cholesterol")),
    Number(
        "urine_sodium",
        "Urine sodium",
        "electrolyte",
        1,
        400,
        aliases=("urine sodium", "urinary sodium", "urine Na", "UNa"),
    ),
    Number("oxymorphone_dose", "Oxymorphone dose", "dose_mg", 0.1, 200, aliases=("oxymorphone",)),
    Number("target_bmi", "Target BMI", "bmi", 12, 60, aliases=("target BMI", "goal BMI")),
    Number("albumin", "Serum albumin", "albumin", 0.5, 7, aliases=("albumin", "Alb")),
    Number("normal_albumin", "Normal albumin", "albumin", 3, 5.5, required=False, aliases=("normal albumin",)),
)


def test_inputs_with_the_librarys_kind_of_aliases() -> None:
    # a generic "BP" alias gives a pair only: one number after it is neither pressure for sure
    assert _values(DECLARED, "BP 120 on arrival.") == {}
    assert _values(DECLARED, "BP 120/80.") == {"systolic_bp": 120, "diastolic_bp": 80}
    assert _values(DECLARED, "Her systolic blood pressure measurement was 165 mmHg.") == {
        "systolic_bp": _q(165, "mmHg")
    }
    # "breaths" is a name and a unit: 25 is the respiratory rate, 110 is not
    values = _values(DECLARED, "Vitals: 25 breaths per minute, 110 beats per minute.")
    assert values == {"respiratory_rate": _q(25, "/min"), "heart_rate": _q(110, "/min")}
    # calculator 46: "cholesterol 199 mg/dl, LDL-cholesterol 110 mg/dl, HDL-cholesterol 76 mg/dl, TG 112 mg/dl"
    note = "the mean biochemical values were: cholesterol 199 mg/dl, LDL-cholesterol 110 mg/dl, HDL-cholesterol 76 mg/dl, TG 112 mg/dl"
    assert _values(DECLARED, note) == {"total_cholesterol": _q(199, "mg/dL"), "hdl_cholesterol": _q(76, "mg/dL")}
    # calculator 40: either of the label's own qualifiers will do
    assert _values(DECLARED, "urinary sodium was 12 mmol/L") == {"urine_sodium": _q(12, "mmol/L")}
    # calculator 49: "The patient takes 10 mg of OxyMORphone 1 time a day, 20 mg of FentaNYL buccal 1 time a day"
    note = "The patient takes 10 mg of OxyMORphone 1 time a day, 20 mg of FentaNYL buccal 1 time a day."
    assert _values(DECLARED, note) == {"oxymorphone_dose": _q(10, "mg")}
    # calculator 61: "Patient has a height of 72 in and their target BMI is 23.2 kg/m^2."
    assert _values(DECLARED, "Patient has a height of 72 in and their target BMI is 23.2 kg/m^2.") == {
        "target_bmi": _q(23.2, "kg/m²")
    }
    # calculator 7: "Albumin level was 33 g/L and calcium level 8.4 mg/dL." — the patient's, not the normal albumin
    assert _values(DECLARED, "Albumin level was 33 g/L and calcium level 8.4 mg/dL.") == {"albumin": _q(33, "g/L")}
    assert _values(DECLARED, "a BMI of 25.4 kg/m2") == {}  # a BMI is not a target BMI


def test_heights_in_feet_and_inches() -> None:
    for note in ("He is 5'10\" and weighs 176 lb.", "He is 5 ft 10 in tall and weighs 176 lbs.", "height 5'10''"):
        reading = parse_note(VITALS, note)
        assert reading.found["height"].argument == _q(70, "in"), note
        assert reading.found["height"].note == f"{reading.found['height'].value} = 70 in"
    assert _values(VITALS, "He is 5'10\" and weighs 176 lb.")["weight"] == _q(176, "lb")
    # calculator 61: "Patient has a height of 72 in and their target BMI is 23.2 kg/m^2."
    assert _values(VITALS, "Patient has a height of 72 in and their target BMI is 23.2 kg/m^2.") == {
        "height": _q(72, "in")
    }
    # a lesion is no height
    assert _values(VITALS, "a lobulated, 9 cm × 7 cm × 7-cm lesion with cavitation") == {}


def test_unit_forms_are_converted_by_the_calculator() -> None:
    note = "A 72-year-old woman, 128 lb. Creatinine 110 µmol/L; sodium 139 mmol/L."
    result = asyncio.run(evaluate_note(calculator("cockcroft_gault"), note, {}))
    # 128 lb = 58.06 kg; 110 µmol/L = 1.244 mg/dL; (140 - 72) x 58.06 / (72 x 1.244) x 0.85 = 37.5 -> 37
    assert result.status == "complete" and result.value == 37
    assert result.conversions == ["Weight: 128 lb = 58.06 kg", "Serum creatinine: 110 µmol/L = 1.244 mg/dL"]
    temperature = _values(VITALS, "temperature is 102°F (38.9°C)")["temperature"]
    assert temperature == _q(102, "°F")  # the first written; the other is the same temperature, not another value
    assert parse_note(VITALS, "temperature is 102°F (38.9°C)").warnings == []
    assert _values(LABS, "insulin level of 21 pmol/l (12–96 pmol/l for a fasting sample)")["insulin"] == _q(
        21, "pmol/L"
    )


def test_reference_ranges_and_limits_are_skipped() -> None:
    assert _values(LABS, "Creatinine (normal range, 0.6 to 1.2 mg/dL) 3.4 mg/dL") == {"creatinine": _q(3.4, "mg/dL")}
    assert _values(LABS, "creatinine (reference: < 1.1 mg/dL) was 2.0 mg/dL") == {"creatinine": _q(2.0, "mg/dL")}
    assert _values(LABS, "Creatinine 0.7–1.3 mg/dL is the laboratory's range.") == {}
    # calculator 45: "a serum creatinine of 1.69 mg/dL (baseline: 1.4 mg/dL)"
    reading = parse_note(
        LABS, "Renal function was diminished with a serum creatinine of 1.69 mg/dL (baseline: 1.4 mg/dL)."
    )
    assert reading.found["creatinine"].argument == _q(1.69, "mg/dL") and reading.warnings == []
    # calculator 31: "His glucose value was 97.3 mg/dl (<144.1 mmol/l)"
    assert _values(LABS, "His glucose value was 97.3 mg/dl (<144.1 mmol/l)") == {"glucose": _q(97.3, "mg/dL")}


def test_implausible_values_are_refused_and_said() -> None:
    # calculator 26: "... creatinine 123.8 mg/dL ..." is the urine's value in a list under "urine osmolarity"
    reading = parse_note(LABS, "urine osmolarity 341 mOsm/kg, creatinine 123.8 mg/dL, myoglobin 51.7.")
    assert "creatinine" not in reading.found
    assert reading.warnings == [
        "Serum creatinine: 123.8 mg/dL in the note is outside the plausible 0.1–25 mg/dL; not used"
    ]
    # the next plausible value is used when there is one, and the refusal is still said
    reading = parse_note(LABS, "creatinine 123.8 mg/dL in the urine. Serum creatinine 2.84 mg/dL.")
    assert reading.found["creatinine"].argument == _q(2.84, "mg/dL")
    assert any("123.8 mg/dL" in w and "not used" in w for w in reading.warnings)
    # calculator 43: "a creatinine level of 3.12 mg/L" — mg/L is not a unit creatinine is given in here
    reading = parse_note(LABS, "His laboratory results reveal a creatinine level of 3.12 mg/L.")
    assert "creatinine" not in reading.found
    assert reading.warnings == [
        "Serum creatinine: 3.12 mg/L in the note has a unit that is not one of mg/dL, µmol/L, mmol/L; not used"
    ]
    # an adult-only calculator refuses a child's age
    reading = parse_note(calculator("cockcroft_gault"), "A 13-year-old boy was admitted.")
    assert "age" not in reading.found
    assert reading.warnings[0].startswith("Age: 13-year-old in the note is outside the plausible 18–120 years")


def test_several_values_the_first_is_used_the_others_listed() -> None:
    # calculator 7: the creatinine of November, then those of January and after
    note = (
        "The treatment started in November 2015, when serum creatinine concentration was 0.77 mg/dL. In January, the "
        "laboratory testing measured a serum creatinine concentration of 2.8 mg/dL."
    )
    reading = parse_note(LABS, note)
    assert reading.found["creatinine"].argument == _q(0.77, "mg/dL")
    assert reading.warnings == [
        "Serum creatinine: the note gives other values too (2.8 mg/dL); the first, 0.77 mg/dL, was used — give "
        "creatinine=… to use another"
    ]


def test_no_unit_written_is_read_in_the_canonical_unit_and_said() -> None:
    # calculator 32: "Her creatinine is 0.8 with no signs of kidney dysfunction."
    found = parse_note(LABS, "Her creatinine is 0.8 with no signs of kidney dysfunction.").found["creatinine"]
    assert (found.argument, found.unit, found.note) == (0.8, None, "no unit written; read as mg/dL")


def test_dates_and_an_ambiguous_one() -> None:
    # calculator 69: "The patient's last menstrual period was on 12/23/2020. Today's date is 08/21/2021."
    reading = parse_note(
        PREGNANCY, "The patient's last menstrual period was on 12/23/2020. Today's date is 08/21/2021."
    )
    assert {k: f.argument for k, f in reading.found.items()} == {"lmp": date(2020, 12, 23), "today": date(2021, 8, 21)}
    assert reading.found["lmp"].note == "12/23/2020 read as 2020-12-23"
    # calculator 68: "... was on 01/07/2017. Her cycle length is 29 days." — 7 January or 1 July: not guessed
    reading = parse_note(
        PREGNANCY, "The patient's last menstrual period was on 01/07/2017. Her cycle length is 29 days."
    )
    assert {k: f.argument for k, f in reading.found.items()} == {"cycle_length": _q(29, "days")}
    assert reading.warnings == [
        "First day of the last menstrual period: '01/07/2017' could be day/month or month/day; give the date as "
        "YYYY-MM-DD; not used"
    ]
    assert _values(PREGNANCY, "LMP 2017-01-07; seen today, March 3, 2017.") == {
        "lmp": date(2017, 1, 7),
        "today": date(2017, 3, 3),
    }


def test_sex_from_the_words_beside_the_age() -> None:
    assert _values(VITALS, "An 85-year-old menopausal woman was referred.") == {"age": 85, "sex": "female"}
    assert _values(VITALS, "A 35-year-old, 157 cm, 52 kg, woman was hospitalized.")["sex"] == "female"
    assert _values(VITALS, "a 6-month-old boy")["age"] == _q(6, "months")
    # her partner is male; she is the patient
    note = "A 29-year-old multiparous female arrived. She was transported by her male partner."
    assert _values(VITALS, note)["sex"] == "female"


def test_parsing_is_linear_in_the_note_length() -> None:
    hostile = [
        "creatinine " * 1800,
        "1/2/3/" * 3300,
        "(" * 19_000,
        "(" * 9_000 + ")" * 9_000,
        "5 ft " * 4000,
        "LMP 2017-01-07 " * 1300,
        "BP 120/80 mmHg (0.7–1.3) " * 790,
        "5'10\" " * 3300,
        "creatinine 1.2 mg/dL, sodium 14 " * 600,
        "LMP 01/07/2017. Today " * 900,
    ]
    for text in hostile:
        text = text[:MAX_NOTE_CHARS]
        started = time.perf_counter()
        parse_note(LABS, text)
        parse_note(VITALS, text)
        parse_note(PREGNANCY, text)
        assert time.perf_counter() - started < 2.0, text[:30]
    with pytest.raises(Exception, match="at most 20,000"):
        parse_note(LABS, "x" * (MAX_NOTE_CHARS + 1))


# --- arguments, criteria, the model -------------------------------------------------------------------------

WELLS_NOTE = (
    # calculator 16, abridged
    "64-years-old male, chronic alcoholic since last 30 years and ex-smoker (9 pack years), presented with a 15 "
    "days history of cough. On admission to hospital, he was normotensive, with a pulse rate of 80/min. Fine "
    "needle aspiration of right supraclavicular lymph node showed Metastatic Non-Small Cell Carcinoma."
)


def test_explicit_arguments_win_over_the_note() -> None:
    note = "A 72-year-old woman. She weighs 58 kg. Creatinine 1.1 mg/dL."
    result = asyncio.run(evaluate_note(calculator("cockcroft_gault"), note, {"weight": 61}))
    assert result.inputs_used["weight"] == 61
    weight = next(e for e in result.extracted if e["input"] == "weight")
    assert (weight["value"], weight["used"], weight["note"]) == (58, False, "the argument given was used instead")
    assert result.value == round((140 - 72) * 61 / (72 * 1.1) * 0.85)


def test_no_model_criteria_stay_missing_and_the_result_says_why() -> None:
    result = asyncio.run(evaluate_note(calculator("wells_dvt"), WELLS_NOTE, {}))
    assert result.status == "needs_more_info"
    assert len(result.missing) == 10 and all(m.kind == "criterion" for m in result.missing)
    assert NO_MODEL == "no model configured: only the yes/no criteria the note states plainly were read"
    assert result.warnings[-1] == NO_MODEL
    # missing="absent" still applies: every criterion absent (listed), nothing read
    absent = asyncio.run(evaluate_note(calculator("wells_dvt"), WELLS_NOTE, {"active_cancer": True}, missing="absent"))
    assert (absent.status, absent.value, len(absent.assumed_absent)) == ("complete", 1, 9)
    # a calculator with no criteria says nothing about a model
    bmi = asyncio.run(evaluate_note(calculator("bmi"), "182 cm tall and weighed 68 kg", {}))
    assert NO_MODEL not in bmi.warnings


class StubModel:
    """A local model answering each item it is asked about (found by its label in the prompt) from a fixed
    reply per input key ("not stated" for the others), keeping what it was sent."""

    name = "local"

    def __init__(self, reply: dict[str, Any] | str, calc: Calculator | None = None) -> None:
        self.reply = reply
        self.labels = {item.key: item.label for item in (calc or calculator("wells_dvt")).inputs}
        self.calls: list[tuple[list[dict[str, str]], dict[str, Any], int]] = []

    async def complete_json(self, messages: list[dict[str, str]], schema: dict[str, Any], *, max_tokens: int) -> str:
        self.calls.append((messages, schema, max_tokens))
        if isinstance(self.reply, str):
            return self.reply
        prompt = messages[-1]["content"]
        for key, answer in self.reply.items():
            if f"Item: {self.labels[key]}" in prompt:
                return json.dumps(answer)
        return json.dumps({"answer": "not stated", "quote": ""})


def test_the_model_reads_criteria_each_kept_only_with_its_quote() -> None:
    note = (
        f"{WELLS_NOTE} The left leg shows pitting oedema to the knee. He denies leg pain. A previous DVT is "
        "mentioned in his referral letter. There is calf asymmetry of 4 cm."
    )
    model = StubModel(
        {
            "active_cancer": {"answer": "yes", "quote": "showed Metastatic Non-Small Cell Carcinoma"},
            "previous_dvt": {"answer": "no", "quote": "no history of deep vein thrombosis"},  # not in the note
            "pitting_edema": {"answer": "yes", "quote": "left leg shows pitting oedema"},
            "calf_swelling_3cm": {"answer": "perhaps", "quote": "x"},
        }
    )
    result = asyncio.run(evaluate_note(calculator("wells_dvt"), note, {}, model=model))
    asked = {m[0][-1]["content"].split("Item: ")[1].split("\n")[0] for m in model.calls}
    # asked one at a time, only what the note mentions
    assert asked == {
        "Active cancer (treatment ongoing, within 6 months, or palliative)",
        "Pitting oedema confined to the symptomatic leg",
        "Previously documented DVT",
        "Calf swelling ≥ 3 cm more than the other side (10 cm below tibial tuberosity)",
        "Alternative diagnosis at least as likely as DVT",  # the sentence naming a DVT is shown for it
    }
    messages, schema, max_tokens = model.calls[0]
    assert WELLS_NOTE not in messages[-1]["content"]  # the sentences that mention it, not the whole note
    assert schema["properties"]["answer"]["enum"] == ["yes", "no", "not stated"] and max_tokens > 0
    by_key = {e["input"]: e for e in result.extracted}
    assert by_key["active_cancer"]["method"] == "model"
    assert by_key["active_cancer"]["value"] == "yes"
    assert by_key["active_cancer"]["sentence"].startswith("Fine needle aspiration")
    assert by_key["pitting_edema"]["value"] == "yes"
    assert set(by_key) == {"active_cancer", "pitting_edema"}
    assert result.status == "needs_more_info"
    assert {m.input for m in result.missing} == {item.key for item in calculator("wells_dvt").inputs} - set(by_key)
    assert any("'no' quoting words that are not in the note" in w for w in result.warnings)
    assert any("'perhaps'" in w for w in result.warnings)
    assert any("read by the local model: check each against its sentence" in w for w in result.warnings)
    scored = asyncio.run(evaluate_note(calculator("wells_dvt"), note, {}, model=model, missing="absent"))
    assert scored.value == 2 and "Pitting oedema confined to the symptomatic leg" not in scored.assumed_absent


def test_options_are_read_by_the_model_over_the_whole_note() -> None:
    calc = _calc(
        Choice("ascites", "Ascites", {"absent": 1, "slight": 2, "moderate": 3}),
        Criterion("encephalopathy", "Hepatic encephalopathy"),
    )
    note = (
        "Abdomen is nontender and nondistended with no ascites, no rebound and no guarding. No hepatic encephalopathy."
    )
    model = StubModel({"ascites": {"answer": "absent", "quote": "nondistended with no ascites"}}, calc)
    result = asyncio.run(evaluate_note(calc, note, {}, model=model))
    assert result.status == "complete"
    assert result.inputs_used == {"ascites": "absent", "encephalopathy": False}
    methods = {e["input"]: e["method"] for e in result.extracted}
    assert methods == {"ascites": "model", "encephalopathy": "parsed"}  # the denial needs no model
    assert len(model.calls) == 1 and note in model.calls[0][0][-1]["content"]
    assert model.calls[0][1]["properties"]["answer"]["enum"] == ["absent", "slight", "moderate", "not stated"]


def test_a_failing_model_leaves_the_criteria_missing() -> None:
    class Broken(StubModel):
        async def complete_json(
            self, messages: list[dict[str, str]], schema: dict[str, Any], *, max_tokens: int
        ) -> str:
            raise UpstreamError("cannot reach the local model at http://127.0.0.1:9/v1")

    result = asyncio.run(evaluate_note(calculator("wells_dvt"), WELLS_NOTE, {}, model=Broken({})))
    assert result.status == "needs_more_info" and result.extracted == []
    assert result.warnings[-1] == (
        "the local model failed (cannot reach the local model at http://127.0.0.1:9/v1): only the yes/no criteria "
        "the note states plainly were read"
    )
    garbled = asyncio.run(evaluate_note(calculator("wells_dvt"), WELLS_NOTE, {}, model=StubModel("Sure! Here it is")))
    assert "reply is not JSON" in garbled.warnings[-1]


def test_item_schema_shape() -> None:
    schema = item_schema(Choice("b", "B", {"x": 0, "y": 1}))
    assert schema["required"] == ["answer", "quote"] and schema["additionalProperties"] is False
    assert schema["properties"]["answer"]["enum"] == ["x", "y", "not stated"]
    assert item_schema(Criterion("a", "A"))["properties"]["answer"]["enum"] == ["yes", "no", "not stated"]


def test_chat_json_model_asks_for_a_schema_and_falls_back_to_json_object() -> None:
    sent: list[dict[str, Any]] = []

    def handle(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        sent.append(body)
        if body["response_format"]["type"] == "json_schema":  # llama-cpp-python's server refuses that form
            return httpx.Response(422, json={"detail": "response_format.type: Input should be 'text' or 'json_object'"})
        return httpx.Response(
            200, json={"choices": [{"message": {"content": '{"a": {"answer": "yes", "quote": "q"}}'}}]}
        )

    model = ChatJsonModel(
        name="local", base_url="http://llm.test/v1", model="qwen", transport=httpx.MockTransport(handle)
    )
    schema = item_schema(Criterion("a", "A"))
    text = asyncio.run(model.complete_json([{"role": "user", "content": "note"}], schema, max_tokens=99))
    assert json.loads(text) == {"a": {"answer": "yes", "quote": "q"}}
    assert sent[0]["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "calculator_inputs", "strict": True, "schema": schema},
    }
    assert sent[1]["response_format"] == {"type": "json_object", "schema": schema}
    assert (sent[1]["temperature"], sent[1]["max_tokens"], sent[1]["stream"]) == (0.0, 99, False)
    asyncio.run(model.complete_json([{"role": "user", "content": "again"}], schema, max_tokens=9))
    assert sent[2]["response_format"]["type"] == "json_object"  # remembered

    def down(request: httpx.Request) -> httpx.Response:
        return httpx.Response(503, text="loading model")

    broken = ChatJsonModel(name="local", base_url="http://llm.test/v1", model="q", transport=httpx.MockTransport(down))
    with pytest.raises(UpstreamError, match="HTTP 503"):
        asyncio.run(broken.complete_json([], schema, max_tokens=9))


def test_a_note_only_ever_goes_to_the_local_model(tmp_path: Path) -> None:
    def router(**settings: Any) -> tuple[ModelRouter, Settings]:
        chosen = Settings(home=tmp_path, **settings)
        return ModelRouter(chosen), chosen

    assert note_model_for(*router()) == NoteModel(None, NO_MODEL)
    cloud = note_model_for(*router(cloud_llm_url="https://api.example.com/v1"))
    assert cloud.model is None and cloud.unavailable is not None
    assert "never goes to the cloud model" in cloud.unavailable and "CURBSIDE_LOCAL_LLM_URL" in cloud.unavailable
    forbidden = note_model_for(*router(local_llm_url="http://127.0.0.1:8080/v1", llm_routing="cloud-only"))
    assert forbidden.model is None and "routing cloud-only forbids the local model" in (forbidden.unavailable or "")
    both = note_model_for(*router(local_llm_url="http://127.0.0.1:8080/v1", cloud_llm_url="https://api.example.com/v1"))
    assert isinstance(both.model, ChatJsonModel) and both.model.base_url == "http://127.0.0.1:8080/v1"


# --- the tool and the command line ---------------------------------------------------------------------------


def _executor(deps: CalculatorDeps) -> ToolExecutor:
    registry = ToolRegistry()
    register(registry, deps)
    return ToolExecutor(registry, default_caller=ToolCaller(user="dr-a", role="clinician"))


def test_every_calculator_tool_takes_a_note(tmp_path: Path) -> None:
    fields = args_model(calculator("wells_dvt")).model_fields
    assert "note" in fields and fields["note"].is_required() is False
    model = StubModel({"active_cancer": {"answer": "yes", "quote": "Metastatic Non-Small Cell Carcinoma"}})
    deps = CalculatorDeps(Settings(home=tmp_path), note_model=lambda: NoteModel(model))
    executor = _executor(deps)
    done = asyncio.run(executor.call("calc.wells_dvt", {"note": WELLS_NOTE, "missing": "absent"}))
    assert done.ok and done.result is not None
    result = CalcResult.model_validate(done.result)
    assert (result.value, result.extracted[0]["input"], result.extracted[0]["method"]) == (1, "active_cancer", "model")
    too_long = asyncio.run(executor.call("calc.bmi", {"note": "x" * (MAX_NOTE_CHARS + 1)}))
    assert not too_long.ok and too_long.error is not None and too_long.error.code == "VALIDATION_ERROR"
    plain = _executor(CalculatorDeps(Settings(home=tmp_path)))
    nothing = asyncio.run(plain.call("calc.wells_dvt", {"note": WELLS_NOTE}))
    assert nothing.result is not None and nothing.result["warnings"][-1] == NO_MODEL


@pytest.fixture
def runner(home: Path) -> CliRunner:
    return CliRunner()


def test_cli_note_option(runner: CliRunner, tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text(
        "A 72-year-old woman with atrial fibrillation. She weighs 58 kg.\n"
        "Laboratory studies: creatinine 110 µmol/L (reference 45–90 µmol/L), sodium 139 mmol/L.\n",
        encoding="utf-8",
    )
    result = runner.invoke(cli, ["calc", "cockcroft_gault", "--note", str(note)])
    assert result.exit_code == 0, result.output
    assert "From the note:" in result.stdout
    assert "creatinine = 110 µmol/L  [parsed]" in result.stdout
    assert "“Laboratory studies: creatinine 110 µmol/L (reference 45–90 µmol/L), sodium 139 mmol/L.”" in result.stdout
    assert "Cockcroft-Gault creatinine clearance: 37 mL/min — moderate" in result.stdout
    as_json = runner.invoke(cli, ["calc", "cockcroft_gault", "--note", str(note), "weight=61", "--json"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.stdout)["result"]
    assert data["inputs_used"]["weight"] == 61
    assert [(e["input"], e["used"]) for e in data["extracted"]] == [
        ("age", True),
        ("sex", True),
        ("weight", False),
        ("creatinine", True),
    ]
    wells = runner.invoke(cli, ["calc", "wells_dvt", "--note", "-"], input=WELLS_NOTE)
    assert wells.exit_code == 2
    assert "needs more information" in wells.stdout
    assert "! no model configured: only the yes/no criteria the note states plainly were read" in wells.stdout
    long_note = tmp_path / "long.txt"
    long_note.write_text("x" * (MAX_NOTE_CHARS + 1), encoding="utf-8")
    refused = runner.invoke(cli, ["calc", "bmi", "--note", str(long_note)])
    assert refused.exit_code != 0 and "longer than 20,000 characters" in refused.output


def test_a_frequency_belongs_to_the_drug_it_is_written_with() -> None:
    """'twice daily' or '2 times daily' alone names no opioid: the oxycodone's doses per day are asked for,
    not taken from the laxative's sentence."""
    import pytest

    from curbside.errors import ValidationError

    note = "Takes oxycodone 10 mg. Also started on a laxative twice daily, 2 times daily with meals."
    with pytest.raises(ValidationError, match=r"oxycodone_doses_per_day is missing.*oxycodone_dose = 10 mg"):
        asyncio.run(evaluate_note(calculator("mme"), note, {}))


def test_a_steroid_dose_is_read_by_the_steroid_s_name() -> None:
    note = "He received 500 mg of ceftriaxone. Prednisone 40 mg daily was started."
    result = asyncio.run(evaluate_note(calculator("steroid_conversion"), note, {"from_drug": "prednisone"}))
    read = {e["input"]: e["value"] for e in result.extracted}
    assert read.get("dose") == 40  # not the antibiotic's 500 mg


@pytest.mark.parametrize(
    ("note", "dose", "per_day"),
    [
        ("Takes 10 mg of oxycodone 2 times a day.", 10, 2),
        ("Oxycodone 5 mg PO q6h for back pain.", 5, 4),
        ("On oxycodone 20 mg BID.", 20, 2),
        ("Oxycodone 15 mg three times daily with food.", 15, 3),
        ("She takes oxycodone 10 mg every 8 hours.", 10, 3),
        ("Oxycodone 40 mg once daily at night.", 40, 1),
    ],
)
def test_doses_a_day_follow_the_drug_they_belong_to(note: str, dose: float, per_day: float) -> None:
    result = asyncio.run(evaluate_note(calculator("mme"), note, {}))
    read = {e["input"]: e for e in result.extracted}
    assert read["oxycodone_dose"]["value"] == dose
    assert read["oxycodone_doses_per_day"]["value"] == per_day
    assert read["oxycodone_doses_per_day"]["method"] == "parsed" and read["oxycodone_doses_per_day"]["note"]
    assert result.value == dose * per_day * 1.5  # CDC 2022: oxycodone 1.5 MME per mg


def test_two_opioids_each_with_its_own_frequency() -> None:
    note = "Home medications: morphine 15 mg twice daily, hydromorphone 2 mg four times a day, and senna."
    result = asyncio.run(evaluate_note(calculator("mme"), note, {}))
    inputs = result.inputs_used
    assert (inputs["morphine_doses_per_day"], inputs["hydromorphone_doses_per_day"]) == (2, 4)


def test_an_as_needed_frequency_is_not_doses_a_day() -> None:
    from curbside.errors import ValidationError

    note = "Oxycodone 5 mg every 4 hours as needed for pain."
    with pytest.raises(ValidationError, match="oxycodone_doses_per_day is missing"):
        asyncio.run(evaluate_note(calculator("mme"), note, {}))
    reading = parse_note(calculator("mme"), note)
    assert "oxycodone_doses_per_day" not in reading.found
    assert any("as needed (PRN)" in w for w in reading.warnings)
