"""Body size: BMI, ideal body weight (Devine), adjusted body weight, target weight for a BMI, and body
surface area (Mosteller; Du Bois)."""

from __future__ import annotations

import math

from curbside.tools.calculators.kit import Band, Calculator, Choice, Given, Number, Outcome, band_for

__all__ = ["CALCULATORS", "HEIGHT", "SEX", "WEIGHT", "ideal_body_weight"]

# WHO. Obesity: preventing and managing the global epidemic. Technical Report Series 894, 2000,
# Table 2.1 (BMI classification of adults).
_WHO_BMI = "WHO Technical Report Series 894 (2000), Table 2.1"
_BMI_BANDS = (
    Band(float("-inf"), "underweight", "< 18.5: underweight"),
    Band(18.5, "normal", "18.5–24.9: normal range"),
    Band(25, "overweight", "25.0–29.9: pre-obese (overweight)"),
    Band(30, "obese class I", "30.0–34.9: obese class I"),
    Band(35, "obese class II", "35.0–39.9: obese class II"),
    Band(40, "obese class III", "≥ 40: obese class III"),
)

WEIGHT = Number("weight", "Weight", "weight", 0.5, 500)
HEIGHT = Number("height", "Height", "height", 30, 272)
SEX = Choice("sex", "Sex", {"male": 0, "female": 0})


def _bmi(given: Given) -> Outcome:
    metres = given.num("height") / 100
    value = given.num("weight") / metres**2
    band = band_for(round(value, 1), _BMI_BANDS)
    warnings = ["Adult categories; for children use BMI-for-age percentiles."]
    return Outcome(value, "kg/m²", band.category, band.meaning, digits=1, warnings=warnings)


def ideal_body_weight(height_cm: float, sex: str) -> float:
    """Devine BJ. Gentamicin therapy. Drug Intell Clin Pharm 1974;8:650-5: 50 kg (men) or 45.5 kg (women)
    plus 2.3 kg per inch over 5 feet."""
    base = 50.0 if sex == "male" else 45.5
    return base + 2.3 * (height_cm / 2.54 - 60)


# Devine BJ. Gentamicin therapy. Drug Intell Clin Pharm 1974;8:650-5 (ideal body weight: 50 kg for men,
# 45.5 kg for women, + 2.3 kg per inch of height over 5 feet).
_DEVINE = "Devine BJ. Drug Intell Clin Pharm 1974;8:650-5"
_FIVE_FEET_CM = 60 * 2.54


def _ibw(given: Given) -> Outcome:
    height = given.num("height")
    warnings: list[str] = []
    if height < _FIVE_FEET_CM:
        warnings.append(
            "Height under 5 ft (152.4 cm): the Devine formula subtracts 2.3 kg per inch below 5 ft, "
            "outside the range it was meant for."
        )
    value = ideal_body_weight(height, given.choice("sex"))
    return Outcome(value, "kg", digits=1, warnings=warnings)


# Adjusted (dosing) body weight = IBW + 0.4 x (actual - IBW): the 0.4 correction factor of
# Bauer LA et al. Eur J Clin Pharmacol 1983;24:643-7 (aminoglycosides in morbid obesity), as taught in
# Bauer LA, Applied Clinical Pharmacokinetics, 2nd ed., 2008, ch. 3; IBW by Devine 1974.
_ADJUSTED = "Bauer LA et al. Eur J Clin Pharmacol 1983;24:643-7 (factor 0.4); IBW: Devine BJ 1974"
_ADJUSTMENT = 0.4


def _adjusted(given: Given) -> Outcome:
    actual = given.num("weight")
    ideal = ideal_body_weight(given.num("height"), given.choice("sex"))
    value = ideal + _ADJUSTMENT * (actual - ideal)
    warnings: list[str] = []
    if actual <= ideal:
        warnings.append(
            "Actual weight is at or below ideal body weight: an adjusted weight is not meaningful; "
            "dose on actual weight."
        )
    extra = {"ideal_body_weight_kg": round(ideal, 1), "percent_of_ideal": round(100 * actual / ideal)}
    return Outcome(value, "kg", digits=1, warnings=warnings, extra=extra)


# Target weight for a chosen BMI: weight = BMI x height (m)², the BMI definition rearranged
# (WHO Technical Report Series 894, 2000, Table 2.1 for the band the target falls in).
_TARGET = "BMI definition, WHO Technical Report Series 894 (2000)"


def _target(given: Given) -> Outcome:
    metres = given.num("height") / 100
    value = given.num("target_bmi") * metres**2
    band = band_for(given.num("target_bmi"), _BMI_BANDS)
    return Outcome(value, "kg", band.category, f"Target BMI in the WHO band {band.meaning}", digits=1)


# Mosteller RD. Simplified calculation of body-surface area. N Engl J Med 1987;317:1098 (letter):
# BSA (m²) = sqrt(height (cm) x weight (kg) / 3600).
# Du Bois D, Du Bois EF. A formula to estimate the approximate surface area if height and weight be
# known. Arch Intern Med 1916;17:863-71: A (cm²) = W (kg)^0.425 x H (cm)^0.725 x 71.84.
_BSA = "Mosteller RD. N Engl J Med 1987;317:1098; Du Bois D, Du Bois EF. Arch Intern Med 1916;17:863-71"


def _mosteller(height_cm: float, weight_kg: float) -> float:
    return math.sqrt(height_cm * weight_kg / 3600)


def _dubois(height_cm: float, weight_kg: float) -> float:
    return 71.84 * weight_kg**0.425 * height_cm**0.725 / 10_000


def _bsa(given: Given) -> Outcome:
    height, weight = given.num("height"), given.num("weight")
    values = {"mosteller": _mosteller(height, weight), "dubois": _dubois(height, weight)}
    formula = given.choice("formula")
    extra = {f"bsa_{name}_m2": round(value, 2) for name, value in values.items()}
    return Outcome(values[formula], "m²", digits=2, extra=extra)


_BMI_INPUT = Number(
    "target_bmi",
    "Target BMI",
    "bmi",
    12,
    60,
    description="The body mass index to reach, e.g. 25.",
    aliases=("target BMI", "goal BMI", "desired BMI", "BMI goal"),
)
_BSA_FORMULA = Choice(
    "formula",
    "BSA formula",
    {"mosteller": 0, "dubois": 0},
    default="mosteller",
    description="Mosteller 1987 (the usual default in oncology dosing) or Du Bois 1916.",
)


CALCULATORS = (
    Calculator(
        id="bmi",
        title="Body mass index",
        summary="weight / height² in kg/m², with the WHO adult category.",
        formula="BMI = weight (kg) / height (m)²",
        citation=_WHO_BMI,
        inputs=(WEIGHT, HEIGHT),
        compute=_bmi,
    ),
    Calculator(
        id="ideal_body_weight",
        title="Ideal body weight (Devine)",
        summary="Devine ideal body weight (kg) from height and sex, for drug dosing and ventilator settings.",
        formula="Devine 1974: 50 kg (men) / 45.5 kg (women) + 2.3 kg per inch over 5 ft",
        citation=_DEVINE,
        inputs=(SEX, HEIGHT),
        compute=_ibw,
        warnings=("Ideal body weight is a dosing convention, not a health target.",),
    ),
    Calculator(
        id="adjusted_body_weight",
        title="Adjusted body weight",
        summary="dosing weight in obesity: ideal body weight + 0.4 × (actual − ideal), in kg.",
        formula="ABW = IBW (Devine) + 0.4 × (actual weight − IBW)",
        citation=_ADJUSTED,
        inputs=(SEX, WEIGHT, HEIGHT),
        compute=_adjusted,
        warnings=(
            "The 0.4 factor was derived for aminoglycosides; drug labels and local protocols may name "
            "another dosing weight.",
        ),
    ),
    Calculator(
        id="target_weight",
        title="Target weight for a BMI",
        summary="the weight (kg) at which a patient of this height has the target BMI: BMI × height².",
        formula="weight = target BMI × height (m)²",
        citation=_TARGET,
        inputs=(_BMI_INPUT, HEIGHT),
        compute=_target,
    ),
    Calculator(
        id="bsa",
        title="Body surface area",
        summary="body surface area (m²) by Mosteller (default) or Du Bois, for chemotherapy dosing and indexing.",
        formula="Mosteller 1987: √(cm × kg / 3600); Du Bois 1916: 0.007184 × kg^0.425 × cm^0.725",
        citation=_BSA,
        inputs=(WEIGHT, HEIGHT, _BSA_FORMULA),
        compute=_bsa,
    ),
)
