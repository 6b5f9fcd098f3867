"""Names a question asks about that the formulary does not hold: "is Wegovy covered?" is answered
"Wegovy is not listed", not "which drug do you mean?".

A name is a word English does not use (Zipf frequency below 2 in ``wordfreq``'s large English list,
the package the PHI detector already reads) that the formulary's index does not resolve. This is no drug
lexicon: the answer says the name is not listed in this edition, which is true whatever the word is, and
asks for another name. Its class, when the name carries a WHO INN stem ("liraglutide": -glutide), lets
the answer name what is listed in that class.
"""

from __future__ import annotations

import re
from functools import cache

from curbside.coverage.odb.words import CLASS_STEMS, STOP

__all__ = ["class_of", "is_warm", "unlisted_names", "warm_up"]

RARE_ZIPF = 2.0  # 'formulary' is 2.25, 'metformin' 2.55; 'orlistat' 1.58, 'Wegovy' 0
_WORD = re.compile(r"[A-Za-z][A-Za-z-]{3,}")
_OURS = frozenset({"odb", "ohip", "adp", "formulary", "din", "dins"})


@cache
def _zipf(word: str) -> float:
    from wordfreq import zipf_frequency  # imported on first use: loading its list takes a moment

    return float(zipf_frequency(word, "en", wordlist="large"))


def warm_up() -> None:
    """Load the word list now: its first read takes longer than the SQL path's timeout."""
    _zipf("formulary")


def is_warm() -> bool:
    return _zipf.cache_info().currsize > 0


def unlisted_names(question: str) -> list[str]:
    """Words of ``question`` that read as names (rare in English), as written, first seen first."""
    out: list[str] = []
    for word in _WORD.findall(question):
        low = word.lower()
        if low in STOP or low in _OURS or word in out:
            continue
        if _zipf(low) < RARE_ZIPF:
            out.append(word)
    return out


def class_of(names: list[str]) -> str | None:
    """The CLASS_STEMS key of the first name that ends in a class's INN stem ('liraglutide' -> 'glp1')."""
    for name in names:
        low = name.lower()
        for key, stems in CLASS_STEMS.items():
            if low.endswith(stems):
                return key
    return None
