"""Facts read from a clinician's message by rules: which labs, vitals, drugs and calculators it names (and
where), the time window, a dose with its unit, route and frequency, a patient's name, birth date or MRN.

Everything works on a ``Text``: the message cleaned of extra whitespace with typos fixed, in its own case
(``orig``) and lower case (``low``), the two aligned character by character so a span found in one reads
the same in the other. Lab and vital names come from the chart's own vocabulary (``tools.ehr.lab_codes``),
routes and frequencies from the write tools' (``tools.ehr.write_vocab``): one list each, imported when
first needed so importing this module stays cheap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import cache, lru_cache
from typing import Any

from curbside.agent import triage_words as w

__all__ = [
    "Mention",
    "Text",
    "article_types",
    "as_needed",
    "birth_date",
    "calculators_in",
    "dose",
    "drugs_in",
    "frequency",
    "given_value",
    "labs_in",
    "mrn",
    "patient_name",
    "route",
    "time_slots",
    "trial_slots",
    "readings_by_unit",
    "vital_reading",
    "vital_units",
    "vitals_in",
]


@dataclass(frozen=True)
class Text:
    orig: str  # the message as typed, whitespace single, typos fixed in lower case
    low: str  # the same, lower case; same length as orig

    @classmethod
    def of(cls, message: str) -> Text:
        tokens = " ".join(message.replace("\u2019", "'").split()).split(" ")
        fixed = [_fix_token(token) for token in tokens]
        orig = " ".join(fixed)
        low = w.normalise(orig)
        if len(low) != len(orig):  # a character whose lower case is longer: give up case-sensitive reads
            orig = low
        return cls(orig, low)


@dataclass(frozen=True)
class Mention:
    kind: str  # lab | vital | drug | calculator
    name: str  # the canonical name (lab_codes name, calculator id, drug as written)
    start: int
    end: int
    known: bool = True  # a lab lab_codes knows (else a name the planner must resolve)


# --- typos ------------------------------------------------------------------------------------------

_WORD_CHARS = re.compile(r"^([^a-z0-9]*)([a-z][a-z0-9-]*[a-z])([^a-z0-9]*)$")
# real words one edit from a target, which must stay as they are
_KEEP = frozenset("diagnosis records trial latest started interacts reporter reports alleged recorded".split())


def _fix_token(token: str) -> str:
    found = _WORD_CHARS.match(token.lower())
    if found is None or len(found[2]) < 5:
        return token
    word = found[2]
    fixed = _closest(word)
    if fixed is None or fixed == word:
        return token
    return found[1] + fixed + found[3]


@lru_cache(maxsize=4096)
def _closest(word: str) -> str | None:
    if word in _KEEP or word in w.TYPO_TARGETS or word in w.DRUG_NAMES:
        return None
    if word.endswith("s") and (word[:-1] in w.TYPO_TARGETS or word[:-1] in w.DRUG_NAMES):
        return None
    limit = 2 if len(word) >= 9 else 1
    for target in w.TYPO_TARGETS:
        if target[0] == word[0] and abs(len(target) - len(word)) <= limit and _distance(word, target) <= limit:
            return target
    return None


def _distance(a: str, b: str) -> int:
    """Damerau-Levenshtein (optimal string alignment): a swap of neighbours is one typo, not two."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


# --- labs and vitals --------------------------------------------------------------------------------


_AMBIGUOUS_SHORT = frozenset({"k", "na", "cr", "hb", "hr", "rr", "tg", "wt", "ht", "sat"})


@cache
def _chart_vocabulary() -> tuple[re.Pattern[str], dict[str, tuple[str, str]], re.Pattern[str]]:
    """One pattern over every lab and vital name the chart knows (longest first), the name -> (kind,
    canonical name) table, and the pattern for short names that must be typed in capitals (K, Na, HR)."""
    from curbside.tools.ehr.lab_codes import CONCEPTS

    table: dict[str, tuple[str, str]] = {}
    short: dict[str, tuple[str, str]] = {}
    for concept in CONCEPTS:
        for name in (concept.name, *concept.aliases):
            spelled = name.lower()
            # one or two letters that are also words or units ('k', 'hr', 'cr'): typed in capitals only
            target = short if spelled in _AMBIGUOUS_SHORT else table
            target[spelled] = (concept.kind, concept.name)
    for name, canonical in w.EXTRA_LABS.items():
        table.setdefault(name, ("lab", canonical))
    for group in w.LAB_GROUPS:
        table[group] = ("group", group)
    # spellings the chart's list lacks but clinicians type
    table.update({"hgb": ("lab", "hemoglobin"), "a1cs": ("lab", "hba1c"), "o2 sat": ("vital", "spo2")})
    table.update({"sats": ("vital", "spo2"), "pulse ox": ("vital", "spo2"), "bps": ("vital", "bp")})
    for spelled, vital in w.EXTRA_VITALS.items():
        table.setdefault(spelled, ("vital", vital))
    names = sorted(table, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?:e?s)?(?![\w+])")
    # K+ / Na+ in any case; the bare letters only as typed in capitals
    _short_spelled = {
        "k": "K", "na": "Na", "cr": "Cr", "hb": "Hb", "hr": "HR", "rr": "RR", "tg": "TG", "wt": "Wt", "ht": "Ht",
        "sat": "Sat",
    }  # fmt: skip
    alternatives = [rf"{re.escape(s)}\+" for s in ("k", "na")]
    alternatives += [re.escape(_short_spelled[s]) for s in short if s in _short_spelled]
    short_pattern = re.compile(r"(?<![\w-])(" + "|".join(alternatives) + r")(?![\w-])", re.IGNORECASE)
    for spelled, value in short.items():
        table[spelled] = value
        table[spelled + "+"] = value
    return pattern, table, short_pattern


# short names that are no English word or unit: read in any case ('avg wt past 2 yrs')
_NOT_WORDS = frozenset({"wt"})
_VALUE_NEXT = re.compile(r"\s*(?:[:=]|of|is|was|at)?\s*\d")


def _chart_mentions(text: Text) -> list[tuple[str, str, int, int]]:
    pattern, table, short_pattern = _chart_vocabulary()
    found: list[tuple[str, str, int, int]] = []
    for hit in pattern.finditer(text.low):
        kind, name = table[hit[1]]
        found.append((kind, name, hit.start(), hit.end()))
    taken = [(start, end) for _, _, start, end in found]
    for hit in short_pattern.finditer(text.orig):
        if any(start <= hit.start() < end for start, end in taken):
            continue  # 'sat' inside 'O2 sat'
        spelled = hit[1]
        plus = spelled.endswith("+")
        # the bare letters count only as typed in capitals ('K', 'Na', 'HR'), or in any case when a value
        # follows them ('hr 110', 'wt 92 kg', 'rr: 22'); 'k+' in any case
        lower_ok = spelled.lower() in _NOT_WORDS or _VALUE_NEXT.match(text.low, hit.end())
        if not plus and spelled[0].islower() and not lower_ok:
            continue
        if spelled.lower() == "hr" and re.search(r"\d\s*$", text.low[: hit.start()]):
            continue  # '24 hr' is a window
        kind, name = table[spelled.lower()]
        found.append((kind, name, hit.start(), hit.end()))
    return sorted(found, key=lambda m: m[2])


def labs_in(text: Text) -> list[Mention]:
    """Every lab the message names, in order; a group ('lipid panel', 'labs') as a mention of its name."""
    known = _known_labs()
    mentions = []
    for kind, name, start, end in _chart_mentions(text):
        if kind == "lab":
            mentions.append(Mention("lab", name, start, end, name in known))
        elif kind == "group":
            mentions.append(Mention("lab", name, start, end, False))
    return mentions


def vitals_in(text: Text) -> list[Mention]:
    return [Mention("vital", name, s, e) for kind, name, s, e in _chart_mentions(text) if kind == "vital"]


@cache
def _known_labs() -> frozenset[str]:
    from curbside.tools.ehr.lab_codes import CONCEPTS

    return frozenset(c.name for c in CONCEPTS if c.kind == "lab")


def lab_code(name: str) -> dict[str, str]:
    """A lab name's first LOINC code and its label, as ehr.order_service takes them ({} for a name the
    chart's vocabulary lacks)."""
    from curbside.tools.ehr.lab_codes import CONCEPTS

    concept = next((c for c in CONCEPTS if c.name == name and c.kind == "lab"), None)
    return {"code_system": "loinc", "code": concept.codes[0], "display": concept.label} if concept else {}


def group_labs(name: str) -> tuple[str, ...]:
    """The labs a group name stands for ('lipid panel' -> ldl, hdl, …); a lab stands for itself."""
    return w.LAB_GROUPS.get(name, (name,))


# a value right after a name: 'potassium of 5.6', 'A1c is 8.9', 'HR 110', 'BP 132/84', 'BP still 150s'
_GIVEN = re.compile(
    r"^\s*(?:(?:is|was|of|at|still|now|=|:|went from|came back(?: at)?|today|just now|(?:dropped|fell|rose|went up"
    r"|went down|increased|decreased|climbed|jumped) (?:from )?|from)\s*)*\d+(?:\.\d+)?"
    r"(?!\d*\))(?!\s*(?:hours?|hrs?|days?|weeks?|months?|years?|yrs?)\b)"  # '2)' lists, '3 months' is a time
)


def given_value(text: Text, mention: Mention) -> bool:
    """The message states this value (an input, not a question about the chart)."""
    return bool(_GIVEN.match(text.low[mention.end : mention.end + 40]))


# --- a vital's reading -----------------------------------------------------------------------------

# vital names as lab_codes spells them -> as the record tool's kinds
VITAL_KIND = {
    "bp": "blood_pressure", "heart rate": "heart_rate", "respiratory rate": "respiratory_rate",
    "temperature": "temperature", "spo2": "spo2", "weight": "weight", "height": "height", "bmi": "bmi",
}  # fmt: skip
# words that may stand between a vital's name and its reading ('BP this visit 138/86', 'weight of 80 kg',
# 'temp was 38.4'); a comparison ('over', 'below', 'target') makes the number a threshold, not a reading
_FILLER = r"(?!(?:over|above|below|under|less|greater|more|than|target|goal|if|<|>)\b)[a-z.']+"
_READING = re.compile(
    rf"^\s*(?:[:=,-]\s*)?(?:{_FILLER}\s*[:=,-]?\s*){{0,3}}?(\d{{1,3}}(?:\.\d+)?)"
    r"(?:\s*(?:/|over)\s*(\d{2,3}(?:\.\d+)?))?(?![\d.]*\s*(?:/\s*\d|x\b))"
)
# a height in feet and inches: 5'10", 5 ft 10 in, 5 foot 10
_FEET = re.compile(r"([3-7])\s*(?:'|ft\.?|foot|feet)\s*(?:(\d{1,2})\s*(?:\"|''|in\.?|inches)?)?(?![\d.])")
# a number followed by one of these is a time or a dose, not a reading
_NOT_READING = re.compile(
    r"^\s*(?:hours?|hrs?|h|days?|d|weeks?|wks?|months?|mo|years?|yrs?|y|mg|mcg|meq|mmol|units?|ml|tabs?|tablets?"
    r"|caps?|puffs?|times?|x)\b"
)


@cache
def _unit_pattern() -> re.Pattern[str]:
    names = sorted(w.UNITS, key=len, reverse=True)
    return re.compile(r"^\s*(?:degrees?\s+(?=[fc]\b))?(" + "|".join(re.escape(n) for n in names) + r")(?![a-z])")


def vital_units(kind: str, value: float) -> list[str]:
    """The units (the record tool's spellings) in which ``value`` is a plausible reading of ``kind``."""
    from curbside.tools.ehr.write_vocab import VITALS

    vital = VITALS.get(kind)
    if vital is None:
        return []
    names = set(w.UNITS.values())
    plausible: dict[str, str] = {}  # UCUM code -> our spelling
    for spelled, unit in vital.units.items():
        if unit.code in plausible or not vital.low <= unit.to_reference(value) <= vital.high:
            continue
        same = [x for x in vital.units if vital.units[x].code == unit.code and x in names]
        plausible[unit.code] = same[0] if same else spelled
    return list(plausible.values())


def vital_reading(text: Text, mention: Mention, end: int | None = None) -> dict[str, Any] | None:
    """The reading that follows a vital's name, as the record tool's arguments: ``kind`` and ``value`` with
    its ``unit`` (or ``systolic`` and ``diastolic``), or None when no reading follows. A unit is read from
    the words ('lbs', 'pounds', 'degrees F', 'percent', '°C'); when none is written it is given only where a
    single unit makes the value plausible (101.3 is °F, 38.4 °C); a weight of 80 could be kg or lb, so it
    is left out for the clinician to say."""
    low = text.low[mention.end : len(text.low) if end is None else end]
    found = _READING.match(low)
    if found is None or (_NOT_READING.match(low[found.end() :]) and not _FEET.match(low, found.start(1))):
        return None
    kind = VITAL_KIND.get(mention.name, mention.name)
    first, second = float(found[1]), found[2]
    if kind == "blood_pressure":
        if second is None:
            return None  # a systolic alone is not a blood pressure to record
        return {"kind": kind, "systolic": first, "diastolic": float(second)}
    if kind == "height" and (feet := _FEET.match(low, found.start(1))):
        return {"kind": kind, "value": float(int(feet[1]) * 12 + int(feet[2] or 0)), "unit": "in"}
    if second is not None:
        return None  # two numbers for one value: not a reading of it
    slots: dict[str, Any] = {"kind": kind, "value": first}
    allowed = vital_units(kind, first)
    if unit := _unit_pattern().match(low[found.end() :]):
        spelled = w.UNITS[unit[1]]
        after = low[found.end() + unit.end() :]
        if not (unit[1] == "in" and re.match(r"\s+[a-z]", after)):  # '64 in clinic' is not inches
            slots["unit"] = spelled
    if "unit" not in slots and len(allowed) == 1:
        slots["unit"] = allowed[0]
    return slots


# a unit that names its vital: a number in lb or kg is a weight, in °F or °C a temperature, in bpm a pulse
_UNIT_KINDS = {"lb": "weight", "kg": "weight", "f": "temperature", "c": "temperature", "/min": "heart_rate"}
_SELF_NAMING = re.compile(
    r"(?<![\w.])(\d{1,3}(?:\.\d+)?)\s*(lbs?|pounds?|kgs?|kilos?|kilograms?|°\s?[fc]|degrees? [fc]|degrees? (?:fahrenheit"
    r"|celsius)|fahrenheit|celsius|bpm)(?![a-z])"
)


def readings_by_unit(text: Text) -> list[dict[str, Any]]:
    """Readings whose unit says which vital they are ('He's 198 pounds', '101.2 °F'), as record arguments."""
    found = []
    for hit in _SELF_NAMING.finditer(text.low):
        spelled = w.UNITS.get(re.sub(r"°\s", "°", hit[2]).replace("degree ", "degrees "))
        spelled = spelled or w.UNITS.get(hit[2].rstrip("s")) or ("f" if "f" in hit[2] else "c")
        kind = _UNIT_KINDS.get(spelled)
        if kind and float(hit[1]) > 0:
            found.append({"kind": kind, "value": float(hit[1]), "unit": spelled})
    for hit in re.finditer(r"(?<![\w.])" + _FEET.pattern, text.low):
        if re.search(r"'|ft|foot|feet", hit[0]):
            found.append({"kind": "height", "value": float(int(hit[1]) * 12 + int(hit[2] or 0)), "unit": "in"})
    return found


# --- time -------------------------------------------------------------------------------------------

_UNITS = {
    "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h", "d": "d", "day": "d", "days": "d",
    "w": "w", "wk": "w", "wks": "w", "week": "w", "weeks": "w", "mo": "m", "month": "m", "months": "m",
    "y": "y", "yr": "y", "yrs": "y", "year": "y", "years": "y",
}  # fmt: skip
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "twelve": 12, "a": 1, "an": 1}
_WINDOW = re.compile(
    r"\b(?:in |over |within |during |for )?(?:the )?(?:last|past|previous|prior) (?:(\d+|one|two|three|four|five|six"
    r"|twelve) ?)?(hours?|hrs?|h|days?|d|weeks?|wks?|w|months?|mo|years?|yrs?|y)\b"
    # a window without 'last' or 'past' needs a count and a looking-back preposition ('averaged over 2 years'); a
    # count followed by 'old' or 'ago' is an age ('over a year old'), and 'in 3 months' is a time to come
    r"|\b(?:over|across) (?:the )?(\d+|two|three|four|five|six|twelve) ?(hours?|hrs?|days?|weeks?|wks?|months?|years?"
    r"|yrs?)\b(?! (?:old|ago|of age))"
)
_THIS = {"today": "1d", "this week": "1w", "this month": "1m", "this year": "1y", "overnight": "12h"}
_ISO = r"(\d{4}-\d{2}-\d{2})"
_SINCE = re.compile(rf"\b(?:since|after|from) {_ISO}")
_UNTIL = re.compile(rf"\b(?:until|till|before|to|through) {_ISO}")
_BETWEEN = re.compile(rf"\bbetween {_ISO} and {_ISO}")
_SINCE_WORDS = re.compile(
    r"\b(?:since|from) (?:(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? )?((?:19|20)\d\d)\b"
)
_IN_YEAR = re.compile(r"\b(?:in|during) ((?:19|20)\d\d)\b")
_AVERAGE = re.compile(r"\b(?:average[sd]?|averaging|avg|mean)\b")
_TREND = re.compile(
    r"\btrend\w*\b|\bover time\b|\bbeen doing\b|\brising\b|\bdropping\b|\bfalling\b|\bcompare\b|\bserial\b"
)
_LATEST = re.compile(
    r"\b(?:latest|most recent|newest|current|last)\b(?! \d| (?:two|three|few|several|\w+ (?:hours|days)))"
)


def time_slots(text: str) -> dict[str, Any]:
    """window ('24h', '1w', '6m', '1y': h, d, w, m (months), y before the turn's reference time, which the
    planner resolves),
    since/until (ISO dates as given), aggregate ('average' | 'trend') and latest."""
    slots: dict[str, Any] = {}
    if found := _WINDOW.search(text):
        count = found[1] or found[3] or "1"
        number = int(count) if count.isdigit() else _NUMBERS[count]
        slots["window"] = f"{number}{_UNITS[found[2] or found[4]]}"
    else:
        for words, window in _THIS.items():
            if re.search(rf"\b{words}\b", text):
                slots["window"] = window
                break
    if found := _BETWEEN.search(text):
        slots["since"], slots["until"] = found[1], found[2]
    if found := _SINCE.search(text):
        slots["since"] = found[1]
    if found := _UNTIL.search(text):
        slots["until"] = found[1]
    if "since" not in slots and (found := _SINCE_WORDS.search(text)):
        month = _MONTHS[found[1][:3]] if found[1] else 1
        slots["since"] = f"{found[2]}-{month:02d}-01"  # 'since March 2024', 'since 2023': from its first day
    if "since" not in slots and (found := _IN_YEAR.search(text)):
        slots["since"], slots["until"] = f"{found[1]}-01-01", f"{found[1]}-12-31"
    if _AVERAGE.search(text):
        slots["aggregate"] = "average"
    elif _TREND.search(text):
        slots["aggregate"] = "trend"
    if "window" not in slots and "since" not in slots and "until" not in slots and _LATEST.search(text):
        slots["latest"] = True
    return slots


# --- drugs ------------------------------------------------------------------------------------------

_MULTI = (
    "potassium chloride", "magnesium sulfate", "ferrous sulfate", "folic acid", "vitamin b12", "polyethylene glycol",
    "zoledronic acid", "amoxicillin-clavulanate", "insulin glargine",
)  # fmt: skip
_MULTI_PATTERN = re.compile(r"\b(" + "|".join(re.escape(n) for n in _MULTI) + r")\b")
_TOKEN = re.compile(r"[a-z][a-z0-9-]*[a-z0-9]")


def drugs_in(text: Text) -> list[Mention]:
    """Drugs named: from the list of common drugs and brands, or by an INN stem ('-pril', '-gliflozin')."""
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for hit in _MULTI_PATTERN.finditer(text.low):
        found.append(Mention("drug", hit[1], hit.start(), hit.end()))
        taken.append((hit.start(), hit.end()))
    for hit in _TOKEN.finditer(text.low):
        if any(s <= hit.start() < e for s, e in taken):
            continue
        word = hit[0]
        if word in w.DRUG_NAMES or (len(word) >= 6 and word.endswith(w.DRUG_STEMS)):
            found.append(Mention("drug", word, hit.start(), hit.end()))
    return sorted(found, key=lambda m: m.start)


# --- calculators ------------------------------------------------------------------------------------


@cache
def _calculator_patterns(
    ids: frozenset[str], titles: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, re.Pattern[str]], ...]:
    patterns: list[tuple[str, re.Pattern[str]]] = []
    for calc_id, aliases in w.CALCULATOR_ALIASES.items():
        if calc_id in ids:
            patterns.append((calc_id, re.compile(r"(?<![\w-])(?:" + "|".join(aliases) + r")(?![\w])")))
    # a calculator without aliases is still found by its title's head ("Free water deficit")
    for calc_id, title in titles:
        if calc_id not in w.CALCULATOR_ALIASES:
            head = w.normalise(re.split(r"[(,]", title)[0])
            if len(head.split()) >= 2:
                patterns.append((calc_id, re.compile(rf"\b{re.escape(head)}\b")))
    return tuple(patterns)


def calculators_in(text: Text, calculators: dict[str, str]) -> list[Mention]:
    """Calculators named in the message, by id (only ids in ``calculators``), in order."""
    patterns = _calculator_patterns(frozenset(calculators), tuple(sorted(calculators.items())))
    found = [Mention("calculator", cid, m.start(), m.end()) for cid, p in patterns for m in p.finditer(text.low)]
    for calc_id, pattern in w.CASE_SENSITIVE_CALCULATORS.items():
        if calc_id in calculators:
            found += [Mention("calculator", calc_id, m.start(), m.end()) for m in re.finditer(pattern, text.orig)]
    # the longer name wins where two overlap ('corrected anion gap' over 'anion gap')
    found.sort(key=lambda m: (m.start, -(m.end - m.start)))
    kept: list[Mention] = []
    for mention in found:
        if not any(k.start <= mention.start < k.end for k in kept):
            kept.append(mention)
    return kept


# --- prescriptions ----------------------------------------------------------------------------------

_DOSE = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s*(mg|mcg|µg|ug|g|grams?|units?|iu|ml|meq|mmol|tabs?|tablets?|caps?|capsules?|puffs?"
    r"|drops?|sprays?|patch(?:es)?)(?![\w])"
)


def dose(text: str) -> tuple[float, str] | None:
    """The first dose with its unit: '500 mg', '500mg', '20 mEq', '2 puffs' -> (500.0, 'mg')."""
    found = _DOSE.search(text)
    if found is None:
        return None
    unit = found[2]
    unit = {"gram": "g", "grams": "g", "unit": "units", "meq": "mEq", "µg": "mcg", "ug": "mcg"}.get(unit, unit)
    return float(found[1]), unit


_FREQUENCY_WORDS = re.compile(
    r"\b(?:once|twice|one|two|three|four|\d+) times? (?:daily|a day|per day)\b|\b(?:every|q) ?\d+ ?(?:hours?|hrs?|h|days?|d"
    r"|weeks?|wk)\b|\bq\d+h\b|\b(?:once|twice) (?:daily|a day|weekly|a week|monthly)\b|\bqd\b|\bod\b|\bbid\b|\btid\b"
    r"|\bqid\b|\bqhs\b|\bhs\b|\bqam\b|\bqod\b|\bprn\b|\bdaily\b|\bnightly\b|\bat bedtime\b|\bweekly\b|\bmonthly\b"
    r"|\bonce\b|\bevery (?:morning|night)\b"
)


def as_needed(text: str) -> bool:
    return bool(re.search(r"\bprn\b|\bas needed\b", text))


def frequency(text: str) -> str | None:
    """A dosing frequency as the write tools' words: 'bid' -> 'twice daily', 'q8h' -> 'every 8 hours';
    'prn' alone as 'as needed'."""
    from curbside.tools.ehr.write_vocab import parse_frequency

    for found in _FREQUENCY_WORDS.finditer(text):
        spelled = found[0]
        if spelled == "prn":
            continue
        spelled = re.sub(r"^q(\d+)h$", r"every \1 hours", spelled)
        parsed = parse_frequency(spelled)
        if parsed is not None:
            return parsed.words
    return "as needed" if as_needed(text) else None


_ROUTE = re.compile(
    r"\b(?:po|by mouth|orally|iv|intravenous(?:ly)?|im|intramuscular(?:ly)?|sc|sq|subq|subcut|subcutaneous(?:ly)?"
    r"|topical(?:ly)?|inhaled|sl|sublingual|pr|rectal(?:ly)?|transdermal|intranasal|nasal)\b"
)


def route(text: str) -> str | None:
    """The route in the write tools' names: 'PO' -> 'oral', 'SC' -> 'subcutaneous'."""
    from curbside.tools.ehr.write_vocab import ROUTES, route_name

    found = _ROUTE.search(text)
    if found is None:
        return None
    name = route_name(found[0])
    return name if isinstance(name, str) and name in ROUTES else None


# --- the patient ------------------------------------------------------------------------------------

_MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE_PATTERNS = (
    (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"), ("y", "m", "d")),
    (re.compile(r"\b(\d{4})/(\d{1,2})/(\d{1,2})\b"), ("y", "m", "d")),
    (re.compile(rf"\b{_MONTH} (\d{{1,2}})(?:st|nd|rd|th)?,? (\d{{4}})\b"), ("mon", "d", "y")),
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)? {_MONTH},? (\d{{4}})\b"), ("d", "mon", "y")),
    (re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b"), ("a", "b", "y")),
)
_BIRTH = re.compile(r"\b(?:dob|d\.o\.b\.?|born(?: on)?|date of birth|birth ?date|b\.)\s*:?\s*")


def _read_date(text: str) -> str | None:
    for pattern, parts in _DATE_PATTERNS:
        found = pattern.match(text)
        if found is None:
            continue
        value = dict(zip(parts, found.groups(), strict=True))
        year = int(value["y"])
        if "mon" in value:
            month, day = _MONTHS[value["mon"][:3]], int(value["d"])
        elif "a" in value:  # dd/mm/yyyy or mm/dd/yyyy: only when one reading is impossible
            a, b = int(value["a"]), int(value["b"])
            if a > 12 >= b:
                day, month = a, b
            elif b > 12 >= a:
                month, day = a, b
            else:
                return None
        else:
            month, day = int(value["m"]), int(value["d"])
        try:
            return date(year, month, day).isoformat()
        except ValueError:
            return None
    return None


def birth_date(text: str) -> str | None:
    """The birth date after 'DOB', 'born', 'date of birth', as ISO; None when absent or ambiguous (03/04/1950)."""
    found = _BIRTH.search(text)
    return _read_date(text[found.end() :]) if found else None


def birth_date_as_written(text: str) -> str | None:
    """A birth date that reads two ways (01/02/1960): as written, for the planner to ask which."""
    found = _BIRTH.search(text)
    if found is None:
        return None
    written = re.match(r"\d{1,2}[/.]\d{1,2}[/.]\d{4}\b", text[found.end() :])
    return written[0] if written else None


_MRN = re.compile(r"\b(?:mrn|medical record (?:number|no\.?)|chart (?:number|no\.?))\s*[:#]?\s*([a-z0-9-]{3,20})\b")


def mrn(text: str) -> str | None:
    found = _MRN.search(text)
    return found[1].upper() if found and any(c.isdigit() for c in found[1]) else None


# a capitalised word: Smith, O'Neil, McDonald, Garcia-Lopez (a possessive 's is not part of it)
_NAME_WORD = r"(?:[A-Z]'[A-Z][a-z]+|[A-Z][a-z]+(?:[A-Z][a-z]+)?(?:-[A-Z][a-z]+)?)"
_NAME = re.compile(rf"(?<![\w'])({_NAME_WORD}(?: {_NAME_WORD}){{1,2}})(?![\w-]|'[A-Za-z]{{2}})")
_NOT_NAMES = frozenset(
    """
    what find look pull please get show check is are can could does do the a an for and then also if order record
    prescribe start refer book save add calculate summarize review give list any his her he she this that patient
    pt dr mrs mr ms miss doctor diabetes canada hypertension europe pmc who ohip odb adp mrn dob born ct mri
    january february march april may june july august september october november december monday tuesday
    wednesday thursday friday saturday sunday toronto ottawa ontario canada hamilton london montreal vancouver
    good morning afternoon evening hi hello hey thanks thank
    """.split()
)
_NAME_CUE = re.compile(
    r"\b(?:find|look ?up|lookup|pull up|search(?: for)?|get|open|locate|patient|pt|named|called|for|of|on|chart for)\s+$"
)
_TITLE_BEFORE = re.compile(r"\b(?:dr|mrs|mr|ms|miss|prof)\.?\s+$", re.IGNORECASE)


def patient_name(text: Text) -> str | None:
    """A patient's name: two or three capitalised words after 'find', 'look up', 'patient' …, or
    before 's, DOB, MRN or 'born'. Drug brands, places, months and titles are not names."""
    for found in _NAME.finditer(text.orig):
        words = found[1].split(" ")
        while words and words[0].lower() in _NOT_NAMES:
            words = words[1:]
        if len(words) < 2 or any(word.lower() in _NOT_NAMES or word.lower() in w.DRUG_NAMES for word in words):
            continue
        name = " ".join(words)
        start = found.start() + found[1].index(name)
        before, after = text.low[:start], text.low[start + len(name) :]
        identified = re.match(r"^(?:'s\b|,? ?\(?(?:dob|mrn|born|b\.|d\.o\.b))", after)
        title = _TITLE_BEFORE.search(text.orig[:start])
        if title and (title[0].lower().startswith("dr") or not identified):
            continue  # 'Dr. Patel' is a colleague; 'Mrs. Lee' only a patient when identified
        if _NAME_CUE.search(before) or identified:
            return name
    return None


# --- evidence ---------------------------------------------------------------------------------------


def article_types(text: str) -> list[str]:
    return [name for name, pattern in w.ARTICLE_TYPES if pattern.search(text)]


_TRIAL_CONDITION = re.compile(
    r"\b(?:trials?|studies|study)\b.*?\b(?:for|in|on) (.+?)(?= (?:in|near|around|at) |[?.!,]|$)"
)
_TRIAL_PLACE = re.compile(r"\b(?:in|near|around|at) ([A-Z][\w'-]+(?: [A-Z][\w'-]+)*)")


def trial_slots(text: Text) -> dict[str, Any]:
    """condition (the words after 'trials for/of/in'), location (a capitalised place after 'in'/'near'),
    status RECRUITING when the message asks for recruiting or open studies."""
    slots: dict[str, Any] = {}
    if found := _TRIAL_CONDITION.search(text.low):
        condition = text.orig[found.start(1) : found.end(1)]
        # 'trials of tirzepatide for obesity': the condition follows the last 'for'
        if " for " in condition.lower():
            condition = condition[condition.lower().rindex(" for ") + 5 :]
        condition = re.sub(r"\s*\b(?:recruiting|enrolling|open|active|ongoing|now)\b", "", condition)
        slots["condition"] = condition.strip()
    for found in _TRIAL_PLACE.finditer(text.orig):
        if found[1].lower() not in slots.get("condition", "").lower():
            slots["location"] = found[1]
    if re.search(r"\b(?:recruiting|enrolling|open|active|ongoing)\b", text.low):
        slots["status"] = "RECRUITING"
    return slots
