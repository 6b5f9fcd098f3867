"""Venous thromboembolism: Wells for DVT (2003 two-tier; 1997 three-tier)."""

from __future__ import annotations

from curbside.tools.calculators.kit import Band, Calculator, Criterion, Given, Outcome, band_for, sum_points

__all__ = ["CALCULATORS"]

# Wells PS et al. Evaluation of D-dimer in the diagnosis of suspected deep-vein thrombosis.
# N Engl J Med 2003;349:1227-35, Table 1 (the 1997 items plus previously documented DVT; two tiers).
_WELLS_2003 = "Wells PS et al. N Engl J Med 2003;349:1227-35 (Table 1)"
# Wells PS et al. Value of assessment of pretest probability of deep-vein thrombosis in clinical
# management. Lancet 1997;350:1795-8, Table 1 (nine items; low <= 0, moderate 1-2, high >= 3).
_WELLS_1997 = "Wells PS et al. Lancet 1997;350:1795-8 (Table 1)"

_DVT_ITEMS = (
    Criterion("active_cancer", "Active cancer (treatment ongoing, within 6 months, or palliative)"),
    Criterion("paralysis_or_cast", "Paralysis, paresis, or recent plaster immobilisation of the legs"),
    Criterion("bedridden_or_surgery", "Recently bedridden ≥ 3 days, or major surgery within 12 weeks"),
    Criterion("localized_tenderness", "Localised tenderness along the deep venous system"),
    Criterion("entire_leg_swollen", "Entire leg swollen"),
    Criterion("calf_swelling_3cm", "Calf swelling ≥ 3 cm more than the other side (10 cm below tibial tuberosity)"),
    Criterion("pitting_edema", "Pitting oedema confined to the symptomatic leg"),
    Criterion("collateral_veins", "Collateral superficial veins (non-varicose)"),
)
_PREVIOUS_DVT = Criterion("previous_dvt", "Previously documented DVT")
_ALTERNATIVE = Criterion("alternative_diagnosis", "Alternative diagnosis at least as likely as DVT", points=-2)

_BANDS_2003 = (
    Band(float("-inf"), "DVT unlikely", "< 2: DVT unlikely — a negative D-dimer can exclude DVT"),
    Band(2, "DVT likely", "≥ 2: DVT likely — imaging (compression ultrasound) indicated"),
)
_BANDS_1997 = (
    Band(float("-inf"), "low", "≤ 0: low pretest probability (about 3 % DVT in the derivation cohort)"),
    Band(1, "moderate", "1–2: moderate pretest probability (about 17 %)"),
    Band(3, "high", "≥ 3: high pretest probability (about 75 %)"),
)


def _points_outcome(bands: tuple[Band, ...]):  # type: ignore[no-untyped-def]
    def compute(given: Given) -> Outcome:
        total, _ = sum_points(given)
        band = band_for(total, bands)
        return Outcome(total, "points", band.category, band.meaning)

    return compute


CALCULATORS = (
    Calculator(
        id="wells_dvt",
        title="Wells score for DVT (2003)",
        summary="pretest probability of deep-vein thrombosis from ten bedside items; ≥ 2 likely, < 2 unlikely.",
        formula="Wells DVT 2003, two-tier",
        citation=_WELLS_2003,
        inputs=(*_DVT_ITEMS, _PREVIOUS_DVT, _ALTERNATIVE),
        compute=_points_outcome(_BANDS_2003),
    ),
    Calculator(
        id="wells_dvt_1997",
        title="Wells score for DVT (1997, three-tier)",
        summary="the original nine-item Wells DVT model: low (≤ 0), moderate (1–2), high (≥ 3) pretest probability.",
        formula="Wells DVT 1997, three-tier",
        citation=_WELLS_1997,
        inputs=(*_DVT_ITEMS, _ALTERNATIVE),
        compute=_points_outcome(_BANDS_1997),
    ),
)
