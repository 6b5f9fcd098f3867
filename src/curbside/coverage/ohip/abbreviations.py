"""Clinical abbreviations a question uses and the Schedule writes out ('SUI' → S815 "… mid-urethral sling").

The readings come from a published lexicon of medical abbreviations (``curbside.medical_abbreviations``), not
from a list kept per code. A question word is read as what it stands for only when all of these hold:

* the Schedule does not use the word itself, in any form ('cast' is a Schedule word, not an abbreviation);
* English does not use it as a word either (``wordfreq``: 'doc', 'cap', 'LP' are words people write);
* exactly one of its readings is said in the Schedule's words and named together by one code's title or listing:
  'ABG' (arterial blood gas, autogenous bone graft) reads as arterial blood gas; 'IVF' (in vitro fertilization,
  intravenous fluids) and 'LTC' (the lexicon's 'local tumor control', no concept of the Schedule's) stay unread;
* the reading is not one this lexicon gets wrong for Ontario billing (``_NOT_READ``).

The hand vocabulary of ``words.SCHEDULE_WORDS`` comes first: it says words the way the Schedule titles them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from curbside.coverage.ohip.words import SPECIALTY_ALIASES
from curbside.medical_abbreviations import lexicon, readings

__all__ = ["Reading", "read_abbreviation", "warm_up"]

# wordfreq's Zipf scale: a word written this often is a word of English ('doc' 4.4, 'mom' 5.1, 'cap' 4.5, 'tx' 4.0),
# read as itself; clinical shorthand is rarer ('cxr' 1.6, 'uppp' 1.2, 'tpn' 2.1, 'sob' 3.3)
ENGLISH_ZIPF = 3.5

# readings the lexicon gives that a question to an Ontario billing tool does not mean: 'OB' is obstetrics, not
# occult blood; 'OAT' opioid agonist treatment, not oral appliance therapy; 'peds' paediatrics, not a persistent
# epithelial defect; 'GP', 'FP', 'FM', 'EM' the family physician, family practice, family medicine and emergency
# medicine, not a chemotherapy, a false positive, fibromyalgia or episodic migraine; 'med' medicine
_NOT_READ = frozenset({"ob", "oat", "peds", "ped", "gp", "fp", "fm", "em", "med"}) | frozenset(
    alias for alias in SPECIALTY_ALIASES if " " not in alias
)

# words of a reading that name nothing on their own ('dilatation & curettage')
_JOINING = frozenset("a an and of or the to for in on with by from".split())


@dataclass(frozen=True, slots=True)
class Reading:
    """An abbreviation as the question writes it and the words it stands for."""

    said: str  # as the question writes it, lower case ('uppp')
    meaning: str  # as the lexicon writes it ('uvulopalatopharyngoplasty')
    words: tuple[str, ...]  # the meaning's naming words, lower case


def _english(word: str) -> bool:
    from wordfreq import zipf_frequency  # its English list loads once a process (~0.2 s; the tool warms it)

    return zipf_frequency(word, "en") >= ENGLISH_ZIPF


def _naming_words(meaning: str) -> tuple[str, ...]:
    return tuple(w for w in re.findall(r"[a-z][a-z']*", meaning.lower()) if w not in _JOINING and len(w) > 1)


def read_abbreviation(
    word: str, known: Callable[[str], bool], named: Callable[[tuple[str, ...]], bool] | None = None
) -> Reading | None:
    """What ``word`` (a question's word, lower case) stands for, said in words ``known`` to the Schedule; None when
    it is a word of the Schedule or of English, or its reading is not one (see the module's rules). ``named``: whether
    the Schedule names a reading's words together (one code holds them all), when the caller can tell: 'LTC' read
    as the lexicon's only reading, 'local tumor control', is no concept of the Schedule's (it is long-term care)."""
    if len(word) < 2 or word in _NOT_READ or known(word):
        return None
    meanings = readings(word)
    if not meanings or _english(word):
        return None
    said = {
        words: meaning
        for meaning in meanings
        if (words := _naming_words(meaning)) and all(known(w) for w in words) and (named is None or named(words))
    }
    if len(said) != 1:
        return None
    ((words, meaning),) = said.items()
    return Reading(word, meaning, words)


def warm_up() -> None:
    """Read the lexicon and English's word list now, outside any call's time budget."""
    lexicon()
    _english("the")
