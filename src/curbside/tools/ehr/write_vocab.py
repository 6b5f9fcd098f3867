"""The vocabulary the write tools speak: vital signs and their LOINC codes, UCUM units, SNOMED CT routes,
dose units, dosing frequencies, order categories and note types — each with the words a clinician reads.

The plausibility ranges and dose ceilings are typo guards (a 1200 mmHg systolic, 50000 mg of anything),
not clinical limits: a value inside them may still be wrong for this patient, and the clinician who
confirms the write is the one who judges that.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DIASTOLIC",
    "DIASTOLIC_RANGE",
    "DOSE_UNITS",
    "FREQUENCY_EXAMPLES",
    "NOTE_TYPES",
    "ROUTES",
    "SERVICE_CATEGORIES",
    "SYSTOLIC",
    "SYSTOLIC_RANGE",
    "VITALS",
    "Coding",
    "DoseUnit",
    "Frequency",
    "Route",
    "Unit",
    "VitalKind",
    "dose_unit",
    "parse_frequency",
    "route_name",
]


@dataclass(frozen=True)
class Coding:
    code: str
    display: str


def _same(value: float) -> float:
    return value


@dataclass(frozen=True)
class Unit:
    """A UCUM unit (https://ucum.org) and how to bring a value in it to its kind's reference unit."""

    code: str  # UCUM, case-sensitive
    display: str
    to_reference: Callable[[float], float] = field(default=_same, compare=False)


@dataclass(frozen=True)
class VitalKind:
    """One vital sign: its LOINC code as the FHIR R4 vital-signs profiles give it
    (https://hl7.org/fhir/R4/observation-vitalsigns.html), its units and its plausible range."""

    name: str  # words: "heart rate"
    coding: tuple[Coding, ...]
    units: dict[str, Unit]  # by every spelling accepted, lower case
    default_unit: str  # a key of units
    low: float  # plausible range in the reference unit, inclusive
    high: float
    reference_unit: str  # the unit low and high are in, as words

    def unit(self, spelled: str | None) -> Unit | None:
        return self.units.get((spelled or self.default_unit).strip().lower().replace(" ", ""))


_MMHG = Unit("mm[Hg]", "mmHg")
_PER_MIN = Unit("/min", "/min")
_CEL = Unit("Cel", "°C")
_DEGF = Unit("[degF]", "°F", lambda f: (f - 32) * 5 / 9)
_KG = Unit("kg", "kg")
_G = Unit("g", "g", lambda g: g / 1000)
_LB = Unit("[lb_av]", "lb", lambda lb: lb * 0.45359237)  # the avoirdupois pound, exactly
_CM = Unit("cm", "cm")
_M = Unit("m", "m", lambda m: m * 100)
_IN = Unit("[in_i]", "in", lambda inch: inch * 2.54)  # the international inch, exactly
_PERCENT = Unit("%", "%")
_KG_M2 = Unit("kg/m2", "kg/m2")

# blood pressure is a panel (85354-9) whose two components carry the values
SYSTOLIC = Coding("8480-6", "Systolic blood pressure")
DIASTOLIC = Coding("8462-4", "Diastolic blood pressure")
SYSTOLIC_RANGE = (50.0, 300.0)
DIASTOLIC_RANGE = (20.0, 200.0)

VITALS: dict[str, VitalKind] = {
    "blood_pressure": VitalKind(
        "blood pressure",
        (Coding("85354-9", "Blood pressure panel with all children optional"),),
        {"mmhg": _MMHG, "mm[hg]": _MMHG},
        "mmhg",
        *SYSTOLIC_RANGE,
        "mmHg",
    ),
    "heart_rate": VitalKind(
        "heart rate",
        (Coding("8867-4", "Heart rate"),),
        {"/min": _PER_MIN, "bpm": _PER_MIN, "beats/min": _PER_MIN, "{beats}/min": _PER_MIN},
        "/min",
        20,
        300,
        "/min",
    ),
    "respiratory_rate": VitalKind(
        "respiratory rate",
        (Coding("9279-1", "Respiratory rate"),),
        {"/min": _PER_MIN, "breaths/min": _PER_MIN, "{breaths}/min": _PER_MIN},
        "/min",
        4,
        80,
        "/min",
    ),
    "temperature": VitalKind(
        "temperature",
        (Coding("8310-5", "Body temperature"),),
        {"cel": _CEL, "c": _CEL, "°c": _CEL, "degc": _CEL, "[degf]": _DEGF, "f": _DEGF, "°f": _DEGF, "degf": _DEGF},
        "cel",
        30,
        45,
        "°C",
    ),
    # 2708-6 is the code the R4 oxygen-saturation profile requires; 59408-5 says it was by pulse oximetry
    "spo2": VitalKind(
        "oxygen saturation",
        (
            Coding("2708-6", "Oxygen saturation in Arterial blood"),
            Coding("59408-5", "Oxygen saturation in Arterial blood by Pulse oximetry"),
        ),
        {"%": _PERCENT},
        "%",
        50,
        100,
        "%",
    ),
    "weight": VitalKind(
        "body weight",
        (Coding("29463-7", "Body weight"),),
        {"kg": _KG, "g": _G, "lb": _LB, "lbs": _LB, "[lb_av]": _LB},
        "kg",
        0.3,
        500,
        "kg",
    ),
    "height": VitalKind(
        "body height",
        (Coding("8302-2", "Body height"),),
        {"cm": _CM, "m": _M, "in": _IN, "[in_i]": _IN},
        "cm",
        20,
        280,
        "cm",
    ),
    "bmi": VitalKind(
        "BMI",
        (Coding("39156-5", "Body mass index (BMI) [Ratio]"),),
        {"kg/m2": _KG_M2, "kg/m²": _KG_M2},
        "kg/m2",
        8,
        200,
        "kg/m2",
    ),
}


@dataclass(frozen=True)
class DoseUnit:
    code: str  # UCUM; counted forms use a UCUM annotation ({tablet})
    singular: str
    plural: str
    ceiling: float  # most per dose before it is refused as a likely typo (not a clinical maximum)

    def words(self, value: float) -> str:
        return self.singular if value == 1 else self.plural


_DOSE_UNITS: tuple[tuple[tuple[str, ...], DoseUnit], ...] = (
    (("mg", "milligram", "milligrams"), DoseUnit("mg", "mg", "mg", 5000)),
    (("g", "gram", "grams"), DoseUnit("g", "g", "g", 50)),
    (("mcg", "ug", "µg", "microgram", "micrograms"), DoseUnit("ug", "mcg", "mcg", 10_000)),
    # insulin and heparin units: UCUM's international unit, not its enzyme unit 'U'
    (("units", "unit", "iu", "[iu]"), DoseUnit("[iU]", "unit", "units", 10_000)),
    (("ml", "milliliter", "milliliters", "millilitre", "millilitres"), DoseUnit("mL", "mL", "mL", 1000)),
    # electrolytes (potassium chloride): UCUM milliequivalent
    (("meq", "milliequivalent", "milliequivalents"), DoseUnit("meq", "mEq", "mEq", 400)),
    (("tablet", "tablets", "tab", "tabs"), DoseUnit("{tablet}", "tablet", "tablets", 20)),
    (("capsule", "capsules", "cap", "caps"), DoseUnit("{capsule}", "capsule", "capsules", 20)),
    (("puff", "puffs"), DoseUnit("{puff}", "puff", "puffs", 20)),
    (("drop", "drops", "gtt"), DoseUnit("{drop}", "drop", "drops", 20)),
    (("spray", "sprays"), DoseUnit("{spray}", "spray", "sprays", 20)),
    (("patch", "patches"), DoseUnit("{patch}", "patch", "patches", 20)),
)
DOSE_UNITS: dict[str, DoseUnit] = {alias: unit for aliases, unit in _DOSE_UNITS for alias in aliases}


def dose_unit(spelled: str) -> DoseUnit | None:
    return DOSE_UNITS.get(spelled.strip().lower())


@dataclass(frozen=True)
class Route:
    coding: Coding  # SNOMED CT, from the R4 example value set http://hl7.org/fhir/ValueSet/route-codes
    words: str  # "by mouth"
    aliases: tuple[str, ...] = ()


ROUTES: dict[str, Route] = {
    "oral": Route(Coding("26643006", "Oral route"), "by mouth", ("po", "by mouth", "orally", "per os")),
    "intravenous": Route(Coding("47625008", "Intravenous route"), "intravenously", ("iv", "intravenously")),
    "intramuscular": Route(Coding("78421000", "Intramuscular route"), "intramuscularly", ("im", "intramuscularly")),
    "subcutaneous": Route(
        Coding("34206005", "Subcutaneous route"), "subcutaneously", ("sc", "sq", "subq", "subcut", "subcutaneously")
    ),
    "topical": Route(Coding("6064005", "Topical route"), "topically", ("topically", "cutaneous")),
    "inhaled": Route(Coding("447694001", "Respiratory tract route"), "by inhalation", ("inhalation", "inh")),
    "sublingual": Route(Coding("37839007", "Sublingual route"), "under the tongue", ("sl",)),
    "buccal": Route(Coding("54471007", "Buccal route"), "in the cheek", ()),
    "rectal": Route(Coding("37161004", "Rectal route"), "rectally", ("pr", "rectally", "per rectum")),
    "vaginal": Route(Coding("16857009", "Vaginal route"), "vaginally", ("pv", "vaginally", "per vagina")),
    "transdermal": Route(Coding("45890007", "Transdermal route"), "transdermally", ("td", "transdermally")),
    "nasal": Route(Coding("46713006", "Nasal route"), "into the nose", ("intranasal", "intranasally")),
    "ophthalmic": Route(Coding("54485002", "Ophthalmic route"), "into the eye", ("eye",)),
    "otic": Route(Coding("10547007", "Otic route"), "into the ear", ("ear",)),
    "intradermal": Route(Coding("372464004", "Intradermal route"), "intradermally", ("id", "intradermally")),
}
_ROUTE_ALIASES = {alias: name for name, route in ROUTES.items() for alias in (name, *route.aliases)}


def route_name(spelled: Any) -> Any:
    """A route's canonical name for any accepted spelling ('PO', 'by mouth' → 'oral'); anything else as it
    came, for the argument model to refuse with the list."""
    if isinstance(spelled, str):
        return _ROUTE_ALIASES.get(" ".join(spelled.lower().replace(".", "").split()), spelled)
    return spelled


@dataclass(frozen=True)
class Frequency:
    """A dosing frequency as FHIR ``Timing.repeat`` (https://hl7.org/fhir/R4/datatypes.html#Timing)."""

    words: str
    repeat: dict[str, Any]


_NUMBER_WORDS = {"once": 1, "one": 1, "twice": 2, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_DAILY = {1: "once daily", 2: "twice daily", 3: "three times daily", 4: "four times daily"}
_PERIOD_UNITS = {"hour": "h", "hr": "h", "h": "h", "day": "d", "d": "d", "week": "wk", "wk": "wk", "month": "mo"}
_FIXED: dict[str, Frequency] = {}
for _words, _freq, _period, _unit, _extra in (
    ("once daily", 1, 1, "d", ("daily", "once a day", "every day", "qd", "od", "once per day")),
    ("twice daily", 2, 1, "d", ("twice a day", "bid", "twice per day")),
    ("three times daily", 3, 1, "d", ("three times a day", "tid")),
    ("four times daily", 4, 1, "d", ("four times a day", "qid")),
    ("every hour", 1, 1, "h", ("hourly", "qh")),
    ("every other day", 1, 2, "d", ("qod", "alternate days")),
    ("once weekly", 1, 1, "wk", ("weekly", "once a week", "every week")),
    ("twice weekly", 2, 1, "wk", ("twice a week",)),
    ("once monthly", 1, 1, "mo", ("monthly", "once a month", "every month")),
):
    for _spelled in (_words, *_extra):
        _FIXED[_spelled] = Frequency(_words, {"frequency": _freq, "period": _period, "periodUnit": _unit})
# the time-of-day codes are FHIR's event-timing (http://hl7.org/fhir/ValueSet/event-timing)
for _spelled in ("at bedtime", "nightly", "every night", "qhs", "hs"):
    _FIXED[_spelled] = Frequency("at bedtime", {"frequency": 1, "period": 1, "periodUnit": "d", "when": ["HS"]})
for _spelled in ("every morning", "qam", "each morning"):
    _FIXED[_spelled] = Frequency("every morning", {"frequency": 1, "period": 1, "periodUnit": "d", "when": ["MORN"]})
for _spelled in ("once", "single dose", "one time", "once only"):
    _FIXED[_spelled] = Frequency("once (a single dose)", {"count": 1})

_TIMES_DAILY = re.compile(r"(\d+|once|twice|one|two|three|four|five|six) times? (?:daily|a day|per day)")
_EVERY = re.compile(r"(?:every|q) ?(\d+) ?(hour|hr|h|day|d|week|wk|month)s?")
_MOST_PER = {"h": 72, "d": 90, "wk": 52, "mo": 12}
FREQUENCY_EXAMPLES = (
    "'once daily', 'twice daily', 'three times daily', 'four times daily', 'every 8 hours', 'every 2 days', "
    "'once weekly', 'at bedtime', 'every morning' or 'once' (a single dose)"
)


def parse_frequency(text: str) -> Frequency | None:
    """A frequency in words ('twice daily', 'BID', 'every 8 hours', 'q8h') as a timing; None if not understood."""
    spelled = " ".join(text.lower().replace(".", "").split())
    if spelled in _FIXED:
        return _FIXED[spelled]
    if found := _TIMES_DAILY.fullmatch(spelled):
        count = int(found[1]) if found[1].isdigit() else _NUMBER_WORDS[found[1]]
        if 1 <= count <= 24:
            words = _DAILY.get(count, f"{count} times daily")
            return Frequency(words, {"frequency": count, "period": 1, "periodUnit": "d"})
        return None
    if found := _EVERY.fullmatch(spelled):
        every, unit = int(found[1]), _PERIOD_UNITS[found[2]]
        if not 1 <= every <= _MOST_PER[unit]:
            return None
        noun = {"h": "hour", "d": "day", "wk": "week", "mo": "month"}[unit]
        words = f"every {noun}" if every == 1 else f"every {every} {noun}s"
        return Frequency(words, {"frequency": 1, "period": every, "periodUnit": unit})
    return None


# ServiceRequest.category: SNOMED CT, as the R4 example set (http://hl7.org/fhir/ValueSet/servicerequest-category)
# and US Core's (which adds 3457005 patient referral) give them; 71388002 is the general "Procedure"
SERVICE_CATEGORIES: dict[str, Coding] = {
    "lab": Coding("108252007", "Laboratory procedure"),
    "imaging": Coding("363679005", "Imaging"),
    "referral": Coding("3457005", "Patient referral"),
    "procedure": Coding("71388002", "Procedure"),
}

# common note types (LOINC document ontology), so a model need not spell the display of these
NOTE_TYPES: dict[str, str] = {
    "11506-3": "Progress note",
    "11488-4": "Consult note",
    "34117-2": "History and physical note",
    "18842-5": "Discharge summary",
    "28570-0": "Procedure note",
    "34111-5": "Emergency department note",
    "57133-1": "Referral note",
    "34746-8": "Nurse note",
}
