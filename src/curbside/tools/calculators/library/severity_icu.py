"""Critical illness: APACHE II, SOFA and the SIRS criteria.

Conversions used (all in ``units.py``): creatinine 1 mg/dL = 88.4 µmol/L; bilirubin 1 mg/dL = 17.1 µmol/L;
temperature °F = °C × 9/5 + 32; pressure 1 kPa = 7.50062 mmHg; FiO2 % ÷ 100; haematocrit L/L × 100;
cell counts 10^9/L = 10^3/µL; vasopressor doses mcg/kg/min = µg/kg/min.
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
    CREATININE,
    DIASTOLIC_BP,
    FIO2,
    GCS,
    HEART_RATE,
    HEMATOCRIT,
    MEAN_ARTERIAL_PRESSURE,
    PACO2,
    PAO2,
    PH,
    RESPIRATORY_RATE,
    SODIUM,
    SYSTOLIC_BP,
    TEMPERATURE,
    WBC,
    above,
    at_least,
    below,
    check_blood_pressure,
    graded,
    mean_arterial_pressure,
    optional,
)

__all__ = ["CALCULATORS", "alveolar_arterial_gradient"]

_INF = math.inf

# --- APACHE II --------------------------------------------------------------------------------------

# Knaus WA, Draper EA, Wagner DP, Zimmerman JE. APACHE II: a severity of disease classification system.
# Crit Care Med 1985;13:818-29, Fig. 1 (the APACHE II severity of disease classification system): acute
# physiology points from the worst value in the first 24 h (temperature, MAP, heart rate, respiratory
# rate, oxygenation — A-aDO2 if FiO2 ≥ 0.5, else PaO2 —, arterial pH, sodium, potassium, creatinine
# with double points for acute renal failure, haematocrit, WBC, 15 − GCS); age points (≤ 44: 0, 45–54: 2,
# 55–64: 3, 65–74: 5, ≥ 75: 6); chronic health points for severe organ insufficiency or
# immunocompromise (nonoperative or emergency postoperative: 5; elective postoperative: 2).
# Risk of death (p. 823): ln(R/(1 − R)) = −3.517 + 0.146 × score + 0.603 (emergency surgery) + the
# diagnostic category weight (Table 2) — not computed here.
_KNAUS = "Knaus WA et al. Crit Care Med 1985;13:818-29 (Fig. 1)"

_APACHE_TEMPERATURE = ((-_INF, 4), (30, 3), (32, 2), (34, 1), (36, 0), (38.5, 1), (39, 3), (41, 4))
_APACHE_MAP = ((-_INF, 4), (50, 2), (70, 0), (110, 2), (130, 3), (160, 4))
_APACHE_HEART_RATE = ((-_INF, 4), (40, 3), (55, 2), (70, 0), (110, 2), (140, 3), (180, 4))
_APACHE_RESPIRATORY_RATE = ((-_INF, 4), (6, 2), (10, 1), (12, 0), (25, 1), (35, 3), (50, 4))
_APACHE_AA_GRADIENT = ((-_INF, 0), (200, 2), (350, 3), (500, 4))  # FiO2 ≥ 0.5
_APACHE_PH = ((-_INF, 4), (7.15, 3), (7.25, 2), (7.33, 0), (7.5, 1), (7.6, 3), (7.7, 4))
_APACHE_SODIUM = ((-_INF, 4), (111, 3), (120, 2), (130, 0), (150, 1), (155, 2), (160, 3), (180, 4))
_APACHE_POTASSIUM = ((-_INF, 4), (2.5, 2), (3.0, 1), (3.5, 0), (5.5, 1), (6.0, 3), (7.0, 4))
_APACHE_CREATININE = ((-_INF, 2), (0.6, 0), (1.5, 2), (2.0, 3), (3.5, 4))  # mg/dL; doubled in acute renal failure
_APACHE_HEMATOCRIT = ((-_INF, 4), (20, 2), (30, 0), (46, 1), (50, 2), (60, 4))
_APACHE_WBC = ((-_INF, 4), (1, 2), (3, 0), (15, 1), (20, 2), (40, 4))  # 10^9/L
_APACHE_AGE = ((-_INF, 0), (45, 2), (55, 3), (65, 5), (75, 6))


def _apache_pao2_points(pao2: float) -> float:
    """FiO2 < 0.5: PaO2 > 70 → 0, 61–70 → 1, 55–60 → 3, < 55 → 4 (Knaus 1985, Fig. 1)."""
    if above(pao2, 70):
        return 0.0
    if at_least(pao2, 61):
        return 1.0
    if at_least(pao2, 55):
        return 3.0
    return 4.0


# The alveolar gas equation, simplified: PAO2 = FiO2 × (PB − PH2O) − PaCO2 / R, at sea level
# (PB 760 mmHg), PH2O 47 mmHg at 37 °C, respiratory quotient 0.8 (West JB, Respiratory Physiology:
# The Essentials, ch. 5).
def alveolar_arterial_gradient(fio2: float, pao2: float, paco2: float) -> float:
    """A-aDO2 in mmHg at sea level."""
    return fio2 * (760 - 47) - paco2 / 0.8 - pao2


_APACHE_INPUTS = (
    TEMPERATURE,
    MEAN_ARTERIAL_PRESSURE,
    optional(SYSTOLIC_BP),
    optional(DIASTOLIC_BP),
    HEART_RATE,
    RESPIRATORY_RATE,
    FIO2,
    PAO2,
    optional(PACO2),
    Number(
        "aa_gradient",
        "Alveolar–arterial O2 gradient (A-aDO2)",
        "pressure",
        0,
        700,
        required=False,
        description="Scored when FiO2 ≥ 0.5; if not given it is computed from FiO2, PaO2 and PaCO2 (sea level).",
        aliases=("A-a gradient", "A-aDO2", "alveolar-arterial gradient"),
    ),
    PH,
    SODIUM,
    Number("potassium", "Serum potassium", "electrolyte", 1.0, 12.0, aliases=("potassium", "K", "K+")),
    CREATININE,
    Criterion(
        "acute_renal_failure",
        "Acute renal failure (doubles the creatinine points)",
        points=0,
        aliases=("acute renal failure", "acute kidney injury", "AKI", "ARF"),
    ),
    HEMATOCRIT,
    WBC,
    GCS,
    AGE,
    Choice(
        "chronic_health",
        "Chronic health: severe organ insufficiency or immunocompromise before admission, and the admission type",
        {"none": 0, "nonoperative": 5, "emergency_postoperative": 5, "elective_postoperative": 2},
        absent="none",
        description=(
            "Knaus 1985 definitions: biopsy-proven cirrhosis with portal hypertension, prior variceal bleeding or "
            "hepatic encephalopathy; NYHA class IV heart failure; chronic lung disease with severe exercise "
            "restriction, chronic hypoxia/hypercapnia, polycythaemia, pulmonary hypertension > 40 mmHg or "
            "ventilator dependence; chronic dialysis; or immunosuppression (therapy, or disease such as "
            "leukaemia, lymphoma, AIDS). 'none' if no such history."
        ),
    ),
)


def _apache_check(given: Given) -> None:
    check_blood_pressure(given, need_map=True)
    if at_least(given.num("fio2"), 0.5) and not (given.has("aa_gradient") or given.has("paco2")):
        raise ValidationError(
            "FiO2 ≥ 0.5: APACHE II scores the A-a gradient — give aa_gradient, or paco2 to compute it"
        )


def _apache_ii(given: Given) -> Outcome:
    chronic, _ = sum_points(given)
    fio2 = given.num("fio2")
    extra: dict[str, float] = {}
    if at_least(fio2, 0.5):
        if given.has("aa_gradient"):
            gradient = given.num("aa_gradient")
        else:
            gradient = alveolar_arterial_gradient(fio2, given.num("pao2"), given.num("paco2"))
        extra["aa_gradient_mmhg"] = round(gradient, 1)
        oxygenation = graded(gradient, _APACHE_AA_GRADIENT)
    else:
        oxygenation = _apache_pao2_points(given.num("pao2"))
    map_value = mean_arterial_pressure(given)
    creatinine = graded(given.num("creatinine"), _APACHE_CREATININE)
    if given.flag("acute_renal_failure"):
        creatinine *= 2
    physiology = {
        "temperature_points": graded(given.num("temperature"), _APACHE_TEMPERATURE),
        "map_points": graded(map_value, _APACHE_MAP),
        "heart_rate_points": graded(given.num("heart_rate"), _APACHE_HEART_RATE),
        "respiratory_rate_points": graded(given.num("respiratory_rate"), _APACHE_RESPIRATORY_RATE),
        "oxygenation_points": oxygenation,
        "ph_points": graded(given.num("ph"), _APACHE_PH),
        "sodium_points": graded(given.num("sodium"), _APACHE_SODIUM),
        "potassium_points": graded(given.num("potassium"), _APACHE_POTASSIUM),
        "creatinine_points": creatinine,
        "hematocrit_points": graded(given.num("hematocrit"), _APACHE_HEMATOCRIT),
        "wbc_points": graded(given.num("wbc"), _APACHE_WBC),
        "gcs_points": 15 - given.num("gcs"),
    }
    acute_physiology = sum(physiology.values())
    age_points = graded(given.num("age"), _APACHE_AGE)
    total = acute_physiology + age_points + chronic
    meaning = (
        f"APACHE II {total:.0f} (0–71): higher scores carry higher hospital mortality; an individual risk needs the "
        "admission diagnosis weight: ln(R/(1 − R)) = −3.517 + 0.146 × score (+ 0.603 after emergency surgery) "
        "+ diagnostic category weight (Knaus 1985)"
    )
    warnings: list[str] = []
    if at_least(fio2, 0.5) and not given.has("aa_gradient"):
        warnings.append("A-a gradient computed at sea level (PB 760 mmHg, PH2O 47 mmHg, R 0.8).")
    return Outcome(
        total,
        "points",
        None,
        meaning,
        warnings=warnings,
        extra={
            **physiology,
            **extra,
            "mean_arterial_pressure_mmhg": round(map_value, 1),
            "acute_physiology_score": acute_physiology,
            "age_points": age_points,
            "chronic_health_points": chronic,
        },
    )


# --- SOFA -------------------------------------------------------------------------------------------

# Vincent JL, Moreno R, Takala J, et al. The SOFA (Sepsis-related Organ Failure Assessment) score to
# describe organ dysfunction/failure. Intensive Care Med 1996;22:707-10, Table 1: respiration PaO2/FiO2
# < 400 → 1, < 300 → 2, < 200 with respiratory support → 3, < 100 with support → 4; platelets ×10³/mm³
# < 150 → 1, < 100 → 2, < 50 → 3, < 20 → 4; bilirubin mg/dL 1.2–1.9 → 1, 2.0–5.9 → 2, 6.0–11.9 → 3,
# ≥ 12 → 4; cardiovascular MAP < 70 → 1, dopamine ≤ 5 or dobutamine (any dose) → 2, dopamine > 5 or
# epinephrine/norepinephrine ≤ 0.1 → 3, dopamine > 15 or epinephrine/norepinephrine > 0.1 → 4
# (µg/kg/min, given ≥ 1 h); GCS 13–14 → 1, 10–12 → 2, 6–9 → 3, < 6 → 4; creatinine mg/dL 1.2–1.9 → 1,
# 2.0–3.4 → 2, 3.5–4.9 or urine < 500 mL/day → 3, ≥ 5.0 or urine < 200 mL/day → 4.
_VINCENT = "Vincent JL et al. Intensive Care Med 1996;22:707-10 (Table 1)"
# Singer M et al. The Third International Consensus Definitions for Sepsis and Septic Shock (Sepsis-3).
# JAMA 2016;315:801-10: an acute rise of ≥ 2 SOFA points from baseline (assumed 0 without known
# pre-existing organ dysfunction) with infection = sepsis (in-hospital mortality > 10 %).
_SOFA_PF = ((-_INF, 4), (100, 3), (200, 2), (300, 1), (400, 0))  # 3 and 4 only with respiratory support
_SOFA_PLATELETS = ((-_INF, 4), (20, 3), (50, 2), (100, 1), (150, 0))
_SOFA_BILIRUBIN = ((-_INF, 0), (1.2, 1), (2.0, 2), (6.0, 3), (12.0, 4))
_SOFA_GCS = ((-_INF, 4), (6, 3), (10, 2), (13, 1), (15, 0))
_SOFA_CREATININE = ((-_INF, 0), (1.2, 1), (2.0, 2), (3.5, 3), (5.0, 4))
_SOFA_URINE = ((-_INF, 4), (200, 3), (500, 0))  # mL/day
_SOFA_BANDS = (
    Band(0, "below sepsis threshold", "0–1: below the Sepsis-3 organ dysfunction threshold (if baseline is 0)"),
    Band(
        2,
        "organ dysfunction",
        "≥ 2: organ dysfunction — with suspected infection and an acute rise ≥ 2 from baseline, sepsis "
        "(Sepsis-3; in-hospital mortality > 10 %)",
    ),
)
_DRUGS = ("dopamine", "dobutamine", "epinephrine", "norepinephrine")


def _dose(key: str, label: str, high: float, aliases: tuple[str, ...]) -> Number:
    return Number(
        key,
        f"{label} dose",
        "dose_mcg_kg_min",
        0,
        high,
        required=False,
        description="µg/kg/min, given for at least 1 hour; needed when vasopressors = yes.",
        aliases=aliases,
    )


_SOFA_INPUTS = (
    PAO2,
    FIO2,
    Criterion(
        "respiratory_support",
        "Mechanical ventilation or CPAP/non-invasive ventilation (allows respiration points 3–4)",
        points=0,
        aliases=("mechanical ventilation", "intubated", "ventilated", "CPAP", "BiPAP", "NIV"),
    ),
    Number("platelets", "Platelet count", "platelets", 0, 2000, aliases=("platelets", "Plt", "platelet count")),
    Number(
        "bilirubin",
        "Serum bilirubin (total)",
        "bilirubin",
        0,
        80,
        aliases=("bilirubin", "total bilirubin", "T bili", "TBil"),
    ),
    MEAN_ARTERIAL_PRESSURE,
    optional(SYSTOLIC_BP),
    optional(DIASTOLIC_BP),
    Criterion(
        "vasopressors",
        "Vasopressors or inotropes (dopamine, dobutamine, epinephrine, norepinephrine) for ≥ 1 h",
        points=0,
        aliases=("vasopressors", "pressors", "inotropes", "norepinephrine", "noradrenaline", "dopamine"),
    ),
    _dose("dopamine", "Dopamine", 50, ("dopamine",)),
    _dose("dobutamine", "Dobutamine", 50, ("dobutamine",)),
    _dose("epinephrine", "Epinephrine", 5, ("epinephrine", "adrenaline")),
    _dose("norepinephrine", "Norepinephrine", 5, ("norepinephrine", "noradrenaline", "levophed")),
    GCS,
    CREATININE,
    Number(
        "urine_output",
        "Urine output over 24 h",
        "volume_ml",
        0,
        20000,
        required=False,
        description="mL per day; scored alongside creatinine, the worse of the two counts.",
        aliases=("urine output", "UOP", "urine volume", "anuric", "oliguric"),
    ),
)


def _sofa_check(given: Given) -> None:
    check_blood_pressure(given, need_map=True)
    doses = {drug: given.opt(drug) for drug in _DRUGS}
    running = [drug for drug, dose in doses.items() if dose]
    if given.flag("vasopressors") and not running:
        raise ValidationError(
            "vasopressors = yes: give the dose of each agent in µg/kg/min (dopamine, dobutamine, epinephrine, norepinephrine)"
        )
    if not given.flag("vasopressors") and running:
        raise ValidationError(f"vasopressors = no, but a dose is given for {', '.join(running)}")


def _sofa_cardiovascular(given: Given, map_value: float) -> float:
    dopamine = given.opt("dopamine") or 0.0
    dobutamine = given.opt("dobutamine") or 0.0
    epinephrine = given.opt("epinephrine") or 0.0
    norepinephrine = given.opt("norepinephrine") or 0.0
    if above(dopamine, 15) or above(epinephrine, 0.1) or above(norepinephrine, 0.1):
        return 4.0
    if above(dopamine, 5) or epinephrine > 0 or norepinephrine > 0:
        return 3.0
    if dopamine > 0 or dobutamine > 0:
        return 2.0
    return 1.0 if below(map_value, 70) else 0.0


def _sofa(given: Given) -> Outcome:
    ratio = given.num("pao2") / given.num("fio2")
    respiration = graded(ratio, _SOFA_PF)
    warnings: list[str] = []
    if respiration > 2 and not given.flag("respiratory_support"):
        respiration = 2.0
        warnings.append("PaO2/FiO2 < 200 without respiratory support: respiration scored 2 (3–4 need support).")
    map_value = mean_arterial_pressure(given)
    renal = graded(given.num("creatinine"), _SOFA_CREATININE)
    if given.has("urine_output"):
        renal = max(renal, graded(given.num("urine_output"), _SOFA_URINE))
    organs = {
        "respiration_points": respiration,
        "coagulation_points": graded(given.num("platelets"), _SOFA_PLATELETS),
        "liver_points": graded(given.num("bilirubin"), _SOFA_BILIRUBIN),
        "cardiovascular_points": _sofa_cardiovascular(given, map_value),
        "cns_points": graded(given.num("gcs"), _SOFA_GCS),
        "renal_points": renal,
    }
    total = sum(organs.values())
    band = band_for(total, _SOFA_BANDS)
    return Outcome(
        total,
        "points",
        band.category,
        band.meaning,
        warnings=warnings,
        extra={**organs, "pf_ratio": round(ratio), "mean_arterial_pressure_mmhg": round(map_value, 1)},
    )


# --- SIRS -------------------------------------------------------------------------------------------

# Bone RC, Balk RA, Cerra FB, et al. Definitions for sepsis and organ failure and guidelines for the use
# of innovative therapies in sepsis. The ACCP/SCCM Consensus Conference Committee. Chest
# 1992;101:1644-55 (p. 1645): SIRS = two or more of temperature > 38 °C or < 36 °C; heart rate > 90/min;
# respiratory rate > 20/min or PaCO2 < 32 mmHg; WBC > 12,000/mm³, < 4,000/mm³ or > 10 % immature (band)
# forms. Sepsis (1992) = SIRS due to infection.
_BONE = "Bone RC et al. Chest 1992;101:1644-55 (ACCP/SCCM consensus)"
_SIRS_BANDS = (
    Band(0, "SIRS criteria not met", "0–1 criteria: SIRS criteria not met"),
    Band(
        2,
        "SIRS",
        "≥ 2 criteria: SIRS — with a documented or suspected infection, sepsis by the 1992 definition",
    ),
)


def _sirs(given: Given) -> Outcome:
    temperature = given.num("temperature")
    wbc = given.num("wbc")
    paco2 = given.opt("paco2")
    bands = given.opt("band_forms")
    met = {
        "temperature": above(temperature, 38) or below(temperature, 36),
        "heart_rate": above(given.num("heart_rate"), 90),
        "respiratory": above(given.num("respiratory_rate"), 20) or (paco2 is not None and below(paco2, 32)),
        "white_cells": above(wbc, 12) or below(wbc, 4) or (bands is not None and above(bands, 10)),
    }
    count = float(sum(met.values()))
    warnings: list[str] = []
    if not met["respiratory"] and paco2 is None:
        warnings.append("No PaCO2 given: the respiratory criterion rests on the respiratory rate alone.")
    if not met["white_cells"] and bands is None:
        warnings.append("No band count given: the white cell criterion rests on the total count alone.")
    band = band_for(count, _SIRS_BANDS)
    return Outcome(
        count,
        "criteria",
        band.category,
        band.meaning,
        warnings=warnings,
        extra={f"{name}_criterion": float(value) for name, value in met.items()},
    )


CALCULATORS = (
    Calculator(
        id="apache_ii",
        title="APACHE II score",
        summary="ICU severity of illness (0–71) from the worst first-24-hour physiology, age and chronic health.",
        formula="APACHE II, Knaus 1985",
        citation=_KNAUS,
        inputs=_APACHE_INPUTS,
        compute=_apache_ii,
        check=_apache_check,
        warnings=(
            "Use the worst value of each variable in the first 24 hours in the ICU. Arterial pH is required "
            "(Knaus's venous bicarbonate substitute is not offered). Values between two printed ranges take the "
            "lower band.",
        ),
    ),
    Calculator(
        id="sofa",
        title="SOFA score",
        summary="organ dysfunction (0–24) across respiration, coagulation, liver, cardiovascular, CNS and renal systems.",
        formula="SOFA, Vincent 1996",
        citation=_VINCENT,
        inputs=_SOFA_INPUTS,
        compute=_sofa,
        check=_sofa_check,
        warnings=(
            "Use the worst value of each system in the 24-hour period. Vasopressin, phenylephrine and other agents "
            "outside the 1996 table are not scored. SI creatinine and bilirubin are converted to mg/dL and scored "
            "on the mg/dL bands; Vincent's rounded µmol/L column (creatinine 110, bilirubin 20 µmol/L) can differ "
            "by a point just below those values.",
        ),
    ),
    Calculator(
        id="sirs",
        title="SIRS criteria",
        summary="systemic inflammatory response: how many of the four 1992 ACCP/SCCM criteria are met (≥ 2 = SIRS).",
        formula="SIRS criteria, ACCP/SCCM 1992",
        citation=_BONE,
        inputs=(
            TEMPERATURE,
            HEART_RATE,
            RESPIRATORY_RATE,
            optional(PACO2),
            WBC,
            Number(
                "band_forms",
                "Immature (band) neutrophils",
                "percent",
                0,
                100,
                required=False,
                aliases=("bands", "band forms", "bandemia", "immature neutrophils"),
            ),
        ),
        compute=_sirs,
        warnings=(
            "Sepsis-3 (Singer M et al. JAMA 2016;315:801-10) defines sepsis by organ dysfunction (SOFA), "
            "no longer by SIRS.",
        ),
    ),
)
