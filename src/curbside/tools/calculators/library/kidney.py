"""Kidney function: Cockcroft-Gault creatinine clearance with renal dose bands; eGFR by the race-free
CKD-EPI 2021 and the IDMS-traceable MDRD equations with KDIGO GFR categories; fractional excretion
of sodium."""

from __future__ import annotations

from curbside.errors import ValidationError
from curbside.tools.calculators.kit import Band, Calculator, Choice, Given, Number, Outcome, band_for
from curbside.tools.calculators.library.body import SEX, WEIGHT, ideal_body_weight

__all__ = ["CALCULATORS", "GFR_CATEGORIES", "RENAL_BANDS"]

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


# KDIGO 2012 Clinical Practice Guideline for the Evaluation and Management of Chronic Kidney Disease.
# Kidney Int Suppl 2013;3:1-150, Table 5 (GFR categories G1-G5, mL/min/1.73 m²).
GFR_CATEGORIES = (
    Band(float("-inf"), "G5", "< 15 mL/min/1.73 m²: G5 — kidney failure"),
    Band(15, "G4", "15–29 mL/min/1.73 m²: G4 — severely decreased"),
    Band(30, "G3b", "30–44 mL/min/1.73 m²: G3b — moderately to severely decreased"),
    Band(45, "G3a", "45–59 mL/min/1.73 m²: G3a — mildly to moderately decreased"),
    Band(60, "G2", "60–89 mL/min/1.73 m²: G2 — mildly decreased (CKD only with markers of kidney damage)"),
    Band(90, "G1", "≥ 90 mL/min/1.73 m²: G1 — normal or high (CKD only with markers of kidney damage)"),
)
_GFR_LIMITS = (
    "CKD needs GFR < 60, or markers of kidney damage, for > 3 months (KDIGO 2012). Creatinine-based eGFR is "
    "unreliable when creatinine is not at steady state (acute kidney injury), in extremes of muscle mass or "
    "diet, amputation, pregnancy, and in children."
)

# Inker LA et al. New creatinine- and cystatin C-based equations to estimate GFR without race.
# N Engl J Med 2021;385:1737-49 (the 2021 CKD-EPI creatinine equation, without race):
# 142 x min(Scr/k, 1)^a x max(Scr/k, 1)^-1.200 x 0.9938^age x 1.012 if female;
# k = 0.7 (female) / 0.9 (male); a = -0.241 (female) / -0.302 (male).
_CKD_EPI_2021 = "Inker LA et al. N Engl J Med 2021;385:1737-49"
_KAPPA = {"female": 0.7, "male": 0.9}
_ALPHA = {"female": -0.241, "male": -0.302}


def _ckd_epi_2021(given: Given) -> Outcome:
    sex = given.choice("sex")
    ratio = given.num("creatinine") / _KAPPA[sex]
    value = 142 * min(ratio, 1) ** _ALPHA[sex] * max(ratio, 1) ** -1.200 * 0.9938 ** given.num("age")
    if sex == "female":
        value *= 1.012
    band = band_for(round(value), GFR_CATEGORIES)
    return Outcome(value, "mL/min/1.73 m²", band.category, band.meaning, digits=0)


# Levey AS et al. Using standardized serum creatinine values in the Modification of Diet in Renal
# Disease study equation for estimating glomerular filtration rate. Ann Intern Med 2006;145:247-54
# (the IDMS-traceable 4-variable equation): 175 x Scr^-1.154 x age^-0.203 x 0.742 if female
# x 1.212 if Black.
_MDRD = "Levey AS et al. Ann Intern Med 2006;145:247-54"
# The race coefficient: the NKF-ASN Task Force (Delgado C et al. Am J Kidney Dis 2022;79:268-88)
# recommends the race-free CKD-EPI 2021 equation in its place.
_RACE_WARNING = (
    "The MDRD race coefficient (× 1.212) was applied. Current practice (NKF-ASN Task Force, Delgado C "
    "et al. Am J Kidney Dis 2022;79:268-88) has moved to the race-free CKD-EPI 2021 equation (calc.ckd_epi_2021)."
)


def _mdrd(given: Given) -> Outcome:
    value = 175 * given.num("creatinine") ** -1.154 * given.num("age") ** -0.203
    if given.choice("sex") == "female":
        value *= 0.742
    warnings: list[str] = []
    if given.choice("race_coefficient") == "black":
        value *= 1.212
        warnings.append(_RACE_WARNING)
    if value > 60:
        warnings.append("MDRD underestimates GFR above 60 mL/min/1.73 m²; laboratories report such values as '> 60'.")
    band = band_for(round(value), GFR_CATEGORIES)
    return Outcome(value, "mL/min/1.73 m²", band.category, band.meaning, digits=0, warnings=warnings)


# Espinel CH. The FENa test: use in the differential diagnosis of acute renal failure.
# JAMA 1976;236:579-81: FENa = (UNa x PCr) / (PNa x UCr) x 100; < 1 % in prerenal azotaemia.
# Miller TR et al. Urinary diagnostic indices in acute renal failure: a prospective study.
# Ann Intern Med 1978;89:47-50: > 1 % in acute tubular necrosis. The 1-2 % grey zone with > 2 %
# intrinsic is the common bedside convention.
_FENA = "Espinel CH. JAMA 1976;236:579-81"
# banded on the value shown (2 decimals), so "> 2 %" begins at 2.01
_FENA_BANDS = (
    Band(float("-inf"), "prerenal", "< 1 %: prerenal — sodium avidly retained (reduced renal perfusion)"),
    Band(1, "indeterminate", "1–2 %: indeterminate — prerenal or intrinsic"),
    Band(2.01, "intrinsic", "> 2 %: intrinsic renal injury (e.g. acute tubular necrosis)"),
)


def _fena(given: Given) -> Outcome:
    # both creatinines are in mg/dL here (µmol/L converted), so their units cancel
    value = (
        given.num("urine_sodium")
        * given.num("creatinine")
        / (given.num("sodium") * given.num("urine_creatinine"))
        * 100
    )
    band = band_for(round(value, 2), _FENA_BANDS)
    return Outcome(value, "%", band.category, band.meaning, digits=2)


_SODIUM = Number("sodium", "Serum sodium", "electrolyte", 80, 210, aliases=("sodium", "Na", "serum sodium", "PNa"))
_URINE_SODIUM = Number(
    "urine_sodium",
    "Urine sodium",
    "electrolyte",
    1,
    400,
    aliases=("urine sodium", "urinary sodium", "urine Na", "UNa"),
)
_URINE_CREATININE = Number(
    "urine_creatinine",
    "Urine creatinine",
    "creatinine",
    1,
    1000,
    description="Spot urine creatinine, in mg/dL or µmol/L (converted like serum creatinine, so the units cancel).",
    aliases=("urine creatinine", "urinary creatinine", "urine Cr", "UCr"),
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
    Calculator(
        id="ckd_epi_2021",
        title="eGFR, CKD-EPI creatinine 2021 (race-free)",
        summary="estimated GFR (mL/min/1.73 m²) from creatinine, age and sex by the race-free CKD-EPI 2021 "
        "equation, with the KDIGO G1–G5 category.",
        formula="CKD-EPI creatinine 2021 (race-free)",
        citation=_CKD_EPI_2021,
        inputs=(AGE, SEX, CREATININE),
        compute=_ckd_epi_2021,
        warnings=(_GFR_LIMITS,),
    ),
    Calculator(
        id="mdrd",
        title="eGFR, MDRD 4-variable (IDMS-traceable)",
        summary="estimated GFR (mL/min/1.73 m²) by the 4-variable MDRD study equation (175 coefficient), "
        "with the KDIGO G1–G5 category; superseded by CKD-EPI.",
        formula="MDRD 4-variable, IDMS-traceable (175), 2006",
        citation=_MDRD,
        inputs=(
            AGE,
            SEX,
            CREATININE,
            Choice(
                "race_coefficient",
                "MDRD race coefficient",
                {"none": 0, "black": 0},
                default="none",
                description="'black' multiplies by 1.212 as the 2006 equation did; current practice is race-free "
                "(CKD-EPI 2021), so it is applied only when asked for.",
            ),
        ),
        compute=_mdrd,
        warnings=(
            "MDRD was derived in people with CKD; it underestimates GFR in the normal range. Prefer CKD-EPI 2021.",
            _GFR_LIMITS,
        ),
    ),
    Calculator(
        id="fena",
        title="Fractional excretion of sodium (FENa)",
        summary="FENa (%) from serum and urine sodium and creatinine: < 1 % prerenal, > 2 % intrinsic renal "
        "injury, in oliguric acute kidney injury.",
        formula="FENa = (urine Na × serum Cr) / (serum Na × urine Cr) × 100",
        citation=_FENA,
        inputs=(_SODIUM, CREATININE, _URINE_SODIUM, _URINE_CREATININE),
        compute=_fena,
        warnings=(
            "FENa is validated in oliguric acute kidney injury. Diuretics raise it (consider fractional excretion "
            "of urea); it can be < 1 % in contrast nephropathy, pigment nephropathy, sepsis, early obstruction and "
            "glomerulonephritis, and > 1 % in chronic kidney disease without a prerenal state being excluded.",
        ),
    ),
)
