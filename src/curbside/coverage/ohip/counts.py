"""How many of a thing the question says were done, against the count a sibling's title bands by.

The Schedule splits one service into codes by how many lesions, sites or views it covers: "Z160 Removal by
electrocoagulation and/or curetting - two lesions" and "Z161 … - three or more lesions"; "X149 Subsequent test -
high risk patient - one site" and "X155 … - two or more sites". Their titles share every word but the count,
so words alone cannot choose; the question's count can ('curetted 4 seb keratoses', 'hip and spine (2 sites)').
A count is read only for the thing the title counts: the question's noun must be the title's ('2 sites' for
'one site'), or one of the clinician's names of a skin lesion for the Schedule's 'lesion(s)'.
"""

from __future__ import annotations

import re

from curbside.coverage.ohip.query import STOP, stem

__all__ = ["asked_counts", "count_fit"]

_WORDS = {
    word: n
    for n, word in enumerate(
        "one two three four five six seven eight nine ten eleven twelve".split(),
        start=1,
    )
} | {"single": 1}
_NUMBER = r"(\d{1,2}|" + "|".join(_WORDS) + r")"

# 'curetted 4 irritated seb keratoses', '(2 sites)', 'took 2 biopsies': a number and, within three words, the
# plural thing counted
# (a number after 'type', 'grade', 'stage' … names a kind, it counts nothing: 'type 2 diabetes')
_ASKED = re.compile(
    rf"\b(?<!type )(?<!grade )(?<!stage )(?<!class )(?<!level ){_NUMBER}\s+((?:[a-z'-]+\s+){{0,2}}[a-z'-]+)", re.I
)
# a title's count of a thing and the words after it: 'two lesions', 'three or more lesions', 'at least 5
# pre-malignant actinic keratosis lesions', 'one site'
_BAND = re.compile(
    rf"\b(?P<shape>at least |up to |maximum of )?{_NUMBER}(?P<more> or more| to {_NUMBER})?"
    r"(?P<after>(?:[\s-]+[a-z]+){1,4})",
    re.I,
)
# things counted elsewhere or not counted so: an age, a time, a size, a number of patients (``quantities``)
_NOT_COUNTED = frozenset(
    stem(w)
    for w in "year years yr yrs yo month months week weeks day days hour hours hr hrs min mins minute minutes "
    "cm mm unit units patient patients pts people persons time times".split()
)
# a clinician names a skin lesion by what it is; the Schedule counts them as 'lesions'
_LESION_KINDS = re.compile(
    r"^(?:lesions?|keratos[ie]s|seb|sks?|warts?|moles?|nev[ia]|papillomas?|tags?|angiomas?|growths?|spots?)$", re.I
)
# how many of the thing counted the title's shapes hold
_FROM, _UPTO, _EXACTLY = "from", "upto", "exactly"

AskedCounts = dict[str, float]  # the stem of the thing counted -> how many


def _value(text: str) -> float:
    return float(_WORDS.get(text.lower(), 0) or text)


def asked_counts(question: str | None) -> AskedCounts:
    """{'site': 2} from 'hip and spine (2 sites)', {'keratos': 4} from '4 irritated seb keratoses'."""
    out: AskedCounts = {}
    for match in _ASKED.finditer(question or ""):
        number = _value(match.group(1))
        for word in match.group(2).split():
            key = stem(word)
            if key in _NOT_COUNTED or word.lower() in STOP:  # '50 with type 2 …' counts nothing
                break
            if len(word) > 3 or _LESION_KINDS.match(word):
                out.setdefault(_lesion_or(word), number)
    return out


def _lesion_or(word: str) -> str:
    return "lesion" if _LESION_KINDS.match(word) else stem(word)


def count_fit(counts: AskedCounts, title: str) -> int:
    """+1 when ``title`` counts a thing the question counts and its count holds the question's, -1 when its
    counts of such things all exclude it, 0 when it counts none of them."""
    if not counts:
        return 0
    verdict = 0
    for band in _BAND.finditer(title):
        # the thing counted is the first word after the number that the question counts too
        thing = next((t for w in band.group("after").split() if (t := _lesion_or(w.strip("-"))) in counts), None)
        if thing is None:
            continue
        if _holds(band, counts[thing]):
            return 1
        verdict = -1
    return verdict


def _holds(band: re.Match[str], number: float) -> bool:
    low = _value(band.group(2))
    more = (band.group("more") or "").strip()
    shape = (band.group("shape") or "").strip()
    if more.startswith("to"):
        return low <= number <= _value(band.group(4))
    if more or shape == "at least":
        return number >= low
    if shape in ("up to", "maximum of"):
        return number <= low
    return number == low
