"""Which clause of an ADP question asks, and which only tells what happened.

"his power chair keeps breaking down and the repair bills are huge - will ADP help replace it before the
5 yrs are up?" tells of repairs and asks about a replacement. The exclusion on repairs ("does not contribute
toward the cost of repairs") does not decide a replacement, so it is no verdict on this question; the
exclusion on stolen devices ("does not provide funding to replace Devices that are lost or stolen") does
decide "was stolen last year, will ADP replace it?". A rule decides an asked topic when its own words say so
(``_DECIDED_BY``); every exclusion decides whether ADP pays, so a clause asking only that keeps the story's
topics asked.
"""

from __future__ import annotations

import re

__all__ = ["GENERIC_TOPICS", "asked_clause", "decides"]

# a clause asking only whether or how much ADP pays asks about what the story told
GENERIC_TOPICS = frozenset({"funding"})
_QUESTION_WORD = r"(?:can|could|will|would|does|do|did|is|are|should|may|must|what|how|who|when|where|which|why)"
# clauses end at a sentence's end, a dash between words, or a comma before a question word
_CLAUSE_END = re.compile(rf"\s+[-–—]+\s+|(?<=[.;:!?])\s+|,\s+(?={_QUESTION_WORD}\b)", re.I)
# a clause asking with a question word, or a bare yes or no ('… a fee for every resident we send them - allowed?',
# '… a vendor her husband co-owns - OK under ADP rules?')
_ASKS = re.compile(
    rf"(?:(?:and|so|but|then|now)\s+)?{_QUESTION_WORD}\b|(?:allowed|ok|okay|permitted|legit|legal|acceptable)\b",
    re.I,
)
# the words by which a rule's quote decides an asked topic other than its own
_DECIDED_BY = {"funding_period": re.compile(r"\breplac\w*", re.I)}


def asked_clause(question: str) -> str | None:
    """The last clause after the first that begins with a question word, with what follows it; None when
    the question is one clause or no later clause asks (then all of it asks)."""
    clauses = _CLAUSE_END.split(question.strip())
    for n in range(len(clauses) - 1, 0, -1):
        if _ASKS.match(clauses[n].strip()):
            return " ".join(clauses[n:])
    return None


def decides(topic: str, quotes: tuple[str, ...] | list[str]) -> bool:
    """Whether a rule quoting ``quotes`` decides what a clause asking ``topic`` (not the rule's own) asks."""
    said = _DECIDED_BY.get(topic)
    return topic in GENERIC_TOPICS or (said is not None and any(said.search(q) for q in quotes))
