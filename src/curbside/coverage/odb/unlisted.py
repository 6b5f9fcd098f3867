"""Names a question asks about that the formulary does not hold: "is Wegovy covered?" is answered
"Wegovy is not listed", not "which drug do you mean?".

A name is a word English does not use (Zipf frequency below 2 in ``wordfreq``'s large English list,
the package the PHI detector already reads) that the formulary's index does not resolve, or a word of some
use ('phentermine' is 2.0) that the offline drug lexicon (``drug_lexicon``) knows as a drug. The answer
says the name is not listed in this edition, which is true whatever the word is, and asks for another
name. Its class, when the name carries a WHO INN stem ("liraglutide": -glutide), lets the answer name what
is listed in that class. A name the lexicon confirms is a drug is sure enough to be what the question asks
about even beside a class word ('triptans aren't working, is Ubrelvy covered?', ``drug_names``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from functools import cache

from curbside import drug_lexicon
from curbside.coverage.odb.words import CLASS_ALIASES, CLASS_NOT, CLASS_STEMS, STOP

__all__ = [
    "class_of",
    "drug_names",
    "is_warm",
    "missing_combination",
    "missing_drugs",
    "rare_in_english",
    "uncommon_words",
    "unlisted_names",
    "warm_up",
]

UNCOMMON_ZIPF = 3.5  # a word a question may use apart from its drug name, as a maker's ('apo generic')
RARE_ZIPF = 2.0  # 'formulary' is 2.25, 'metformin' 2.55; 'orlistat' 1.58, 'Wegovy' 0
# a word the lexicon knows is a drug name below this ('phentermine' 2.0, 'gabapentin' 2.3); above it English
# uses the word for other things too ('tums' 2.3 is fine, 'diamonds' 4.0, 'caps' 4.2 are not names)
LEXICON_ZIPF = 3.0
_WORD = re.compile(r"[A-Za-z][A-Za-z-]{3,}")
_INITIALISM = re.compile(r"\b[A-Z]{3}\b")
_OURS = frozenset({"odb", "ohip", "adp", "formulary", "din", "dins"})


@cache
def _zipf(word: str) -> float:
    from wordfreq import zipf_frequency  # imported on first use: loading its list takes a moment

    return float(zipf_frequency(word, "en", wordlist="large"))


def uncommon_in_english(word: str) -> bool:
    """Whether English seldom uses ``word`` ('apo' 2.9, 'teva' 2.4, 'pms' 3.0; not 'mint' 3.9, 'nat' 3.8, 'act')."""
    return _zipf(word.lower()) < UNCOMMON_ZIPF


def rare_in_english(word: str) -> bool:
    """Whether English hardly uses ``word`` ('vanco' 1.5, 'amox' 0), so it may be a clipped drug name."""
    return _zipf(word.lower()) < RARE_ZIPF


def warm_up() -> None:
    """Load the word list and the drug lexicon now: their first reads take longer than the SQL path's timeout."""
    _zipf("formulary")
    drug_lexicon.warm_up()


def is_warm() -> bool:
    return _zipf.cache_info().currsize > 0 and drug_lexicon.is_loaded()


def unlisted_names(question: str) -> list[str]:
    """Words of ``question`` that read as names (rare in English, or a drug the lexicon knows), as written, first
    seen first."""
    out: list[str] = []
    for word in _WORD.findall(question):
        low = word.lower()
        if low in STOP or low in _OURS or word in out:
            continue
        zipf = _zipf(low)
        if zipf < RARE_ZIPF or (zipf < LEXICON_ZIPF and drug_lexicon.ingredient_of(low) is not None):
            out.append(word)
    return out


def uncommon_words(question: str) -> list[str]:
    """Words of ``question`` English uses little (below ``LEXICON_ZIPF``: 'mohs' 2.2, 'holter' 2.1), as written:
    the words a service may be named by when nothing else in the question says what it is about."""
    out: list[str] = []
    for word in _WORD.findall(question) + _INITIALISM.findall(question):  # 'DXA', 'TTE' as well
        low = word.lower()
        if low not in STOP and low not in _OURS and word not in out and _zipf(low) < LEXICON_ZIPF:
            out.append(word)
    return out


def drug_names(question: str) -> list[str]:
    """The words of ``question`` the drug lexicon knows as drugs, as written, leaving out the words of a drug
    class ('triptans', 'statins'): a class is answered by the formulary's own class lists."""
    return [
        word
        for word in unlisted_names(question)
        if drug_lexicon.ingredient_of(word) is not None and not _class_word(word)
    ]


CLOSE_SPELLING = 0.85  # as the formulary index's own fuzzy reading: 'atorvastatine' is atorvastatin misspelt
# two ingredients written as one product: 'phentermine/topiramate', 'A & B', 'A + B'
_COMBINATION = re.compile(r"\b([A-Za-z][A-Za-z-]{3,})\s*[/&+]\s*([A-Za-z][A-Za-z-]{3,})\b")


def missing_drugs(question: str, resolves: Callable[[str], bool]) -> list[str]:
    """The drugs ``question`` names (``drug_names``) that the formulary does not list (``resolves`` is false),
    leaving out a close spelling of a listed ingredient, which the index reads as that ingredient."""
    out = []
    for word in drug_names(question):
        if resolves(word):
            continue
        ingredient = drug_lexicon.ingredient_of(word) or ""
        close = difflib.SequenceMatcher(None, word.lower(), ingredient).ratio() >= CLOSE_SPELLING
        if not (close and resolves(ingredient)):
            out.append(word)
    return out


def missing_combination(
    question: str, resolves: Callable[[str], bool], listed_as_one: Callable[[str, str], bool] | None = None
) -> list[str]:
    """The names of a combination product ``question`` asks about that the formulary does not list as one:
    'qsymia (phentermine/topiramate)' names two ingredients, and only topiramate is listed, alone; 'auvelity
    (dextromethorphan-bupropion)' names two that are each listed alone but not together (``listed_as_one``
    says whether the index holds the pair as one product). Empty when every combination written resolves."""
    missing = missing_drugs(question, resolves)
    hyphenated = _hyphenated_drugs(question)
    for first, second in [*_COMBINATION.findall(question), *hyphenated]:
        if not _both_drugs(first, second) and not (first in missing and second in missing):
            continue  # 'failed antihistamines + nasal steroid': a drug tried beside a word, no product named
        if listed_as_one is not None and listed_as_one(first, second):
            continue  # 'glargine/lixisenatide' is Soliqua's INSULIN GLARGINE & LIXISENATIDE
        # 'metoclopramide + haldol' may be two drugs tried; a hyphen joins a product's ingredients
        apart = (first, second) in hyphenated and listed_as_one is not None and not listed_as_one(first, second)
        if first in missing or second in missing or apart:
            names = [w for w in unlisted_names(question) if not resolves(w) and not _hyphenated_drugs(w)]
            return names or [f"{first}/{second}"]
    return []


def _hyphenated_drugs(question: str) -> list[tuple[str, str]]:
    """Two drug names joined by a hyphen, as a combination is written ('dextromethorphan-bupropion'); not a
    maker's prefix ('Apo-Atorvastatin'), whose first part is no drug."""
    pairs = [(a, b) for a, b in re.findall(r"\b([A-Za-z]{4,})-([A-Za-z]{4,})\b", question)]
    return [(a, b) for a, b in pairs if _both_drugs(a, b)]


def _both_drugs(first: str, second: str) -> bool:
    return all(drug_lexicon.ingredient_of(w) is not None and not _class_word(w) for w in (first, second))


_CLASS_ENDINGS = tuple(stem for stems in CLASS_STEMS.values() for stem in stems)


def _class_word(word: str) -> bool:
    """'triptans', 'statins', 'gliptins': a class named by its alias or as the plural of its INN stem."""
    low = word.lower()
    plural = low.endswith("s") and low[:-1].endswith(_CLASS_ENDINGS)
    return bool(CLASS_ALIASES.get(low)) or plural


def class_of(names: list[str]) -> str | None:
    """The CLASS_STEMS key of the first name that ends in a class's INN stem ('liraglutide' -> 'glp1')."""
    for name in names:
        low = name.lower()
        for key, stems in CLASS_STEMS.items():
            if low.endswith(stems) and not low.endswith(CLASS_NOT.get(key, ())):
                return key
    return None
