"""Cardiac models: GRACE in-hospital mortality in acute coronary syndrome (Granger 2003), the
Framingham 10-year hard CHD risk of NCEP ATP III, the corrected QT interval (Bazett, Fridericia,
Framingham, Hodges, Rautaharju) and mean arterial pressure.

Unit conversions used (factors cited in ``units.py``): creatinine 1 mg/dL = 88.4 µmol/L; cholesterol
1 mmol/L = 38.67 mg/dL; pressure 1 kPa = 7.50062 mmHg; QT interval 1 s = 1000 ms.
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
from curbside.tools.calculators.library.body import SEX

__all__ = ["CALCULATORS", "FRAMINGHAM_BANDS", "GRACE_MORTALITY", "MAP_BANDS"]

_AGE_ALIASES = ("age", "year-old", "yo", "y/o", "years old")
_HEART_RATE_ALIASES = ("heart rate", "HR", "pulse", "P", "ventricular rate")
_SBP_ALIASES = ("systolic", "SBP", "systolic blood pressure", "blood pressure", "BP")


# --- GRACE (in-hospital death) -----------------------------------------------------------------------
# Granger CB, Goldberg RJ, Dabbous O, et al. Predictors of hospital mortality in the Global Registry of
# Acute Coronary Events. Arch Intern Med 2003;163:2345-53, Figure 4 (the in-hospital nomogram): points
# for age, heart rate, systolic BP, creatinine and Killip class at presentation, 39 for cardiac arrest
# at admission, 28 for ST-segment deviation, 14 for elevated cardiac enzymes; and the probability of
# in-hospital death at each 10 points of the total (<= 60: <= 0.2 %; >= 250: >= 52 %).
# The figure labels adjacent bins with a shared end ("<= 80", "80-99"); a value on the shared end
# falls in the upper bin here (SBP 80 -> 53, heart rate 50 -> 3, age 30 -> 8), each bin lower-inclusive.
_GRACE = "Granger CB et al. Arch Intern Med 2003;163:2345-53 (Figure 4)"
# (lower bound, points): the highest lower bound at or below the value applies
_GRACE_AGE = ((30, 8), (40, 25), (50, 41), (60, 58), (70, 75), (80, 91), (90, 100))  # < 30: 0
_GRACE_HEART_RATE = ((50, 3), (70, 9), (90, 15), (110, 24), (150, 38), (200, 46))  # < 50: 0
_GRACE_SBP = ((80, 53), (100, 43), (120, 34), (140, 24), (160, 10), (200, 0))  # < 80: 58
_GRACE_CREATININE = ((0.40, 4), (0.80, 7), (1.20, 10), (1.60, 13), (2.00, 21), (4.00, 28))  # mg/dL; < 0.40: 1
# Figure 4: total points -> probability of in-hospital death (%)
GRACE_MORTALITY = (
    (60, 0.2), (70, 0.3), (80, 0.4), (90, 0.6), (100, 0.8), (110, 1.1), (120, 1.6), (130, 2.1), (140, 2.9),
    (150, 3.9), (160, 5.4), (170, 7.3), (180, 9.8), (190, 13.0), (200, 18.0), (210, 23.0), (220, 29.0),
    (230, 36.0), (240, 44.0), (250, 52.0),
)  # fmt: skip

# Risk groups: the GRACE coordinating centre's risk table (Center for Outcomes Research, University of
# Massachusetts Medical School, outcomes-umassmed.org/grace, "GRACE risk table") for this score:
# NSTE-ACS in-hospital death low 1-108 (< 1 %), intermediate 109-140 (1-3 %), high 141-372 (> 3 %),
# the groups of the ESC NSTE-ACS guideline (Hamm CW et al. Eur Heart J 2011;32:2999-3054);
# STE-ACS low 49-125 (< 2 %), intermediate 126-154 (2-5 %), high 155-319 (> 5 %).
_GRACE_BANDS = {
    "nste_acs": (
        Band(float("-inf"), "low", "≤ 108: low risk — in-hospital death < 1 % (NSTE-ACS)"),
        Band(109, "intermediate", "109–140: intermediate risk — in-hospital death 1–3 % (NSTE-ACS)"),
        Band(
            141,
            "high",
            "> 140: high risk — in-hospital death > 3 % (NSTE-ACS); GRACE > 140 is a high-risk criterion for "
            "an early invasive strategy (within 24 h) in the ESC NSTE-ACS guidelines",
        ),
    ),
    "stemi": (
        Band(float("-inf"), "low", "≤ 125: low risk — in-hospital death < 2 % (STE-ACS)"),
        Band(126, "intermediate", "126–154: intermediate risk — in-hospital death 2–5 % (STE-ACS)"),
        Band(155, "high", "≥ 155: high risk — in-hospital death > 5 % (STE-ACS)"),
    ),
}


def _step_points(value: float, steps: tuple[tuple[float, int], ...], below: int) -> int:
    points = below
    for lower, step in steps:
        if value >= lower - 1e-9:
            points = step
    return points


def grace_mortality(points: float) -> float:
    """Probability of in-hospital death (%) from Granger 2003 Figure 4, linear between its 10-point rows."""
    table = GRACE_MORTALITY
    if points <= table[0][0]:
        return table[0][1]
    if points >= table[-1][0]:
        return table[-1][1]
    for (x0, y0), (x1, y1) in zip(table, table[1:], strict=False):
        if x0 <= points <= x1:
            return y0 + (y1 - y0) * (points - x0) / (x1 - x0)
    raise AssertionError("unreachable")  # pragma: no cover


def _grace(given: Given) -> Outcome:
    criteria, _ = sum_points(given)  # Killip class and the three yes/no items
    parts = {
        "age_points": _step_points(given.num("age"), _GRACE_AGE, 0),
        "heart_rate_points": _step_points(given.num("heart_rate"), _GRACE_HEART_RATE, 0),
        "systolic_bp_points": _step_points(given.num("systolic_bp"), _GRACE_SBP, 58),
        "creatinine_points": _step_points(given.num("creatinine"), _GRACE_CREATININE, 1),
    }
    total = criteria + sum(parts.values())
    band = band_for(total, _GRACE_BANDS[given.choice("acs_type")])
    mortality = grace_mortality(total)
    if total <= GRACE_MORTALITY[0][0]:
        estimate = f"≤ {GRACE_MORTALITY[0][1]:g} %"
    elif total >= GRACE_MORTALITY[-1][0]:
        estimate = f"≥ {GRACE_MORTALITY[-1][1]:g} %"
    else:
        estimate = f"about {mortality:.1f} %"
    meaning = f"{band.meaning}. Granger 2003 nomogram: in-hospital death {estimate} at {total:g} points"
    extra = {key: float(value) for key, value in parts.items()}
    extra["in_hospital_mortality_percent"] = round(mortality, 1)
    return Outcome(total, "points", band.category, meaning, extra=extra)


_GRACE_INPUTS = (
    Number("age", "Age", "age", 18, 120, aliases=_AGE_ALIASES),
    Number("heart_rate", "Heart rate at presentation", "rate", 10, 300, aliases=_HEART_RATE_ALIASES),
    Number("systolic_bp", "Systolic blood pressure at presentation", "pressure", 20, 300, aliases=_SBP_ALIASES),
    Number(
        "creatinine",
        "Serum creatinine at presentation",
        "creatinine",
        0.1,
        25,
        description="mg/dL, or µmol/L (converted: 1 mg/dL = 88.4 µmol/L).",
        aliases=("creatinine", "Cr", "SCr", "serum creatinine"),
    ),
    Choice(
        "killip_class",
        "Killip class at presentation",
        {"I": 0, "II": 20, "III": 39, "IV": 59},
        absent="I",
        description="I: no heart failure; II: rales and/or raised jugular venous pressure; III: acute pulmonary "
        "oedema; IV: cardiogenic shock.",
    ),
    Criterion(
        "cardiac_arrest",
        "Cardiac arrest at admission",
        points=39,
        aliases=("cardiac arrest", "resuscitated", "ROSC", "VF arrest", "arrested"),
    ),
    Criterion(
        "st_deviation",
        "ST-segment deviation on the admission ECG",
        points=28,
        aliases=("ST depression", "ST elevation", "ST deviation", "ST changes", "STEMI"),
    ),
    Criterion(
        "elevated_enzymes",
        "Elevated cardiac enzymes or markers (troponin, CK-MB)",
        points=14,
        aliases=("elevated troponin", "positive troponin", "troponin rise", "raised CK-MB", "NSTEMI"),
    ),
    Choice(
        "acs_type",
        "Risk groups for",
        {"nste_acs": 0, "stemi": 0},
        default="nste_acs",
        description="nste_acs (default): the groups ≤ 108 / 109–140 / > 140 used in NSTE-ACS guidelines; "
        "stemi: ≤ 125 / 126–154 / ≥ 155 (GRACE coordinating centre risk table). The points are the same.",
    ),
)


# --- Framingham hard CHD (ATP III) -------------------------------------------------------------------
# Expert Panel on Detection, Evaluation, and Treatment of High Blood Cholesterol in Adults. Executive
# Summary of the Third Report of the NCEP (Adult Treatment Panel III). JAMA 2001;285:2486-97, and the
# Final Report, Circulation 2002;106:3143-421: 10-year risk of hard CHD (myocardial infarction or coronary
# death) from the Framingham Heart Study. The Cox model behind its point tables and the NHLBI ATP III
# risk calculator, separate for men and women, with age, total and HDL cholesterol in mg/dL and SBP in mmHg:
#   L = sum(beta x term) - constant;  risk = 1 - S0 ** exp(L)
# The age x smoking term uses ln(70) above 70 in men and ln(78) above 78 in women.
_FRAMINGHAM = "NCEP ATP III: JAMA 2001;285:2486-97; Circulation 2002;106:3143-421 (Framingham hard CHD model)"
_FRAMINGHAM_BETAS = {
    "male": {
        "ln_age": 52.00961,
        "ln_total_cholesterol": 20.014077,
        "ln_hdl": -0.905964,
        "ln_sbp": 1.305784,
        "bp_treated": 0.241549,
        "smoker": 12.096316,
        "ln_age_x_ln_total_cholesterol": -4.605038,
        "ln_age_x_smoker": -2.84367,
        "ln_age_x_ln_age": -2.93323,
    },
    "female": {
        "ln_age": 31.764001,
        "ln_total_cholesterol": 22.465206,
        "ln_hdl": -1.187731,
        "ln_sbp": 2.552905,
        "bp_treated": 0.420251,
        "smoker": 13.07543,
        "ln_age_x_ln_total_cholesterol": -5.060998,
        "ln_age_x_smoker": -2.996945,
        "ln_age_x_ln_age": 0.0,
    },
}
_FRAMINGHAM_CONSTANT = {"male": 172.300168, "female": 146.5933061}
_FRAMINGHAM_S0 = {"male": 0.9402, "female": 0.98767}  # 10-year baseline survival
_FRAMINGHAM_SMOKING_AGE_CAP = {"male": 70.0, "female": 78.0}
_FRAMINGHAM_AGES = (20, 79)  # the ages ATP III's risk tables cover

# ATP III risk categories (JAMA 2001 Executive Summary, risk assessment): 10-year risk < 10 %, 10-20 %,
# > 20 % (a CHD risk equivalent), with the LDL goals < 160 / < 130 / < 100 mg/dL.
# Banded on the value shown (1 decimal): > 20 from 20.1.
FRAMINGHAM_BANDS = (
    Band(
        float("-inf"),
        "low",
        "< 10 %: lower 10-year risk — ATP III LDL goal < 130 mg/dL with ≥ 2 risk factors (< 160 mg/dL with 0–1)",
    ),
    Band(10, "intermediate", "10–20 %: intermediate risk — with ≥ 2 risk factors, ATP III LDL goal < 130 mg/dL"),
    Band(20.1, "high", "> 20 %: high risk, a CHD risk equivalent — ATP III LDL goal < 100 mg/dL"),
)


def _framingham_check(given: Given) -> None:
    low, high = _FRAMINGHAM_AGES
    if not low <= given.num("age") <= high:
        raise ValidationError(
            f"age: Framingham hard CHD risk (ATP III) is defined for ages {low}–{high}; "
            f"{given.num('age'):g} is outside it"
        )
    if given.num("hdl_cholesterol") >= given.num("total_cholesterol"):
        raise ValidationError("hdl_cholesterol: HDL cholesterol must be lower than total cholesterol")


def _framingham(given: Given) -> Outcome:
    if given.choice("method") == "points":
        return _framingham_points(given)
    return _framingham_equation(given)


def _framingham_equation(given: Given) -> Outcome:
    sex = given.choice("sex")
    beta = _FRAMINGHAM_BETAS[sex]
    age = given.num("age")
    ln_age = math.log(age)
    ln_total = math.log(given.num("total_cholesterol"))
    smoker = 1.0 if given.flag("smoker") else 0.0
    treated = 1.0 if given.flag("bp_treated") else 0.0
    ln_age_smoking = math.log(min(age, _FRAMINGHAM_SMOKING_AGE_CAP[sex]))
    linear = (
        beta["ln_age"] * ln_age
        + beta["ln_total_cholesterol"] * ln_total
        + beta["ln_hdl"] * math.log(given.num("hdl_cholesterol"))
        + beta["ln_sbp"] * math.log(given.num("systolic_bp"))
        + beta["bp_treated"] * treated
        + beta["smoker"] * smoker
        + beta["ln_age_x_ln_total_cholesterol"] * ln_age * ln_total
        + beta["ln_age_x_smoker"] * ln_age_smoking * smoker
        + beta["ln_age_x_ln_age"] * ln_age * ln_age
        - _FRAMINGHAM_CONSTANT[sex]
    )
    risk = (1 - _FRAMINGHAM_S0[sex] ** math.exp(linear)) * 100
    band = band_for(round(risk, 1), FRAMINGHAM_BANDS)
    return Outcome(risk, "%", band.category, band.meaning, digits=1, extra={"linear_predictor": round(linear, 4)})


# --- Framingham hard CHD: the ATP III point tables (method="points") ----------------------------------
# NHLBI, ATP III At-a-Glance: Quick Desk Reference, NIH Publication No. 01-3305 (May 2001), "Estimate of
# 10-Year Risk for Men" and "... for Women" (Framingham point scores): the same model in categories. Read
# from the AccessMedicine reprint of both tables (accessmedicine.mhmedical.com, bookid=3094,
# sectionid=259068583). That stored copy cuts the women's risk column after 20 points and lacks its
# 13-16 rows; those rows (13-14: 2, 15: 3, 16: 4, 21: 14, 22: 17, 23: 22, 24: 27, >= 25: >= 30 %) are
# from MDApp's reprint of the same table (mdapp.co/framingham-risk-score-calculator-123), which agrees
# with AccessMedicine on every women's row both print (< 9 to 12, 17 to 20).
# Every band is lower-inclusive (TC 160-199 is 160 <= TC < 200), so a converted 199.9 mg/dL is 160-199.
_POINTS_AGE_BANDS = (20, 35, 40, 45, 50, 55, 60, 65, 70, 75)  # 20-34, 35-39, ..., 75-79
_POINTS_AGE = {"male": (-9, -4, 0, 3, 6, 8, 10, 11, 12, 13), "female": (-7, -3, 0, 3, 6, 8, 10, 12, 14, 16)}
_POINTS_DECADES = (20, 40, 50, 60, 70)  # 20-39, 40-49, 50-59, 60-69, 70-79: cholesterol and smoking
_POINTS_TC_BANDS = (160, 200, 240, 280)  # < 160 scores 0 at every age
_POINTS_TC = {  # per TC band (160-199, 200-239, 240-279, >= 280), then per age decade
    "male": ((4, 3, 2, 1, 0), (7, 5, 3, 1, 0), (9, 6, 4, 2, 1), (11, 8, 5, 3, 1)),
    "female": ((4, 3, 2, 1, 1), (8, 6, 4, 2, 1), (11, 8, 5, 3, 2), (13, 10, 7, 4, 2)),
}
_POINTS_SMOKER = {"male": (8, 5, 3, 1, 1), "female": (9, 7, 4, 2, 1)}  # per age decade; non-smoker 0
_POINTS_HDL = ((40, 1), (50, 0), (60, -1))  # < 40: 2 (the same for both sexes)
_POINTS_SBP_BANDS = (120, 130, 140, 160)  # < 120 scores 0, treated or not
_POINTS_SBP = {  # (untreated, treated) per band: 120-129, 130-139, 140-159, >= 160
    "male": ((0, 1), (1, 2), (1, 2), (2, 3)),
    "female": ((1, 3), (2, 4), (3, 5), (4, 6)),
}
# point total -> 10-year risk (%); below the first total the table prints "< 1", from the last "≥ 30"
_POINTS_RISK = {
    "male": (0, (1, 1, 1, 1, 1, 2, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 30)),  # 0 .. >= 17
    "female": (9, (1, 1, 1, 1, 2, 2, 3, 4, 5, 6, 8, 11, 14, 17, 22, 27, 30)),  # 9 .. >= 25
}
_POINTS_SOURCE = "ATP III point table (NIH Publication No. 01-3305, 2001)"


def _band_index(value: float, lowers: tuple[int, ...]) -> int:
    """How many of the ascending lower bounds ``value`` reaches (0: below the first)."""
    return sum(1 for lower in lowers if value >= lower)


def _framingham_points(given: Given) -> Outcome:
    sex = given.choice("sex")
    age = given.num("age")
    decade = _band_index(age, _POINTS_DECADES) - 1
    tc_band = _band_index(given.num("total_cholesterol"), _POINTS_TC_BANDS)
    sbp_band = _band_index(given.num("systolic_bp"), _POINTS_SBP_BANDS)
    parts = {
        "age_points": _POINTS_AGE[sex][_band_index(age, _POINTS_AGE_BANDS) - 1],
        "total_cholesterol_points": _POINTS_TC[sex][tc_band - 1][decade] if tc_band else 0,
        "smoker_points": _POINTS_SMOKER[sex][decade] if given.flag("smoker") else 0,
        "hdl_cholesterol_points": _step_points(given.num("hdl_cholesterol"), _POINTS_HDL, 2),
        "systolic_bp_points": _POINTS_SBP[sex][sbp_band - 1][int(given.flag("bp_treated"))] if sbp_band else 0,
    }
    total = sum(parts.values())
    first, risks = _POINTS_RISK[sex]
    if total < first:
        risk, shown = risks[0], f"< {risks[0]} %"
    elif total >= first + len(risks) - 1:
        risk, shown = risks[-1], f"≥ {risks[-1]} %"
    else:
        risk = risks[total - first]
        shown = f"{risk} %"
    band = band_for(risk, FRAMINGHAM_BANDS)
    meaning = f"{band.meaning}. {_POINTS_SOURCE}: {total} points, 10-year risk {shown}"
    extra = {key: float(value) for key, value in parts.items()}
    extra["point_total"] = float(total)
    return Outcome(risk, "%", band.category, meaning, extra=extra, display=shown)


_CHOLESTEROL_NOTE = "mg/dL, or mmol/L (converted: 1 mmol/L = 38.67 mg/dL)."
_FRAMINGHAM_INPUTS = (
    Number("age", "Age", "age", 18, 120, description="ATP III risk is defined for ages 20–79.", aliases=_AGE_ALIASES),
    SEX,
    Number(
        "total_cholesterol",
        "Total cholesterol",
        "cholesterol",
        40,
        1000,
        description=_CHOLESTEROL_NOTE,
        aliases=("total cholesterol", "TC", "cholesterol", "serum cholesterol"),
    ),
    Number(
        "hdl_cholesterol",
        "HDL cholesterol",
        "cholesterol",
        5,
        200,
        description=_CHOLESTEROL_NOTE,
        aliases=("HDL", "HDL-C", "HDL cholesterol", "high-density lipoprotein"),
    ),
    Number("systolic_bp", "Systolic blood pressure", "pressure", 60, 300, aliases=_SBP_ALIASES),
    Criterion(
        "bp_treated",
        "Blood pressure treated with medication",
        points=0,  # no points of its own: it selects the treated SBP term (or the treated column of the table)
        description="True when the patient takes antihypertensive drugs (the treated-SBP term).",
        aliases=(
            "on antihypertensives",
            "antihypertensive medication",
            "antihypertensive treatment",
            "treated hypertension",
            "takes lisinopril",
            "BP medication",
        ),
    ),
    Criterion(
        "smoker",
        "Current smoker",
        points=0,  # the equation has no points; the table's smoking points depend on age (in the breakdown)
        description="Current cigarette smoking.",
        aliases=("smoker", "smokes", "current smoker", "pack-years", "tobacco use"),
    ),
    Choice(
        "method",
        "Method",
        {"equation": 0, "points": 0},
        default="equation",
        in_note=False,
        description="equation (default): the Framingham Cox model behind ATP III and its NHLBI risk calculator; "
        "points: the ATP III point tables (NIH Publication No. 01-3305), each factor's points in the breakdown and "
        "the risk the table prints for the total. The two can differ by several percentage points.",
    ),
)


# --- QTc ---------------------------------------------------------------------------------------------
# RR (s) = 60 / heart rate; QT and QTc in ms.
# Bazett HC. An analysis of the time-relations of electrocardiograms. Heart 1920;7:353-70: QT / sqrt(RR).
# Fridericia LS. Die Systolendauer im Elektrokardiogramm bei normalen Menschen und bei Herzkranken.
#   Acta Med Scand 1920;53:469-86: QT / RR^(1/3).
# Sagie A, Larson MG, Goldberg RJ, Bengtson JR, Levy D. An improved method for adjusting the QT interval
#   for heart rate (the Framingham Heart Study). Am J Cardiol 1992;70:797-801: QT + 0.154 s x (1 - RR).
# Hodges M, Salerno D, Erlien D. Bazett's QT correction reviewed: evidence that a linear QT correction for
#   heart rate is better. J Am Coll Cardiol 1983;1:694 (abstract): QT + 1.75 ms x (HR - 60).
# Rautaharju PM, Mason JW, Akiyama T. New age- and sex-specific criteria for QT prolongation based on rate
#   correction formulas that minimize bias at the upper normal limits. Int J Cardiol 2014;174:535-40
#   (QTcRTHa): QT x (120 + HR) / 180.
_QTC = (
    "Bazett HC. Heart 1920;7:353-70; Fridericia LS. Acta Med Scand 1920;53:469-86; Sagie A et al. Am J Cardiol "
    "1992;70:797-801; Hodges M et al. J Am Coll Cardiol 1983;1:694; Rautaharju PM et al. Int J Cardiol "
    "2014;174:535-40; thresholds: Rautaharju PM et al. Circulation 2009;119:e241-50; Drew BJ et al. "
    "Circulation 2010;121:1047-60"
)


def _qtc_values(qt_ms: float, heart_rate: float) -> dict[str, float]:
    rr = 60 / heart_rate
    return {
        "bazett": qt_ms / math.sqrt(rr),
        "fridericia": qt_ms / rr ** (1 / 3),
        "framingham": qt_ms + 154 * (1 - rr),
        "hodges": qt_ms + 1.75 * (heart_rate - 60),
        "rautaharju": qt_ms * (120 + heart_rate) / 180,
    }


# Thresholds: AHA/ACCF/HRS Recommendations for the Standardization and Interpretation of the ECG, Part IV
# (Rautaharju PM, Surawicz B, Gettes LS. Circulation 2009;119:e241-50; J Am Coll Cardiol 2009;53:982-91):
# QTc >= 450 ms in men and >= 460 ms in women prolonged; <= 390 ms short.
# QTc > 500 ms: the high-risk threshold for torsade de pointes (Drew BJ et al. Prevention of torsade de
# pointes in hospital settings. AHA/ACCF scientific statement. Circulation 2010;121:1047-60).
# Banded on the value shown (whole ms).
_QTC_SHORT = Band(
    float("-inf"),
    "short",
    "≤ 390 ms: short QTc (AHA/ACCF/HRS 2009); the short-QT syndrome itself needs a much shorter QTc with "
    "clinical or genetic criteria",
)
_QTC_MARKED = Band(
    501,
    "markedly prolonged",
    "> 500 ms: markedly prolonged — 2–3-fold risk of torsade de pointes (AHA/ACCF 2010): stop QT-prolonging "
    "drugs, correct potassium and magnesium, monitor",
)


def _prolonged(threshold: int, who: str) -> Band:
    return Band(
        threshold,
        "prolonged",
        f"{threshold}–500 ms: prolonged (≥ {threshold} ms {who}, AHA/ACCF/HRS 2009) — review QT-prolonging "
        "drugs, potassium and magnesium",
    )


_QTC_BANDS = {
    "male": (_QTC_SHORT, Band(391, "normal", "391–449 ms: normal for a man"), _prolonged(450, "in men"), _QTC_MARKED),
    "female": (
        _QTC_SHORT,
        Band(391, "normal", "391–459 ms: normal for a woman"),
        _prolonged(460, "in women"),
        _QTC_MARKED,
    ),
    "unspecified": (
        _QTC_SHORT,
        Band(391, "normal", "391–449 ms: normal for either sex"),
        Band(
            450,
            "borderline",
            "450–459 ms: prolonged in a man (≥ 450 ms), normal in a woman (< 460 ms) — give sex to classify",
        ),
        _prolonged(460, "in women, ≥ 450 ms in men"),
        _QTC_MARKED,
    ),
}


def _qtc(given: Given) -> Outcome:
    heart_rate = given.num("heart_rate")
    values = _qtc_values(given.num("qt_interval"), heart_rate)
    formula = given.choice("formula")
    value = values[formula]
    band = band_for(round(value), _QTC_BANDS[given.choice("sex")])
    warnings: list[str] = []
    if not 60 <= heart_rate <= 100:
        spread = max(values.values()) - min(values.values())
        warnings.append(
            f"Heart rate {heart_rate:g}/min is outside 60–100: the corrections diverge here ({spread:.0f} ms between "
            "them); Bazett over-corrects at fast rates and under-corrects at slow ones."
        )
    extra = {f"qtc_{name}_ms": round(v, 1) for name, v in values.items()}
    extra["rr_interval_s"] = round(60 / heart_rate, 3)
    return Outcome(value, "ms", band.category, band.meaning, warnings=warnings, extra=extra)


_QTC_INPUTS = (
    Number(
        "qt_interval",
        "QT interval (measured)",
        "duration_ms",
        150,
        800,
        description="The measured QT in ms (or s), lead II or V5, from QRS onset to T-wave end.",
        aliases=("QT", "QT interval", "QT int"),
    ),
    Number(
        "heart_rate",
        "Heart rate",
        "rate",
        20,
        300,
        description="Beats per minute; RR (s) = 60 / heart rate.",
        aliases=_HEART_RATE_ALIASES,
    ),
    Choice(
        "formula",
        "QT correction",
        {"bazett": 0, "fridericia": 0, "framingham": 0, "hodges": 0, "rautaharju": 0},
        default="bazett",
        description="bazett (default; QT/√RR, the most widely reported correction), fridericia (QT/∛RR), "
        "framingham (QT + 154 × (1 − RR), Sagie 1992), hodges (QT + 1.75 × (HR − 60)), rautaharju "
        "(QT × (120 + HR) / 180, 2014). Every one is returned in extra.",
    ),
    Choice(
        "sex",
        "Sex (for the prolonged-QTc threshold)",
        {"unspecified": 0, "male": 0, "female": 0},
        default="unspecified",
        description="Prolonged from 450 ms in men and 460 ms in women (AHA/ACCF/HRS 2009); unspecified gives "
        "450–459 ms as borderline.",
    ),
)


# --- Mean arterial pressure --------------------------------------------------------------------------
# MAP = DBP + (SBP - DBP) / 3: the empirical form factor of 1/3 for the brachial pressure wave at resting
# heart rates, as taught in physiology texts (Klabunde RE. Cardiovascular Physiology Concepts, 2nd ed.,
# Lippincott Williams & Wilkins, 2012, "Arterial blood pressure"); its limits, and the alternative form
# factor 0.412 from catheter measurements: Meaney E et al. Formula and nomogram for the sphygmomanometric
# calculation of the mean arterial pressure. Heart 2000;84:64.
_MAP = "Klabunde RE. Cardiovascular Physiology Concepts, 2nd ed. 2012; Meaney E et al. Heart 2000;84:64"
_MEANEY_FORM_FACTOR = 0.412
# Surviving Sepsis Campaign: Evans L et al. Crit Care Med 2021;49:e1063-e1143 (initial MAP target 65 mmHg
# in septic shock on vasopressors). Banded on the value shown (1 decimal).
MAP_BANDS = (
    Band(
        float("-inf"),
        "below 65",
        "< 65 mmHg: below the initial 65 mmHg target for septic shock on vasopressors (Surviving Sepsis Campaign "
        "2021) — organ hypoperfusion likely if sustained",
    ),
    Band(65, "65 or more", "≥ 65 mmHg: at or above the 65 mmHg perfusion target (Surviving Sepsis Campaign 2021)"),
)


def _map_check(given: Given) -> None:
    systolic, diastolic = given.num("systolic_bp"), given.num("diastolic_bp")
    if systolic < diastolic:
        raise ValidationError(
            f"systolic_bp ({systolic:g} mmHg) is below diastolic_bp ({diastolic:g} mmHg); check the order of the reading"
        )


def _map(given: Given) -> Outcome:
    systolic, diastolic = given.num("systolic_bp"), given.num("diastolic_bp")
    pulse = systolic - diastolic
    value = diastolic + pulse / 3
    band = band_for(round(value, 1), MAP_BANDS)
    extra = {
        "pulse_pressure_mmhg": round(pulse, 1),
        "map_meaney_mmhg": round(diastolic + _MEANEY_FORM_FACTOR * pulse, 1),
    }
    return Outcome(value, "mmHg", band.category, band.meaning, digits=1, extra=extra)


_MAP_INPUTS = (
    Number("systolic_bp", "Systolic blood pressure", "pressure", 30, 300, aliases=_SBP_ALIASES),
    Number(
        "diastolic_bp",
        "Diastolic blood pressure",
        "pressure",
        10,
        200,
        aliases=("diastolic", "DBP", "diastolic blood pressure", "blood pressure", "BP"),
    ),
)


CALCULATORS = (
    Calculator(
        id="grace",
        title="GRACE score, in-hospital death (Granger 2003)",
        summary="in-hospital mortality in acute coronary syndrome from age, heart rate, SBP, creatinine, Killip "
        "class, cardiac arrest, ST deviation and enzymes; ≤ 108 low, 109–140 intermediate, > 140 high.",
        formula="GRACE in-hospital death score, Granger 2003 nomogram (8 variables, 1–372 points)",
        citation=_GRACE,
        inputs=_GRACE_INPUTS,
        compute=_grace,
        warnings=(
            "This is the original in-hospital score (Granger 2003), not the 6-month score (Fox 2006, Eagle 2004) "
            "or GRACE 2.0; the values are those at presentation.",
            "The probability is read from the nomogram's 10-point rows (linear between them); the coordinating "
            "centre notes the full logistic model is slightly more accurate than the points.",
        ),
    ),
    Calculator(
        id="framingham_hard_chd",
        title="Framingham 10-year hard CHD risk (NCEP ATP III)",
        summary="10-year risk (%) of myocardial infarction or coronary death from age, sex, cholesterol, HDL, SBP, "
        "treatment and smoking; < 10 %, 10–20 %, > 20 % (ATP III).",
        formula="Framingham hard CHD Cox model as used by NCEP ATP III (2001), sex-specific; method=points: the "
        "ATP III point tables",
        citation=f"{_FRAMINGHAM}; point tables: NHLBI ATP III At-a-Glance, NIH Publication No. 01-3305 (2001)",
        inputs=_FRAMINGHAM_INPUTS,
        compute=_framingham,
        check=_framingham_check,
        warnings=(
            "For adults 20–79 without CHD, diabetes or another CHD risk equivalent (those are already high risk "
            "in ATP III). Hard CHD excludes angina and stroke; US guidelines since 2013 use the pooled cohort "
            "equations for ASCVD risk (Goff DC et al. Circulation 2014;129:S49-73).",
            "The ATP III point table (method=points) is a categorised form of the equation (the default): for the "
            "same person the two can differ by several percentage points (a man of 55 with 13 points: 12 % by the "
            "table, about 8.7 % by the equation), enough to cross the 10 % and 20 % lines.",
        ),
    ),
    Calculator(
        id="qtc",
        title="Corrected QT interval (QTc)",
        summary="heart-rate-corrected QT (ms) by Bazett (default), Fridericia, Framingham, Hodges or Rautaharju, "
        "every one in extra; prolonged ≥ 450 ms men, ≥ 460 ms women, > 500 ms high risk.",
        formula="QTc: Bazett 1920, Fridericia 1920, Framingham (Sagie 1992), Hodges 1983, Rautaharju 2014",
        citation=_QTC,
        inputs=_QTC_INPUTS,
        compute=_qtc,
        warnings=(
            "The thresholds assume QRS < 120 ms; bundle branch block, pacing or a wide QRS lengthen the QT without "
            "the same risk. In atrial fibrillation average several beats. The AHA/ACCF/HRS 2009 statement "
            "recommends a linear correction over Bazett, which over-corrects at fast heart rates.",
        ),
    ),
    Calculator(
        id="map",
        title="Mean arterial pressure",
        summary="mean arterial pressure (mmHg) from systolic and diastolic: DBP + (SBP − DBP) / 3; "
        "< 65 mmHg below the septic-shock target.",
        formula="MAP = DBP + (SBP − DBP) / 3",
        citation=_MAP,
        inputs=_MAP_INPUTS,
        compute=_map,
        check=_map_check,
        warnings=(
            "The 1/3 form factor is an approximation for cuff pressures at resting heart rates; an arterial "
            "line's mean is the measured value.",
        ),
    ),
)
