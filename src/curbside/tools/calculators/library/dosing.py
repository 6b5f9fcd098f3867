"""Dosing arithmetic: maintenance fluids (Holliday-Segar), glucocorticoid dose equivalence, and the
daily morphine milligram equivalents (MME) of an opioid regimen (CDC 2022)."""

from __future__ import annotations

from curbside.errors import ValidationError
from curbside.tools.calculators.kit import Band, Calculator, Choice, Given, Number, Outcome, band_for
from curbside.tools.calculators.library.body import WEIGHT

__all__ = ["CALCULATORS"]


# --- maintenance fluids ------------------------------------------------------------------------------

# Holliday MA, Segar WE. The maintenance need for water in parenteral fluid therapy. Pediatrics
# 1957;19:823-32: 100 mL/kg/day for the first 10 kg, 50 mL/kg/day for the next 10 kg, 20 mL/kg/day for
# each kg over 20. Its hourly form, the "4-2-1 rule": 4 mL/kg/h, 2 mL/kg/h, 1 mL/kg/h over the same steps.
_HOLLIDAY_SEGAR = "Holliday MA, Segar WE. Pediatrics 1957;19:823-32"
_STEPS = ((10.0, 4.0, 100.0), (10.0, 2.0, 50.0), (float("inf"), 1.0, 20.0))  # kg in step, mL/kg/h, mL/kg/day


def _stepwise(weight: float, column: int) -> float:
    total, left = 0.0, weight
    for step in _STEPS:
        used = min(left, step[0])
        total += used * step[column]
        left -= used
        if left <= 0:
            break
    return total


def _maintenance_fluids(given: Given) -> Outcome:
    weight = given.num("weight")
    hourly_421 = _stepwise(weight, 1)
    daily = _stepwise(weight, 2)
    value = hourly_421 if given.choice("rule") == "4-2-1" else daily / 24
    extra = {
        "ml_per_h_4_2_1": round(hourly_421, 1),
        "ml_per_day_100_50_20": round(daily),
        "ml_per_h_100_50_20": round(daily / 24, 1),
    }
    return Outcome(value, "mL/h", digits=1, extra=extra)


# --- glucocorticoid equivalence ----------------------------------------------------------------------

# Equivalent anti-inflammatory (glucocorticoid) doses, mg: Meikle AW, Tyler FH. Potency and duration
# of action of glucocorticoids. Am J Med 1977;63:200-7, as tabulated in the drug-information tables
# (cortisone 25, hydrocortisone 20, prednisone 5, prednisolone 5, methylprednisolone 4,
# triamcinolone 4, dexamethasone 0.75, betamethasone 0.6-0.75). Betamethasone is the one entry tables
# disagree on: 0.6 mg (US drug-information tables) or 0.75 mg (British National Formulary,
# "Glucocorticoid therapy": prednisolone 5 mg = betamethasone 750 micrograms).
_STEROIDS = (
    "Meikle AW, Tyler FH. Am J Med 1977;63:200-7 (equivalent glucocorticoid doses); BNF for betamethasone 0.75 mg"
)
_EQUIVALENT_MG = {
    "hydrocortisone": 20.0,
    "cortisone": 25.0,
    "prednisone": 5.0,
    "prednisolone": 5.0,
    "methylprednisolone": 4.0,
    "triamcinolone": 4.0,
    "dexamethasone": 0.75,
    "betamethasone": 0.6,  # or 0.75: the betamethasone_mg convention
}
_DRUGS = {name: 0 for name in _EQUIVALENT_MG}


def _equivalent(drug: str, given: Given) -> float:
    if drug == "betamethasone":
        return float(given.choice("betamethasone_mg"))
    return _EQUIVALENT_MG[drug]


def _steroid_conversion(given: Given) -> Outcome:
    source, target = given.choice("from_drug"), given.choice("to_drug")
    dose = given.num("dose")
    per_unit = dose / _equivalent(source, given)  # in "equivalent units" (5 mg prednisone each)
    value = per_unit * _equivalent(target, given)
    meaning = (
        f"{dose:g} mg {source} ≈ {round(value, 2):g} mg {target} "
        f"(equivalent doses: {source} {_equivalent(source, given):g} mg = {target} {_equivalent(target, given):g} mg)"
    )
    extra = {
        "prednisone_equivalent_mg": round(per_unit * 5.0, 2),
        "hydrocortisone_equivalent_mg": round(per_unit * 20.0, 1),
    }
    return Outcome(value, "mg", meaning=meaning, digits=2, extra=extra)


_STEROID_INPUTS = (
    Choice("from_drug", "Glucocorticoid taken", _DRUGS, description="The steroid the dose is of (oral or IV)."),
    Number(
        "dose",
        "Dose of the glucocorticoid taken",
        "dose_mg",
        0.01,
        2000,
        description="A single or daily dose; the result is the same kind of dose of the other steroid.",
        # the steroid's own names: "mg of" or "dose" alone would take any drug's dose in a note
        aliases=(*_EQUIVALENT_MG, "steroid dose"),
    ),
    Choice("to_drug", "Glucocorticoid to convert to", _DRUGS, in_note=False),
    Choice(
        "betamethasone_mg",
        "Betamethasone dose equivalent to 5 mg prednisone",
        {"0.6": 0, "0.75": 0},
        default="0.6",
        description="Used only with betamethasone: 0.6 mg (US drug-information tables) or 0.75 mg (BNF).",
    ),
)


# --- morphine milligram equivalents -------------------------------------------------------------------

# Dowell D, Ragan KR, Jones CM, Baldwin GT, Chou R. CDC Clinical Practice Guideline for Prescribing
# Opioids for Pain — United States, 2022. MMWR Recomm Rep 2022;71(No. RR-3):1-95, Table (morphine
# milligram equivalent doses for commonly prescribed opioids): conversion factors per mg/day, fentanyl
# transdermal per mcg/h.
_CDC_2022 = "Dowell D et al. CDC Clinical Practice Guideline for Prescribing Opioids for Pain. MMWR Recomm Rep 2022;71(RR-3):1-95 (Table)"
# Fentanyl buccal/sublingual tablets and lozenges are not in that table: 0.13 MME per mcg is CDC's
# analytic "Opioid NDC and Oral MME Conversion File" factor (130 per mg).
_OPIOIDS = (
    # key, label, MME per mg, highest plausible single dose (mg; our bound, not from CDC), aliases
    ("codeine", "Codeine", 0.15, 240.0, ("codeine", "Tylenol #3")),
    ("hydrocodone", "Hydrocodone", 1.0, 300.0, ("hydrocodone", "Norco", "Vicodin")),
    ("hydromorphone", "Hydromorphone", 5.0, 200.0, ("hydromorphone", "Dilaudid")),
    ("methadone", "Methadone", 4.7, 600.0, ("methadone",)),
    ("morphine", "Morphine", 1.0, 1000.0, ("morphine", "MS Contin")),
    ("oxycodone", "Oxycodone", 1.5, 800.0, ("oxycodone", "OxyContin", "Percocet")),
    ("oxymorphone", "Oxymorphone", 3.0, 200.0, ("oxymorphone", "Opana")),
    ("tapentadol", "Tapentadol", 0.4, 500.0, ("tapentadol", "Nucynta")),
    ("tramadol", "Tramadol", 0.2, 400.0, ("tramadol", "Ultram")),
    ("fentanyl_buccal", "Fentanyl buccal/sublingual", 130.0, 1.6, ("fentanyl buccal", "Actiq", "Fentora")),
)
_FENTANYL_PATCH_FACTOR = 2.4  # MME/day per mcg/h (CDC 2022 Table)

# CDC 2022, recommendation 4: before increasing total dosage to >= 50 MME/day, pause and carefully
# reassess individual benefits and risks; recommendation 8: offer naloxone when overdose risk is higher,
# e.g. dosages >= 50 MME/day. CDC 2016 (Dowell D, Haegerich TM, Chou R. MMWR Recomm Rep 2016;65(RR-1):1-49),
# recommendation 5: avoid increasing dosage to >= 90 MME/day or carefully justify a decision to do so.
_MME_BANDS = (
    Band(float("-inf"), "< 50 MME/day", "< 50 MME/day: below the CDC thresholds (risk still rises with dose)"),
    Band(
        50,
        "≥ 50 MME/day",
        "≥ 50 MME/day: CDC 2022 — reassess benefits and risks before increasing further; offer naloxone",
    ),
    Band(
        90,
        "≥ 90 MME/day",
        "≥ 90 MME/day: CDC 2016 recommendation 5 — avoid, or carefully justify, dosages ≥ 90 MME/day; offer naloxone",
    ),
)


def _opioid_inputs() -> tuple[Number, ...]:
    inputs: list[Number] = []
    for key, label, _, high, aliases in _OPIOIDS:
        unit_note = " Give µg as {value, unit: 'mcg'}." if key == "fentanyl_buccal" else ""
        low = 0.01 if key == "fentanyl_buccal" else 0.1
        inputs.append(
            Number(
                f"{key}_dose",
                f"{label} dose",
                "dose_mg",
                low,
                high,
                required=False,
                description=f"One dose, as taken (oral).{unit_note}",
                aliases=tuple(f"{alias} dose" for alias in aliases) + aliases,
            )
        )
        inputs.append(
            Number(
                f"{key}_doses_per_day",
                f"{label} doses per day",
                "count",
                0.1,
                24,
                required=False,
                description="How many doses a day (e.g. 4 for every 6 hours).",
                # this opioid's own words only: "BID" or "q6h" alone could be another drug's frequency
                aliases=(f"{aliases[0]} times a day", f"{aliases[0]} every"),
            )
        )
    inputs.append(
        Number(
            "fentanyl_patch",
            "Transdermal fentanyl (patch strength)",
            "dose_mcg_h",
            1,
            1000,
            required=False,
            description="Total patch strength in mcg/h (sum of patches worn).",
            aliases=("fentanyl patch", "Duragesic", "transdermal fentanyl", "mcg/h patch"),
        )
    )
    return tuple(inputs)


def _check_mme(given: Given) -> None:
    any_given = given.has("fentanyl_patch")
    for key, *_ in _OPIOIDS:
        dose, per_day = given.has(f"{key}_dose"), given.has(f"{key}_doses_per_day")
        if dose != per_day:
            lacking = f"{key}_doses_per_day" if dose else f"{key}_dose"
            raise ValidationError(f"{key}: give both the dose and the doses per day ({lacking} is missing)")
        any_given = any_given or dose
    if not any_given:
        raise ValidationError(
            "mme needs at least one opioid: a <opioid>_dose with its <opioid>_doses_per_day, or fentanyl_patch"
        )


def _mme(given: Given) -> Outcome:
    total = 0.0
    extra: dict[str, float] = {}
    for key, _, factor, _, _ in _OPIOIDS:
        if given.has(f"{key}_dose"):
            daily = given.num(f"{key}_dose") * given.num(f"{key}_doses_per_day") * factor
            extra[f"mme_{key}"] = round(daily, 2)
            total += daily
    if given.has("fentanyl_patch"):
        daily = given.num("fentanyl_patch") * _FENTANYL_PATCH_FACTOR
        extra["mme_fentanyl_patch"] = round(daily, 2)
        total += daily
    band = band_for(round(total, 1), _MME_BANDS)
    warnings: list[str] = []
    if "mme_methadone" in extra:
        warnings.append(
            "Methadone: one factor (4.7) understates risk at higher doses; its long, variable half-life makes "
            "conversions to and from it especially hazardous."
        )
    if "mme_fentanyl_buccal" in extra:
        warnings.append(
            "Fentanyl buccal/sublingual: factor 0.13 MME/mcg from CDC's analytic conversion file, not the "
            "2022 guideline's clinical table."
        )
    if total >= 90 - 1e-9:
        warnings.append(
            "≥ 90 MME/day: CDC 2016 advised avoiding, or carefully justifying, ≥ 90 MME/day; offer naloxone."
        )
    elif total >= 50 - 1e-9:
        warnings.append("≥ 50 MME/day: CDC 2022 advises reassessing benefit and risk; offer naloxone.")
    return Outcome(total, "MME/day", band.category, band.meaning, digits=1, warnings=warnings, extra=extra)


CALCULATORS = (
    Calculator(
        id="maintenance_fluids",
        title="Maintenance fluids (Holliday-Segar)",
        summary="hourly maintenance IV fluid rate from weight by the 4-2-1 rule (or 100-50-20 mL/kg/day).",
        formula="Holliday-Segar 1957: 4 mL/kg/h first 10 kg, 2 mL/kg/h next 10 kg, 1 mL/kg/h above 20 kg",
        citation=_HOLLIDAY_SEGAR,
        inputs=(
            WEIGHT,
            Choice(
                "rule",
                "Rule",
                {"4-2-1": 0, "100-50-20": 0},
                default="4-2-1",
                description="4-2-1 mL/kg/h (the hourly rule) or 100-50-20 mL/kg/day ÷ 24 (the 1957 daily figures).",
            ),
        ),
        compute=_maintenance_fluids,
        warnings=(
            "An estimate of water needs in health: it does not include deficits or ongoing losses. The AAP "
            "guideline (Feld LG et al. Pediatrics 2018;142:e20183083) recommends isotonic fluids for "
            "maintenance in hospitalised children, since hypotonic fluids risk hyponatraemia.",
        ),
    ),
    Calculator(
        id="steroid_conversion",
        title="Glucocorticoid dose conversion",
        summary="the equivalent dose of another systemic glucocorticoid (e.g. prednisone to dexamethasone).",
        formula="dose × (equivalent dose of target ÷ equivalent dose of source); prednisone 5 mg = hydrocortisone 20 mg",
        citation=_STEROIDS,
        inputs=_STEROID_INPUTS,
        compute=_steroid_conversion,
        warnings=(
            "Equivalent glucocorticoid (anti-inflammatory) effect only: mineralocorticoid effect and duration "
            "of action differ (hydrocortisone and cortisone have mineralocorticoid effect; dexamethasone and "
            "betamethasone have almost none). For oral and intravenous systemic doses, not inhaled, topical "
            "or intra-articular ones.",
        ),
    ),
    Calculator(
        id="mme",
        title="Morphine milligram equivalents per day",
        summary="total daily morphine milligram equivalents (MME/day) of an opioid regimen, CDC 2022 factors.",
        formula="Σ dose × doses per day × CDC 2022 conversion factor; fentanyl patch mcg/h × 2.4",
        citation=_CDC_2022,
        inputs=_opioid_inputs(),
        compute=_mme,
        check=_check_mme,
        warnings=(
            "MME compares overdose risk across regimens; it is not a dose-conversion table. When switching "
            "opioids, start the new one well below the calculated equivalent (incomplete cross-tolerance). "
            "Factors are for oral doses (transdermal for the fentanyl patch).",
        ),
    ),
)
