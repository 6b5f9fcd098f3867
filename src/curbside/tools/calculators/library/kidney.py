"""Kidney function: Cockcroft-Gault creatinine clearance with renal dose bands."""

from __future__ import annotations

from curbside.errors import ValidationError
from curbside.tools.calculators.kit import Band, Calculator, Choice, Given, Number, Outcome, band_for
from curbside.tools.calculators.library.body import SEX, WEIGHT, ideal_body_weight

__all__ = ["CALCULATORS", "RENAL_BANDS"]

AGE = Number("age", "Age", "age", 18, 120)
CREATININE = Number("creatinine", "Serum creatinine", "creatinine", 0.1, 25)

# US FDA. Pharmacokinetics in Patients with Impaired Renal Function — Study Design, Data Analysis,
# and Impact on Dosing. Guidance for Industry, 2020, Table 1 (the bands drug labels dose by).
RENAL_BANDS = (
    Band(
        float("-inf"),
        "kidney failure",
        "< 15 mL/min: kidney failure — most renally cleared drugs avoided or dosed per label",
    ),
    Band(15, "severe", "15–29 mL/min: severely decreased — label dose reductions for severe impairment"),
    Band(30, "moderate", "30–59 mL/min: moderately decreased — check the label's moderate-impairment dose"),
    Band(60, "mild", "60–89 mL/min: mildly decreased — usually no adjustment"),
    Band(90, "normal", "≥ 90 mL/min: normal"),
)

# Cockcroft DW, Gault MH. Prediction of creatinine clearance from serum creatinine.
# Nephron 1976;16:31-41 (p. 35: CrCl = (140 - age) x weight / (72 x SCr), x 0.85 for women).
_CG = "Cockcroft DW, Gault MH. Nephron 1976;16:31-41"


def _cockcroft_gault(given: Given) -> Outcome:
    sex = given.choice("sex")
    actual = given.num("weight")
    basis = given.choice("weight_basis")
    warnings: list[str] = []
    if basis == "actual":
        weight = actual
    else:
        if not given.has("height"):
            raise ValidationError(f"weight_basis={basis} needs height (ideal body weight uses it)")
        ideal = ideal_body_weight(given.num("height"), sex)
        # adjusted: IBW + 0.4 x (actual - IBW) (Bauer LA, Applied Clinical Pharmacokinetics, 2nd ed., 2008, ch. 3)
        weight = ideal if basis == "ideal" else ideal + 0.4 * (actual - ideal)
        if basis == "ideal" and actual < ideal:
            weight = actual
            warnings.append("Actual weight is below ideal body weight: actual weight used.")
    value = (140 - given.num("age")) * weight / (72 * given.num("creatinine"))
    if sex == "female":
        value *= 0.85
    band = band_for(value, RENAL_BANDS)
    return Outcome(
        value,
        "mL/min",
        band.category,
        band.meaning,
        digits=0,
        warnings=warnings,
        extra={"weight_used_kg": round(weight, 1)},
    )


CALCULATORS = (
    Calculator(
        id="cockcroft_gault",
        title="Cockcroft-Gault creatinine clearance",
        summary="estimated creatinine clearance (mL/min) for drug dosing, with the label's renal impairment band.",
        formula="Cockcroft-Gault 1976",
        citation=_CG,
        inputs=(
            AGE,
            SEX,
            WEIGHT,
            CREATININE,
            Choice(
                "weight_basis",
                "Weight used",
                {"actual": 0, "ideal": 0, "adjusted": 0},
                default="actual",
                description="The 1976 derivation used actual body weight; ideal/adjusted need height.",
            ),
            Number("height", "Height", "height", 30, 272, required=False),
        ),
        compute=_cockcroft_gault,
        warnings=(
            "Cockcroft-Gault overestimates GFR in obesity (with actual weight), and is unreliable when "
            "creatinine is not at steady state, in extremes of muscle mass, and in pregnancy.",
        ),
    ),
)
