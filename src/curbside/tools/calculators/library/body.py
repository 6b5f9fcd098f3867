"""Body size: BMI, ideal and adjusted body weight."""

from __future__ import annotations

from curbside.tools.calculators.kit import Band, Calculator, Choice, Given, Number, Outcome, band_for

__all__ = ["CALCULATORS", "ideal_body_weight"]

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
)
