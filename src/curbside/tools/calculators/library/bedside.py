"""Bedside scores: the Glasgow Coma Scale, and two sore-throat scores for streptococcal pharyngitis
(McIsaac's modified Centor score; FeverPAIN)."""

from __future__ import annotations

from curbside.errors import ValidationError
from curbside.tools.calculators.kit import (
    Above,
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

__all__ = ["CALCULATORS"]


# --- Glasgow Coma Scale --------------------------------------------------------------------------------

# Teasdale G, Jennett B. Assessment of coma and impaired consciousness: a practical scale. Lancet
# 1974;2:81-4 (eye opening, best verbal and best motor response); the 3-15 sum with motor flexion split
# into withdrawal (4) and abnormal flexion (3): Teasdale G, Jennett B. Acta Neurochir 1976;34:45-55.
_GCS = "Teasdale G, Jennett B. Lancet 1974;2:81-4; summed 15-point form: Acta Neurochir 1976;34:45-55"
_EYE = Choice(
    "eye",
    "Best eye response (E)",
    {"spontaneous": 4, "to_speech": 3, "to_pain": 2, "none": 1},
    description="spontaneous 4; to speech (to sound) 3; to pain (to pressure) 2; none 1.",
)
_VERBAL = Choice(
    "verbal",
    "Best verbal response (V)",
    {"oriented": 5, "confused": 4, "inappropriate_words": 3, "incomprehensible_sounds": 2, "none": 1},
    description="oriented 5; confused conversation 4; inappropriate words 3; incomprehensible sounds 2; none 1.",
)
_MOTOR = Choice(
    "motor",
    "Best motor response (M)",
    {
        "obeys_commands": 6,
        "localizes_pain": 5,
        "withdraws_from_pain": 4,
        "abnormal_flexion": 3,
        "extension": 2,
        "none": 1,
    },
    description="obeys commands 6; localises pain 5; withdraws (normal flexion) 4; abnormal flexion "
    "(decorticate) 3; extension (decerebrate) 2; none 1.",
)
# Head-injury severity by GCS, as conventionally cited: <= 8 severe (coma; Jennett & Teasdale),
# 9-12 moderate (Rimel RW et al. Neurosurgery 1982;11:344-51), 13-15 mild (Rimel RW et al.
# Neurosurgery 1981;9:221-8).
_GCS_BANDS = (
    Band(float("-inf"), "severe", "3–8: severe (coma)"),
    Band(9, "moderate", "9–12: moderate"),
    Band(13, "mild", "13–15: mild"),
)


def _gcs(given: Given) -> Outcome:
    total, _ = sum_points(given)
    band = band_for(total, _GCS_BANDS)
    parts = {key: int(_choice_points(given, key)) for key in ("eye", "verbal", "motor")}
    meaning = f"E{parts['eye']} V{parts['verbal']} M{parts['motor']} = {total:g} — {band.meaning}"
    extra = {key: float(value) for key, value in parts.items()}
    return Outcome(total, "points", band.category, meaning, extra=extra)


def _choice_points(given: Given, key: str) -> float:
    item = given.calculator.input(key)
    assert isinstance(item, Choice)
    return float(item.options[given.choice(key)])


# --- McIsaac (modified Centor) ----------------------------------------------------------------------

# McIsaac WJ, White D, Tannenbaum D, Low DE. A clinical score to reduce unnecessary antibiotic use in
# patients with sore throat. CMAJ 1998;158:75-83: temperature > 38 °C, absence of cough, swollen tender
# anterior cervical nodes, tonsillar swelling or exudate, 1 point each; age 3-14 +1, 15-44 0, >= 45 -1.
# Management (the table on p. 79): 0-1 no culture or antibiotic; 2-3 culture all, treat only if
# positive; >= 4 culture all, treat with penicillin on clinical grounds. (The paper reports the
# score as 0-4, counting -1 as 0 and 5 as 4; here the raw sum is shown.)
_MCISAAC = "McIsaac WJ et al. CMAJ 1998;158:75-83"
_CENTOR_ITEMS = (
    Criterion(
        "fever",
        "Temperature > 38 °C",
        aliases=("fever", "febrile", "temperature over 38", "T > 38", "pyrexia"),
        measured=Above("Temperature", "temperature", 38, 20, 46),
    ),
    Criterion(
        "no_cough",
        "Absence of cough",
        aliases=("no cough", "denies cough", "without cough", "absence of cough"),
    ),
    Criterion(
        "tender_anterior_nodes",
        "Swollen, tender anterior cervical lymph nodes",
        aliases=(
            "tender anterior cervical lymphadenopathy",
            "swollen cervical nodes",
            "cervical adenopathy",
            "cervical lymphadenopathy",
            "swollen cervical lymph nodes",
            "enlarged cervical lymph nodes",
            "enlarged cervical nodes",
            "tender cervical lymph nodes",
        ),
    ),
    Criterion(
        "tonsillar_swelling_or_exudate",
        "Tonsillar swelling or exudate",
        aliases=("tonsillar exudate", "exudative tonsils", "tonsillar swelling", "enlarged tonsils"),
    ),
)
_CENTOR_AGE = Number(
    "age",
    "Age",
    "age",
    0,
    120,
    description="3-14 years +1, 15-44 years 0, 45 years or older -1. The score applies from age 3.",
    aliases=("age", "year-old", "yo", "years old"),
)
_CENTOR_BANDS = (
    Band(float("-inf"), "low", "≤ 1: streptococcal infection unlikely — no throat culture or antibiotic"),
    Band(2, "intermediate", "2–3: culture (or rapid antigen test); antibiotic only if positive"),
    Band(4, "high", "≥ 4: culture, and treat with penicillin on clinical grounds"),
)
# Fine AM, Nizet V, Mandl KD. Large-scale validation of the Centor and McIsaac scores to predict group A
# streptococcal pharyngitis. Arch Intern Med 2012;172:847-52 (206,870 patients aged >= 3 years):
# GAS-positive at McIsaac <= 0, 1, 2, 3, >= 4: 8 %, 14 %, 23 %, 37 %, 55 %.
_FINE_2012 = {0: 8.0, 1: 14.0, 2: 23.0, 3: 37.0, 4: 55.0}


def _age_points(age: float) -> int:
    if age < 15:
        return 1
    if age >= 45:
        return -1
    return 0


def _check_centor_age(given: Given) -> None:
    if given.num("age") < 3:
        raise ValidationError("centor: the McIsaac score was derived and validated from age 3 years; not for age < 3")


def _centor(given: Given) -> Outcome:
    criteria, _ = sum_points(given)
    age_points = _age_points(given.num("age"))
    total = criteria + age_points
    band = band_for(total, _CENTOR_BANDS)
    extra = {
        "age_points": float(age_points),
        "gas_positive_percent_fine_2012": _FINE_2012[int(min(4, max(0, total)))],
    }
    return Outcome(total, "points", band.category, band.meaning, extra=extra)


# --- FeverPAIN ------------------------------------------------------------------------------------------

# Little P et al. Clinical score and rapid antigen detection test to guide antibiotic use for sore
# throats: randomised controlled trial of PRISM (primary care streptococcal management).
# BMJ 2013;347:f5806 (score derived in Little P et al. Br J Gen Pract 2012;62:e787-94): Fever in the past
# 24 h, Purulence, Attend rapidly (<= 3 days), severely Inflamed tonsils, No cough or coryza; 1 point each.
# Likelihood of streptococcus and strategy: NICE NG84 (2018), Sore throat (acute): antimicrobial
# prescribing — 0-1: 13-18 %, no antibiotic; 2-3: 34-40 %, consider no or a back-up antibiotic;
# 4-5: 62-65 %, consider an immediate or a back-up antibiotic.
_FEVERPAIN = "Little P et al. BMJ 2013;347:f5806; bands: NICE NG84 (2018)"
_FEVERPAIN_ITEMS = (
    Criterion("fever_24h", "Fever in the past 24 hours", aliases=("fever", "febrile", "temperature", "pyrexia")),
    Criterion("purulence", "Purulence (pus on the tonsils)", aliases=("purulent tonsils", "tonsillar exudate", "pus")),
    Criterion(
        "attend_rapidly",
        "Attends rapidly: symptom onset ≤ 3 days ago",
        aliases=("onset within 3 days", "started yesterday", "2-day history", "symptom onset"),
    ),
    Criterion(
        "inflamed_tonsils",
        "Severely inflamed tonsils",
        aliases=("severe tonsillar inflammation", "severely inflamed tonsils", "very red swollen tonsils"),
    ),
    Criterion(
        "no_cough_or_coryza",
        "No cough or coryza",
        aliases=("no cough", "no coryza", "no runny nose", "no nasal congestion"),
    ),
)
_FEVERPAIN_BANDS = (
    Band(float("-inf"), "low", "0–1: 13–18 % likelihood of streptococcus — no antibiotic"),
    Band(
        2, "intermediate", "2–3: 34–40 % likelihood of streptococcus — consider no antibiotic or a back-up prescription"
    ),
    Band(4, "high", "4–5: 62–65 % likelihood of streptococcus — consider an immediate or a back-up antibiotic"),
)


def _feverpain(given: Given) -> Outcome:
    total, _ = sum_points(given)
    band = band_for(total, _FEVERPAIN_BANDS)
    return Outcome(total, "points", band.category, band.meaning)


CALCULATORS = (
    Calculator(
        id="gcs",
        title="Glasgow Coma Scale",
        summary="Glasgow Coma Scale 3–15 from the best eye, verbal and motor responses; ≤ 8 severe, 9–12 moderate, 13–15 mild.",
        formula="GCS = E (1–4) + V (1–5) + M (1–6)",
        citation=_GCS,
        inputs=(_EYE, _VERBAL, _MOTOR),
        compute=_gcs,
        warnings=(
            "Report the three components, not only the sum; when a component cannot be tested (intubation, "
            "eye swelling, aphasia) record it as not testable rather than as 1 (Teasdale G et al. Lancet "
            "Neurol 2014;13:844-54).",
        ),
    ),
    Calculator(
        id="centor",
        title="McIsaac (modified Centor) score",
        summary="McIsaac modified Centor score for group A streptococcal pharyngitis: four signs plus an age adjustment.",
        formula="McIsaac 1998: fever, no cough, tender anterior nodes, tonsillar swelling/exudate (+1 each); age 3–14 +1, ≥ 45 −1",
        citation=_MCISAAC,
        inputs=(_CENTOR_AGE, *_CENTOR_ITEMS),
        compute=_centor,
        check=_check_centor_age,
        warnings=("For sore throat in an acute upper respiratory infection, age 3 years and over.",),
    ),
    Calculator(
        id="feverpain",
        title="FeverPAIN score",
        summary="FeverPAIN 0–5 for streptococcal sore throat; guides no, back-up, or immediate antibiotics (NICE NG84).",
        formula="FeverPAIN (Little 2013): Fever, Purulence, Attend rapidly, Inflamed tonsils, No cough/coryza (+1 each)",
        citation=_FEVERPAIN,
        inputs=_FEVERPAIN_ITEMS,
        compute=_feverpain,
        warnings=("Derived and tested in primary care in patients aged 3 years and over with acute sore throat.",),
    ),
)
