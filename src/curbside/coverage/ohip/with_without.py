"""Codes whose title says 'with X' where the question says 'no X' or 'without X' (and the other way round).

The Schedule often lists one service twice, told apart by a phrase: 'closed reduction with anaesthetic'
(F110) and 'closed reduction without anaesthetic' (D015). A bare word cannot tell them apart: F110's title
also says 'without dislocation of head'. The phrase can: a question's 'no anaesthetic' names the thing that
follows, and a title's 'with anaesthetic' contradicts it, 'without anaesthetic' agrees with it. A title may say
it as 'when sutures are (not) used' (Z113 / Z116 "Biopsy(ies) - any method, when sutures are not used / are used"),
and a question as 'didn't need stitches' or 'closed w/ 2 stitches', in a clinician's word for the Schedule's.
A count says 'with' ('took 2 biopsies': Z787 "Follow-up colposcopy with biopsy(ies)", not Z730 "… without
biopsy"); 'before X' says without it and 'after X' with it ('flow volume loop (before bronchodilator)': not J327
"… repeat after bronchodilator").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from curbside.coverage.ohip.query import stem
from curbside.coverage.ohip.words import SCHEDULE_WORDS

__all__ = ["by_with_or_without", "not_contradicted"]

# 'no anaesthetic', 'without any sedation', 'w/o local'; 'not under general'
# 'not in the chamber', 'non-face'
_QUESTION_WITHOUT = re.compile(
    r"(?:(?:\b(?:no|without|not (?:under|in|on|at))|\bw/o|\b(?:didn'?t|did not|does not|doesn'?t) (?:need|use|require))"
    r"\s+(?:any\s+|an?\s+|the\s+)?|\bnon[- ])(?P<thing>[a-z]{4,})",
    re.I,
)
# 'with a block', 'under general', 'w/ 2 stitches', 'in the chamber'; 'took 2 biopsies' says with them ('type 2 diabetes' names a kind)
_QUESTION_WITH = re.compile(
    r"(?:(?:\b(?:with|under|in)|\bw/)\s+(?:an?\s+|the\s+|\d{1,2}\s+)?|\b(?<!type )(?<!grade )(?<!stage )(?:[1-9]|two|three|four|five)\s+)(?P<thing>[a-z]{4,})",
    re.I,
)
# 'before bronchodilator' is the study without it, 'after bronchodilator' with it (J304 "Volume versus Flow
# Study …" and J327 "… repeat after bronchodilator"), in a question and in a title alike
_BEFORE_AFTER = re.compile(r"\b(?P<how>before|after|pre|post)[\s-]+(?:the\s+|an?\s+)?(?P<thing>[a-z]{4,})", re.I)
_BEFORE = ("before", "pre")
# a title's 'no X' says without it, 'under general anaesthetic' with it (Z756 "Fecal disimpaction - no
# anaesthetic", Z541 "… disimpaction … under general anaesthetic")
_TITLE_PHRASE = re.compile(
    r"\b(?:(?P<how>without|with|no|not in|other than)\s+(?:an?\s+|the\s+)?|under\s+(?:an?\s+|general\s+|local\s+|regional\s+)?)(?P<thing>[a-z]{4,})",
    re.I,
)
# G804 "Physician in hyperbaric unit but not in chamber(s) …", Z188 "Complex laceration repair, anatomical area
# other than face"
_EXCLUDES = ("not in", "other than")
_TITLE_NON = re.compile(r"\bnon[- ]([a-z]{4,})", re.I)
_SAYS_WITHOUT = ("without", "no", *_EXCLUDES)
# 'when sutures are not used' says 'without sutures'; 'when sutures are used', 'with sutures'
_TITLE_WHEN_USED = re.compile(r"\bwhen (?P<thing>[a-z]{4,}) (?:are|is) (?P<not>not )?used\b", re.I)
_SAME_THING = 6  # letters two words share to name one thing: 'anaesthetic' and 'anaesthesia'


def _same(a: str, b: str) -> bool:
    """Whether a question's word ``a`` (or the Schedule's word for it: 'stitches', 'suture') names a title's ``b``."""
    b = b.lower()
    return any(
        x == b
        or stem(x) == stem(b)  # 'biopsies' and 'biopsy'
        or (len(x) >= _SAME_THING and len(b) >= _SAME_THING and x[:_SAME_THING] == b[:_SAME_THING])
        for x in (a.lower(), *SCHEDULE_WORDS.get(a.lower(), ()))
    )


def _title_phrases(title: str) -> list[tuple[str, bool]]:
    """(thing, says without) for each 'with X' / 'under X' / 'without X' / 'no X' / 'when X are (not) used' of
    ``title``."""
    phrases = [
        (m.group("thing"), (m.group("how") or "").lower() in _SAYS_WITHOUT) for m in _TITLE_PHRASE.finditer(title)
    ]
    phrases += [(m.group("thing"), m.group("how").lower() in _BEFORE) for m in _BEFORE_AFTER.finditer(title)]
    # 'non-elective' says without it (B993 "Special Visits to Patient's Home … (non-elective)")
    phrases += [(m.group(1), True) for m in _TITLE_NON.finditer(title)]
    return phrases + [(m.group("thing"), bool(m.group("not"))) for m in _TITLE_WHEN_USED.finditer(title)]


def _verdict(title: str, without: list[str], with_: list[str], named: frozenset[str] = frozenset()) -> int:
    """+1: the title says 'without X' for a question's 'no X' (or 'with X' for its 'with X'); -1: it says the
    opposite, or it excludes X ('not in X', 'other than X') and the question names X at all (``named``: 'hyperbaric
    unit - I'm IN the chamber' is not G807 "… not in the hyperbaric unit"); 0: it names none of them so."""
    agree = against = 0
    phrases = _title_phrases(title)
    for thing, says_without in phrases:
        if any(_same(t, thing) for t in without):
            agree, against = agree + says_without, against + (not says_without)
        elif any(_same(t, thing) for t in with_):
            agree, against = agree + (not says_without), against + says_without
    for thing in _excluded(title):
        if not any(_same(t, thing) for t in (*without, *with_)) and any(_same(w, thing) for w in named):
            against += 1
    # a title named by what the question says it did without ('no fluoroscopy': G192 "Video fluoroscopic
    # multichannel urodynamic assessment"), outside any phrase of its own
    if without:
        own_words = re.findall(r"[a-z]{6,}", title.split(" | ", 1)[0].lower())
        for word in own_words:
            if any(_same(t, word) for t in without) and not any(_same(word, thing) for thing, _ in phrases):
                against += 1
    return -1 if against else (1 if agree else 0)


def _excluded(title: str) -> list[str]:
    """What ``title`` says it is not about: 'not in chamber(s)' -> chamber, 'other than face' -> face."""
    return [m.group("thing") for m in _TITLE_PHRASE.finditer(title) if (m.group("how") or "").lower() in _EXCLUDES]


def _read(question: str) -> tuple[list[str], list[str], frozenset[str]]:
    """What ``question`` says it is without, what with, and the words it names not negated."""
    without = [m.group("thing") for m in _QUESTION_WITHOUT.finditer(question)]
    negated = {m.start("thing") for m in _QUESTION_WITHOUT.finditer(question)}
    with_ = [m.group("thing") for m in _QUESTION_WITH.finditer(question) if m.start("thing") not in negated]
    for m in _BEFORE_AFTER.finditer(question):
        (without if m.group("how").lower() in _BEFORE else with_).append(m.group("thing"))
    named = frozenset(re.findall(r"[a-z]{4,}", _QUESTION_WITHOUT.sub(" ", question).lower()))
    return without, with_, named


def not_contradicted(codes: list[str], question: str | None, texts: dict[str, str]) -> list[str]:
    """``codes`` without those whose title the question contradicts: the related codes beside G800 "Physician in
    chamber …" are not G805 "… but not in chamber(s)" for a question saying 'IN the chamber'."""
    if not question:
        return codes
    without, with_, named = _read(question)
    return [code for code in codes if _verdict(texts.get(code, ""), without, with_, named) >= 0]


def by_with_or_without(
    codes: list[str],
    scores: dict[str, float],
    question: str | None,
    texts: dict[str, str],
    reach: float,
    names_more: Callable[[str], bool] = lambda code: True,
) -> list[str]:
    """``codes`` without those whose title contradicts the question's 'no X' / 'with X' (when any other is
    left), and a code of the wider pool (``scores``, best first) whose title agrees with it first
    when its words score at least ``reach`` of the best and its title names more of the question than X
    (``names_more``: 'scalp lac … no stitches' does not put Z113 "Biopsy(ies) …, when sutures are not used"
    first)."""
    if not question or not codes:
        return codes
    without, with_, named = _read(question)
    if not without and not with_ and not any(_excluded(texts.get(code, "")) for code in codes):
        return codes
    verdicts = {code: _verdict(texts.get(code, ""), without, with_, named) for code in {*codes, *scores}}
    if all(verdicts[c] == 0 for c in verdicts):
        return codes
    best = max((scores.get(c, 0.0) for c in codes), default=0.0)
    near = [c for c in scores if scores[c] >= reach * best]
    agreeing = [c for c in near if verdicts[c] > 0 and names_more(c)]
    rest = [c for c in codes if c not in agreeing]
    kept = [c for c in rest if verdicts[c] >= 0]
    if not agreeing and not kept:
        return codes  # every candidate contradicts the question: the words still choose among them
    # a code the question contradicts is not stated beside one it does not ('took 2 biopsies': Z787 "… with
    # biopsy(ies)" alone, not Z730 "… without biopsy" after it)
    return agreeing + kept
