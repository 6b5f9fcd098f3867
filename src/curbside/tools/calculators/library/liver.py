"""Liver disease: MELD (original, MELD-Na, MELD 3.0), Child-Turcotte-Pugh, and the FIB-4 fibrosis index."""

from __future__ import annotations

import math

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
from curbside.tools.calculators.library.kidney import AGE, CREATININE

__all__ = ["CALCULATORS"]

_BILIRUBIN = Number(
    "bilirubin",
    "Total bilirubin",
    "bilirubin",
    0.1,
    80,
    aliases=("bilirubin", "total bilirubin", "T bili", "TBil", "serum bilirubin"),
)
_INR = Number("inr", "INR", "ratio", 0.5, 20, aliases=("INR", "international normalized ratio", "PT/INR"))
_SODIUM = Number("sodium", "Serum sodium", "electrolyte", 80, 210, aliases=("sodium", "Na", "serum sodium"))
_ALBUMIN = Number("albumin", "Serum albumin", "albumin", 0.5, 7, aliases=("albumin", "serum albumin", "Alb"))
_DIALYSIS = Criterion(
    "dialysis",
    "Dialysis at least twice in the past week, or 24 h of CVVHD in the past week",
    points=0,
    description="Sets the creatinine used to the cap (4.0 mg/dL in MELD and MELD-Na, 3.0 mg/dL in MELD 3.0).",
    aliases=("dialysis", "hemodialysis", "haemodialysis", "CVVHD", "CRRT", "renal replacement therapy"),
)


def _half_up(value: float) -> float:
    """Round half away from zero (the score tables' rounding, not Python's round-half-even)."""
    return float(math.floor(value + 0.5 + 1e-9))


# --- MELD ------------------------------------------------------------------------------------------

# Kamath PS et al. A model to predict survival in patients with end-stage liver disease.
# Hepatology 2001;33:464-70; as adopted by UNOS/OPTN for allocation (2002-2016), OPTN Policy 9.1:
# MELD(i) = 0.957 x ln(Cr) + 0.378 x ln(bilirubin) + 1.120 x ln(INR) + 0.643; values < 1.0 are set
# to 1.0; creatinine capped at 4.0 mg/dL and set to 4.0 after dialysis twice in the past week or
# 24 h of CVVHD; rounded to the tenth and multiplied by 10; maximum 40.
_MELD = "Kamath PS et al. Hepatology 2001;33:464-70; UNOS/OPTN Policy 9.1 (pre-2016)"
# Wiesner R et al. Model for end-stage liver disease (MELD) and allocation of donor livers.
# Gastroenterology 2003;124:91-6: observed 3-month mortality of listed patients by MELD.
_MELD_BANDS = (
    Band(float("-inf"), "≤ 9", "≤ 9: 1.9 % 3-month mortality (Wiesner 2003)"),
    Band(10, "10–19", "10–19: 6.0 % 3-month mortality (Wiesner 2003)"),
    Band(20, "20–29", "20–29: 19.6 % 3-month mortality (Wiesner 2003)"),
    Band(30, "30–39", "30–39: 52.6 % 3-month mortality (Wiesner 2003)"),
    Band(40, "≥ 40", "≥ 40: 71.3 % 3-month mortality (Wiesner 2003)"),
)
_MELD_AGE = "MELD is defined for candidates aged 12 years or older; PELD is used below 12."


def _meld_labs(given: Given, creatinine_cap: float) -> tuple[float, float, float]:
    """Creatinine, bilirubin, INR as the MELD scores use them: lower bound 1.0, creatinine capped, dialysis."""
    creatinine = min(max(given.num("creatinine"), 1.0), creatinine_cap)
    if given.flag("dialysis"):
        creatinine = creatinine_cap
    return creatinine, max(given.num("bilirubin"), 1.0), max(given.num("inr"), 1.0)


def _meld_i(given: Given) -> tuple[float, dict[str, float]]:
    """OPTN MELD(i): rounded to the tenth, then x 10 (so a whole number), before the cap of 40."""
    creatinine, bilirubin, inr = _meld_labs(given, 4.0)
    raw = 0.957 * math.log(creatinine) + 0.378 * math.log(bilirubin) + 1.120 * math.log(inr) + 0.643
    used = {"creatinine_used": creatinine, "bilirubin_used": bilirubin, "inr_used": inr}
    return _half_up(raw * 10), used


def _meld(given: Given) -> Outcome:
    score, used = _meld_i(given)
    score = min(score, 40.0)
    band = band_for(score, _MELD_BANDS)
    return Outcome(score, "points", band.category, band.meaning, extra=used)


# Kim WR et al. Hyponatremia and mortality among patients on the liver-transplant waiting list.
# N Engl J Med 2008;359:1018-26: MELD-Na = MELD + 1.32 x (137 - Na) - 0.033 x MELD x (137 - Na).
# As implemented by OPTN in January 2016 (OPTN Policy 9.1.D): sodium bounded 125-137 mmol/L (Kim
# 2008 used 125-140); the sodium terms applied only if MELD(i) > 11; rounded to a whole number;
# maximum 40.
_MELD_NA = "Kim WR et al. N Engl J Med 2008;359:1018-26; OPTN Policy 9.1.D (2016)"


def _meld_na(given: Given) -> Outcome:
    meld_i, used = _meld_i(given)
    sodium = min(max(given.num("sodium"), 125.0), 137.0)
    score = meld_i
    if meld_i > 11:
        score = _half_up(meld_i + 1.32 * (137 - sodium) - 0.033 * meld_i * (137 - sodium))
    score = min(score, 40.0)
    return Outcome(score, "points", extra={"meld_i": min(meld_i, 40.0), **used, "sodium_used": sodium})


# Kim WR et al. MELD 3.0: the Model for End-Stage Liver Disease updated for the modern era.
# Gastroenterology 2021;161:1887-95: MELD 3.0 = 1.33 (if female) + 4.56 x ln(bilirubin)
# + 0.82 x (137 - Na) - 0.24 x (137 - Na) x ln(bilirubin) + 9.09 x ln(INR) + 11.14 x ln(Cr)
# + 1.85 x (3.5 - albumin) - 1.83 x (3.5 - albumin) x ln(Cr) + 6, rounded to a whole number.
# Bounds: bilirubin, creatinine, INR at least 1.0; creatinine at most 3.0 (3.0 after dialysis twice
# in the past week or 24 h of CVVHD); sodium 125-137 mmol/L; albumin 1.5-3.5 g/dL. The equation
# itself sets no maximum (it was scaled without presuming a cap: openEHR CKM MELD_3_0 v3.1, quoting
# Kim 2021); the score is given capped at 40 as for allocation since 2023 (not checked here against
# the OPTN policy text, which was not at hand), and an uncapped value above 40 is reported beside it.
_MELD_3 = "Kim WR et al. Gastroenterology 2021;161:1887-95"


def _meld_3(given: Given) -> Outcome:
    creatinine, bilirubin, inr = _meld_labs(given, 3.0)
    sodium = min(max(given.num("sodium"), 125.0), 137.0)
    albumin = min(max(given.num("albumin"), 1.5), 3.5)
    female = 1.0 if given.choice("sex") == "female" else 0.0
    raw = (
        1.33 * female
        + 4.56 * math.log(bilirubin)
        + 0.82 * (137 - sodium)
        - 0.24 * (137 - sodium) * math.log(bilirubin)
        + 9.09 * math.log(inr)
        + 11.14 * math.log(creatinine)
        + 1.85 * (3.5 - albumin)
        - 1.83 * (3.5 - albumin) * math.log(creatinine)
        + 6
    )
    uncapped = _half_up(raw)
    score = min(uncapped, 40.0)
    used = {
        "creatinine_used": creatinine,
        "bilirubin_used": bilirubin,
        "inr_used": inr,
        "sodium_used": sodium,
        "albumin_used": albumin,
    }
    warnings = []
    if uncapped > 40:
        used["uncapped"] = uncapped
        warnings.append(
            f"The MELD 3.0 equation gives {uncapped:.0f}; the score is shown capped at 40 as for liver allocation. "
            "Kim 2021's equation sets no maximum, and waitlist mortality keeps rising above 40."
        )
    return Outcome(score, "points", extra=used, warnings=warnings)


# --- Child-Turcotte-Pugh ---------------------------------------------------------------------------

# Pugh RNH et al. Transection of the oesophagus for bleeding oesophageal varices.
# Br J Surg 1973;60:646-9, Table I: encephalopathy none / grade 1-2 / grade 3-4; ascites absent /
# slight / moderate; bilirubin 1-2 / 2-3 / > 3 mg per 100 ml (primary biliary cirrhosis: 1-4 / 4-10
# / > 10); albumin > 3.5 / 2.8-3.5 / < 2.8 g per 100 ml; 1, 2, 3 points each; grade A 5-6, B 7-9,
# C 10-15. Pugh scored prothrombin time (1-4 / 4-6 / > 6 s prolonged); the INR cut-offs < 1.7 /
# 1.7-2.3 / > 2.3 are the modern substitute. At a shared limit (bilirubin 2 and 3, albumin 3.5 and
# 2.8, INR 1.7 and 2.3) the middle score is given.
_PUGH = "Pugh RNH et al. Br J Surg 1973;60:646-9 (Table I)"
_CHILD_PUGH_BANDS = (
    Band(float("-inf"), "A", "5–6: Child-Pugh class A — well-compensated cirrhosis"),
    Band(7, "B", "7–9: Child-Pugh class B — significant functional compromise"),
    Band(10, "C", "10–15: Child-Pugh class C — decompensated cirrhosis"),
)
_BILIRUBIN_LIMITS = {"standard": (2.0, 3.0), "cholestatic": (4.0, 10.0)}


def _rising(value: float, low: float, high: float) -> float:
    """1 below ``low``, 2 from ``low`` to ``high`` inclusive, 3 above ``high``."""
    return 1.0 if value < low else 2.0 if value <= high else 3.0


def _child_pugh(given: Given) -> Outcome:
    low, high = _BILIRUBIN_LIMITS[given.choice("bilirubin_scale")]
    bilirubin = _rising(given.num("bilirubin"), low, high)
    albumin = given.num("albumin")
    albumin_points = 1.0 if albumin > 3.5 else 2.0 if albumin >= 2.8 else 3.0
    inr = _rising(given.num("inr"), 1.7, 2.3)
    clinical, _ = sum_points(given)  # ascites and encephalopathy
    total = clinical + bilirubin + albumin_points + inr
    band = band_for(total, _CHILD_PUGH_BANDS)
    extra = {"bilirubin_points": bilirubin, "albumin_points": albumin_points, "inr_points": inr}
    return Outcome(total, "points", band.category, band.meaning, extra=extra)


# --- FIB-4 -----------------------------------------------------------------------------------------

# Sterling RK et al. Development of a simple noninvasive index to predict significant fibrosis in
# patients with HIV/HCV coinfection. Hepatology 2006;43:1317-25: FIB-4 = age x AST / (platelets
# [10^9/L] x sqrt(ALT)); < 1.45 excludes and > 3.25 predicts advanced fibrosis (Ishak 4-6).
# Shah AG et al. Comparison of noninvasive markers of fibrosis in patients with nonalcoholic fatty
# liver disease. Clin Gastroenterol Hepatol 2009;7:1104-12: < 1.30 and > 2.67 for advanced fibrosis.
# McPherson S et al. Am J Gastroenterol 2017;112:740-51: FIB-4 is less specific from age 65 and
# poorly validated below 35.
_STERLING = "Sterling RK et al. Hepatology 2006;43:1317-25; cut-offs Shah AG et al. Clin Gastroenterol Hepatol 2009"
# banded on the value shown (2 decimals), so "> 2.67" begins at 2.68 and "> 3.25" at 3.26
_FIB4_BANDS = {
    "shah_2009": (
        Band(float("-inf"), "low", "< 1.30: low risk of advanced fibrosis — advanced fibrosis unlikely"),
        Band(1.30, "indeterminate", "1.30–2.67: indeterminate — a second test (e.g. elastography) is needed"),
        Band(2.68, "high", "> 2.67: high risk of advanced fibrosis — refer for hepatology assessment"),
    ),
    "sterling_2006": (
        Band(float("-inf"), "low", "< 1.45: advanced fibrosis unlikely (HIV/HCV derivation cut-off)"),
        Band(1.45, "indeterminate", "1.45–3.25: indeterminate"),
        Band(3.26, "high", "> 3.25: advanced fibrosis likely (HIV/HCV derivation cut-off)"),
    ),
}


def _fib4(given: Given) -> Outcome:
    age = given.num("age")
    value = age * given.num("ast") / (given.num("platelets") * math.sqrt(given.num("alt")))
    band = band_for(round(value, 2), _FIB4_BANDS[given.choice("cutoffs")])
    warnings: list[str] = []
    if age < 35:
        warnings.append("Age < 35: FIB-4 is poorly validated and unreliable in younger patients.")
    elif age > 65:
        warnings.append(
            "Age > 65: FIB-4 rises with age and its specificity falls; McPherson 2017 suggests a lower "
            "cut-off of 2.0 from age 65."
        )
    return Outcome(value, "index", band.category, band.meaning, digits=2, warnings=warnings)


CALCULATORS = (
    Calculator(
        id="meld",
        title="MELD score (original, UNOS pre-2016)",
        summary="Model for End-Stage Liver Disease from creatinine, bilirubin and INR (6–40), with the "
        "observed 3-month mortality band.",
        formula="MELD, UNOS/OPTN pre-2016 (0.957 ln Cr + 0.378 ln bili + 1.120 ln INR + 0.643) × 10",
        citation=_MELD,
        inputs=(CREATININE, _BILIRUBIN, _INR, _DIALYSIS),
        compute=_meld,
        warnings=(_MELD_AGE, "Superseded for allocation by MELD-Na (2016) and MELD 3.0 (2023)."),
    ),
    Calculator(
        id="meld_na",
        title="MELD-Na (UNOS/OPTN 2016)",
        summary="MELD with serum sodium as OPTN used it for liver allocation from 2016 (6–40); "
        "higher scores mean higher 90-day waiting-list mortality.",
        formula="MELD-Na, OPTN 2016: MELD(i) + 1.32 × (137 − Na) − 0.033 × MELD(i) × (137 − Na) if MELD(i) > 11",
        citation=_MELD_NA,
        inputs=(CREATININE, _BILIRUBIN, _INR, _SODIUM, _DIALYSIS),
        compute=_meld_na,
        warnings=(_MELD_AGE, "OPTN replaced MELD-Na with MELD 3.0 for allocation in 2023."),
    ),
    Calculator(
        id="meld_3",
        title="MELD 3.0",
        summary="MELD 3.0 from sex, bilirubin, sodium, INR, creatinine and albumin (6–40): the OPTN liver "
        "allocation score since 2023; higher means higher 90-day mortality.",
        formula="MELD 3.0 (Kim 2021)",
        citation=_MELD_3,
        inputs=(SEX, _BILIRUBIN, _SODIUM, _INR, CREATININE, _ALBUMIN, _DIALYSIS),
        compute=_meld_3,
        warnings=(_MELD_AGE,),
    ),
    Calculator(
        id="child_pugh",
        title="Child-Turcotte-Pugh score",
        summary="severity of cirrhosis from bilirubin, albumin, INR, ascites and encephalopathy (5–15): "
        "class A 5–6, B 7–9, C 10–15.",
        formula="Child-Pugh (Pugh 1973), INR in place of prothrombin time",
        citation=_PUGH,
        inputs=(
            _BILIRUBIN,
            _ALBUMIN,
            _INR,
            Choice(
                "ascites",
                "Ascites",
                {"none": 1, "mild": 2, "moderate-severe": 3},
                absent="none",
                description="none 1, mild (slight) 2, moderate to severe (tense) 3.",
            ),
            Choice(
                "encephalopathy",
                "Hepatic encephalopathy",
                {"none": 1, "grade 1-2": 2, "grade 3-4": 3},
                absent="none",
                description="Encephalopathy grade: none 1, grade 1–2 2, grade 3–4 3.",
            ),
            Choice(
                "bilirubin_scale",
                "Bilirubin cut-offs",
                {"standard": 0, "cholestatic": 0},
                default="standard",
                description="standard: < 2 / 2–3 / > 3 mg/dL. cholestatic: < 4 / 4–10 / > 10 mg/dL, Pugh's "
                "scale for primary biliary cholangitis (also used in primary sclerosing cholangitis).",
            ),
        ),
        compute=_child_pugh,
        warnings=(
            "Ascites and encephalopathy grading is subjective, and albumin and INR move with infusions and "
            "anticoagulants; INR stands in for Pugh's prothrombin time (seconds prolonged).",
        ),
    ),
    Calculator(
        id="fib4",
        title="FIB-4 index for liver fibrosis",
        summary="FIB-4 = age × AST / (platelets × √ALT): < 1.30 low, 1.30–2.67 indeterminate, > 2.67 high "
        "risk of advanced liver fibrosis.",
        formula="FIB-4 (Sterling 2006)",
        citation=_STERLING,
        inputs=(
            AGE,
            Number("ast", "AST", "enzyme", 1, 30000, aliases=("AST", "aspartate aminotransferase", "SGOT")),
            Number("alt", "ALT", "enzyme", 1, 30000, aliases=("ALT", "alanine aminotransferase", "SGPT")),
            Number(
                "platelets",
                "Platelet count",
                "platelets",
                1,
                2000,
                aliases=("platelets", "platelet count", "PLT"),
            ),
            Choice(
                "cutoffs",
                "Cut-offs",
                {"shah_2009": 0, "sterling_2006": 0},
                default="shah_2009",
                description="shah_2009: 1.30 / 2.67 (NAFLD; the cut-offs in common use). sterling_2006: "
                "1.45 / 3.25 (the HIV/HCV derivation).",
            ),
        ),
        compute=_fib4,
        warnings=(
            "FIB-4 is for chronic liver disease: acute hepatitis (high transaminases) and low platelets from other "
            "causes make it unreliable.",
        ),
    ),
)
