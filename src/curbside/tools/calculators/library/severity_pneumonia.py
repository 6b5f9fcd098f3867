"""Community-acquired pneumonia severity: the Pneumonia Severity Index (PORT) and CURB-65.

Conversions used (all in ``units.py``): urea mmol/L = BUN mg/dL / 2.8; glucose 1 mmol/L = 18.016 mg/dL;
temperature °F = °C × 9/5 + 32; pressure 1 kPa = 7.50062 mmHg.
"""

from __future__ import annotations

import math

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
from curbside.tools.calculators.library.severity import (
    AGE,
    BUN,
    DIASTOLIC_BP,
    HEART_RATE,
    HEMATOCRIT,
    PAO2,
    PH,
    RESPIRATORY_RATE,
    SODIUM,
    SYSTOLIC_BP,
    TEMPERATURE,
    above,
    at_least,
    below,
    check_blood_pressure,
    optional,
)

__all__ = ["CALCULATORS"]

# --- Pneumonia Severity Index -----------------------------------------------------------------------

# Fine MJ, Auble TE, Yealy DM, et al. A prediction rule to identify low-risk patients with community-
# acquired pneumonia. N Engl J Med 1997;336:243-50. Figure 1 (step 1: class I if age ≤ 50 with none of
# the five coexisting illnesses and none of the five examination findings); Table 2 (points: age, women
# age − 10, nursing home +10; neoplastic disease +30, liver disease +20, CHF +10, cerebrovascular +10,
# renal +10; altered mental status +20, RR ≥ 30 +20, SBP < 90 +20, temperature < 35 or ≥ 40 °C +15,
# pulse ≥ 125 +10; arterial pH < 7.35 +30, BUN ≥ 30 mg/dL +20, sodium < 130 +20, glucose ≥ 250 mg/dL
# +10, haematocrit < 30 % +10, PaO2 < 60 mmHg +10 (footnote: SaO2 < 90 % also abnormal), pleural
# effusion +10); classes II ≤ 70, III 71–90, IV 91–130, V > 130; 30-day mortality in the PORT
# validation cohort: I 0.1 %, II 0.6 %, III 0.9 %, IV 9.3 %, V 27.0 %.
_FINE = "Fine MJ et al. N Engl J Med 1997;336:243-50 (Fig. 1, Table 2)"

_PSI_BANDS = (
    Band(-math.inf, "class II", "≤ 70 points: class II — 30-day mortality 0.6 % (PORT validation); outpatient care"),
    Band(71, "class III", "71–90: class III — 0.9 %; outpatient care or brief observation/admission"),
    Band(91, "class IV", "91–130: class IV — 9.3 %; hospital admission"),
    Band(131, "class V", "> 130: class V — 27.0 %; hospital admission, consider ICU"),
)
_PSI_CLASS_I = Band(
    -math.inf,
    "class I",
    "class I (age ≤ 50, no coexisting illness, no abnormal vital sign or mental status): "
    "30-day mortality 0.1 % (PORT validation); outpatient care",
)

_COMORBIDITIES = (
    Criterion(
        "neoplastic_disease",
        "Neoplastic disease (active, or diagnosed within 1 year; not basal/squamous skin cancer)",
        30,
        aliases=("cancer", "malignancy", "neoplastic disease", "tumor", "metastatic"),
    ),
    Criterion(
        "liver_disease",
        "Liver disease (cirrhosis or other chronic liver disease)",
        20,
        aliases=("liver disease", "cirrhosis", "chronic hepatitis"),
    ),
    Criterion(
        "congestive_heart_failure",
        "Congestive heart failure",
        10,
        aliases=("congestive heart failure", "CHF", "heart failure"),
    ),
    Criterion(
        "cerebrovascular_disease",
        "Cerebrovascular disease (stroke or TIA)",
        10,
        aliases=("stroke", "CVA", "TIA", "cerebrovascular disease"),
    ),
    Criterion(
        "renal_disease",
        "Renal disease (chronic renal disease, or abnormal BUN and creatinine on record)",
        10,
        aliases=("chronic kidney disease", "CKD", "renal disease", "renal insufficiency"),
    ),
)
_ALTERED_MENTAL_STATUS = Criterion(
    "altered_mental_status",
    "Altered mental status (new disorientation to person, place or time, stupor, or coma)",
    20,
    aliases=("confusion", "altered mental status", "disoriented", "obtunded", "stupor", "coma", "AMS"),
)

_PSI_INPUTS = (
    AGE,
    Choice("sex", "Sex", {"male": 0, "female": -10}, description="Women: age − 10 points."),
    Criterion(
        "nursing_home_resident",
        "Nursing home resident",
        10,
        aliases=("nursing home", "long-term care facility", "care home", "skilled nursing facility"),
    ),
    *_COMORBIDITIES,
    _ALTERED_MENTAL_STATUS,
    RESPIRATORY_RATE,
    SYSTOLIC_BP,
    TEMPERATURE,
    HEART_RATE,
    PH,
    BUN,
    SODIUM,
    Number("glucose", "Serum glucose", "glucose", 10, 2000, aliases=("glucose", "blood sugar", "BG", "blood glucose")),
    HEMATOCRIT,
    optional(PAO2),
    Number(
        "sao2",
        "Oxygen saturation (SaO2/SpO2)",
        "percent",
        30,
        100,
        required=False,
        description="Used when no PaO2 is given: < 90 % scores as hypoxaemia (Fine 1997, Table 2 footnote).",
        aliases=("SpO2", "SaO2", "oxygen saturation", "O2 sat", "sats"),
    ),
    Criterion(
        "pleural_effusion",
        "Pleural effusion on chest radiograph",
        10,
        aliases=("pleural effusion", "effusion"),
    ),
)


def _psi_check(given: Given) -> None:
    if not (given.has("pao2") or given.has("sao2")):
        raise ValidationError("give pao2 (arterial PaO2) or sao2 (oxygen saturation, used when no PaO2 is available)")


def _psi(given: Given) -> Outcome:
    criteria, _ = sum_points(given)  # sex, nursing home, coexisting illnesses, mental status, effusion
    age = math.floor(given.num("age"))
    temperature = given.num("temperature")
    exam = {
        "respiratory_rate_points": 20.0 if at_least(given.num("respiratory_rate"), 30) else 0.0,
        "systolic_bp_points": 20.0 if below(given.num("systolic_bp"), 90) else 0.0,
        "temperature_points": 15.0 if below(temperature, 35) or at_least(temperature, 40) else 0.0,
        "pulse_points": 10.0 if at_least(given.num("heart_rate"), 125) else 0.0,
    }
    if given.has("pao2"):
        hypoxaemia = below(given.num("pao2"), 60)
    else:
        hypoxaemia = below(given.num("sao2"), 90)
    labs = {
        "ph_points": 30.0 if below(given.num("ph"), 7.35) else 0.0,
        "bun_points": 20.0 if at_least(given.num("bun"), 30) else 0.0,
        "sodium_points": 20.0 if below(given.num("sodium"), 130) else 0.0,
        "glucose_points": 10.0 if at_least(given.num("glucose"), 250) else 0.0,
        "hematocrit_points": 10.0 if below(given.num("hematocrit"), 30) else 0.0,
        "oxygenation_points": 10.0 if hypoxaemia else 0.0,
    }
    total = age + criteria + sum(exam.values()) + sum(labs.values())
    warnings: list[str] = []
    step_one = (
        age <= 50
        and not any(given.flag(item.key) for item in _COMORBIDITIES)
        and not given.flag("altered_mental_status")
        and not any(exam.values())
    )
    if step_one:
        band = _PSI_CLASS_I
        if any(labs.values()):
            warnings.append(
                "Class I by Fine's step 1, which uses no laboratory values; the laboratory findings given add "
                f"{sum(labs.values()):.0f} points — weigh them clinically."
            )
    else:
        band = band_for(total, _PSI_BANDS)
    if not given.has("pao2"):
        warnings.append("No PaO2: oxygenation scored from the saturation (< 90 % = hypoxaemia).")
    return Outcome(
        total,
        "points",
        band.category,
        band.meaning,
        warnings=warnings,
        extra={"age_points": float(age), **exam, **labs},
    )


# --- CURB-65 ----------------------------------------------------------------------------------------

# Lim WS, van der Eerden MM, Laing R, et al. Defining community acquired pneumonia severity on
# presentation to hospital: an international derivation and validation study. Thorax 2003;58:377-82
# (abstract; the score's definition and its three management groups): one point each for confusion, urea > 7 mmol/L, respiratory rate ≥ 30/min,
# systolic BP < 90 or diastolic BP ≤ 60 mmHg, age ≥ 65; groups 0–1 (30-day mortality 1.5 %), 2 (9.2 %),
# 3–5 (22 %).
_LIM = "Lim WS et al. Thorax 2003;58:377-82"
_CURB_BANDS = (
    Band(0, "low", "0–1: low severity — 30-day mortality 1.5 % (Lim 2003); likely suitable for home treatment"),
    Band(2, "moderate", "2: moderate severity — 9.2 %; consider short inpatient stay or supervised outpatient care"),
    Band(3, "high", "3–5: high severity — 22 %; hospital admission, assess for ICU especially at 4–5"),
)


def _curb65(given: Given) -> Outcome:
    confusion, _ = sum_points(given)
    urea = given.num("bun") / 2.8
    parts = {
        "urea_points": 1.0 if above(urea, 7.0) else 0.0,
        "respiratory_rate_points": 1.0 if at_least(given.num("respiratory_rate"), 30) else 0.0,
        "blood_pressure_points": 1.0
        if below(given.num("systolic_bp"), 90) or not above(given.num("diastolic_bp"), 60)
        else 0.0,
        "age_points": 1.0 if at_least(given.num("age"), 65) else 0.0,
    }
    total = confusion + sum(parts.values())
    band = band_for(total, _CURB_BANDS)
    return Outcome(total, "points", band.category, band.meaning, extra={"urea_mmol_l": round(urea, 2), **parts})


CALCULATORS = (
    Calculator(
        id="psi_port",
        title="Pneumonia Severity Index (PSI/PORT)",
        summary="community-acquired pneumonia: 30-day mortality class I–V from age, comorbidity, vital signs and labs.",
        formula="Pneumonia Severity Index, Fine 1997",
        citation=_FINE,
        inputs=_PSI_INPUTS,
        compute=_psi,
        check=_psi_check,
        warnings=(
            "Validated for adults with community-acquired pneumonia; the class guides the site of care together "
            "with oxygenation, social factors and clinical judgement.",
        ),
    ),
    Calculator(
        id="curb65",
        title="CURB-65 pneumonia severity score",
        summary="community-acquired pneumonia severity from confusion, urea, respiratory rate, blood pressure and age ≥ 65.",
        formula="CURB-65, Lim 2003 (urea > 7 mmol/L, i.e. BUN > 19.6 mg/dL)",
        citation=_LIM,
        inputs=(
            Criterion(
                "confusion",
                "Confusion (new disorientation in person, place or time; AMT ≤ 8)",
                aliases=("confusion", "confused", "disoriented", "altered mental status", "delirium"),
            ),
            BUN,
            RESPIRATORY_RATE,
            SYSTOLIC_BP,
            DIASTOLIC_BP,
            AGE,
        ),
        compute=_curb65,
        check=check_blood_pressure,
        warnings=(
            "Urea is scored as > 7 mmol/L (BUN > 19.6 mg/dL, exact conversion); MDCalc's 'BUN > 19 mg/dL' differs "
            "only for BUN 19.1–19.6 mg/dL.",
        ),
    ),
)
