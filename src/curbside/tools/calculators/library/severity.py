"""Severity and comorbidity: Charlson comorbidity index; Glasgow-Blatchford bleeding score.

Also the pieces the ICU and pneumonia modules share: graded points from a published table, the
bedside numbers (vital signs, common laboratory values) with their plausible ranges, and the mean
arterial pressure from a systolic/diastolic pair.

Conversions used here (all in ``units.py``): urea mmol/L = BUN mg/dL / 2.8 (AMA Manual of Style SI
table); haemoglobin 1 g/dL = 10 g/L.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from curbside.errors import ValidationError
from curbside.tools.calculators.kit import (
    Band,
    Calculator,
    Choice,
    Criterion,
    Given,
    Number,
    Outcome,
    band_for,
    sum_points,
)
from curbside.tools.calculators.library.body import SEX

__all__ = [
    "AGE",
    "BUN",
    "CALCULATORS",
    "CREATININE",
    "DIASTOLIC_BP",
    "FIO2",
    "GCS",
    "HEART_RATE",
    "HEMATOCRIT",
    "MEAN_ARTERIAL_PRESSURE",
    "PACO2",
    "PAO2",
    "PH",
    "RESPIRATORY_RATE",
    "SODIUM",
    "SYSTOLIC_BP",
    "TEMPERATURE",
    "WBC",
    "above",
    "at_least",
    "below",
    "check_blood_pressure",
    "graded",
    "mean_arterial_pressure",
    "optional",
]

# --- shared pieces ----------------------------------------------------------------------------------


def graded(value: float, steps: Sequence[tuple[float, float]]) -> float:
    """Points from a published table: ``steps`` are (lower bound, points) in ascending order, the
    first from -inf; a value takes the points of the highest lower bound it reaches (inclusive).

    A value between two printed ranges (38.45 °C between "36–38.4" and "38.5–38.9") takes the band
    whose lower bound it has reached, i.e. the lower one.
    """
    points = steps[0][1]
    for lower, step_points in steps:
        if at_least(value, lower):
            points = step_points
    return points


_TOLERANCE = 1e-9  # so a value converted from another unit lands on a printed threshold, not beside it


def at_least(value: float, threshold: float) -> bool:
    """``value ≥ threshold`` (the published "≥")."""
    return value >= threshold - _TOLERANCE


def above(value: float, threshold: float) -> bool:
    """``value > threshold`` (the published ">")."""
    return value > threshold + _TOLERANCE


def below(value: float, threshold: float) -> bool:
    """``value < threshold`` (the published "<")."""
    return value < threshold - _TOLERANCE


def optional(item: Number) -> Number:
    """The same input, not required (one of alternatives, checked by the calculator)."""
    return replace(item, required=False)


AGE = Number("age", "Age", "age", 18, 120, aliases=("age", "years old", "yo", "y/o"))
TEMPERATURE = Number(
    "temperature", "Temperature", "temperature", 20, 46, aliases=("temperature", "temp", "T", "Tmax", "febrile")
)
HEART_RATE = Number("heart_rate", "Heart rate", "rate", 10, 300, aliases=("heart rate", "HR", "pulse", "P"))
RESPIRATORY_RATE = Number(
    "respiratory_rate", "Respiratory rate", "rate", 0, 100, aliases=("respiratory rate", "RR", "resp rate", "breaths")
)
SYSTOLIC_BP = Number(
    "systolic_bp", "Systolic blood pressure", "pressure", 30, 300, aliases=("systolic", "SBP", "blood pressure", "BP")
)
DIASTOLIC_BP = Number(
    "diastolic_bp",
    "Diastolic blood pressure",
    "pressure",
    10,
    200,
    aliases=("diastolic", "DBP", "blood pressure", "BP"),
)
MEAN_ARTERIAL_PRESSURE = Number(
    "mean_arterial_pressure",
    "Mean arterial pressure",
    "pressure",
    20,
    250,
    required=False,
    description="Give the MAP, or the systolic and diastolic pressures (MAP = DBP + (SBP − DBP) / 3).",
    aliases=("mean arterial pressure", "MAP"),
)
BUN = Number(
    "bun",
    "Blood urea nitrogen (or urea)",
    "bun",
    1,
    300,
    description="BUN in mg/dL, or urea in mmol/L (converted: BUN mg/dL = urea mmol/L × 2.8).",
    aliases=("blood urea nitrogen", "BUN", "urea", "serum urea"),
)
SODIUM = Number("sodium", "Serum sodium", "electrolyte", 90, 200, aliases=("sodium", "Na", "Na+"))
HEMATOCRIT = Number(
    "hematocrit", "Haematocrit", "hematocrit", 5, 80, aliases=("hematocrit", "haematocrit", "Hct", "PCV")
)
WBC = Number(
    "wbc",
    "White cell count",
    "wbc",
    0,
    500,
    aliases=("white blood cell count", "WBC", "white cell count", "leukocytes", "WCC"),
)
PH = Number("ph", "Arterial pH", "ph", 6.5, 8.0, aliases=("pH", "arterial pH", "ABG pH"))
PAO2 = Number(
    "pao2", "Arterial oxygen tension (PaO2)", "pressure", 10, 700, aliases=("PaO2", "pO2", "partial pressure of oxygen")
)
PACO2 = Number(
    "paco2",
    "Arterial carbon dioxide tension (PaCO2)",
    "pressure",
    5,
    200,
    aliases=("PaCO2", "pCO2", "partial pressure of carbon dioxide"),
)
FIO2 = Number(
    "fio2",
    "Inspired oxygen fraction (FiO2)",
    "fio2",
    0.21,
    1.0,
    description="As a fraction (0.21–1.0) or in % (21–100 %); room air is 0.21.",
    aliases=("FiO2", "inspired oxygen", "fraction of inspired oxygen", "room air"),
)
CREATININE = Number(
    "creatinine", "Serum creatinine", "creatinine", 0.1, 25, aliases=("creatinine", "Cr", "SCr", "serum creatinine")
)
GCS = Number(
    "gcs",
    "Glasgow Coma Scale",
    "count",
    3,
    15,
    description="Total Glasgow Coma Scale, 3–15 (in sedated patients, the assumed GCS without sedation).",
    aliases=("GCS", "Glasgow Coma Scale", "Glasgow coma score"),
)


def mean_arterial_pressure(given: Given) -> float:
    """The MAP given, else DBP + (SBP − DBP) / 3 from the pair."""
    if given.has("mean_arterial_pressure"):
        return given.num("mean_arterial_pressure")
    systolic, diastolic = given.num("systolic_bp"), given.num("diastolic_bp")
    return diastolic + (systolic - diastolic) / 3


def check_blood_pressure(given: Given, *, need_map: bool = False) -> None:
    """Systolic above diastolic; with ``need_map``, a MAP or both pressures."""
    if given.has("systolic_bp") and given.has("diastolic_bp") and given.num("systolic_bp") <= given.num("diastolic_bp"):
        raise ValidationError(
            f"systolic_bp ({given.num('systolic_bp'):g} mmHg) must be above diastolic_bp ({given.num('diastolic_bp'):g} mmHg)"
        )
    if need_map and not given.has("mean_arterial_pressure"):
        if not (given.has("systolic_bp") and given.has("diastolic_bp")):
            raise ValidationError(
                "give mean_arterial_pressure, or both systolic_bp and diastolic_bp (the MAP is computed from them)"
            )


# --- Charlson comorbidity index ---------------------------------------------------------------------

# Charlson ME, Pompei P, Ales KL, MacKenzie CR. A new method of classifying prognostic comorbidity in
# longitudinal studies: development and validation. J Chronic Dis 1987;40:373-83, Table 3 (weights:
# 1 — MI, CHF, PVD, cerebrovascular disease, dementia, chronic pulmonary disease, connective tissue
# disease, ulcer disease, mild liver disease, diabetes; 2 — hemiplegia, moderate/severe renal disease,
# diabetes with end-organ damage, any tumour, leukaemia, lymphoma; 3 — moderate/severe liver disease;
# 6 — metastatic solid tumour, AIDS). One-year mortality by index in the 1984 New York Hospital medical
# cohort (abstract): 0 → 12 %, 1–2 → 26 %, 3–4 → 52 %, ≥ 5 → 85 %.
# Charlson M, Szatrowski TP, Peterson J, Gold J. Validation of a combined comorbidity index.
# J Clin Epidemiol 1994;47:1245-51: the combined age–comorbidity score, one point per decade of age
# over 40 (50–59 → 1, 60–69 → 2, 70–79 → 3, ≥ 80 → 4 as MDCalc and MedCalc-Bench score it), and the
# estimated 10-year survival 0.983^(e^(0.9 × score)).
_CHARLSON = (
    "Charlson ME et al. J Chronic Dis 1987;40:373-83; age-adjusted: Charlson M et al. J Clin Epidemiol 1994;47:1245-51"
)

_CHARLSON_AGE = ((-math.inf, 0), (50, 1), (60, 2), (70, 3), (80, 4))
_CHARLSON_BANDS = (
    Band(0, "0", "comorbidity index 0: 1-year mortality 12 % in Charlson's 1984 medical inpatients"),
    Band(1, "1–2", "comorbidity index 1–2: 1-year mortality 26 % in Charlson's 1984 medical inpatients"),
    Band(3, "3–4", "comorbidity index 3–4: 1-year mortality 52 % in Charlson's 1984 medical inpatients"),
    Band(5, "≥ 5", "comorbidity index ≥ 5: 1-year mortality 85 % in Charlson's 1984 medical inpatients"),
)

_CHARLSON_INPUTS = (
    AGE,
    Choice(
        "version",
        "Charlson version",
        {"age_adjusted": 0, "original": 0},
        default="age_adjusted",
        description=(
            "age_adjusted (default; Charlson 1994, as MDCalc and MedCalc-Bench score it): comorbidity points plus "
            "1 point per decade from 50 (≥ 80: 4); original: the 1987 comorbidity points alone."
        ),
    ),
    Criterion(
        "myocardial_infarction",
        "Myocardial infarction (history, not ECG changes alone)",
        aliases=("myocardial infarction", "MI", "heart attack", "STEMI", "NSTEMI"),
    ),
    Criterion(
        "congestive_heart_failure",
        "Congestive heart failure",
        description="Exertional or paroxysmal nocturnal dyspnoea that has responded to treatment.",
        aliases=("congestive heart failure", "CHF", "heart failure", "HFrEF", "HFpEF"),
    ),
    Criterion(
        "peripheral_vascular_disease",
        "Peripheral vascular disease (claudication, bypass, gangrene, aneurysm ≥ 6 cm)",
        aliases=("peripheral vascular disease", "PVD", "PAD", "claudication", "aortic aneurysm"),
    ),
    Criterion(
        "cerebrovascular_disease",
        "Cerebrovascular accident (minor or no residua) or transient ischaemic attack",
        aliases=("stroke", "CVA", "TIA", "transient ischemic attack", "cerebrovascular disease"),
    ),
    Criterion(
        "dementia", "Dementia (chronic cognitive deficit)", aliases=("dementia", "Alzheimer", "cognitive impairment")
    ),
    Criterion(
        "chronic_pulmonary_disease",
        "Chronic pulmonary disease",
        aliases=("COPD", "chronic obstructive pulmonary disease", "chronic bronchitis", "emphysema", "asthma"),
    ),
    Criterion(
        "connective_tissue_disease",
        "Connective tissue disease (SLE, polymyositis, MCTD, polymyalgia rheumatica, moderate–severe RA)",
        aliases=("connective tissue disease", "lupus", "SLE", "rheumatoid arthritis", "polymyalgia rheumatica"),
    ),
    Criterion(
        "peptic_ulcer_disease",
        "Peptic ulcer disease (treated, including ulcer bleeding)",
        aliases=("peptic ulcer", "gastric ulcer", "duodenal ulcer", "PUD"),
    ),
    Choice(
        "liver_disease",
        "Liver disease",
        {"none": 0, "mild": 1, "moderate_to_severe": 3},
        absent="none",
        description="mild: chronic hepatitis or cirrhosis without portal hypertension; "
        "moderate_to_severe: cirrhosis with portal hypertension, with or without variceal bleeding.",
    ),
    Choice(
        "diabetes",
        "Diabetes mellitus",
        {"none": 0, "uncomplicated": 1, "end_organ_damage": 2},
        absent="none",
        description="none also for diet-controlled diabetes; end_organ_damage: retinopathy, neuropathy or nephropathy.",
    ),
    Criterion("hemiplegia", "Hemiplegia or paraplegia", points=2, aliases=("hemiplegia", "paraplegia", "hemiparesis")),
    Criterion(
        "moderate_to_severe_renal_disease",
        "Moderate to severe renal disease (creatinine > 3 mg/dL, dialysis, transplant, uraemia)",
        points=2,
        aliases=("chronic kidney disease", "CKD", "dialysis", "ESRD", "renal transplant"),
    ),
    Choice(
        "solid_tumor",
        "Solid tumour (within 5 years)",
        {"none": 0, "localized": 2, "metastatic": 6},
        absent="none",
    ),
    Criterion("leukemia", "Leukaemia", points=2, aliases=("leukemia", "leukaemia", "AML", "CLL", "ALL", "CML")),
    Criterion("lymphoma", "Lymphoma", points=2, aliases=("lymphoma", "Hodgkin", "non-Hodgkin lymphoma")),
    Criterion(
        "aids", "AIDS (not HIV infection alone)", points=6, aliases=("AIDS", "acquired immunodeficiency syndrome")
    ),
)


def _charlson(given: Given) -> Outcome:
    comorbidity, _ = sum_points(given)
    age_points = graded(given.num("age"), _CHARLSON_AGE)
    age_adjusted = comorbidity + age_points
    total = age_adjusted if given.choice("version") == "age_adjusted" else comorbidity
    band = band_for(comorbidity, _CHARLSON_BANDS)
    survival = 0.983 ** math.exp(0.9 * age_adjusted) * 100
    meaning = f"{band.meaning}; estimated 10-year survival {survival:.0f} % (age-adjusted score {age_adjusted:.0f})"
    return Outcome(
        total,
        "points",
        band.category,
        meaning,
        extra={
            "comorbidity_points": comorbidity,
            "age_points": age_points,
            "age_adjusted_score": age_adjusted,
            "ten_year_survival_percent": round(survival, 1),
        },
    )


# --- Glasgow-Blatchford bleeding score --------------------------------------------------------------

# Blatchford O, Murray WR, Blatchford M. A risk score to predict need for treatment for upper-
# gastrointestinal haemorrhage. Lancet 2000;356:1318-21, Table (admission risk markers): blood urea
# mmol/L ≥ 6.5 < 8.0 → 2, ≥ 8.0 < 10.0 → 3, ≥ 10.0 < 25 → 4, ≥ 25 → 6; haemoglobin g/L, men ≥ 120 < 130
# → 1, ≥ 100 < 120 → 3, < 100 → 6; women ≥ 100 < 120 → 1, < 100 → 6; systolic BP mmHg 100–109 → 1,
# 90–99 → 2, < 90 → 3; pulse ≥ 100/min → 1; melaena → 1; syncope → 2; hepatic disease → 2; cardiac
# failure → 2.
_BLATCHFORD = "Blatchford O et al. Lancet 2000;356:1318-21 (Table)"
# Low-risk thresholds: Stanley AJ et al. Lancet 2009;373:42-7 (score 0: outpatient management);
# Laine L et al. ACG Clinical Guideline: Upper GI and Ulcer Bleeding. Am J Gastroenterol 2021;116:899-917
# (score 0–1: very low risk, may be discharged with outpatient follow-up).
_GBS_UREA = ((-math.inf, 0), (6.5, 2), (8.0, 3), (10.0, 4), (25.0, 6))  # urea mmol/L
_GBS_HB_MALE = ((-math.inf, 6), (10.0, 3), (12.0, 1), (13.0, 0))  # g/dL (Blatchford's g/L ÷ 10)
_GBS_HB_FEMALE = ((-math.inf, 6), (10.0, 1), (12.0, 0))
_GBS_SBP = ((-math.inf, 3), (90, 2), (100, 1), (110, 0))
_GBS_BANDS = (
    Band(0, "very low risk", "0: very low risk — outpatient management without urgent endoscopy (Stanley 2009)"),
    Band(
        1,
        "low risk",
        "1: low risk — 0–1 may be discharged with outpatient follow-up (ACG 2021 guideline)",
    ),
    Band(
        2,
        "not low risk",
        "≥ 2: not low risk — admission; risk of needing transfusion or endoscopic treatment rises with the score",
    ),
)


def _glasgow_blatchford(given: Given) -> Outcome:
    criteria, _ = sum_points(given)
    urea = given.num("bun") / 2.8  # urea mmol/L = BUN mg/dL / 2.8
    urea_points = graded(urea, _GBS_UREA)
    table = _GBS_HB_MALE if given.choice("sex") == "male" else _GBS_HB_FEMALE
    hb_points = graded(given.num("hemoglobin"), table)
    sbp_points = graded(given.num("systolic_bp"), _GBS_SBP)
    pulse_points = 1.0 if at_least(given.num("heart_rate"), 100) else 0.0
    total = criteria + urea_points + hb_points + sbp_points + pulse_points
    band = band_for(total, _GBS_BANDS)
    return Outcome(
        total,
        "points",
        band.category,
        band.meaning,
        extra={
            "urea_mmol_l": round(urea, 2),
            "urea_points": urea_points,
            "hemoglobin_points": hb_points,
            "systolic_bp_points": sbp_points,
            "pulse_points": pulse_points,
        },
    )


CALCULATORS = (
    Calculator(
        id="charlson",
        title="Charlson comorbidity index",
        summary="comorbidity burden from 19 conditions (age-adjusted by default), with 1-year mortality and 10-year survival.",
        formula="Charlson comorbidity index 1987 weights; age-adjusted per Charlson 1994 (default)",
        citation=_CHARLSON,
        inputs=_CHARLSON_INPUTS,
        compute=_charlson,
        warnings=(
            "The 1-year mortality by group comes from the comorbidity points alone in a 1984 medical cohort; "
            "the 10-year survival uses the age-adjusted score. Both are cohort estimates, not individual predictions.",
        ),
    ),
    Calculator(
        id="glasgow_blatchford",
        title="Glasgow-Blatchford bleeding score",
        summary="upper GI bleeding: need for transfusion, endoscopic treatment or surgery from urea, Hb, BP, pulse and history; 0–1 low risk.",
        formula="Glasgow-Blatchford score 2000 (urea in mmol/L; BUN mg/dL / 2.8)",
        citation=_BLATCHFORD,
        inputs=(
            BUN,
            Number(
                "hemoglobin", "Haemoglobin", "hemoglobin", 1, 25, aliases=("hemoglobin", "haemoglobin", "Hb", "Hgb")
            ),
            SEX,
            SYSTOLIC_BP,
            HEART_RATE,
            Criterion(
                "melena", "Presentation with melaena", 1, aliases=("melena", "melaena", "black stools", "tarry stools")
            ),
            Criterion(
                "syncope", "Presentation with syncope", 2, aliases=("syncope", "fainted", "collapse", "passed out")
            ),
            Criterion(
                "hepatic_disease",
                "Hepatic disease (history or clinical/laboratory evidence of chronic or acute liver disease)",
                2,
                aliases=("liver disease", "cirrhosis", "hepatic disease", "chronic hepatitis"),
            ),
            Criterion(
                "cardiac_failure",
                "Cardiac failure (history or clinical/echocardiographic evidence)",
                2,
                aliases=("heart failure", "cardiac failure", "CHF"),
            ),
        ),
        compute=_glasgow_blatchford,
        check=check_blood_pressure,
        warnings=("Use admission values before transfusion; the score was derived for upper GI bleeding.",),
    ),
)
