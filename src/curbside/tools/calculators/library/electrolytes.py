"""Electrolytes and acid-base: albumin-corrected calcium, sodium corrected for hyperglycaemia, calculated
serum osmolality, free water deficit, and the anion gap with its albumin correction, delta gap and delta
ratio.

Units: sodium, chloride and bicarbonate in mmol/L (= mEq/L, monovalent); glucose and BUN in mg/dL
(mmol/L converted with the factors in ``units.py``); ethanol 1 mmol/L = 4.607 mg/dL (46.07 g/mol; the
SI table of the AMA Manual of Style, 11th ed., §18.5, factor 0.2171).
"""

from __future__ import annotations

from curbside.errors import ValidationError
from curbside.tools.calculators.kit import Band, Calculator, Choice, Given, Number, Outcome, band_for
from curbside.tools.calculators.library.body import SEX, WEIGHT

__all__ = ["CALCULATORS", "anion_gap"]

_SODIUM = Number("sodium", "Serum sodium", "electrolyte", 90, 210, aliases=("sodium", "Na", "Na+", "serum sodium"))
_CHLORIDE = Number(
    "chloride", "Serum chloride", "electrolyte", 50, 160, aliases=("chloride", "Cl", "Cl-", "serum chloride")
)
_BICARBONATE = Number(
    "bicarbonate",
    "Serum bicarbonate",
    "electrolyte",
    1,
    60,
    description="Serum bicarbonate or total CO2 from the chemistry panel.",
    aliases=("bicarbonate", "HCO3", "HCO3-", "bicarb", "total CO2", "tCO2", "CO2"),
)
_ALBUMIN = Number("albumin", "Serum albumin", "albumin", 0.5, 7, aliases=("albumin", "serum albumin", "Alb"))
_NORMAL_ALBUMIN_DEFAULT = 4.0  # g/dL
_NORMAL_ALBUMIN = Number(
    "normal_albumin",
    "Normal albumin",
    "albumin",
    3,
    5.5,
    required=False,
    description="The albumin the correction refers to; 4.0 g/dL if not given (the usual bedside value).",
    aliases=("normal albumin", "reference albumin"),
)
_GLUCOSE = Number(
    "glucose",
    "Serum glucose",
    "glucose",
    10,
    3500,
    aliases=("glucose", "serum glucose", "blood glucose", "plasma glucose", "BG", "Glu"),
)
_BUN = Number(
    "bun",
    "Blood urea nitrogen",
    "bun",
    1,
    300,
    description="BUN in mg/dL, or serum urea in mmol/L (converted: BUN mg/dL = urea mmol/L × 2.8).",
    aliases=("BUN", "blood urea nitrogen", "urea nitrogen", "urea"),
)
_AGE = Number("age", "Age", "age", 0, 120, aliases=("age", "year-old", "yo", "y/o", "years old"))


def _normal_albumin(given: Given) -> float:
    return given.num("normal_albumin") if given.has("normal_albumin") else _NORMAL_ALBUMIN_DEFAULT


def _positive_zero(value: float) -> float:
    """-0.0 (e.g. 0 / -1) shown as 0."""
    return value + 0.0


# --- Corrected calcium --------------------------------------------------------------------------------
# Payne RB, Little AJ, Williams RB, Milner JR. Interpretation of serum calcium in patients with abnormal
# serum proteins. Br Med J 1973;4:643-6. The formula printed in its abstract, from the regression of
# calcium on albumin: adjusted calcium (mg/100 ml) = calcium - albumin (g/100 ml) + 4.0, i.e. 1.0 mg/dL
# per g/dL of albumin below 4.0. The bedside form used by MDCalc, Medscape and MedCalc-Bench, attributed to
# Payne, takes 0.8 mg/dL per g/dL (= 0.02 mmol/L per g/L, the UK laboratory form): Ca + 0.8 × (4.0 − alb).
_CALCIUM_CITATION = "Payne RB et al. Br Med J 1973;4:643-6 (bedside coefficient 0.8; Payne's printed 1.0)"
_CALCIUM_COEFFICIENT = {"bedside": 0.8, "payne_1973": 1.0}  # mg/dL calcium per g/dL albumin
_MG_DL_PER_MMOL_CALCIUM = 4.008  # 40.08 g/mol (units.py)


def _corrected_calcium(given: Given) -> Outcome:
    normal = _normal_albumin(given)
    albumin = given.num("albumin")
    coefficient = _CALCIUM_COEFFICIENT[given.choice("coefficient")]
    value = given.num("calcium") + coefficient * (normal - albumin)
    warnings: list[str] = []
    if albumin > normal:
        warnings.append(
            "Albumin is above the normal value: the correction lowers calcium, where it is least validated."
        )
    extra = {
        "corrected_calcium_mmol_l": round(value / _MG_DL_PER_MMOL_CALCIUM, 2),
        "normal_albumin_g_dl": normal,
    }
    return Outcome(value, "mg/dL", digits=2, warnings=warnings, extra=extra)


# --- Sodium corrected for hyperglycaemia ----------------------------------------------------------------
# Katz MA. Hyperglycemia-induced hyponatremia — calculation of expected serum sodium depression.
# N Engl J Med 1973;289:843-4: sodium falls 1.6 mEq/L per 100 mg/dL rise in glucose (above 100 mg/dL).
# Hillier TA, Abbott RD, Barrett EJ. Hyponatremia: evaluating the correction factor for hyperglycemia.
# Am J Med 1999;106:399-403 (abstract): 2.4 mEq/L per 100 mg/dL overall; nonlinear, 1.6 adequate up to
# 400 mg/dL and about 4.0 above it.
# Bands: hyponatraemia < 136 mmol/L (Adrogué HJ, Madias NE. Hyponatremia. N Engl J Med 2000;342:1581-9);
# hypernatraemia > 145 mmol/L (Adrogué HJ, Madias NE. Hypernatremia. N Engl J Med 2000;342:1493-9).
_SODIUM_CORRECTION = "Katz MA. N Engl J Med 1973;289:843-4 (1.6); Hillier TA et al. Am J Med 1999;106:399-403 (2.4)"
_SODIUM_FACTORS = {"katz": 1.6, "hillier": 2.4}  # mEq/L per 100 mg/dL glucose above 100
_GLUCOSE_BASELINE = 100.0  # mg/dL
_SODIUM_BANDS = (
    Band(
        float("-inf"),
        "hyponatraemia",
        "< 136 mmol/L: hyponatraemia persists after correction — true hypotonic hyponatraemia beyond the "
        "glucose effect",
    ),
    Band(136, "normal", "136–145 mmol/L: corrected sodium normal — any low measured sodium is the glucose effect"),
    Band(
        145.1,
        "hypernatraemia",
        "> 145 mmol/L: hypernatraemia once corrected — a free water deficit (common in the hyperosmolar state)",
    ),
)


def _sodium_for(sodium: float, glucose: float, factor: float) -> float:
    return sodium + factor * max(glucose - _GLUCOSE_BASELINE, 0.0) / 100


def _sodium_correction(given: Given) -> Outcome:
    sodium, glucose = given.num("sodium"), given.num("glucose")
    value = _sodium_for(sodium, glucose, _SODIUM_FACTORS[given.choice("factor")])
    warnings: list[str] = []
    if glucose <= _GLUCOSE_BASELINE:
        warnings.append("Glucose is not above 100 mg/dL: no correction; the measured sodium stands.")
    if glucose > 400:
        warnings.append(
            "Glucose > 400 mg/dL: Hillier 1999 found the fall nearer 4.0 mEq/L per 100 mg/dL at these levels, "
            "so both factors may under-correct."
        )
    band = band_for(round(value, 1), _SODIUM_BANDS)
    extra = {
        f"corrected_sodium_{name}": round(_sodium_for(sodium, glucose, f), 1) for name, f in _SODIUM_FACTORS.items()
    }
    return Outcome(value, "mmol/L", band.category, band.meaning, digits=1, warnings=warnings, extra=extra)


# --- Serum osmolality ---------------------------------------------------------------------------------
# Smithline N, Gardner KD Jr. Gaps — anionic and osmolal. JAMA 1976;236:1594-7:
# calculated osmolality = 2 × Na (mmol/L) + glucose (mg/dL) / 18 + BUN (mg/dL) / 2.8.
# Ethanol term: Purssell RA, Pudek M, Brubacher J, Abu-Laban RB. Derivation and validation of a formula to
# calculate the contribution of ethanol to the osmolal gap. Ann Emerg Med 2001;38:653-9: ethanol (mg/dL) / 3.7
# (1.25 × ethanol in mmol/L). The molar divisor 4.6 (46.07 g/mol) fitted better in Nguyen MK et al.
# Front Med 2020;6:306.
_OSMOLALITY = (
    "Smithline N, Gardner KD Jr. JAMA 1976;236:1594-7; ethanol: Purssell RA et al. Ann Emerg Med 2001;38:653-9"
)
_ETHANOL_DIVISORS = {"purssell": 3.7, "molar": 4.6}


def _serum_osmolality(given: Given) -> Outcome:
    value = 2 * given.num("sodium") + given.num("glucose") / 18 + given.num("bun") / 2.8
    extra: dict[str, float] = {}
    warnings: list[str] = []
    if given.has("ethanol"):
        ethanol = given.num("ethanol") / _ETHANOL_DIVISORS[given.choice("ethanol_divisor")]
        value += ethanol
        extra["ethanol_contribution_mosm_kg"] = round(ethanol, 1)
    meaning = None
    if given.has("measured_osmolality"):
        gap = given.num("measured_osmolality") - value
        extra["osmolal_gap_mosm_kg"] = round(gap, 1)
        meaning = (
            f"Osmolal gap {gap:.1f} mOsm/kg (measured − calculated). A gap above about 10 mOsm/kg suggests "
            "unmeasured osmoles (ethanol if not entered, methanol, ethylene glycol, isopropanol, mannitol); "
            "a normal gap does not exclude a toxic alcohol, whose gap falls as it is metabolised."
        )
        if not given.has("ethanol"):
            warnings.append("No ethanol level entered: ethanol, if present, is part of the gap.")
    return Outcome(value, "mOsm/kg", meaning=meaning, digits=1, warnings=warnings, extra=extra)


# --- Free water deficit -------------------------------------------------------------------------------
# Adrogué HJ, Madias NE. Hypernatremia. N Engl J Med 2000;342:1493-9, Table 3 (footnote): total body water
# as a fraction of body weight — 0.6 in children, 0.6 and 0.5 in nonelderly men and women, 0.5 and 0.45 in
# elderly men and women; correct chronic hypernatraemia by about 10 mmol/L per day. Free water deficit =
# TBW × (Na / 140 − 1), the classic water-deficit equation. "Elderly" taken as ≥ 65 years and "child" as
# < 18 years (the paper gives no cut-offs; ≥ 65 is MDCalc's and MedCalc-Bench's).
_FREE_WATER = "Adrogué HJ, Madias NE. N Engl J Med 2000;342:1493-9 (Table 3, total body water fractions)"
_ELDERLY_AGE = 65
_ADULT_AGE = 18
_NORMAL_SODIUM = 140.0


def total_body_water_fraction(age: float, sex: str) -> float:
    """Adrogué & Madias 2000: 0.6 children; 0.6 men, 0.5 women; ≥ 65 years 0.5 men, 0.45 women."""
    if age < _ADULT_AGE:
        return 0.6
    if age >= _ELDERLY_AGE:
        return 0.5 if sex == "male" else 0.45
    return 0.6 if sex == "male" else 0.5


def _free_water_deficit(given: Given) -> Outcome:
    fraction = total_body_water_fraction(given.num("age"), given.choice("sex"))
    water = fraction * given.num("weight")
    sodium = given.num("sodium")
    value = water * (sodium / _NORMAL_SODIUM - 1)
    category = meaning = None
    if sodium <= _NORMAL_SODIUM:
        category = "no deficit"
        meaning = "Sodium ≤ 140 mmol/L: no free water deficit (a negative value is a relative water excess)."
    extra = {"total_body_water_fraction": fraction, "total_body_water_l": round(water, 1)}
    return Outcome(_positive_zero(value), "L", category, meaning, digits=2, extra=extra)


# --- Anion gap and its derivatives --------------------------------------------------------------------
# Kraut JA, Madias NE. Serum anion gap: its uses and limitations in clinical medicine. Clin J Am Soc Nephrol
# 2007;2:162-74: AG = Na − (Cl + HCO3); the reference range depends on the analyser. With ion-selective
# electrodes about 3-11 mmol/L (Winter SD et al. The fall of the serum anion gap. Arch Intern Med
# 1990;150:311-3); 8-16 (12 ± 4) with the older methods.
_AG_CITATION = (
    "Kraut JA, Madias NE. Clin J Am Soc Nephrol 2007;2:162-74; range: Winter SD et al. Arch Intern Med 1990;150:311-3"
)
_AG_RANGES = {"3-11": (3.0, 11.0), "8-16": (8.0, 16.0)}  # mEq/L: ion-selective electrodes; older methods


def _ag_bands(reference: str) -> tuple[Band, ...]:
    low, high = _AG_RANGES[reference]
    return (
        Band(
            float("-inf"),
            "low",
            f"< {low:g} mEq/L: low — hypoalbuminaemia, paraproteinaemia (IgG myeloma), lithium or bromide, or a "
            "laboratory error",
        ),
        Band(low, "normal", f"{low:g}–{high:g} mEq/L: normal for this reference range"),
        Band(
            high + 0.1,
            "high",
            f"> {high:g} mEq/L: high anion gap — unmeasured anions (lactate, ketoacids, uraemia, toxic alcohols, "
            "salicylate)",
        ),
    )


_AG_REFERENCE = Choice(
    "reference_range",
    "Anion gap reference range",
    {"3-11": 0, "8-16": 0},
    default="3-11",
    description="3-11 (default): ion-selective electrodes, as most analysers now use (Winter 1990); 8-16: the "
    "older flame-photometry range (12 ± 4). Use the one nearer your laboratory's.",
)
_AG_RANGE_WARNING = (
    "The normal anion gap depends on the analyser (about 3–11 mEq/L with ion-selective electrodes, 8–16 with "
    "older methods): judge against your laboratory's range and, better, the patient's own baseline."
)

# Figge J, Jabor A, Kazda A, Fencl V. Anion gap and hypoalbuminemia. Crit Care Med 1998;26:1807-10
# (abstract): adjusted AG = observed AG + 0.25 × (normal albumin − observed albumin) in g/L, i.e. 2.5 per
# g/dL. Figge leaves the normal albumin to the laboratory; 4.0 g/dL is the usual bedside value.
_FIGGE = "Figge J et al. Crit Care Med 1998;26:1807-10"
_FIGGE_FACTOR = 2.5  # mEq/L per g/dL albumin

# Delta gap and delta ratio: ΔAG = AG − 12, ΔHCO3 = 24 − HCO3 (the normal anion gap of 12 and bicarbonate
# of 24 mmol/L used by MDCalc and MedCalc-Bench). Rastegar A. Use of the ΔAG/ΔHCO3− ratio in the diagnosis
# of mixed acid-base disorders. J Am Soc Nephrol 2007;18:2429-31: about 1-2 in an uncomplicated high anion
# gap acidosis (lactic acidosis averages 1.6, ketoacidosis nearer 1). Interpretation bands as commonly
# tabulated (Brandis K, Acid-base physiology, anaesthesiaMCQ.com; MDCalc): < 0.4, 0.4-1, 1-2, > 2.
_DELTA = "Rastegar A. J Am Soc Nephrol 2007;18:2429-31 (normal AG 12, HCO3 24)"
_NORMAL_GAP = 12.0
_NORMAL_BICARBONATE = 24.0
_DELTA_RATIO_BANDS = (
    Band(float("-inf"), "normal anion gap acidosis", "< 0.4: hyperchloraemic (normal anion gap) metabolic acidosis"),
    Band(
        0.4,
        "mixed high and normal anion gap acidosis",
        "0.4–< 1: high anion gap acidosis with a concurrent normal anion gap (hyperchloraemic) acidosis; a ratio "
        "< 1 is also usual in the acidosis of renal failure (some tables put 0.8–1 with uncomplicated acidosis)",
    ),
    Band(
        1,
        "high anion gap acidosis",
        "1–2: uncomplicated high anion gap metabolic acidosis (lactic acidosis about 1.6; ketoacidosis nearer "
        "1 from urinary ketone loss)",
    ),
    Band(
        2.01,
        "high anion gap acidosis with raised bicarbonate",
        "> 2: high anion gap acidosis with a bicarbonate that was raised before — a concurrent metabolic "
        "alkalosis or a compensated chronic respiratory acidosis",
    ),
)
_DELTA_WARNING = (
    "The delta gap and ratio take 12 mEq/L as the normal anion gap and 24 mmol/L as the normal bicarbonate; "
    "with a lower laboratory anion gap (ion-selective electrodes) or a known baseline, recompute against it."
)


def anion_gap(sodium: float, chloride: float, bicarbonate: float) -> float:
    """Na − (Cl + HCO3), all in mmol/L."""
    return sodium - (chloride + bicarbonate)


def _gap(given: Given) -> float:
    return anion_gap(given.num("sodium"), given.num("chloride"), given.num("bicarbonate"))


def _corrected_gap(given: Given) -> float:
    return _gap(given) + _FIGGE_FACTOR * (_normal_albumin(given) - given.num("albumin"))


def _gap_warnings(value: float) -> list[str]:
    if value >= 0:
        return []
    return [
        "A negative anion gap: suspect a laboratory error, bromide or iodide, severe hyperlipidaemia, or a "
        "cationic paraprotein."
    ]


def _anion_gap(given: Given) -> Outcome:
    value = _gap(given)
    band = band_for(round(value, 1), _ag_bands(given.choice("reference_range")))
    return Outcome(value, "mEq/L", band.category, band.meaning, digits=1, warnings=_gap_warnings(value))


def _albumin_corrected_anion_gap(given: Given) -> Outcome:
    value = _corrected_gap(given)
    band = band_for(round(value, 1), _ag_bands(given.choice("reference_range")))
    extra = {"anion_gap": round(_gap(given), 1), "normal_albumin_g_dl": _normal_albumin(given)}
    return Outcome(value, "mEq/L", band.category, band.meaning, digits=1, warnings=_gap_warnings(value), extra=extra)


def _delta_gap(given: Given) -> Outcome:
    gap = _gap(given)
    extra = {"anion_gap": round(gap, 1)}
    return Outcome(_positive_zero(gap - _NORMAL_GAP), "mEq/L", digits=1, extra=extra)


def _albumin_corrected_delta_gap(given: Given) -> Outcome:
    gap = _corrected_gap(given)
    extra = {"anion_gap": round(_gap(given), 1), "albumin_corrected_anion_gap": round(gap, 1)}
    return Outcome(_positive_zero(gap - _NORMAL_GAP), "mEq/L", digits=1, extra=extra)


def _check_bicarbonate(given: Given) -> None:
    if abs(given.num("bicarbonate") - _NORMAL_BICARBONATE) < 1e-9:
        raise ValidationError(
            "bicarbonate: 24 mmol/L is the normal value the delta ratio divides by the fall from; with no fall "
            "the ratio is undefined (look at the delta gap instead)"
        )


def _ratio_outcome(gap: float, bicarbonate: float, extra: dict[str, float]) -> Outcome:
    value = _positive_zero((gap - _NORMAL_GAP) / (_NORMAL_BICARBONATE - bicarbonate))
    extra = {
        **extra,
        "delta_gap": round(gap - _NORMAL_GAP, 1),
        "delta_bicarbonate": round(_NORMAL_BICARBONATE - bicarbonate, 1),
    }
    if bicarbonate > _NORMAL_BICARBONATE:
        meaning = (
            "Bicarbonate above 24 mmol/L: no fall in bicarbonate, so the delta ratio does not apply (it compares "
            "the rise in anion gap with the fall in bicarbonate in a metabolic acidosis)."
        )
        return Outcome(value, "ratio", "not applicable", meaning, digits=2, extra=extra)
    band = band_for(round(value, 2), _DELTA_RATIO_BANDS)
    return Outcome(value, "ratio", band.category, band.meaning, digits=2, extra=extra)


def _delta_ratio(given: Given) -> Outcome:
    gap = _gap(given)
    return _ratio_outcome(gap, given.num("bicarbonate"), {"anion_gap": round(gap, 1)})


def _albumin_corrected_delta_ratio(given: Given) -> Outcome:
    gap = _corrected_gap(given)
    extra = {"anion_gap": round(_gap(given), 1), "albumin_corrected_anion_gap": round(gap, 1)}
    return _ratio_outcome(gap, given.num("bicarbonate"), extra)


_GAP_INPUTS = (_SODIUM, _CHLORIDE, _BICARBONATE)
_CORRECTED_GAP_INPUTS = (*_GAP_INPUTS, _ALBUMIN, _NORMAL_ALBUMIN)
_ALBUMIN_GAP_WARNING = (
    "Each 1 g/dL fall in albumin lowers the anion gap by about 2.5 mEq/L (Figge 1998): in hypoalbuminaemia an "
    "uncorrected normal gap can hide a high anion gap acidosis."
)


CALCULATORS = (
    Calculator(
        id="corrected_calcium",
        title="Calcium corrected for albumin",
        summary="total calcium (mg/dL) corrected for hypoalbuminaemia: Ca + 0.8 × (4.0 − albumin g/dL).",
        formula="corrected Ca = Ca + 0.8 × (normal albumin − albumin) (mg/dL, g/dL); Payne 1973",
        citation=_CALCIUM_CITATION,
        inputs=(
            Number(
                "calcium",
                "Serum total calcium",
                "calcium",
                2,
                20,
                aliases=("calcium", "Ca", "total calcium", "serum calcium", "Ca2+"),
            ),
            _ALBUMIN,
            _NORMAL_ALBUMIN,
            Choice(
                "coefficient",
                "Calcium per g/dL of albumin",
                {"bedside": 0, "payne_1973": 0},
                default="bedside",
                description="bedside (default): 0.8 mg/dL per g/dL (= 0.02 mmol/L per g/L); payne_1973: 1.0, the "
                "formula printed in Payne 1973 (calcium − albumin + 4.0).",
            ),
        ),
        compute=_corrected_calcium,
        warnings=(
            "Albumin-corrected calcium agrees poorly with ionised calcium, above all in kidney disease, critical "
            "illness and acid-base disturbance; measure ionised calcium when the decision depends on it "
            "(Lian IA, Åsberg A. BMJ Open 2018;8:e017703).",
        ),
    ),
    Calculator(
        id="sodium_correction",
        title="Sodium corrected for hyperglycaemia",
        summary="serum sodium corrected for glucose: + 1.6 (Katz, default) or 2.4 (Hillier) mEq/L per "
        "100 mg/dL glucose above 100.",
        formula="corrected Na = Na + factor × (glucose − 100) / 100; Katz 1973 (1.6) or Hillier 1999 (2.4)",
        citation=_SODIUM_CORRECTION,
        inputs=(
            _SODIUM,
            _GLUCOSE,
            Choice(
                "factor",
                "Correction factor",
                {"katz": 0, "hillier": 0},
                default="katz",
                description="katz (default): 1.6 mEq/L per 100 mg/dL (Katz 1973); hillier: 2.4 (Hillier 1999, "
                "measured in volunteers; the factor MDCalc and MedCalc-Bench use).",
            ),
        ),
        compute=_sodium_correction,
        warnings=(
            "Corrects for dilution by glucose-drawn water, not for pseudohyponatraemia from lipids or protein "
            "(an indirect ion-selective electrode artefact).",
        ),
    ),
    Calculator(
        id="serum_osmolality",
        title="Serum osmolality (calculated) and osmolal gap",
        summary="calculated serum osmolality 2 × Na + glucose/18 + BUN/2.8 (mOsm/kg), with ethanol and the "
        "osmolal gap when given.",
        formula="2 × Na + glucose/18 + BUN/2.8 (+ ethanol/3.7) (mmol/L, mg/dL); Smithline & Gardner 1976",
        citation=_OSMOLALITY,
        inputs=(
            _SODIUM,
            _GLUCOSE,
            _BUN,
            Number(
                "ethanol",
                "Serum ethanol",
                "ethanol",
                0,
                1500,
                required=False,
                aliases=("ethanol", "EtOH", "alcohol level", "blood alcohol", "serum alcohol"),
            ),
            Number(
                "measured_osmolality",
                "Measured serum osmolality",
                "osmolality",
                150,
                600,
                required=False,
                description="The laboratory's measured osmolality, for the osmolal gap.",
                aliases=("measured osmolality", "serum osmolality", "serum osmolarity", "Osm", "osmolality"),
            ),
            Choice(
                "ethanol_divisor",
                "Ethanol divisor",
                {"purssell": 0, "molar": 0},
                default="purssell",
                description="purssell (default): ethanol mg/dL / 3.7 (Purssell 2001); molar: / 4.6 (46.07 g/mol; "
                "Nguyen 2020).",
            ),
        ),
        compute=_serum_osmolality,
    ),
    Calculator(
        id="free_water_deficit",
        title="Free water deficit",
        summary="water deficit (L) in hypernatraemia: total body water (0.6/0.5/0.45 × weight by age and sex) "
        "× (Na/140 − 1).",
        formula="FWD = TBW fraction × weight × (Na / 140 − 1); TBW fractions per Adrogué & Madias 2000",
        citation=_FREE_WATER,
        inputs=(_AGE, SEX, WEIGHT, _SODIUM),
        compute=_free_water_deficit,
        warnings=(
            "The deficit excludes ongoing losses (urine, stool, insensible). Lower chronic hypernatraemia by "
            "about 10 mmol/L per day (Adrogué & Madias 2000); recheck sodium often.",
        ),
    ),
    Calculator(
        id="anion_gap",
        title="Anion gap",
        summary="serum anion gap Na − (Cl + HCO3) in mEq/L: low, normal (3–11, or 8–16 on older analysers) or high.",
        formula="AG = Na − (Cl + HCO3)",
        citation=_AG_CITATION,
        inputs=(*_GAP_INPUTS, _AG_REFERENCE),
        compute=_anion_gap,
        warnings=(_AG_RANGE_WARNING, _ALBUMIN_GAP_WARNING),
    ),
    Calculator(
        id="albumin_corrected_anion_gap",
        title="Anion gap corrected for albumin",
        summary="anion gap corrected for hypoalbuminaemia: AG + 2.5 × (4.0 − albumin g/dL) (Figge).",
        formula="corrected AG = Na − (Cl + HCO3) + 2.5 × (normal albumin − albumin); Figge 1998",
        citation=_FIGGE,
        inputs=(*_CORRECTED_GAP_INPUTS, _AG_REFERENCE),
        compute=_albumin_corrected_anion_gap,
        warnings=(_AG_RANGE_WARNING,),
    ),
    Calculator(
        id="delta_gap",
        title="Delta gap",
        summary="the rise of the anion gap above normal: AG − 12 (mEq/L).",
        formula="ΔAG = Na − (Cl + HCO3) − 12",
        citation=_DELTA,
        inputs=_GAP_INPUTS,
        compute=_delta_gap,
        warnings=(_DELTA_WARNING, _ALBUMIN_GAP_WARNING),
    ),
    Calculator(
        id="albumin_corrected_delta_gap",
        title="Delta gap, albumin-corrected",
        summary="the rise of the albumin-corrected anion gap above normal: AG + 2.5 × (4.0 − albumin) − 12.",
        formula="ΔAG = Na − (Cl + HCO3) + 2.5 × (normal albumin − albumin) − 12",
        citation=f"{_FIGGE}; {_DELTA}",
        inputs=_CORRECTED_GAP_INPUTS,
        compute=_albumin_corrected_delta_gap,
        warnings=(_DELTA_WARNING,),
    ),
    Calculator(
        id="delta_ratio",
        title="Delta ratio (delta-delta)",
        summary="(AG − 12) / (24 − HCO3): separates pure high anion gap acidosis from mixed disorders.",
        formula="Δ ratio = (AG − 12) / (24 − HCO3)",
        citation=_DELTA,
        inputs=_GAP_INPUTS,
        compute=_delta_ratio,
        check=_check_bicarbonate,
        warnings=(_DELTA_WARNING, _ALBUMIN_GAP_WARNING),
    ),
    Calculator(
        id="albumin_corrected_delta_ratio",
        title="Delta ratio, albumin-corrected",
        summary="(albumin-corrected AG − 12) / (24 − HCO3), for mixed acid-base disorders in hypoalbuminaemia.",
        formula="Δ ratio = (AG + 2.5 × (normal albumin − albumin) − 12) / (24 − HCO3)",
        citation=f"{_FIGGE}; {_DELTA}",
        inputs=_CORRECTED_GAP_INPUTS,
        compute=_albumin_corrected_delta_ratio,
        check=_check_bicarbonate,
        warnings=(_DELTA_WARNING,),
    ),
)
