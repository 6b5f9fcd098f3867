"""Word forms: 'consult' meets 'Consultation', 'cautery' meets 'Cauterization', 'internist' meets 'Internal'.

``query.stem`` strips inflections only (visits, discharged); a clerk and the Schedule often use different
derivations of one word, so a question word also matches the Schedule's words that share its root: the
word with its derivational suffix removed. General English morphology, no list of words: a suffix is removed
only when at least ``MIN_ROOT`` letters remain ('lesion' keeps its 'ion').
"""

from __future__ import annotations

import re

__all__ = ["MIN_ROOT", "is_person_noun", "root", "roots"]

MIN_ROOT = 4

# longest first: 'dermatologist' loses 'ologist', not 'ist'
_SUFFIXES = (
    "izations", "isations", "ization", "isation", "ologists", "ologist", "ological", "ologic", "ology",
    "ations", "ation", "itions", "ition", "icians", "ician", "ists", "ist", "ions", "ion", "ians", "ian",
    "ical", "ics", "ic", "ments", "ment", "able", "ies", "y", "at",
)  # fmt: skip

# practitioners: 'internist', 'paediatrician', 'dermatologist' (not 'internal', 'paediatric')
_PERSON = ("ologist", "ologists", "ician", "icians", "ist", "ists", "ian", "ians")


def root(word: str) -> str:
    """'consultation' -> 'consult', 'paediatrician' -> 'paediatr', 'reportable' ->
    'report'."""
    word = word.lower().removesuffix("'s").rstrip("'")
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_ROOT:
            word = word[: -len(suffix)]
            break
    # and the final 'e' the inflection stem drops: 'pronouncement' -> 'pronounce' -> 'pronounc'
    return word[:-1] if word.endswith("e") and len(word) > MIN_ROOT else word


# a verb's participle drops what its noun keeps: 'reduced' (stem 'reduc') / 'reduction', 'removed' / 'removal'.
# '-al' only after v, s or w (removal, reversal, withdrawal): after other letters it mostly ends an adjective
# whose shorter form is another word ('terminal' / 'termination', 'lateral' / 'later'). The root must keep
# MIN_VERB_ROOT letters ('spinal' stays whole: 'spin' would be too loose a root).
_VERB_NOUN = re.compile(r"(?:(?<=c)tion|(?<=[vsw])al)$")
MIN_VERB_ROOT = 5


def roots(word: str) -> frozenset[str]:
    """``root(word)``, and the verb's root its noun stands for ('reduction' -> 'reduct', 'reduc')."""
    bare = word.lower().removesuffix("'s").rstrip("'")
    verb = _VERB_NOUN.search(bare)
    if verb is None or verb.start() < MIN_VERB_ROOT:
        return frozenset((root(word),))
    return frozenset((root(word), bare[: verb.start()]))


def is_person_noun(word: str) -> bool:
    """Whether ``word`` names a practitioner by a suffix ('cardiologist', 'geriatrician')."""
    word = word.lower().removesuffix("'s").rstrip("'")
    return any(word.endswith(s) and len(word) - len(s) >= MIN_ROOT for s in _PERSON)
