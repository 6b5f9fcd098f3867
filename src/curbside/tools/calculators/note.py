"""A calculator's inputs read from a clinical note (issue #15, "From a note").

Numbers with units are found by deterministic parsing: each Number input is looked for by its
``aliases`` (falling back to its label and key words and a small table of the usual names of vital
signs and laboratory values), and the value nearest after the name is taken when its unit belongs to
the input's dimension (``units.py``), or no unit is written (then read in the canonical unit, said
so). Reference ranges are skipped (``0.7–1.3 mg/dL``, ``(reference range, …)``, ``<144``); a value
outside the input's plausible range is refused, never used; when the note gives several values the
first is used and the others are listed. Blood pressure pairs (``142/88 mmHg``), ages
(``a 64-year-old woman``), sex, heights in feet and inches and dates of a ``Day`` input have their own
forms, and so do a drug's doses a day (``oxycodone 10 mg q6h``; never an as-needed one). A yes/no
criterion the note states plainly ("denies black stools", "history of stroke") is read without a
model (``note_criteria.py``, which says where that is safe); the others, and options, are asked of the
local model (``note_model.py``), each answer kept only when the words it quotes are in the note; with
no model they stay missing (never assumed).

Every value found is listed in ``CalcResult.extracted`` with the sentence it came from and how
(``parsed`` or ``model``); arguments given explicitly win over the note. Everything here is linear in
the note's length: literal alternations, no nested quantifiers.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from curbside.errors import UpstreamError, ValidationError
from curbside.sentences import split_sentences
from curbside.tools.calculators import MAX_NOTE_CHARS
from curbside.tools.calculators.kit import Above, CalcResult, Calculator, Choice, Criterion, Day, Number, evaluate
from curbside.tools.calculators.note_broader import broader_answer
from curbside.tools.calculators.note_compared import compared_answer
from curbside.tools.calculators.note_criteria import (
    Mention,
    context_sentences,
    denies_it,
    find_mentions,
    names_it,
    names_option,
    plain_answer,
    plain_label,
)
from curbside.tools.calculators.note_model import NO_MODEL, CriteriaModel, read_criterion
from curbside.tools.calculators.note_recent import Elapsed, recent_answer
from curbside.tools.calculators.note_side import denies_another_side, side_answer
from curbside.tools.calculators.units import DIMENSIONS, convert, normalize_unit

__all__ = ["MAX_NOTE_CHARS", "Found", "NoteReading", "evaluate_note", "parse_note"]

_WINDOW = 60  # characters from the end of a name to its value
_SHOWN_SENTENCE = 300  # a longer "sentence" (a lab dump with no full stops) is cut around the value


# --- what is found ------------------------------------------------------------------------------------


@dataclass
class Found:
    """One input's value as read from the note."""

    input: str
    label: str
    value: Any  # as written: a number, "yes"/"no", an option, an ISO date
    unit: str | None  # as written
    argument: Any  # what the calculator is given
    text: str  # the words matched
    sentence: str
    method: Literal["parsed", "model"]
    note: str | None = None
    used: bool = True

    def as_dict(self) -> dict[str, Any]:
        shown: dict[str, Any] = {
            "input": self.input,
            "label": self.label,
            "value": self.value,
            "unit": self.unit,
            "text": self.text,
            "sentence": self.sentence,
            "method": self.method,
            "used": self.used,
        }
        if self.note:
            shown["note"] = self.note
        return shown


@dataclass
class NoteReading:
    found: dict[str, Found] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


# --- the note's text: sentences and tokens ----------------------------------------------------------------


_NUMBER = re.compile(r"(?<![\w.,/])(\d{1,3}(?:,\d{3})+(?!\d|,\d)|\d+)(?:\.(\d+))?(?!\d)")
_PAIR_SECOND = re.compile(r"/\s?(\d+(?:\.\d+)?)(?![\d])")
_RANGE_GAP = re.compile(r"\s*(?:-|–|—|to)\s*")
_BOUND_BEFORE = ("<", ">", "≤", "≥", "<=", ">=", "less than", "greater than", "more than", "up to", "over", "under")
_REFERENCE_OPENERS = (
    "reference", "ref", "normal", "range", "nl", "n:", "n=", "n =", "baseline", "previous", "prior", "usual",
    "upper limit", "lower limit", "uln", "<", ">", "≤", "≥",
)  # fmt: skip

# unit spellings as a clinician writes them -> the spelling the kit's units.py accepts ("" = other units)
_UNITS: dict[str, tuple[str, ...]] = {
    "mmHg": ("mmHg", "mm Hg", "mm of Hg", "mm of mercury", "mmhg"),
    "kPa": ("kPa",),
    "/min": (
        "beats per minute", "beats/min", "beats/minute", "beats per min", "bpm", "b.p.m.", "b.p.m", "beats", "breaths per minute",
        "breaths/min", "breaths/minute", "breaths per min", "times per minute", "times/min", "per minute",
        "per min", "/min", "/minute", "min-1", "min⁻¹",
    ),
    "°C": (
        "°C", "° C", "℃", "ºC", "degrees Celsius", "degree Celsius", "degrees centigrade", "degree centigrade",
        "° Celsius", "°Celsius", "deg C", "degrees C", "(?-i:oC)",
    ),
    "°F": ("°F", "° F", "℉", "ºF", "degrees Fahrenheit", "degree Fahrenheit", "deg F", "degrees F"),
    "mg/dL": ("mg/dL", "mg/ dL", "mg per dL", "mg/100 mL", "mg%"),
    "µmol/L": ("µmol/L", "μmol/L", "umol/L", "micromol/L", "(?-i:µM)", "(?-i:μM)"),
    "mmol/L": ("mmol/L", "(?-i:mM)"),
    "mEq/L": ("mEq/L", "mEq per L"),
    "g/dL": ("g/dL", "gr/dL", "gm/dL", "g per dL"),
    "g/L": ("g/L", "gr/L", "gm/L"),
    "mg/L": ("mg/L",),
    "U/L": ("U/L", "units/L", "unit/L", "IU/L", "units per liter"),
    "pmol/L": ("pmol/L",),
    "µIU/mL": ("µIU/mL", "μIU/mL", "uIU/mL", "µU/mL", "μU/mL", "uU/mL", "mU/L", "mIU/L"),
    "mOsm/kg": ("mOsm/kg", "mOsm/kgH2O", "mOsm/kg H2O", "mOsm/kg of water", "mOsm/kg water", "mmol/kg"),
    "10^9/L": (
        "× 10^9/L", "x 10^9/L", "× 10⁹/L", "x 10⁹/L", "× 109/L", "x 109/L", "× 10 9/L", "x 10 9/L", "10^9/L", "10⁹/L",
        "× 10^3/µL", "x 10^3/µL", "× 10^3/uL", "x 10^3/uL", "× 10³/µL", "x 10³/µL", "× 103/µL", "x 103/µL",
        "× 10^3/mm3", "x 10^3/mm3", "10^3/µL", "10^3/uL", "10³/µL", "10^3/mm3", "K/µL", "K/uL", "K/mcL",
        "thou/µL", "thou/uL",
    ),
    "/µL": (
        "/µL", "/uL", "/μL", "/mcL", "/mm3", "/mm^3", "/mm³", "/cmm", "/cu mm", "/ µL", "/ uL", "/ mm3",
        "cells/µL", "cells/uL", "cells/μL", "cells/mcL", "cells/mm3", "cells/mm^3", "cells/mm³", "count/µL",
        "count/uL", "count/μL", "per µL", "per uL", "per mm3", "per cubic millimeter",
    ),
    "kg": ("kg", "kgs", "kilograms", "kilogram", "kilos"),
    "lb": ("lb", "lbs", "pounds", "pound"),
    "g": ("g", "grams", "gram", "gm"),
    "cm": ("cm", "centimeters", "centimetres", "centimeter", "centimetre"),
    "m": ("(?-i:m)", "meters", "metres", "meter", "metre"),
    "mm": ("(?-i:mm)", "millimeters", "millimetres"),
    "in": (r"(?-i:in)(?!\s*[A-Za-z])", "inches", "inch", '"', "″", "''"),
    "ft": ("ft", "feet", "foot"),
    "ms": ("ms", "msec", "msecs", "milliseconds", "millisecond"),
    "s": ("(?-i:s)", "sec", "secs", "seconds", "second"),
    "years": ("years", "year", "yrs", "yr", "(?-i:y)"),
    "months": ("months", "month"),
    "%": ("%", "percent", "per cent"),
    "L/L": ("L/L",),
    "mg": ("mg", "milligrams", "milligram"),
    "mcg": ("mcg", "µg", "μg", "ug", "micrograms", "microgram"),
    "mL": ("mL", "cc", "milliliters", "millilitres"),
    "L": ("(?-i:L)", "liters", "litres", "liter", "litre"),
    "h": ("(?-i:h)", "hr", "hrs", "hours", "hour"),
    "min": ("min", "mins", "minutes", "minute"),
    "days": ("days", "day"),
    "weeks": ("weeks", "week", "wk", "wks"),
    "mcg/h": ("mcg/h", "µg/h", "mcg/hr", "µg/hr"),
    "µg/kg/min": ("µg/kg/min", "μg/kg/min", "mcg/kg/min", "ug/kg/min", "mcg/kg/minute", "µg/kg/minute"),
    "kg/m²": ("kg/m2", "kg/m²", "kg/m^2", "kg / m2", "kg/sq m"),
    "": (  # units of no calculator input: a number written with one is someone else's value
        "ng/mL", "ng/dL", "pg/mL", "µg/dL", "ug/dL", "mcg/dL", "U/mL", "IU/mL", "mIU/mL", "mg/kg", "mg/day",
        "mg/d", "g/day", "g/d", "mg/g", "g/g", "fL", "pg", "mL/min", "L/min", "cm/s", "cm/sec", "m/s", "mm/h",
        "mm/hr", "mL/kg", "mg/24 h", "mg/24 hours", "pack-years", "pack years", "packs/year", "cm H2O",
        "cmH2O", "mEq/L/hour", "mL/m2", "times", "time", "episodes", "units", "IU", "mcg/kg", "µg/kg", "mg/m2",
    ),
}  # fmt: skip


def _visible(spelling: str) -> str:
    """'(?-i:mm)' -> 'mm': the text a spelling matches, for ordering the longest first."""
    return spelling[5 : spelling.index(")")] if spelling.startswith("(?-i:") else spelling


def _unit_fragment(spelling: str) -> str:
    if spelling.startswith("(?"):
        return spelling  # already a pattern (a case-sensitive one, or "in" not followed by a word)
    return r"\s*".join(re.escape(part) for part in spelling.split(" "))


def _unit_key(text: str) -> str:
    return re.sub(r"\s+", "", text).lower().replace("μ", "µ")


_UNIT_OF: dict[str, str] = {}
_UNIT_CASED: dict[str, str] = {}  # case-sensitive spellings (mM, µM, oC, m, mm, in, s, y, L, h)
for _canonical, _spellings in _UNITS.items():
    for _spelling in _spellings:
        if _spelling.startswith("(?-i:"):
            _UNIT_CASED[_visible(_spelling)] = _canonical
        else:
            _UNIT_OF.setdefault(_unit_key(_spelling), _canonical)
_UNIT = re.compile(
    r"\s?(?:"
    + "|".join(
        _unit_fragment(s)
        for s in sorted({s for spellings in _UNITS.values() for s in spellings}, key=lambda s: (-len(_visible(s)), s))
    )
    + r")(?![A-Za-z0-9/^²³⁹⁻₂])",
    re.IGNORECASE,
)
_RAW_UNIT = re.compile(r"\s?([^\s,;:()\[\]]{1,24})")


def _canonical_unit(written: str) -> str:
    stripped = written.strip()
    if stripped in _UNIT_CASED:
        return _UNIT_CASED[stripped]
    key = _unit_key(stripped)
    return _UNIT_OF.get(key, _UNIT_CASED.get(key, ""))


@dataclass
class _Num:
    start: int
    end: int  # the end of the number and its unit
    number_end: int
    value: float
    written: str
    unit: str | None  # as written
    canonical: str | None  # None: no unit written; "": a unit of nothing we read; "?": unreadable
    second: float | None = None  # "142/88": 88
    second_written: str | None = None
    bound: bool = False  # a reference range or limit, never a patient's value
    feet_inches: bool = False
    inches_given: bool = False
    maybe_inches: bool = False  # "height of 72 in and …": 'in' before a word is inches only for a height


_MONTHS = {
    name: number
    for number, names in enumerate(
        (("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
         ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"),
         ("november", "nov"), ("december", "dec")),
        start=1,
    )
    for name in names
}  # fmt: skip
_MONTH = "(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DATE = re.compile(
    r"(?<![\w/.-])(?:"
    r"(?P<iy>\d{4})-(?P<im>\d{1,2})-(?P<id>\d{1,2})"
    r"|(?P<a>\d{1,2})(?P<sep>[/.-])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4})"
    rf"|(?P<mn>{_MONTH})\s+(?P<md>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<my>\d{{4}})"
    rf"|(?P<dd>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<dm>{_MONTH}),?\s+(?P<dy>\d{{4}})"
    r")(?![\w/])",
    re.IGNORECASE,
)
_FEET_INCHES = re.compile(
    r"(?<![\w.])([3-7])\s?(?:'|’|′|ft\.?|feet|foot)\s?(?:(\d{1,2}(?:\.\d+)?)\s?(?:\"|”|″|''|’’|in\.?|inches|inch)?)?(?![\w'’])",
    re.IGNORECASE,
)


_FEET_WORD = re.compile(r"\s?(?:ft|feet|foot)", re.IGNORECASE)


@dataclass
class _Date:
    start: int
    end: int
    written: str
    value: date | None  # None: ambiguous day and month
    problem: str | None = None


class _Text:
    """The note with its sentences, numbers and dates, each found once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sentences = _sentence_spans(text)
        self.sentence_starts = [start for start, _ in self.sentences]
        self.references = _reference_spans(text)
        self.dates = [_date(m) for m in _DATE.finditer(text)]
        self.date_starts = [d.start for d in self.dates]
        self.numbers = self._numbers()
        self.number_starts = [n.start for n in self.numbers]

    def sentence_of(self, pos: int) -> int:
        return max(0, bisect.bisect_right(self.sentence_starts, pos) - 1)

    def sentence_text(self, index: int, around: tuple[int, int] | None = None) -> str:
        start, end = self.sentences[index]
        if around is not None and end - start > _SHOWN_SENTENCE:
            lo = max(start, around[0] - 120)
            hi = min(end, around[1] + 120)
            return ("…" if lo > start else "") + self.text[lo:hi].strip() + ("…" if hi < end else "")
        return self.text[start:end]

    def _numbers(self) -> list[_Num]:
        text = self.text
        blocked = sorted([(d.start, d.end) for d in self.dates])
        out: list[_Num] = []
        for m in _FEET_INCHES.finditer(text):
            if m.group(2) is None and not _FEET_WORD.match(text, m.end(1)):
                continue  # a lone 5' is not a height
            inches = int(m.group(1)) * 12 + (float(m.group(2)) if m.group(2) else 0.0)
            written = m.group(0).strip()
            out.append(
                _Num(
                    m.start(),
                    m.end(),
                    m.end(),
                    inches,
                    written,
                    written,
                    "in",
                    feet_inches=True,
                    inches_given=bool(m.group(2)),
                )
            )
            blocked.append((m.start(), m.end()))
        blocked.sort()
        block_starts = [b[0] for b in blocked]
        consumed = 0
        for m in _NUMBER.finditer(text):
            start = m.start()
            if start < consumed:
                continue
            i = bisect.bisect_right(block_starts, start) - 1
            if i >= 0 and blocked[i][0] <= start < blocked[i][1]:
                continue
            written = m.group(0)
            value = float(written.replace(",", ""))
            if start > 0 and text[start - 1] in "-−" and (start < 2 or not text[start - 2].isalnum()):
                value = -value
            num = _Num(start, m.end(), m.end(), value, written, None, None)
            pos = m.end()
            pair = _PAIR_SECOND.match(text, pos)
            if pair:
                num.second = float(pair.group(1))
                num.second_written = pair.group(1)
                pos = pair.end()
                num.number_end = pos
            unit = _UNIT.match(text, pos)
            if unit:
                num.unit = unit.group(0).strip()
                num.canonical = _canonical_unit(num.unit)
                pos = unit.end()
            else:
                raw = _RAW_UNIT.match(text, pos)
                token = raw.group(1) if raw else ""
                if token and not token.isalpha() and not all(c in ".!?'\"’”-–—" for c in token):
                    num.unit, num.canonical = token.rstrip(".!?"), "?"
                    pos = raw.end() if raw else pos
                num.maybe_inches = token in ("in", "inches")
            num.end = pos
            consumed = pos
            out.append(num)
        out.sort(key=lambda n: n.start)
        self._mark_bounds(out)
        return out

    def _mark_bounds(self, numbers: list[_Num]) -> None:
        text = self.text
        ref_starts = [r[0] for r in self.references]
        for i, num in enumerate(numbers):
            j = bisect.bisect_right(ref_starts, num.start) - 1
            if j >= 0 and self.references[j][0] <= num.start < self.references[j][1]:
                num.bound = True
                continue
            before = text[max(0, num.start - 14) : num.start].rstrip().lower()
            if before.endswith(_BOUND_BEFORE):
                num.bound = True
            if i + 1 < len(numbers):
                nxt = numbers[i + 1]
                gap = text[num.number_end : nxt.start]
                if num.canonical in (None, nxt.canonical) and _RANGE_GAP.fullmatch(gap) and gap.strip():
                    num.bound = nxt.bound = True  # "0.7–1.3 mg/dL", "135-146mEq/L", "11 to 16"


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    cursor = 0
    for sentence in split_sentences(text):
        start = text.find(sentence, cursor)
        if start < 0:
            continue
        end = start + len(sentence)
        cursor = end
        line_start = start
        for piece in sentence.split("\n"):  # a list of results, one per line, is one "sentence" per line
            stripped = piece.strip()
            if stripped:
                offset = line_start + piece.index(stripped)
                spans.append((offset, offset + len(stripped)))
            line_start += len(piece) + 1
    return spans or [(0, len(text))]


def _reference_spans(text: str) -> list[tuple[int, int]]:
    """Parenthesised or bracketed reference ranges: '(reference range, 0–150 mg/24 hours)', '[< 35]'."""
    spans: list[tuple[int, int]] = []
    stack: list[int] = []
    for i, char in enumerate(text):
        if char in "([":
            stack.append(i)
        elif char in ")]" and stack:
            start = stack.pop()
            opening = text[start + 1 : min(i, start + 40)].lstrip().lower()  # its first words say what it is
            if opening.startswith(_REFERENCE_OPENERS):
                spans.append((start, i + 1))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for span in spans:  # nested ones inside an outer one are covered by it
        if merged and span[0] < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], span[1]))
        else:
            merged.append(span)
    return merged


def _date(m: re.Match[str]) -> _Date:
    written = m.group(0)
    try:
        if m.group("iy"):
            return _Date(m.start(), m.end(), written, date(int(m.group("iy")), int(m.group("im")), int(m.group("id"))))
        if m.group("mn"):
            month = _MONTHS[m.group("mn").rstrip(".").lower()]
            return _Date(m.start(), m.end(), written, date(int(m.group("my")), month, int(m.group("md"))))
        if m.group("dm"):
            month = _MONTHS[m.group("dm").rstrip(".").lower()]
            return _Date(m.start(), m.end(), written, date(int(m.group("dy")), month, int(m.group("dd"))))
        a, b, year = int(m.group("a")), int(m.group("b")), int(m.group("y"))
        if a > 12:
            return _Date(m.start(), m.end(), written, date(year, b, a))  # day first
        if b > 12 or a == b:
            return _Date(m.start(), m.end(), written, date(year, a, b))  # month first (US)
        return _Date(
            m.start(), m.end(), written, None,
            f"{written!r} could be day/month or month/day; give the date as YYYY-MM-DD",
        )  # fmt: skip
    except ValueError:
        return _Date(m.start(), m.end(), written, None, f"{written!r} is not a calendar date")


# --- what each input is called ----------------------------------------------------------------------------

# (words in an input's key or label, names a note uses): a fallback for inputs declared without aliases
_NAMES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("heart rate", "pulse", "hr"), ("heart rate", "pulse rate", "pulse", "HR", "ventricular rate")),
    (("respiratory rate", "respiration", "resp rate", "rr"),
     ("respiratory rate", "respiration rate", "respirations", "RR", "breathing rate", "respiratory frequency")),
    (("temperature", "temp"), ("temperature", "temp", "T", "Tmax", "body temperature")),
    (("systolic", "sbp"), ("systolic blood pressure", "systolic BP", "SBP", "systolic pressure", "systolic")),
    (("diastolic", "dbp"), ("diastolic blood pressure", "diastolic BP", "DBP", "diastolic pressure", "diastolic")),
    (("mean arterial", "map"), ("mean arterial pressure", "MAP")),
    (("sodium",), ("sodium", "Na", "Na+")),
    (("potassium",), ("potassium", "K", "K+")),
    (("chloride",), ("chloride", "Cl", "Cl-")),
    (("bicarbonate", "hco3"), ("bicarbonate", "HCO3", "HCO3-", "HCO₃", "HCO₃⁻", "bicarb", "CO2", "total CO2", "serum CO2")),
    (("bun", "urea"), ("blood urea nitrogen", "BUN", "urea nitrogen", "urea")),
    (("creatinine",), ("creatinine", "Cr", "SCr", "creat")),
    (("glucose",), ("glucose", "blood glucose", "blood sugar", "plasma glucose", "BG")),
    (("albumin",), ("albumin", "Alb")),
    (("calcium",), ("calcium", "Ca", "Ca2+", "Ca++")),
    (("magnesium",), ("magnesium", "Mg")),
    (("hemoglobin", "haemoglobin"), ("hemoglobin", "haemoglobin", "Hb", "Hgb")),
    (("hematocrit", "haematocrit", "hct"), ("hematocrit", "haematocrit", "Hct")),
    (("platelet",), ("platelet count", "platelets", "platelet", "PLT")),
    (("white blood", "white cell", "wbc", "leukocyte", "leucocyte"),
     ("white blood cell count", "white blood cell", "white cell count", "WBC", "leukocyte count", "leukocytes",
      "leukocyte", "leucocyte count", "leucocytes", "leucocyte")),
    (("bilirubin",), ("total bilirubin", "bilirubin", "T bili", "Tbili")),
    (("inr",), ("INR", "international normalized ratio", "international normalised ratio")),
    (("ast", "aspartate"), ("AST", "aspartate aminotransferase", "aspartate transaminase", "SGOT")),
    (("alt", "alanine"), ("ALT", "alanine aminotransferase", "alanine transaminase", "SGPT")),
    (("insulin",), ("insulin", "fasting insulin")),
    (("hdl",), ("HDL cholesterol", "HDL-cholesterol", "HDL-C", "HDL")),
    (("ldl",), ("LDL cholesterol", "LDL-cholesterol", "LDL-C", "LDL")),
    (("total cholesterol", "cholesterol"), ("total cholesterol", "cholesterol")),
    (("triglyceride",), ("triglycerides", "triglyceride", "TG")),
    (("weight",), ("weight", "weighed", "weighs", "weighing", "body weight")),
    (("height",), ("height", "stature")),
    (("pao2", "partial pressure of oxygen", "oxygen tension"),
     ("PaO2", "PaO₂", "pO2", "partial pressure of oxygen", "arterial oxygen tension")),
    (("fio2", "inspired oxygen"), ("FiO2", "FiO₂", "fraction of inspired oxygen", "inspired oxygen")),
    (("oxygen saturation", "spo2", "o2 sat", "sao2"),
     ("oxygen saturation", "O2 saturation", "O2 sat", "SpO2", "SpO₂", "SaO2", "saturation", "sat")),
    (("ph",), ("pH",)),
    (("qt",), ("QT interval", "QT")),
    (("glasgow", "gcs"), ("GCS", "Glasgow Coma Scale", "Glasgow Coma Score")),
    (("bmi", "body mass index"), ("body mass index", "BMI")),
    (("cycle length", "cycle"), ("cycle length", "cycle", "menstrual cycle")),
)  # fmt: skip
_BP = ("blood pressure", "BP", "arterial pressure", "arterial blood pressure", "B.P.")
_QUALIFIERS = (
    "urine", "urinary", "hdl", "ldl", "vldl", "non-hdl", "direct", "indirect", "conjugated", "fetal", "foetal",
    "ascitic", "ascites", "pleural", "csf", "ionized", "ionised", "free", "baseline", "previous", "prior",
    "target", "sitting", "fundal", "predicted", "ideal", "dry", "goal", "maternal", "paternal", "father",
    "mother", "family", "venous", "peak", "ventricular", "pulmonary", "rv", "lv",
)  # fmt: skip
# words that mark an input as not the patient's measured value ('normal albumin', the corrected calcium's
# reference): a mention must carry one for it, but they do not bar other inputs ('a normal WBC of 6.6')
_MARKERS = ("normal", "reference")
_QUALIFIER = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(q) for q in (*_QUALIFIERS, *_MARKERS)) + r")(?!\w)", re.IGNORECASE
)
_WEIGHT_CHANGE = re.compile(
    r"\b(?:loss|lost|los(?:ing)|loosing|gain|gained|gaining|change|reduction|decrease|increase|dropped|down)\b",
    re.IGNORECASE,
)
# words after a name that make the number another quantity: 'albumin gradient 0.3', 'creatinine clearance 45'
_DERIVED = re.compile(
    r"\b(?:gradient|ratio|clearance|excretion|index|gap|difference|change|delta|variability|velocity|max|min)\b",
    re.IGNORECASE,
)
# what may stand between a short name and its value: 'K+: 4.1', 'RR of 25', 'WBC count 13.4', 'BP was 130/80'
_SHORT_GAP = re.compile(
    r"[\s:=,(]*(?:(?:of|was|is|at|were|count|level|value|measured|reading)[\s:=,(]*){0,3}", re.IGNORECASE
)
_BEFORE_GAP = re.compile(r"\s{0,2}(?:of\s{1,2}(?:the\s)?)?", re.IGNORECASE)  # '10 mg of oxymorphone'
_GENERIC_WORDS = frozenset(
    {"rate", "count", "level", "value", "score", "total", "serum", "blood", "pressure", "ratio", "number", "dose",
     "time", "date", "days", "the", "of", "in", "mg", "per", "day", "first", "last", "current", "estimated"}
)  # fmt: skip


def _words(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9]+", " ", text.lower()).strip() + " "


def _label_names(item: Number | Day) -> list[str]:
    names: list[str] = []
    label = re.sub(r"\([^)]*\)", " ", item.label)  # "PaO2 (arterial)" -> "PaO2"
    for part in re.split(r"[,;/]| or ", label):
        part = part.strip()
        if len(part) >= 2 and part.lower() not in _GENERIC_WORDS:
            names.append(part)
            if part.lower().startswith(("serum ", "plasma ", "blood ")) and len(part.split()) > 1:
                names.append(part.split(" ", 1)[1])
    key = item.key.replace("_", " ").strip()
    if len(key) >= 3 and key.lower() not in _GENERIC_WORDS:
        names.append(key)
    return names


@dataclass
class _Target:
    item: Number
    names: list[str]  # its own names (aliases, label, key words, the table's)
    pair_names: list[str]  # names that give a pair ("blood pressure 142/88"): systolic / diastolic only
    role: str | None  # systolic, diastolic, heart, breath
    qualifiers: frozenset[str]  # qualifier words its own names carry ("urine" of urine sodium)
    pattern: re.Pattern[str]
    required: bool = False  # its label or key carries a qualifier: a mention must too
    own: frozenset[str] = frozenset()  # its names, lower case, single-spaced
    pair_only: frozenset[str] = frozenset()  # names that only ever give a pair

    @property
    def key(self) -> str:
        return self.item.key


def _role(item: Number) -> str | None:
    words = _words(f"{item.key} {item.label}")
    if item.dimension == "pressure":
        if " systolic " in words or " sbp " in words or " sys " in words:
            return "systolic"
        if " diastolic " in words or " dbp " in words or " dia " in words:
            return "diastolic"
    if item.dimension == "rate":
        if any(f" {w} " in words for w in ("heart", "pulse", "hr", "ventricular")):
            return "heart"
        if any(f" {w} " in words for w in ("respiratory", "respiration", "resp", "rr", "breathing")):
            return "breath"
    return None


def _table_names(item: Number | Day) -> list[str]:
    aliases = item.aliases if isinstance(item, Number) else ()
    words = _words(f"{item.key} {item.label} {' '.join(aliases)}")
    names: list[str] = []
    for triggers, aliases in _NAMES:
        if any(f" {_words(t).strip()} " in words for t in triggers):
            names.extend(aliases)
    return names


def _name_pattern(names: Iterable[str]) -> re.Pattern[str]:
    unique = sorted({n for n in names if n.strip()}, key=len, reverse=True)
    parts = []
    for name in unique:
        body = r"\s+".join(re.escape(w) for w in name.split())
        # short all-capital names (K, Na, HR, BP) only as written; longer ones in any case; a plural "s"
        if len(name) <= 3 and not name.islower():
            parts.append(rf"(?-i:{body})")
        else:
            parts.append(body + "(?:s|es)?")
    if not parts:
        return re.compile(r"(?!x)x")
    return re.compile(r"(?<![\w+-])(?:" + "|".join(parts) + r")(?![\w])", re.IGNORECASE)


def _targets(calc: Calculator) -> list[_Target]:
    cached = _TARGETS.get(calc.id)
    if cached is not None and cached[0] is calc:
        return cached[1]
    targets = [_target(item) for item in calc.inputs if isinstance(item, Number) and item.dimension != "age"]
    _TARGETS[calc.id] = (calc, targets)
    return targets


def _target(item: Number) -> _Target:
    role = _role(item)
    names = [*item.aliases, *_label_names(item), *_table_names(item)]
    pair_names = list(_BP) if role in ("systolic", "diastolic") else []
    own = _words(" ".join([item.key, item.label, *item.aliases]))
    qualifiers = frozenset(q for q in (*_QUALIFIERS, *_MARKERS) if f" {q} " in own)
    required = any(f" {q} " in _words(f"{item.key} {item.label}") for q in (*_QUALIFIERS, *_MARKERS))
    own_names = frozenset(_plain(n) for n in [*names, *pair_names])
    pair_only = frozenset(_plain(n) for n in pair_names)  # 'BP 120' is neither pressure for sure
    pattern = _name_pattern([*names, *pair_names])
    return _Target(item, names, pair_names, role, qualifiers, pattern, required, own_names, pair_only)


def _read_measured(item: Criterion, above: Above, text: _Text, reading: NoteReading) -> None:
    """A criterion that is a measurement past a cut-off, from the measurement the note writes:
    'pulse was 150 beats per minute' is a heart rate > 100."""
    measure = Number(item.key, above.label, above.dimension, above.low, above.high)
    measured = NoteReading()
    _read_number(_target(measure), text, measured)
    reading.warnings.extend(f"{item.label}: {w}" for w in measured.warnings)
    value = measured.found.get(item.key)
    if value is None:
        return
    raw = value.argument["value"] if isinstance(value.argument, dict) else value.argument
    unit = value.argument["unit"] if isinstance(value.argument, dict) else None
    canonical, _ = convert(float(raw), unit, above.dimension)
    present = canonical > above.cutoff
    shown = f"{canonical:g} {measure.unit}"
    reading.found[item.key] = Found(
        input=item.key,
        label=item.label,
        value="yes" if present else "no",
        unit=None,
        argument=present,
        text=value.text,
        sentence=value.sentence,
        method="parsed",
        note=f"{above.label.lower()} {shown} {'>' if present else '≤'} {above.cutoff:g} {measure.unit}",
    )


_TARGETS: dict[str, tuple[Calculator, list[_Target]]] = {}
_VOCABULARY = _name_pattern([name for _, aliases in _NAMES for name in aliases] + list(_BP))


# --- reading numbers -----------------------------------------------------------------------------------


@dataclass
class _Candidate:
    num: _Num
    value: float  # as written (the pair's half for blood pressure)
    written: str
    name_start: int  # where the matched words start


def _accepts(target: _Target, num: _Num) -> bool | None:
    """True: the number's unit is one of the input's (or none is written); False: someone else's; None: unreadable."""
    dimension = DIMENSIONS[target.item.dimension]
    if num.canonical is None:
        return True
    if num.canonical == "?":
        return None
    if num.canonical == "":
        return False
    if num.canonical == "/µL":
        return target.item.dimension in ("platelets", "wbc")
    return normalize_unit(num.canonical) in dimension.units or normalize_unit(num.unit or "") in dimension.units


def _qualified(target: _Target, text: _Text, name_start: int, name_end: int) -> bool:
    """Is this mention about the input: no foreign qualifier ('urine' sodium for serum sodium), and one of
    its own when its label has one ('urine' or 'urinary' for urine sodium). The words looked at are those
    of the same list item: 'LDL 110 mg/dl, HDL 76 mg/dl' does not make HDL an LDL."""
    sentence_start = text.sentences[text.sentence_of(name_start)][0]
    start = max(sentence_start, name_start - 22)
    window = text.text[start:name_start]
    cut = max(window.rfind(","), window.rfind(";"), window.rfind(":"))
    before = text.text[start + cut + 1 : name_end]
    found = {m.group(1).lower() for m in _QUALIFIER.finditer(before)}
    if found - target.qualifiers - set(_MARKERS):
        return False
    return not target.required or bool(found & target.qualifiers)


def _after_name(target: _Target, text: _Text, end: int, short: bool) -> tuple[_Num | None, _Num | None]:
    """The value following a mention of the input's name: (accepted number, number with an unreadable unit).

    ``short``: the name is an abbreviation of three letters or fewer ('T', 'K', 'HR'), whose value must
    follow at once ('T 38.5', 'K+: 4.1', 'RR of 25'), since a lone letter is often no name at all.
    """
    sentence_end = text.sentences[text.sentence_of(end)][1]
    i = bisect.bisect_left(text.number_starts, end)
    foreign: _Num | None = None  # the first value with another quantity's unit: said if nothing fits
    while i < len(text.numbers):
        num = text.numbers[i]
        i += 1
        if num.start > min(sentence_end, end + _WINDOW):
            break
        gap = text.text[end : num.start]
        if ";" in gap or _foreign_name(target, gap) or _derived(target, gap):
            break
        if short and not _SHORT_GAP.fullmatch(gap):
            break
        if target.item.dimension == "weight" and _WEIGHT_CHANGE.search(gap):
            break
        if num.bound:
            continue
        if foreign is not None and "," in text.text[foreign.end : num.start]:
            break  # 'oxymorphone 1 time a day, 20 mg of fentanyl': the next item's value
        accepted = _accepts(target, num)
        if accepted is None:
            return None, num
        if accepted:
            return num, None
        if foreign is None and num.canonical is not None and num.start - end <= 25:
            foreign = num
    return None, foreign


def _before_name(target: _Target, text: _Text, start: int) -> _Num | None:
    """'35 % FiO₂', '182 cm tall': a number with its unit right before the name."""
    i = bisect.bisect_left(text.number_starts, start) - 1
    if i < 0:
        return None
    num = text.numbers[i]
    if num.bound or num.canonical is None or not _BEFORE_GAP.fullmatch(text.text[num.end : start]):
        return None
    if target.item.dimension == "weight" and _WEIGHT_CHANGE.search(text.text[max(0, num.start - 30) : num.start]):
        return None  # 'losing 40 kg weight'
    return num if _accepts(target, num) else None


def _unit_holding(target: _Target, text: _Text, pos: int) -> _Num | None:
    """The number whose written unit ``pos`` is inside, if it is one of the input's."""
    i = bisect.bisect_right(text.number_starts, pos) - 1
    if i < 0:
        return None
    num = text.numbers[i]
    if num.number_end <= pos < num.end and not num.bound and _accepts(target, num):
        return num
    return None


def _derived(target: _Target, gap: str) -> bool:
    return any(not any(m.group(0).lower() in name for name in target.own) for m in _DERIVED.finditer(gap))


def _plain(name: str) -> str:
    return " ".join(name.lower().split())


def _among(name: str, names: frozenset[str]) -> bool:
    plain = _plain(name)
    return (
        plain in names
        or (plain.endswith("s") and plain[:-1] in names)
        or (plain.endswith("es") and plain[:-2] in names)
    )


def _foreign_name(target: _Target, gap: str) -> bool:
    """Does the gap name another measurement ('heart rate and temperature were …')?"""
    return any(not _among(m.group(0), target.own) for m in _VOCABULARY.finditer(gap))


def _read_number(target: _Target, text: _Text, reading: NoteReading) -> None:
    item = target.item
    by_name: list[_Candidate] = []
    unreadable: list[_Num] = []
    for m in target.pattern.finditer(text.text):
        if not _qualified(target, text, m.start(), m.end()):
            continue
        pair_only = _among(m.group(0), target.pair_only)
        short = len(m.group(0).strip()) <= 3
        num = _unit_holding(target, text, m.start())  # '18 breaths per minute' with 'breaths' a name
        if num is None:
            num, refused = _after_name(target, text, m.end(), short)
            if refused is not None:
                unreadable.append(refused)
        if num is None:
            num = _before_name(target, text, m.start())
        if num is None:
            continue
        picked = _pick(target, num, pair_only)
        if picked is not None:
            by_name.append(_Candidate(num, picked[0], picked[1], m.start()))
    chosen: tuple[_Candidate, float] | None = None
    others: list[str] = []
    for candidates in (by_name, None):  # by name first; by unit alone only when no name gave a usable value
        if candidates is None:
            if chosen is not None:
                break
            candidates = _by_unit(target, text)
        for candidate in candidates:
            canonical, problem = _canonical_value(item, candidate)
            if problem is not None:
                if problem not in reading.warnings:
                    reading.warnings.append(problem)
                continue
            if chosen is None:
                chosen = (candidate, canonical)
            elif abs(canonical - chosen[1]) > 0.005 * max(abs(chosen[1]), 1e-9):
                shown = _shown_value(candidate)
                if shown not in others:
                    others.append(shown)
    if chosen is None:
        for num in unreadable[:1]:
            reading.warnings.append(
                f"{item.label}: {num.written} {num.unit} in the note has a unit that is not one of "
                f"{', '.join(DIMENSIONS[item.dimension].accepted)}; not used"
            )
        return
    reading.found[item.key] = _number_found(item, chosen[0], text)
    if others:
        reading.warnings.append(
            f"{item.label}: the note gives other values too ({', '.join(others[:6])}); the first, "
            f"{_shown_value(chosen[0])}, was used — give {item.key}=… to use another"
        )


def _pick(target: _Target, num: _Num, pair_only: bool) -> tuple[float, str] | None:
    if num.second is not None:
        if target.role == "systolic":
            return num.value, num.written
        if target.role == "diastolic":
            return num.second, num.second_written or ""
        return None  # "15.8/47 %", "1/640": not one value
    if pair_only:
        return None  # "blood pressure 120" is neither a systolic nor a diastolic pressure for sure
    if num.feet_inches and target.item.dimension != "height":
        return None
    return num.value, num.written


def _by_unit(target: _Target, text: _Text) -> list[_Candidate]:
    """Values known by their unit alone: °C/°F; 'beats per minute'; 'breaths/min'; 142/88 mmHg; a body's
    kg or lb and cm (with a weight in the same sentence) or 5'10"."""
    dimension = target.item.dimension
    found: list[_Candidate] = []
    if target.required:
        return found  # 'normal albumin', 'urine output', 'target BMI': only ever by name
    for num in text.numbers:
        if num.bound or num.canonical in (None, "", "?"):
            continue
        unit = (num.unit or "").lower()
        before = text.text[max(0, num.start - 30) : num.start]
        picked: tuple[float, str] | None = None
        if dimension == "temperature" and num.canonical in ("°C", "°F") and num.second is None:
            picked = (num.value, num.written)
        elif target.role == "heart" and num.canonical == "/min" and ("beat" in unit or unit == "bpm"):
            if num.second is None and not re.search(r"fetal|foetal|fhr", before, re.IGNORECASE):
                picked = (num.value, num.written)
        elif target.role == "breath" and num.canonical == "/min" and "breath" in unit and num.second is None:
            picked = (num.value, num.written)
        elif target.role in ("systolic", "diastolic") and num.second is not None and num.canonical == "mmHg":
            picked = _pick(target, num, False)
        elif dimension == "weight" and num.canonical in ("kg", "lb") and num.second is None:
            if not _WEIGHT_CHANGE.search(before) and not _QUALIFIER.search(before[-14:]):
                picked = (num.value, num.written)
        elif (
            dimension == "height"
            and num.second is None
            and (
                (num.feet_inches and (num.inches_given or _body_sentence(text, num)))
                or (num.canonical == "cm" and 100 <= num.value <= 230 and _body_sentence(text, num))
            )
        ):
            picked = (num.value, num.written)
        if picked is not None:
            found.append(_Candidate(num, picked[0], picked[1], num.start))
    return found


def _body_sentence(text: _Text, num: _Num) -> bool:
    """A cm value that is a height: not a lesion's size ('9 cm × 7 cm'); a weight or 'tall' beside it."""
    around = text.text[max(0, num.start - 3) : num.end + 3]
    if "×" in around or re.search(r"\d\s?x|x\s?\d", around):
        return False
    start, end = text.sentences[text.sentence_of(num.start)]
    sentence = text.text[start:end]
    return bool(re.search(r"\d\s?(?:kg|lbs?|pounds)\b|\btall\b|\bheight\b", sentence, re.IGNORECASE))


def _argument(item: Number, candidate: _Candidate) -> tuple[Any, str | None]:
    """What the calculator is given for ``candidate`` (a number or {value, unit}), and a note on how."""
    num = candidate.num
    value = candidate.value
    if num.canonical is None and num.maybe_inches and item.dimension == "height":
        return {"value": value, "unit": "in"}, None
    if num.canonical is None:
        return value, f"no unit written; read as {item.unit}"
    if num.feet_inches:
        return {"value": value, "unit": "in"}, f"{num.written} = {value:g} in"
    if num.canonical == "/µL":
        return {"value": value / 1000, "unit": "10^3/uL"}, f"{candidate.written} per µL = {value / 1000:g} ×10⁹/L"
    unit = num.canonical if normalize_unit(num.canonical or "") in DIMENSIONS[item.dimension].units else num.unit
    return {"value": value, "unit": unit}, None


def _canonical_value(item: Number, candidate: _Candidate) -> tuple[float, str | None]:
    """The value in the input's canonical unit, or the reason it is refused."""
    argument, _ = _argument(item, candidate)
    raw = argument["value"] if isinstance(argument, dict) else argument
    unit = argument["unit"] if isinstance(argument, dict) else None
    try:
        number, _ = convert(float(raw), unit, item.dimension)
    except ValidationError as exc:
        return 0.0, f"{item.label}: {_shown_value(candidate)} in the note: {exc.message}; not used"
    if not item.low <= number <= item.high:
        return number, (
            f"{item.label}: {_shown_value(candidate)} in the note is outside the plausible "
            f"{item.low:g}–{item.high:g} {item.unit}; not used"
        )
    return number, None


def _shown_value(candidate: _Candidate) -> str:
    num = candidate.num
    if num.feet_inches:
        return num.written
    return f"{candidate.written} {num.unit}" if num.unit else candidate.written


def _number_found(item: Number, candidate: _Candidate, text: _Text) -> Found:
    num = candidate.num
    argument, note = _argument(item, candidate)
    start = min(candidate.name_start, num.start)
    end = max(num.end, candidate.name_start)
    return Found(
        input=item.key,
        label=item.label,
        value=num.written if num.feet_inches else _as_number(candidate.written),
        unit=None if num.feet_inches else ("in" if isinstance(argument, dict) and num.maybe_inches else num.unit),
        argument=argument,
        text=text.text[start:end].strip() if end - start < 200 else text.text[num.start : num.end],
        sentence=text.sentence_text(text.sentence_of(num.start), (start, num.end)),
        method="parsed",
        note=note,
    )


def _as_number(written: str) -> float | int:
    value = float(written.replace(",", "") or "0")
    return int(value) if value.is_integer() and "." not in written else value


# --- age, sex, dates -------------------------------------------------------------------------------------

_AGE = re.compile(
    r"(?<![\w.])(\d{1,3}(?:\.\d)?)\s?(?:-|\s)?\s?(years?|yrs?|months?|mos?)\s?(?:-|\s)?\s?old\b"
    r"|(?<![\w.])(\d{1,3})\s?(?:yo|y/o|y\.o\.|yr old|YO)(?![\w])"
    r"|\b(?:aged|age of|age:|age)\s?(\d{1,3}(?:\.\d)?)(?![\d.])(?:\s?(years|yrs|months))?"
    r"|(?<![\w.])(\d{1,3})\s?years?\s?of\s?age\b",
    re.IGNORECASE,
)
_MALE = ("man", "male", "gentleman", "boy", "men", "m")
_FEMALE = ("woman", "female", "lady", "girl", "women", "f")
_SEX_WORD = re.compile(r"\b(man|woman|male|female|gentleman|lady|boy|girl)\b", re.IGNORECASE)
_PRONOUNS = re.compile(r"\b(he|him|his|she|her|hers)\b", re.IGNORECASE)


def _read_age(item: Number, text: _Text, reading: NoteReading) -> None:
    for m in _AGE.finditer(text.text):
        written = next(g for g in (m.group(1), m.group(3), m.group(4), m.group(6)) if g)
        unit_word = (m.group(2) or m.group(5) or "years").lower()
        months = unit_word.startswith("mo")
        if _qualified_age(text, m.start()):
            continue
        value = float(written)
        argument: Any = {"value": value, "unit": "months"} if months else value
        years = value / 12 if months else value
        if not item.low <= years <= item.high:
            reading.warnings.append(
                f"{item.label}: {m.group(0).strip()} in the note is outside the plausible "
                f"{item.low:g}–{item.high:g} {item.unit}; not used"
            )
            return
        sentence = text.sentence_of(m.start())
        reading.found[item.key] = Found(
            input=item.key,
            label=item.label,
            value=_as_number(written),
            unit="months" if months else "years",
            argument=argument,
            text=m.group(0).strip(),
            sentence=text.sentence_text(sentence, (m.start(), m.end())),
            method="parsed",
        )
        return


def _qualified_age(text: _Text, start: int) -> bool:
    """'her 40-year-old husband', 'a 12-year history': the patient's age comes first, not a relative's."""
    before = text.text[max(0, start - 20) : start].lower()
    return bool(re.search(r"\b(?:husband|wife|son|daughter|mother|father|brother|sister|partner)\b", before))


def _read_sex(item: Choice, text: _Text, reading: NoteReading) -> None:
    options = {option.lower(): option for option in item.options}
    male = next((options[o] for o in ("male", "man", "m") if o in options), None)
    female = next((options[o] for o in ("female", "woman", "f") if o in options), None)
    if male is None or female is None:
        return
    chosen: tuple[str, int, int, str] | None = None
    age = _AGE.search(text.text)
    if age:  # "a 64-year-old woman", "an 85-year-old menopausal woman", "A 35-year-old, 157 cm, 52 kg, woman"
        window = text.text[age.end() : age.end() + 40]
        m = _SEX_WORD.search(window)
        if m and "." not in window[: m.start()]:
            chosen = (m.group(1), age.start(), age.end() + m.end(), "parsed")
    if chosen is None and text.sentences:
        start, end = text.sentences[0]
        m = _SEX_WORD.search(text.text, start, end)
        if m:
            chosen = (m.group(1), m.start(), m.end(), "parsed")
    if chosen is None:
        he = [m for m in _PRONOUNS.finditer(text.text) if m.group(1).lower() in ("he", "him", "his")]
        she = [m for m in _PRONOUNS.finditer(text.text) if m.group(1).lower() in ("she", "her", "hers")]
        if len(he) >= 3 and not she:
            chosen = (he[0].group(1), he[0].start(), he[0].end(), "pronoun")
        elif len(she) >= 3 and not he:
            chosen = (she[0].group(1), she[0].start(), she[0].end(), "pronoun")
    if chosen is None:
        return
    word, start, end, how = chosen
    is_male = word.lower() in _MALE or word.lower() in ("he", "him", "his")
    option = male if is_male else female
    sentence = text.sentence_of(start)
    reading.found[item.key] = Found(
        input=item.key,
        label=item.label,
        value=option,
        unit=None,
        argument=option,
        text=text.text[start:end].strip(),
        sentence=text.sentence_text(sentence, (start, end)),
        method="parsed",
        note="from the pronouns the note uses" if how == "pronoun" else None,
    )


_DAY_NAMES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("menstrual", "lmp", "period"), ("last menstrual period", "LMP", "last period", "menstrual period")),
    (("today", "current", "now", "visit", "assessment"), ("today's date", "today", "current date", "date today", "date of visit")),
    (("conception",), ("conception", "conceived")),
    (("due",), ("due date", "EDD", "estimated date of delivery")),
    (("birth", "dob"), ("date of birth", "DOB", "born")),
)  # fmt: skip


def _read_day(item: Day, text: _Text, reading: NoteReading, taken: set[int]) -> None:
    words = _words(f"{item.key} {item.label}")
    names = _label_names(item)
    for triggers, aliases in _DAY_NAMES:
        if any(f" {t} " in words for t in triggers):
            names.extend(aliases)
    pattern = _name_pattern(names)
    for m in pattern.finditer(text.text):
        sentence = text.sentence_of(m.start())
        start, end = text.sentences[sentence]
        lo, hi = bisect.bisect_left(text.date_starts, start), bisect.bisect_left(text.date_starts, end)
        in_sentence = [d for d in text.dates[lo:hi] if d.start not in taken]
        after = [d for d in in_sentence if d.start >= m.end()]
        chosen = after[0] if after else (in_sentence[-1] if in_sentence else None)
        if chosen is None:
            continue
        if chosen.value is None:
            reading.warnings.append(f"{item.label}: {chosen.problem}; not used")
            return
        taken.add(chosen.start)
        reading.found[item.key] = Found(
            input=item.key,
            label=item.label,
            value=chosen.value.isoformat(),
            unit=None,
            argument=chosen.value,
            text=text.text[min(m.start(), chosen.start) : max(m.end(), chosen.end)].strip(),
            sentence=text.sentence_text(sentence, (chosen.start, chosen.end)),
            method="parsed",
            note=None
            if chosen.written == chosen.value.isoformat()
            else f"{chosen.written} read as {chosen.value.isoformat()}",
        )
        return


# --- doses a day ---------------------------------------------------------------------------------------------

_COUNT_WORDS = {"once": 1, "one": 1, "twice": 2, "two": 2, "thrice": 3, "three": 3, "four": 4, "five": 5, "six": 6}
_COUNT = r"(?:\d{1,2}|once|one|twice|two|thrice|three|four|five|six)"
# a frequency right after a drug's name (and its dose, route or form): 'oxycodone 10 mg twice daily',
# '10 mg of oxymorphone 1 time a day', 'morphine PO q6h'; Latin abbreviations are the usual ones (ISMP)
_FREQUENCY = re.compile(
    r"[\s,]*(?:\d+(?:\.\d+)?\s?(?:mg|mcg|µg|μg|ug|g|mL|tablets?|tabs?|caps?|capsules?)\b[\s,]*)?"
    r"(?:(?:po|p\.o\.|orally|by mouth|iv|sc|sl|sublingual|buccal|tablets?|tabs?|ir|er|sr)\b[\s,]*){0,2}"
    rf"(?P<frequency>(?P<count>{_COUNT})\s?(?:times?|x|×)\s?(?:a|per|/|each|every)\s?day"
    rf"|(?P<daily>{_COUNT})\s?(?:times?\s)?daily"
    r"|(?:every|q\.?)\s?(?P<hours>\d{1,2})\s?(?:h|hr|hrs|hours?)\b\.?"
    r"|(?P<latin>q\.?d|o\.?d|b\.?i\.?d|t\.?i\.?d|q\.?i\.?d|daily|nightly|at bedtime|a day)\b\.?)"
    r"(?P<prn>[\s,(]*(?:as needed|prn|p\.r\.n|if needed|when needed|as required))?",
    re.IGNORECASE,
)
_LATIN = {"qd": 1, "od": 1, "bid": 2, "tid": 3, "qid": 4, "daily": 1, "nightly": 1, "at bedtime": 1, "a day": 1}


def _frequency(m: re.Match[str]) -> float:
    for group in ("count", "daily"):
        if m.group(group):
            word = m.group(group).lower()
            return float(_COUNT_WORDS.get(word, 0) or word)
    if m.group("hours"):
        return 24 / int(m.group("hours"))
    return float(_LATIN[m.group("latin").lower().replace(".", "")])


def _dose_of(calc: Calculator, item: Number) -> Number | None:
    """The dose a "<drug>_doses_per_day" input counts: the calculator's "<drug>_dose"."""
    if item.dimension != "count" or not item.key.endswith("_doses_per_day"):
        return None
    dose = next((i for i in calc.inputs if i.key == item.key.removesuffix("_doses_per_day") + "_dose"), None)
    return dose if isinstance(dose, Number) else None


def _read_doses_per_day(item: Number, dose: _Target, text: _Text, reading: NoteReading) -> None:
    """How often the drug is taken, from the words right after its name: '... oxymorphone 1 time a day'."""
    for m in dose.pattern.finditer(text.text):
        frequency = _FREQUENCY.match(text.text, m.end())
        if frequency is None:
            continue
        value = _frequency(frequency)
        written = frequency.group("frequency").strip(" ,.")
        if frequency.group("prn"):
            reading.warnings.append(
                f"{item.label}: {written!r} is as needed (PRN), not how many doses a day are taken; not used"
            )
            return
        if not item.low <= value <= item.high:
            continue
        sentence = text.sentence_of(m.start())
        reading.found[item.key] = Found(
            input=item.key,
            label=item.label,
            value=_as_number(f"{value:g}"),
            unit=None,
            argument=value,
            text=text.text[m.start() : frequency.end()].strip(),
            sentence=text.sentence_text(sentence, (m.start(), frequency.end())),
            method="parsed",
            note=f"{written!r} = {value:g} a day",
        )
        return


# --- the whole reading -----------------------------------------------------------------------------------


def parse_note(calc: Calculator, note: str) -> NoteReading:
    """What deterministic parsing finds in ``note`` for ``calc``: numbers, age, sex, dates."""
    return _parse(calc, _read_text(note))


def _read_text(note: str) -> _Text:
    if len(note) > MAX_NOTE_CHARS:
        raise ValidationError(f"the note has {len(note):,} characters; at most {MAX_NOTE_CHARS:,} are read")
    return _Text(note)


def _parse(calc: Calculator, text: _Text) -> NoteReading:
    reading = NoteReading()
    targets = {t.key: t for t in _targets(calc)}
    taken_dates: set[int] = set()
    for item in calc.inputs:
        if isinstance(item, Number):
            dose = _dose_of(calc, item)
            if item.dimension == "age":
                _read_age(item, text, reading)
            elif dose is not None:
                _read_doses_per_day(item, targets[dose.key], text, reading)
            else:
                _read_number(targets[item.key], text, reading)
        elif isinstance(item, Choice) and item.default is None and _is_sex(item):
            _read_sex(item, text, reading)
        elif isinstance(item, Day):
            _read_day(item, text, reading, taken_dates)
        elif isinstance(item, Criterion) and item.measured is not None:
            _read_measured(item, item.measured, text, reading)
    return reading


def _is_sex(item: Choice) -> bool:
    return item.key.lower() in ("sex", "gender") or item.label.strip().lower() in ("sex", "gender")


async def evaluate_note(
    calc: Calculator,
    note: str,
    arguments: Mapping[str, Any],
    *,
    missing: Literal["ask", "absent"] = "ask",
    model: CriteriaModel | None = None,
    unavailable: str | None = None,
) -> CalcResult:
    """``evaluate`` with the inputs ``note`` gives, ``arguments`` winning; the values found in ``extracted``.

    ``model`` reads the yes/no criteria and options parsing cannot; None: they stay missing, and the
    result says why (``unavailable``, or that no model is configured).
    """
    text = _read_text(note)
    reading = _parse(calc, text)
    warnings = list(reading.warnings)
    found = dict(reading.found)
    pending = [
        item
        for item in calc.inputs
        if (isinstance(item, Criterion) or (isinstance(item, Choice) and item.default is None and item.in_note))
        and item.key not in arguments
        and item.key not in found
    ]
    mentions = {
        item.key: find_mentions(item, text.text, text.sentences) for item in pending if isinstance(item, Criterion)
    }
    for item in pending:
        if isinstance(item, Criterion):
            read = _read_criterion(item, text, mentions[item.key])
            if read is not None:
                found[item.key] = read
        elif item.absent in _NONE_OPTIONS:
            denied = _denied_option(item, text)
            if denied is not None:
                found[item.key] = denied
    pending = [item for item in pending if item.key not in found]
    if pending:
        if model is None:
            warnings.append(unavailable or NO_MODEL)
        else:
            model_found, model_warnings = await _read_with_model(model, calc, pending, text, mentions)
            found.update(model_found)
            warnings.extend(model_warnings)
    given: dict[str, Any] = {}
    for key, value in found.items():
        if key in arguments:
            value.used = False
            value.note = "the argument given was used instead"
        else:
            given[key] = value.argument
    given.update(arguments)
    try:
        result = evaluate(calc, given, missing=missing)
    except ValidationError as exc:
        used = [f for f in found.values() if f.used]
        if used:
            shown = "; ".join(f"{f.input} = {f.value}{' ' + f.unit if f.unit else ''} ({f.text!r})" for f in used)
            raise ValidationError(f"{exc.message} — with the values read from the note: {shown}") from exc
        raise
    result.extracted = [f.as_dict() for f in sorted(found.values(), key=lambda f: _order(calc, f.input))]
    result.warnings = [*result.warnings, *warnings]
    return result


def _read_criterion(item: Criterion, text: _Text, mentions: Sequence[Mention]) -> Found | None:
    """A yes/no criterion the note states plainly, by the first reading without a model that applies: its
    mentions, a dated event, a stated difference between the sides, the symptomatic side in place of a
    role, a denial of the broader finding it narrows."""
    plain = plain_answer(item, mentions)
    if plain is not None and not (plain[0] is False and denies_another_side(item, plain[1], text.text, text.sentences)):
        return _plain_found(item, *plain, text)
    dated = recent_answer(item, text.text, text.sentences) if item.recent is not None else None
    if dated is not None:
        return _dated_found(item, *dated, text)
    compared = compared_answer(item, text.text, text.sentences)
    if compared is not None:
        answer, mention, written, threshold = compared
        found = _plain_found(item, answer, mention, text)
        found.note = f"{found.text!r}: {written}, {'' if answer else 'not '}{threshold.written}"
        return found
    sided = side_answer(item, text.text, text.sentences)
    if sided is not None:
        found = _plain_found(item, True, sided[1], text)
        found.note = f"{found.text!r}: the {sided[2]} is the side of the note's symptoms"
        return found
    broader = broader_answer(item, text.text, text.sentences)
    if broader is not None and not denies_another_side(item, broader[1], text.text, text.sentences):
        found = _plain_found(item, False, broader[1], text)
        found.note = f"{found.text!r} denied ({broader[1].cue!r}): none at all, so not {plain_label(item).lower()}"
        return found
    return None


def _order(calc: Calculator, key: str) -> int:
    return next(i for i, item in enumerate(calc.inputs) if item.key == key)


_NONE_OPTIONS = ("none", "absent")  # an option that is the item's absence ("mobility: ambulatory" is not)


def _denied_option(item: Choice, text: _Text) -> Found | None:
    """'no ascites': an item whose option for absence is "none", denied as plainly as a criterion would be."""
    as_criterion = Criterion(item.key, item.label)
    plain = plain_answer(as_criterion, find_mentions(as_criterion, text.text, text.sentences))
    if plain is None or plain[0]:
        return None  # present says nothing of how severe
    found = _plain_found(as_criterion, False, plain[1], text)
    found.value = found.argument = item.absent
    return found


def _plain_found(item: Criterion, answer: bool, mention: Mention, text: _Text) -> Found:
    shown = text.text[mention.start : mention.end]
    return Found(
        input=item.key,
        label=item.label,
        value="yes" if answer else "no",
        unit=None,
        argument=answer,
        text=shown,
        sentence=text.sentence_text(mention.sentence, (mention.start, mention.end)),
        method="parsed",
        note=f"{shown!r} denied ({mention.cue!r})" if not answer else f"{shown!r} stated",
    )


def _dated_found(item: Criterion, answer: bool, mention: Mention, elapsed: Elapsed, text: _Text) -> Found:
    """An event the note dates plainly: "'knee replacement' 3 weeks ago: inside the window"."""
    found = _plain_found(item, answer, mention, text)
    where = "inside" if answer else "outside"
    found.note = f"{found.text!r} {elapsed.text}: {where} the criterion's time window"
    return found


async def _read_with_model(
    model: CriteriaModel,
    calc: Calculator,
    items: Sequence[Criterion | Choice],
    text: _Text,
    mentions: Mapping[str, Sequence[Mention]],
) -> tuple[dict[str, Found], list[str]]:
    """Each criterion asked over the sentences that mention it (none: not asked), each option over the
    whole note; an answer kept only when its quote is in those sentences and supports it: a "yes" names
    the criterion (and is not from a sentence where parsing finds it denied or uncertain), a "no" denies
    it, an option names the item or the option. Anything else is the model guessing, and stays missing."""
    found: dict[str, Found] = {}
    warnings: list[str] = []
    for item in items:
        shown = context_sentences(item, text.text, text.sentences) if isinstance(item, Criterion) else None
        if shown == []:
            continue  # the note never names it: "not stated", and nothing to ask
        excerpts = [text.sentence_text(i) for i in shown] if shown is not None else text.text
        try:
            answer, item_warnings = await read_criterion(model, calc, item, excerpts)
        except UpstreamError as exc:
            warnings.append(
                f"the {model.name} model failed ({exc.message}): only the yes/no criteria the note states plainly were read"
            )
            break
        warnings.extend(item_warnings)
        if answer is None:
            continue
        value, quote = answer
        located = _locate(text, quote)
        if located is None:
            warnings.append(
                f"{item.label}: the model answered {value!r} quoting words that are not in the note "
                f"({quote[:80]!r}); not used"
            )
            continue
        start, end = located
        sentence = text.sentence_of(start)
        if shown is not None and sentence not in shown:
            warnings.append(
                f"{item.label}: the model answered {value!r} quoting a sentence it was not shown ({quote[:80]!r}); "
                "not used"
            )
            continue
        quoted = text.text[start:end]
        unsupported = (
            (value == "yes" and not names_it(item, quoted)) or (value == "no" and not denies_it(item, quoted))
            if isinstance(item, Criterion)
            else not names_option(item.label, value, quoted)
        )
        if unsupported:
            what = "deny it" if value == "no" else "name it"
            warnings.append(
                f"{item.label}: the model answered {value!r} quoting words that do not {what} ({quote[:80]!r}); "
                "not used"
            )
            continue
        if value == "yes":
            here = {m.polarity for m in mentions.get(item.key, ()) if m.sentence == sentence}
            if here and "affirmed" not in here:
                warnings.append(
                    f"{item.label}: the model answered 'yes' from a sentence that denies it or says it only as a "
                    f"possibility ({quote[:80]!r}); not used"
                )
                continue
        argument: Any = value if isinstance(item, Choice) else value == "yes"
        found[item.key] = Found(
            input=item.key,
            label=item.label,
            value=value,
            unit=None,
            argument=argument,
            text=text.text[start:end],
            sentence=text.sentence_text(sentence, (start, end)),
            method="model",
        )
    if found:
        warnings.append(
            f"{len(found)} yes/no criteria or options were read by the {model.name} model: check each against "
            "its sentence ('extracted')"
        )
    return found, warnings


_TOKEN = re.compile(r"[a-z0-9]+")


def _locate(text: _Text, quote: str) -> tuple[int, int] | None:
    """Where the model's quote is in the note: verbatim (case and spacing aside), or a sentence holding at
    least 80 % of its words; None when it is not there (an invented quote)."""
    words = _TOKEN.findall(quote.lower())
    if not words:
        return None
    lowered = text.text.lower()
    pattern = r"\W+".join(re.escape(w) for w in words)
    m = re.search(pattern, lowered)
    if m:
        return m.start(), m.end()
    best: tuple[float, int] = (0.0, -1)
    wanted = set(words)
    for index, (start, end) in enumerate(text.sentences):
        present = wanted & set(_TOKEN.findall(lowered[start:end]))
        share = len(present) / len(wanted)
        if share > best[0]:
            best = (share, index)
    if best[0] >= 0.8 and len(wanted) >= 2:
        return text.sentences[best[1]]
    return None
