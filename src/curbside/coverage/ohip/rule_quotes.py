"""The payment-rule sentences a question asks about, quoted in the answer.

"How often can I bill a periodic health visit?", "minimum time for K133?", "can we bill A003 in the
patient's home?" are answered by one sentence of a rule block, not by a fee. The question says which kind
of sentence it wants (a limit, a time, whether it is payable); the sentence must say that kind of thing
and share the question's words. Nothing is paraphrased: the sentence is quoted with its page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from curbside.coverage.ohip.query import STOP, stem, words_of
from curbside.coverage.ohip.store import RuleRow

__all__ = ["ASKS", "SAYS", "RuleQuote", "rule_quotes"]

MAX_QUOTES = 2

# what the question asks -> what a sentence answering it says
ASKS = {
    "limit": re.compile(
        r"\b(how (many|often)|per (year|week|day|month|patient)|limit\w*|maximum|max|each year|a year|annual\w*|"
        r"drops?|before)\b",
        re.I,
    ),
    "time": re.compile(r"\b(how long|minimum|minutes?|time|in person|face[- ]to[- ]face)\b", re.I),
    "payable": re.compile(
        r"\b(can|may|could) (i|we|you|they)\b.*\b(bill|claim|add|charge|use|still)\b|\b(eligible|payable|allowed)\b",
        re.I,
    ),
}
SAYS = {
    "limit": re.compile(
        r"\b(limited to|maximum of|per (patient|physician|provider)\b[^.]*\bperiod|per (week|day|month|year)|"
        r"\d+ (units?|services?|per)|(one|two|three|once|twice) per|first (two|three|\w+) units)",
        re.I,
    ),
    "time": re.compile(r"\b(\d+ minutes|minimum|start and stop times|in person|direct contact)\b", re.I),
    "payable": re.compile(
        r"\b(not (eligible|payable|billable|insured)|only (eligible|payable)|is payable|are payable|"
        r"lesser assessment fee)\b",
        re.I,
    ),
}
_GENERIC = frozenset(stem(w) for w in "patient patients physician doctor service services fee".split())
_QUANTITY = re.compile(
    r"\b\d+\s*(minutes?|units?|per|months?|weeks?|days?|hours?|%)|\b(one|two|three|four) per\b", re.I
)
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=\d{1,2}\.\s?[A-Z]|[A-Z])")
_LEAD = re.compile(r"^(payment rules|notes?|commentary)\s*:\s*|^\d{1,2}\.\s*", re.I)


@dataclass(frozen=True, slots=True)
class RuleQuote:
    code: str
    page: str
    text: str


def rule_quotes(question: str | None, rules: Iterable[RuleRow]) -> list[RuleQuote]:
    """Up to two sentences of ``rules`` (a code's own rule blocks) that answer what ``question`` asks."""
    if not question:
        return []
    asked = [kind for kind, pattern in ASKS.items() if pattern.search(question)]
    if not asked:
        return []
    wanted = {stem(w) for w in words_of(question) if w not in STOP} - _GENERIC
    scored: list[tuple[float, int, RuleQuote]] = []
    seen: set[str] = set()
    for order, rule in enumerate(r for r in rules if r.relation == "subject"):
        for sentence in _SENTENCE.split(rule.text):
            text = _LEAD.sub("", _LEAD.sub("", sentence.strip().lstrip("["))).strip().rstrip("]").strip()
            if len(text) < 20 or not text[:1].isupper() or text in seen:
                continue  # a fragment the block split mid-sentence ('G310, G313) and …') is not quoted
            seen.add(text)
            says = [kind for kind in asked if SAYS[kind].search(text)]
            if not says:
                continue
            # a sentence is about its block's heading too ('Maximum once per pregnancy.' under 'Antenatal
            # preventative health assessment')
            shared = len(wanted & {stem(w) for w in words_of(f"{rule.heading} {text}")})
            if not shared and rule.code.lower() not in question.lower():
                continue  # says the right kind of thing about something else
            # a sentence that states the quantity asked about beats one that only talks about it
            quantity = 1.5 if _QUANTITY.search(text) else 0.0
            scored.append((3 * len(says) + shared + quantity, -order, RuleQuote(rule.code, rule.page, text)))
    scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
    return [quote for _, _, quote in scored[:MAX_QUOTES]]
