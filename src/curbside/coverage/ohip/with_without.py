"""Codes whose title says 'with X' where the question says 'no X' or 'without X' (and the other way round).

The Schedule often lists one service twice, told apart by a phrase: 'closed reduction with anaesthetic'
(F110) and 'closed reduction without anaesthetic' (D015). A bare word cannot tell them apart: F110's title
also says 'without dislocation of head'. The phrase can: a question's 'no anaesthetic' names the thing that
follows, and a title's 'with anaesthetic' contradicts it, 'without anaesthetic' agrees with it.
"""

from __future__ import annotations

import re

__all__ = ["by_with_or_without"]

# 'no anaesthetic', 'without any sedation', 'w/o local'; 'not under general'
_QUESTION_WITHOUT = re.compile(r"\b(?:no|without|w/o|not under)\s+(?:any\s+|an?\s+)?(?P<thing>[a-z]{4,})", re.I)
_QUESTION_WITH = re.compile(r"\b(?:with|under)\s+(?:an?\s+)?(?P<thing>[a-z]{4,})", re.I)
_TITLE_PHRASE = re.compile(r"\b(?P<how>without|with)\s+(?:an?\s+)?(?P<thing>[a-z]{4,})", re.I)
_SAME_THING = 6  # letters two words share to name one thing: 'anaesthetic' and 'anaesthesia'


def _same(a: str, b: str) -> bool:
    a, b = a.lower(), b.lower()
    return a == b or (len(a) >= _SAME_THING and len(b) >= _SAME_THING and a[:_SAME_THING] == b[:_SAME_THING])


def _verdict(title: str, without: list[str], with_: list[str]) -> int:
    """+1: the title says 'without X' for a question's 'no X' (or 'with X' for its 'with X'); -1: it says the
    opposite; 0: it names none of them so."""
    agree = against = 0
    for phrase in _TITLE_PHRASE.finditer(title):
        thing, says_without = phrase.group("thing"), phrase.group("how").lower() == "without"
        if any(_same(thing, t) for t in without):
            agree, against = agree + says_without, against + (not says_without)
        elif any(_same(thing, t) for t in with_):
            agree, against = agree + (not says_without), against + says_without
    return -1 if against else (1 if agree else 0)


def by_with_or_without(
    codes: list[str], scores: dict[str, float], question: str | None, texts: dict[str, str], reach: float
) -> list[str]:
    """``codes`` with those whose title contradicts the question's 'no X' / 'with X' after the others (when any
    other is left), and a code of the wider pool (``scores``, best first) whose title agrees with it first
    when its words score at least ``reach`` of the best."""
    if not question or not codes:
        return codes
    without = [m.group("thing") for m in _QUESTION_WITHOUT.finditer(question)]
    negated = {m.start("thing") for m in _QUESTION_WITHOUT.finditer(question)}
    with_ = [m.group("thing") for m in _QUESTION_WITH.finditer(question) if m.start("thing") not in negated]
    if not without and not with_:
        return codes
    verdicts = {code: _verdict(texts.get(code, ""), without, with_) for code in {*codes, *scores}}
    if all(verdicts[c] == 0 for c in verdicts):
        return codes
    best = max((scores.get(c, 0.0) for c in codes), default=0.0)
    agreeing = [c for c in scores if verdicts[c] > 0 and scores[c] >= reach * best]
    rest = [c for c in codes if c not in agreeing]
    kept = [c for c in rest if verdicts[c] >= 0]
    if not agreeing and not kept:
        return codes  # every candidate contradicts the question: the words still choose among them
    return agreeing + kept + [c for c in rest if verdicts[c] < 0]
