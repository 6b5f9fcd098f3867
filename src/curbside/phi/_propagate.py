"""Once a name or place is known from context, its other mentions in the same text are PHI too.

"Transfer to Quartermain 2 or Quartermain 3": the rule that reads "to X 2" finds the first; the
second only this pass finds. Only words that are no dictionary word and no clinical term spread.
"""

from __future__ import annotations

from curbside.phi._lexicon import Lexicon
from curbside.phi._tokens import tokenize
from curbside.phi.recognizers._names import CONTEXT_WORDS
from curbside.phi.recognizers._words import MONTHS, STOPWORDS, WEEKDAYS

__all__ = ["propagate"]

Found = tuple[int, int, str, float]
_SEED_SCORE = 0.7  # context rules score 0.7 and up; word-list and spaCy finds (below) do not spread


def propagate(text: str, found: list[Found], lexicon: Lexicon) -> list[Found]:
    """Extra spans for the other mentions of words inside context-found PERSON/LOCATION spans."""
    seeds = [(s, e, kind) for s, e, kind, score in found if kind in {"PERSON", "LOCATION"} and score >= _SEED_SCORE]
    if not seeds:
        return []
    tokens = tokenize(text)
    kinds: dict[str, str] = {}
    for start, end, kind in seeds:
        for token in tokens:
            if token.start >= start and token.end <= end and _spreads(token.key, lexicon):
                kinds.setdefault(token.key, kind)
    return [(t.start, t.end, kinds[t.key], 0.65) for t in tokens if t.is_word and t.key in kinds]


def _spreads(key: str, lexicon: Lexicon) -> bool:
    return (
        len(key) >= 4
        and key.isalpha()
        and key not in STOPWORDS
        and key not in CONTEXT_WORDS
        and key not in MONTHS
        and key not in WEEKDAYS
        and key not in lexicon.clinical
        and not lexicon.is_word(key)
    )
