"""Numbers in a question that select one code of a banded family: an age, a week of stay, a count of patients.

The Schedule splits one service into codes by age ('K131 Periodic health visit: adult age 18 to 64
inclusive', 'K132 … adult 65 years of age and older'), by week of a hospital stay ('C007 Subsequent visits
- sixth to thirteenth week inclusive') and by how many patients share an appointment ('K141 Chronic disease
shared appointment: 3 patients'). Their titles share every word but the band, so words alone cannot choose;
the question's number can; so can a recording's length ('G658 … 36 to 59 hours recording'). ``fit`` says whether a title's band holds the number, excludes it, or states none.
"""

from __future__ import annotations

import re

__all__ = ["AGE_WORDS", "Asked", "age_words", "asked_quantities", "fit"]

_ORDINALS = {
    word: n
    for n, word in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
        "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(),
        start=1,
    )
}
_CARDINALS = {
    word: n
    for n, word in enumerate(
        "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen".split(), start=1
    )
}
_NUMBER = r"(\d{1,3}|" + "|".join([*_ORDINALS, *_CARDINALS]) + r")(?:st|nd|rd|th)?"

# the question's numbers, by what they count
_ASKED = {
    # '70 year old', '16yo', '45 y/o', 'aged 5'
    "age": re.compile(r"\b(\d{1,3})[- ]?(?:(?:years?|yrs?)[- ]?old\b|yo\b|y/o\b|y\.o\.)|\baged? (\d{1,3})\b", re.I),
    "week": re.compile(r"\b(\d{1,3}) ?(?:weeks?|wks?)\b|\bweek (\d{1,3})\b", re.I),  # '8 weeks', '17 wks'
    "patients": re.compile(r"\b(\d{1,2}) (?:[a-z-]+ ){0,2}(?:patients|pts|persons|people)\b", re.I),
    "cm": re.compile(r"\b(\d{1,3}(?:\.\d)?) ?cm\b", re.I),  # a wound's or lesion's size: '7 cm lac'
    # how long a recording ran: '24 hr holter', '48h'
    "hours": re.compile(r"\b(\d{1,3}) ?(?:hours?|hrs?|h)\b", re.I),
}
# minutes, read as hours where no hours are given: 'left after 40 min in bed' is a sleep study "less than 1 hour"
_MINUTES = re.compile(r"\b(\d{1,3}) ?(?:minutes?|mins?)\b", re.I)
MINUTES_AN_HOUR = 60
_SIZE = r"(\d{1,3}(?:\.\d)?)"

# a title's band, by what it counts: (pattern, how its numbers make a range)
_BANDS: dict[str, list[tuple[re.Pattern[str], str]]] = {
    "age": [
        (re.compile(rf"\b{_NUMBER} to {_NUMBER}(?: years)?(?: of age)?\b(?= inclusive|\b)", re.I), "between"),
        (re.compile(rf"\b{_NUMBER} - {_NUMBER} years of age\b", re.I), "between"),
        (re.compile(rf"\b{_NUMBER} years? (?:of age )?(?:and|or) (?:older|over)\b", re.I), "from"),
        (re.compile(rf"\b{_NUMBER} years? (?:of age )?(?:and|or) (?:under|younger)\b", re.I), "upto"),
        (re.compile(rf"\b(?:at least|over) {_NUMBER} years?\b", re.I), "from"),
        (re.compile(rf"\b(?:less than|under) {_NUMBER} years?\b", re.I), "below"),
    ],
    "week": [
        (re.compile(rf"\b{_NUMBER} to {_NUMBER} weeks?\b", re.I), "between"),
        (re.compile(rf"\bfirst {_NUMBER} weeks\b", re.I), "upto"),
        # S752 'induced - … up to and including 14 weeks gestation', S785 '… after 14 weeks of gestation' (V7)
        (re.compile(rf"\bup to (?:and including )?{_NUMBER} weeks?\b", re.I), "upto"),
        (re.compile(rf"\bafter (?:the )?{_NUMBER} weeks?\b", re.I), "after"),
    ],
    # K019 … K025 "Group - per member … - 2 people" … "- 6 to 12 people" (Family Practice psychotherapy, A19)
    "patients": [
        (re.compile(rf"\b{_NUMBER} or more (?:patients|persons|people)\b", re.I), "from"),
        (re.compile(rf"\b{_NUMBER} to {_NUMBER} (?:patients|persons|people)\b", re.I), "between"),
        (re.compile(rf"\b{_NUMBER} (?:patients|persons|people)\b", re.I), "exactly"),
    ],
    # 'Z176 Repair of lacerations - up to 5 cm', 'Z175 … 5.1 to 10 cm', 'R045 Defect less than 2 cm'
    "cm": [
        (re.compile(rf"\b{_SIZE} (?:cm )?to {_SIZE} cm\b", re.I), "between"),
        (re.compile(rf"\bup to {_SIZE} cm\b", re.I), "upto"),
        (re.compile(rf"\b(?:less than|under) {_SIZE} cm\b", re.I), "below"),
        (re.compile(rf"\b(?:greater than|more than|over) {_SIZE} cm\b", re.I), "after"),
    ],
    # 'G651 … 12 to 35 hours recording', 'G684 … 60 hours to 13 days recording', 'G647 … 14 or more days' (J16)
    "hours": [
        (re.compile(rf"\b{_NUMBER} to {_NUMBER} hours\b", re.I), "between"),
        (re.compile(rf"\b{_NUMBER} hours to {_NUMBER} days\b", re.I), "hours_to_days"),
        (re.compile(rf"\b{_NUMBER} or more days\b", re.I), "from_days"),
        # J898 "Sleep study less than 1 hour", J899 "… between 1 and 4 hours", J990 "… more than 4 hours" (J110)
        (re.compile(rf"\b(?:less than|under) {_NUMBER} hours?\b", re.I), "below"),
        (re.compile(rf"\bbetween {_NUMBER} and {_NUMBER} hours\b", re.I), "between"),
        (re.compile(rf"\b(?:more than|over) {_NUMBER} hours?\b", re.I), "after"),
    ],
}

# words one of a unit's bands must hold: a cheap test before its patterns
_CLUES = {
    "age": ("year", "age", "newborn", "infant", "child", "adolescent", "adult"),
    "week": ("week",),
    "patients": ("patient", "person", "people"),
    "cm": ("cm",),
    "hours": ("hour", "days"),
}

Asked = dict[str, float]
HOURS_A_DAY = 24


def _value(text: str) -> float:
    word = text.lower()
    if word in _ORDINALS:
        return _ORDINALS[word]
    return _CARDINALS[word] if word in _CARDINALS else float(word)


def asked_quantities(question: str | None) -> Asked:
    """{'age': 70} from 'for a 70 year old', {'week': 8} from 'in hospital 8 weeks', {'patients': 3}."""
    out: Asked = {}
    for unit, pattern in _ASKED.items():
        match = pattern.search(question or "")
        if match:
            out[unit] = float(next(g for g in match.groups() if g))
    if "hours" not in out and (match := _MINUTES.search(question or "")):
        out["hours"] = float(match.group(1)) / MINUTES_AN_HOUR
    if "age" not in out and (match := _AGE_SEX.search(question or "")):
        out["age"] = float(match.group(1))
    return out


# an age with the patient's sex, as clinicians write it: '67M', '52 F', '4yo F' (capitals: '15m' is minutes)
_AGE_SEX = re.compile(r"\b(\d{1,3}) ?[MF]\b")


def fit(asked: Asked, title: str) -> int:
    """+1 when ``title`` states a band holding an asked number, -1 when its bands all exclude it, 0 when it
    states none for what was asked."""
    verdict = 0
    lowered = title.lower()
    for unit, number in asked.items():
        if not any(clue in lowered for clue in _CLUES[unit]):
            continue  # no band of this unit can be in it: the patterns are not cheap on a long listing
        for pattern, shape in _BANDS[unit]:
            for match in pattern.finditer(title):
                values = [_value(g) for g in match.groups() if g]
                if _holds(shape, values, number):
                    return 1
                verdict = -1
        if unit == "age" and verdict == 0:
            verdict = _age_word_fit(number, title)
    return verdict


# the General Preamble's age words, in whole years ('A. Age Definitions', GP: adolescent 'a person 16 or 17 years
# of age', adult '18 years of age and older', child '2 years to and including 15 years of age', infant 'from 29
# days up to, and less than, 2 years', newborn 'from birth up to, and including, 28 days'): a title that bands by
# one of these words ('K130 Periodic health visit: adolescent') is checked as if it gave the numbers
# (tests/coverage/ohip/test_quantities.py reads them in the official file)
AGE_WORDS: dict[str, tuple[int, int]] = {
    "newborn": (0, 0),
    "infant": (0, 1),
    "infants": (0, 1),
    "child": (2, 15),
    "adolescent": (16, 17),
    "adult": (18, 200),
}
_AGE_WORD = re.compile(r"\b(" + "|".join(AGE_WORDS) + r")\b", re.I)


def age_words(question: str | None) -> list[str]:
    """The General Preamble's age words holding the age the question gives ('16yo' -> 'adolescent'): the question
    says them, as a title that bands by them means ('K130 Periodic health visit: adolescent')."""
    age = asked_quantities(question).get("age")
    if age is None:
        return []
    return [word for word, (low, high) in AGE_WORDS.items() if low <= age <= high]


def _age_word_fit(age: float, title: str) -> int:
    """+1 when an age word of ``title`` holds ``age``, -1 when its age words all exclude it, 0 when it has none."""
    found = [AGE_WORDS[m.group(1).lower()] for m in _AGE_WORD.finditer(title)]
    if not found:
        return 0
    return 1 if any(low <= age <= high for low, high in found) else -1


def _holds(shape: str, values: list[float], number: float) -> bool:
    if shape == "between":
        return values[0] <= number <= values[1]
    if shape == "from":
        return number >= values[0]
    if shape == "below":
        return number < values[0]
    if shape == "upto":
        return number <= values[0]
    if shape == "after":
        return number > values[0]
    if shape == "hours_to_days":
        return values[0] <= number <= values[1] * HOURS_A_DAY
    if shape == "from_days":
        return number >= values[0] * HOURS_A_DAY
    return number == values[0]  # exactly
