"""Once a name or place is known from context, its other mentions in the same text are PHI too.

"Transfer to Quartermain 2 or Quartermain 3": the rule that reads "to X 2" finds the first; the
second only this pass finds. Only words that are no dictionary word and no clinical term spread.

Linear in the text: the seeds are swept in order of position over the token list once (each
token is looked at by at most one seed), and the mentions are one pass over the tokens with a
set lookup — never seeds × tokens, which took minutes on a long text with many names.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from curbside.phi._lexicon import Lexicon
from curbside.phi._tokens import Token, tokenize
from curbside.phi.recognizers._names import CONTEXT_WORDS
from curbside.phi.recognizers._words import MONTHS, STOPWORDS, WEEKDAYS

__all__ = ["propagate", "seed_kinds"]

Found = tuple[int, int, str, float]
_SEED_SCORE = 0.7  # context rules score 0.7 and up; word-list and spaCy finds (below) do not spread


def propagate(text: str, found: list[Found], lexicon: Lexicon) -> list[Found]:
    """Extra spans for the other mentions of words inside context-found PERSON/LOCATION spans."""
    seeds = [(s, e, kind) for s, e, kind, score in found if kind in {"PERSON", "LOCATION"} and score >= _SEED_SCORE]
    if not seeds:
        return []
    tokens = tokenize(text)
    kinds = {key: kind for key, kind in seed_kinds(tokens, seeds).items() if _spreads(key, lexicon)}
    return [(t.start, t.end, kinds[t.key], 0.65) for t in tokens if t.is_word and t.key in kinds]


def seed_kinds(tokens: Sequence[Token], seeds: list[tuple[int, int, str]]) -> dict[str, str]:
    """The key of every word token inside a seed span -> the type of the first seed (by position)
    that covers it. One sweep: a token already passed is never looked at again."""
    starts = [t.start for t in tokens]
    kinds: dict[str, str] = {}
    done = 0  # tokens before this index are behind the sweep
    for start, end, kind in sorted(seeds):
        i = max(done, bisect_left(starts, start))
        while i < len(tokens) and tokens[i].end <= end:  # (a token cut by the end stays for a later seed)
            if tokens[i].is_word:
                kinds.setdefault(tokens[i].key, kind)
            i += 1
        done = max(done, i)
    return kinds


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
