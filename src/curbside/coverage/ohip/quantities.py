"""Numbers in a question that select one code of a banded family: an age, a week of stay, a count of patients.

The Schedule splits one service into codes by age ('K131 Periodic health visit: adult age 18 to 64
inclusive', 'K132 … adult 65 years of age and older'), by week of a hospital stay ('C007 Subsequent visits
- sixth to thirteenth week inclusive') and by how many patients share an appointment ('K141 Chronic disease
shared appointment: 3 patients'). Their titles share every word but the band, so words alone cannot choose;
the question's number can. ``fit`` says whether a title's band holds the number, excludes it, or states none.
"""

from __future__ import annotations

import re

__all__ = ["Asked", "asked_quantities", "fit"]

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
    "age": re.compile(r"\b(\d{1,3})[- ]?(?:years?|yrs?)[- ]?old\b|\baged? (\d{1,3})\b", re.I),
    "week": re.compile(r"\b(\d{1,3}) weeks?\b|\bweek (\d{1,3})\b", re.I),
    "patients": re.compile(r"\b(\d{1,2}) (?:[a-z-]+ ){0,2}(?:patients|pts|persons|people)\b", re.I),
}

# a title's band, by what it counts: (pattern, how its numbers make a range)
_BANDS: dict[str, list[tuple[re.Pattern[str], str]]] = {
    "age": [
        (re.compile(rf"\b{_NUMBER} to {_NUMBER}(?: years)?(?: of age)?\b(?= inclusive|\b)", re.I), "between"),
        (re.compile(rf"\b{_NUMBER} - {_NUMBER} years of age\b", re.I), "between"),
        (re.compile(rf"\b{_NUMBER} years of age and (?:older|over)\b", re.I), "from"),
        (re.compile(rf"\b(?:at least|over) {_NUMBER} years\b", re.I), "from"),
        (re.compile(rf"\b(?:less than|under) {_NUMBER} years\b", re.I), "below"),
    ],
    "week": [
        (re.compile(rf"\b{_NUMBER} to {_NUMBER} weeks?\b", re.I), "between"),
        (re.compile(rf"\bfirst {_NUMBER} weeks\b", re.I), "upto"),
        (re.compile(rf"\bafter (?:the )?{_NUMBER} weeks?\b", re.I), "after"),
    ],
    "patients": [
        (re.compile(rf"\b{_NUMBER} or more (?:patients|persons)\b", re.I), "from"),
        (re.compile(rf"\b{_NUMBER} (?:patients|persons)\b", re.I), "exactly"),
    ],
}

Asked = dict[str, int]


def _value(text: str) -> int:
    word = text.lower()
    if word in _ORDINALS:
        return _ORDINALS[word]
    return _CARDINALS[word] if word in _CARDINALS else int(word)


def asked_quantities(question: str | None) -> Asked:
    """{'age': 70} from 'for a 70 year old', {'week': 8} from 'in hospital 8 weeks', {'patients': 3}."""
    out: Asked = {}
    for unit, pattern in _ASKED.items():
        match = pattern.search(question or "")
        if match:
            out[unit] = int(next(g for g in match.groups() if g))
    return out


def fit(asked: Asked, title: str) -> int:
    """+1 when ``title`` states a band holding an asked number, -1 when its bands all exclude it, 0 when it
    states none for what was asked."""
    verdict = 0
    for unit, number in asked.items():
        for pattern, shape in _BANDS[unit]:
            for match in pattern.finditer(title):
                values = [_value(g) for g in match.groups() if g]
                if _holds(shape, values, number):
                    return 1
                verdict = -1
    return verdict


def _holds(shape: str, values: list[int], number: int) -> bool:
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
    return number == values[0]  # exactly
