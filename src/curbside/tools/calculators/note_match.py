"""How a criterion's name is found in a note's words, allowing the ways a note rewords it (issue #15).

A one-word name, or an abbreviation, is found as written (an abbreviation of four capitals or fewer only
in capitals: "MI", not "mi"). A name of several words is also found

- with up to two closed-class words inserted between its words, in the same clause: an article, a
  possessive, a side ("left", "right", "bilateral") or a copula: "entire left leg is swollen" for
  "entire leg swollen", "prior left DVT" for "prior DVT";
- in the other standard order of a compound: its last word first joined by "of" ("swelling of the
  left leg" for "leg swelling", "onset of symptoms" for "symptom onset"), and a finding's adjective
  moved to the other end ("swollen leg" / "leg is swollen", "tonsils are enlarged" for "enlarged
  tonsils");
- with a finding's word in another form of the same finding: swelling/swollen, tender/tenderness,
  enlarged/enlargement, inflamed/inflammation, oedema/oedematous. (Not paralysis/paralysed: in an ICU
  note "sedated and paralysed" is a neuromuscular blocker, not a paralysed limb.)

Nothing else comes between the words: no negation ("leg is not swollen" is not found, so never read as
swollen), no conjunction ("calf pain and swelling" is no "calf swelling"), no punctuation, no content
word ("care at home" is no "care home"; "home care" is not either, as only the "of" order is tried).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["term_pattern"]

# forms of one finding: any of them stands for another, whatever its part of speech
_FORMS = (
    ("swelling", "swollen", "swelled"),
    ("tenderness", "tender"),
    ("enlargement", "enlarged"),
    ("inflammation", "inflamed"),
    ("oedema", "oedematous"),
    ("edema", "edematous"),
)
_FORM_OF = {form: forms for forms in _FORMS for form in forms}
# a finding's adjective, which a note may put before its noun or after it with a copula
_ADJECTIVES = frozenset({"swollen", "tender", "enlarged", "inflamed", "oedematous", "edematous"})
# words that may come between a name's words without changing what it names
_FILLER = r"(?:the|a|an|his|her|their|left|right|bilateral|both|is|was|are|were|appears?)"
_GAP = rf"[\s-]+(?:{_FILLER}[\s-]+){{0,2}}"
_SIDE = r"(?:(?:the|his|her|their)\s+)?(?:(?:left|right|bilateral|both)\s+)?"
# words that make a name a phrase of its own, not a compound: "history of stroke", "on insulin", "no cough"
_FUNCTION = frozenset("of on in at to for with without by from no not non and or the a an any per than is was".split())


def term_pattern(terms: Sequence[str]) -> re.Pattern[str] | None:
    """One pattern finding any of ``terms`` as a note may word it; None when there are none."""
    parts: list[str] = []
    for term in sorted({t for t in terms if t.strip()}, key=len, reverse=True):
        words = term.split()
        if len(term) <= 4 and term.upper() == term:
            parts.append("(?-i:" + r"[\s-]+".join(re.escape(w) for w in words) + ")")  # CHF, TIA, MI, PE as written
            continue
        parts.append(_sequence(words))
        parts.extend(_reordered(words))
    if not parts:
        return None
    return re.compile(r"(?<![\w-])(?:" + "|".join(parts) + r")(?![\w-])", re.IGNORECASE)


def _word(word: str) -> str:
    forms = _FORM_OF.get(word.lower())
    if forms is None:
        return re.escape(word)
    return "(?:" + "|".join(forms) + ")"


def _last(word: str) -> str:
    """The name's last word, with its plural: "vasopressors" finds "vasopressor" too."""
    if word.lower() in _FORM_OF:
        return _word(word)
    if word.endswith("s") and not word.endswith("ss"):
        return re.escape(word[:-1]) + "(?:s|es)?"
    return re.escape(word) + "(?:s|es)?"


def _sequence(words: Sequence[str]) -> str:
    """The words in order, a gap between each, the last with its plural."""
    return _GAP.join([*(_word(w) for w in words[:-1]), _last(words[-1])])


def _reordered(words: Sequence[str]) -> list[str]:
    """The name's compound in its other order: "swelling of the leg", "swollen leg", "tonsils are enlarged"."""
    if len(words) < 2 or len(words) > 4 or any(w.lower() in _FUNCTION or not w.isalpha() for w in words):
        return []
    out = [_last(words[-1]) + r"\s+of\s+" + _SIDE + _sequence(words[:-1])]
    if _adjective(words[0]):
        out.append(_sequence(words[1:]) + _GAP + _word(words[0]))
    if _adjective(words[-1]):
        out.append(_word(words[-1]) + r"\s+" + _SIDE + _sequence(words[:-1]))
    return out


def _adjective(word: str) -> bool:
    return any(form in _ADJECTIVES for form in _FORM_OF.get(word.lower(), ()))
