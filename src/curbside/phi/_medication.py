"""A word that is dosed, started or held is a drug, not a person or a place: 'Zoloft 50 mg',
'started Zoloft today', 'Paxil qhs'.

Brand names are no dictionary words and rare on the web, so the word lists and spaCy take them
for names ("Started Zoloft" -> PERSON). Only weak finds are dropped here (word lists, spaCy:
score under 0.7); a title or relation ("Dr. Paxil", "son Zoloft") still decides.
"""

from __future__ import annotations

import re

__all__ = ["outside_medication"]

Found = tuple[int, int, str, float]

_WEAK = 0.7
_DOSE_AFTER = re.compile(
    r"[ \t]*(?:\d+(?:\.\d+)?[ \t]*(?:mg|mcg|g|gm|units?|u|ml|cc|meq|mmol|iu|%|puffs?|tabs?|caps?|mg/kg|mcg/kg)\b"
    r"|(?:dose|doses|daily|bid|tid|qid|qhs|qam|qpm|qd|qod|prn|po|iv|ivp|sq|sc|im|sl|gtt|drip|tab|tabs|tablet|"
    r"tablets|capsule|capsules|inhaler|patch|xr|sr|cr|xl)\b)",
    re.IGNORECASE,
)
# verbs that take a drug far more often than a person (not "gave", "took", "on": prose uses them for people)
_VERB_BEFORE = re.compile(
    r"\b(?:started|restarted|stopped|held|titrated|weaned|tapered|increased|decreased|discontinued|resumed|"
    r"dc'd|d/c'd|d/ced)[ \t]+(?:on[ \t]+)?$",
    re.IGNORECASE,
)
_LOOK = 24  # characters read on either side (bounded: the check costs the same in any text)


def outside_medication(text: str, found: list[Found]) -> list[Found]:
    """``found`` without weak PERSON/LOCATION finds that sit where a drug does."""
    return [span for span in found if not _dosed(text, span)]


def _dosed(text: str, span: Found) -> bool:
    start, end, kind, score = span
    if kind not in {"PERSON", "LOCATION"} or score >= _WEAK or " " in text[start:end]:
        return False
    return bool(_DOSE_AFTER.match(text, end, end + _LOOK) or _VERB_BEFORE.search(text, max(0, start - _LOOK), start))
