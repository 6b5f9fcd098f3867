"""Does a word the knowledge base lacks name a subject it does not cover, or is it a plain word it merely does not use?

"lamotrigine titration for bipolar depression?" over a guideline that never names lamotrigine is unanswerable
however close its other words come; "kid outgrew his wheelchair - how much will ADP put toward a new one?" is
answered by the manual, which never says "outgrew". Rarity in English does not tell them apart ("frail" and
"sentinel" are as rare as "pancreatic" and "aspirin"), so a word names a subject when it is

* a drug: on the drug list, or ending in an INN stem ("clomipramine");
* built as a disease, a procedure, an organ, a cell or a microbe is ("cirrhosis", "pancreatic", "macrophages");
* a gene, a protein or a strain: letters and digits ("samhd1");
* no English word at all: in no dictionary, not an inflection of a dictionary word ("lambs", "trialled") and not
  two everyday words run together ("bloodwork", "outgrew"): a brand, a new drug, a device's or a test's name
  ("dexcom", "esketamine", "noael").

Any other word is plain English the documents say otherwise ("intolerant", "frail", "commode"): its absence is
left to the calibrated model (``abstain.py``) rather than withholding the answer outright.
"""

from __future__ import annotations

import pickle
from functools import cache
from importlib import resources

from curbside.clinical_words import clinical_form, drug_name, gene_like

__all__ = ["english_word", "names_subject"]

EVERYDAY_ZIPF = 4.0  # each part of a run-together word is this common in English ("blood" 5.1, "up" 6.4; "stair" 3.3)
COMPOUND_PART_MIN = 2  # letters of the shorter part ("work|up")
# inflections a dictionary lists under the bare word: "lambs" (lamb), "trialled" (trial), "steadying" (steady)
_INFLECTIONS = (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"))
# irregular past forms, which are no headwords and which no ending rule undoes
_IRREGULAR = frozenset(
    """
    ate awoke became began bent bit bled blew bore bought bound bred brought built burnt caught chose clung came crept
    dealt did drank drew drove dug fed fell felt fled flew flung forgave forgot fought found froze gave went got grew
    hung heard held hid hurt kept knelt knew laid led leapt left lent lit lost made meant met paid ran rang rode rose
    said sang sank sat saw shook shot shrank slept slid sold sought sped spent spoke sprang spun stood stole stuck
    stung strode struck swept swore swam swung taught tore told thought threw took understood woke wore wove wept won
    wound wrote written spoken taken given driven eaten fallen forgotten hidden known ridden risen seen shaken stolen
    thrown torn worn
    """.split()
)


@cache
def _dictionary() -> frozenset[str]:
    """Webster's Second (``english-words``, the list the PHI detector reads): its lower-case entries."""
    data = resources.files("english_words").joinpath("data", "web2_alpha.pickle").read_bytes()
    words: set[str] = pickle.loads(data)  # noqa: S301 - a data file of an installed package
    return frozenset(w for w in words if w.islower()) | _IRREGULAR


def _listed(word: str) -> bool:
    """In the dictionary as written or as the bare word of an inflection (a doubled last consonant undone)."""
    words = _dictionary()
    if word in words:
        return True
    for ending, bare in _INFLECTIONS:
        stem = word[: len(word) - len(ending)]
        if len(stem) >= 3 and word.endswith(ending):
            if stem + bare in words or (not bare and len(stem) >= 4 and stem[-1] == stem[-2] and stem[:-1] in words):
                return True
    return False


def _everyday(word: str) -> bool:
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "en") >= EVERYDAY_ZIPF


def english_word(word: str) -> bool:
    """Whether a lower-case word is English: a dictionary word, an inflection of one, or two everyday words."""
    if _listed(word):
        return True
    cuts = range(COMPOUND_PART_MIN, len(word) - COMPOUND_PART_MIN + 1)
    return any(_everyday(word[:i]) and _everyday(word[i:]) for i in cuts)


def names_subject(word: str) -> bool:
    """Whether a lower-case word the knowledge base lacks names a subject it does not cover (see the module)."""
    return gene_like(word) or drug_name(word) or clinical_form(word) or not english_word(word)
