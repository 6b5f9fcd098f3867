"""Metabolic: insulin resistance by the homeostasis model (HOMA-IR) and LDL cholesterol by the Friedewald
equation.

Units: glucose, cholesterol and triglycerides in mg/dL (mmol/L converted with the factors in ``units.py``:
glucose × 18.016, cholesterol × 38.67, triglycerides × 88.57); insulin in µIU/mL (pmol/L ÷ 6.00).
"""

from __future__ import annotations

from curbside.errors import ValidationError
from curbside.tools.calculators.kit import Band, Calculator, Given, Number, Outcome, band_for

__all__ = ["CALCULATORS"]


# --- HOMA-IR ------------------------------------------------------------------------------------------
# Matthews DR, Hosker JP, Rudenski AS, Naylor BA, Treacher DF, Turner RC. Homeostasis model assessment:
# insulin resistance and beta-cell function from fasting plasma glucose and insulin concentrations in man.
# Diabetologia 1985;28:412-9 (the approximating equations): IR = fasting insulin (µU/mL) × fasting glucose
# (mmol/L) / 22.5, = insulin × glucose (mg/dL) / 405; %B = 20 × insulin / (glucose mmol/L − 3.5).
# Normalised so that a young lean adult (insulin 5 µU/mL, glucose 4.5 mmol/L) has IR 1 and %B 100.
_HOMA = "Matthews DR et al. Diabetologia 1985;28:412-9"
_HOMA_DIVISOR = 405.0  # 22.5 × 18 (mg/dL per mmol/L as the approximation is usually written)
_MG_DL_PER_MMOL = 18.0


def _homa_ir(given: Given) -> Outcome:
    insulin, glucose = given.num("insulin"), given.num("glucose")
    value = insulin * glucose / _HOMA_DIVISOR
    extra: dict[str, float] = {}
    glucose_mmol = glucose / _MG_DL_PER_MMOL
    if glucose_mmol > 3.5:
        extra["homa_beta_percent"] = round(20 * insulin / (glucose_mmol - 3.5), 1)
    meaning = (
        "Higher means more insulin resistance; 1.0 is the young lean reference of Matthews 1985. There is no "
        "universal cut-off: thresholds depend on the population and the insulin assay."
    )
    return Outcome(value, "index", meaning=meaning, digits=2, extra=extra)


# --- LDL cholesterol (Friedewald) ---------------------------------------------------------------------
# Friedewald WT, Levy RI, Fredrickson DS. Estimation of the concentration of low-density lipoprotein
# cholesterol in plasma, without use of the preparative ultracentrifuge. Clin Chem 1972;18:499-502:
# LDL = total cholesterol − HDL − triglycerides / 5 (mg/dL; VLDL cholesterol ≈ TG / 5); not valid with
# chylomicrons, triglycerides > 400 mg/dL, or type III hyperlipoproteinaemia.
# Bands: NCEP ATP III (Expert Panel. JAMA 2001;285:2486-97, Table 2, LDL cholesterol classification).
# Low LDL with high TG: Martin SS et al. JAMA 2013;310:2061-8 (Friedewald underestimates LDL when it is
# < 70 mg/dL and triglycerides are 150-399 mg/dL).
_FRIEDEWALD = "Friedewald WT et al. Clin Chem 1972;18:499-502; categories: NCEP ATP III, JAMA 2001;285:2486-97"
_TG_LIMIT = 400.0  # mg/dL; NCEP: valid only below 400
_MG_DL_PER_MMOL_CHOLESTEROL = 38.67  # units.py
_LDL_BANDS = (
    Band(float("-inf"), "optimal", "< 100 mg/dL: optimal"),
    Band(100, "near optimal", "100–129 mg/dL: near optimal / above optimal"),
    Band(130, "borderline high", "130–159 mg/dL: borderline high"),
    Band(160, "high", "160–189 mg/dL: high"),
    Band(190, "very high", "≥ 190 mg/dL: very high (consider familial hypercholesterolaemia)"),
)


def _ldl(given: Given) -> float:
    return given.num("total_cholesterol") - given.num("hdl") - given.num("triglycerides") / 5


def _check_friedewald(given: Given) -> None:
    triglycerides = given.num("triglycerides")
    if triglycerides >= _TG_LIMIT:
        raise ValidationError(
            f"triglycerides: {triglycerides:.0f} mg/dL; the Friedewald equation is invalid at triglycerides "
            "≥ 400 mg/dL (4.5 mmol/L) — measure LDL directly or use the Martin-Hopkins or Sampson (NIH) equation"
        )
    if given.num("hdl") >= given.num("total_cholesterol"):
        raise ValidationError("hdl: HDL cholesterol cannot be at or above the total cholesterol; check the values")
    if _ldl(given) < 0:
        raise ValidationError(
            "these values give a negative LDL (HDL + triglycerides/5 exceed total cholesterol); check the values "
            "and that all three are from the same sample and unit"
        )


def _ldl_friedewald(given: Given) -> Outcome:
    value = _ldl(given)
    warnings: list[str] = []
    if round(value) < 70 and given.num("triglycerides") >= 150:
        warnings.append(
            "LDL < 70 mg/dL with triglycerides 150–399 mg/dL: Friedewald underestimates LDL here (Martin SS "
            "et al. JAMA 2013;310:2061-8); prefer a direct LDL or the Martin-Hopkins equation."
        )
    band = band_for(round(value), _LDL_BANDS)
    extra = {
        "ldl_mmol_l": round(value / _MG_DL_PER_MMOL_CHOLESTEROL, 2),
        "vldl_cholesterol_mg_dl": round(given.num("triglycerides") / 5, 1),
    }
    return Outcome(value, "mg/dL", band.category, band.meaning, digits=0, warnings=warnings, extra=extra)


CALCULATORS = (
    Calculator(
        id="homa_ir",
        title="HOMA-IR (insulin resistance)",
        summary="homeostasis model insulin resistance: fasting insulin (µIU/mL) × fasting glucose (mg/dL) / 405.",
        formula="HOMA-IR = insulin × glucose (mg/dL) / 405 (= × glucose mmol/L / 22.5); Matthews 1985",
        citation=_HOMA,
        inputs=(
            Number(
                "insulin",
                "Fasting insulin",
                "insulin",
                0.1,
                1000,
                aliases=("insulin", "fasting insulin", "serum insulin"),
            ),
            Number(
                "glucose",
                "Fasting glucose",
                "glucose",
                20,
                2000,
                aliases=("fasting glucose", "glucose", "FPG", "fasting plasma glucose", "FBG"),
            ),
        ),
        compute=_homa_ir,
        warnings=(
            "Both values must be fasting and from the same sample. Not meaningful on insulin treatment; insulin "
            "assays differ, so compare values only within one assay (Wallace TM et al. Diabetes Care "
            "2004;27:1487-95).",
        ),
    ),
    Calculator(
        id="ldl_friedewald",
        title="LDL cholesterol (Friedewald)",
        summary="calculated LDL cholesterol = total − HDL − triglycerides/5 (mg/dL), with the NCEP ATP III "
        "category; refused at triglycerides ≥ 400 mg/dL.",
        formula="LDL = TC − HDL − TG / 5 (mg/dL); Friedewald 1972",
        citation=_FRIEDEWALD,
        inputs=(
            Number(
                "total_cholesterol",
                "Total cholesterol",
                "cholesterol",
                20,
                1500,
                aliases=("total cholesterol", "TC", "cholesterol", "T chol"),
            ),
            Number(
                "hdl",
                "HDL cholesterol",
                "cholesterol",
                2,
                250,
                aliases=("HDL", "HDL cholesterol", "HDL-C", "high-density lipoprotein"),
            ),
            Number(
                "triglycerides",
                "Triglycerides",
                "triglycerides",
                5,
                20000,
                aliases=("triglycerides", "TG", "TGs", "trigs"),
            ),
        ),
        compute=_ldl_friedewald,
        check=_check_friedewald,
        warnings=(
            "Friedewald is invalid with chylomicrons (non-fasting lipaemic samples), triglycerides ≥ 400 mg/dL "
            "and type III dysbetalipoproteinaemia.",
        ),
    ),
)
