"""The conditions a payment question states and a rule sentence sets: age, same visit, modality, place.

"22 yo wants a pap test, can I bill G365?" is answered by the one rule of G365 that sets an age ('G365 is
uninsured for patients less than 25 years of age', J48), not by its other rules; "… took the pap at the same
time as the general assessment" by the one that sets what it is billed with ('… not eligible for payment when
performed in conjunction with a … general … assessment', J48). A question names a condition in a clerk's
words; a sentence in the Schedule's: each condition is a pair of patterns, one for each. The words that decide
between rules of one kind (a limit, whether it is payable) are these, not the service's name.
"""

from __future__ import annotations

import re

from curbside.coverage.ohip.words import SPECIALTY_ALIASES

__all__ = ["CONDITIONS", "STANDS_FOR_WORDS", "condition_word", "conditions_asked", "conditions_met", "without_stated"]

_PROVINCES = (
    "quebec|manitoba|alberta|saskatchewan|british columbia|nova scotia|new brunswick|newfoundland|labrador|"
    "prince edward island|yukon|nunavut|northwest territories"
)

# condition -> (how a question states it, how a rule sentence sets it)
CONDITIONS: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    # an age in numbers ('22 yo', 'less than 25 years of age'); a child in words is a condition of its own: a
    # 45 year old is not answered by a rule about children
    "age": (
        re.compile(
            r"\b\d{1,3}\s?(?:yo|y/o|yrs?|years?|months?)(?:[- ]old)?\b|\b\d{1,3}[- ](?:year|month)[- ]old\b|"
            r"\baged? \d{1,3}\b",
            re.I,
        ),
        re.compile(
            r"\b(?:\d+ (?:years?|months?) of age|aged? \d+|\d+ years? (?:old|or (?:older|younger|over|under))|"
            r"(?:under|over|less than|at least|younger than|older than) (?:the age of )?\d+)\b",
            re.I,
        ),
    ),
    "child": (
        re.compile(
            r"\b(?:infants?|newborns?|bab(?:y|ies)|child(?:ren)?|kids?|toddlers?|teens?|teenagers?|adolescents?|"
            r"\d{1,2}\s?(?:months?|mo)[- ]old)\b",
            re.I,
        ),
        re.compile(r"\b(?:newborns?|infants?|child(?:ren)?|adolescents?|paediatric|pediatric)\b", re.I),
    ),
    "together": (
        re.compile(
            r"\b(?:same (?:day|visit|time|encounter|appointment|sitting)|at the same|also (?:bill|claim|charge)|"
            r"in addition|together|along with|as well as|on top of)\b",
            re.I,
        ),
        re.compile(r"\b(?:same (?:day|visit|time|encounter)|in conjunction with|in addition to|together with)\b", re.I),
    ),
    "modality": (
        re.compile(r"\b(?:(?:tele)?phone|video|virtual\w*|zoom|audio)\b", re.I),
        re.compile(r"\b(?:telephone|video|modality|virtual)\b", re.I),
    ),
    # the other side of the modality: a service or part of it given with the patient there
    "in person": (
        re.compile(r"\bin[- ]person\b|\bface[- ]to[- ]face\b", re.I),
        re.compile(r"\bin[- ]person\b|\bface[- ]to[- ]face\b|\bdirect (?:physical encounter|contact)\b", re.I),
    ),
    # a service that changed from one modality to the other on the way ('started by phone, switched to video')
    "modality change": (
        re.compile(r"\b(?:tele)?phone\b.*\bvideo\b|\bvideo\b.*\b(?:tele)?phone\b", re.I),
        re.compile(r"\bmodality change|\btransitions? (?:in)?to\b", re.I),
    ),
    # the period a limit runs over: 'per year' is the Schedule's '12 month period'
    "year": (
        re.compile(r"\b(?:a|per|each|every|in a|one) year\b|\b(?:annual\w*|yearly|12 months?)\b", re.I),
        re.compile(r"\b(?:12[- ]month|per year|annual\w*|calendar year|each year)\b", re.I),
    ),
    # who bills: 'I'm a GP … can I bill K045?' is answered by the rule naming the specialties it is paid to
    # ('K045 is eligible for payment to a physician from one of the following specialties: Internal Medicine
    # (13) …', A94); a specialty is named with its two-digit code there
    "specialty": (
        re.compile(
            r"\b(?:specialists?|specialty|"
            + "|".join(sorted((re.escape(a) for a in SPECIALTY_ALIASES), key=len, reverse=True))
            + r")\b",
            re.I,
        ),
        re.compile(r"\b[Ss]pecialt(?:y|ies)\b|\b[A-Z][a-z]+ \(\d{2}\)"),
    ),
    "location": (
        re.compile(
            rf"\b(?:{_PROVINCES}|florida|arizona|united states|usa|abroad|overseas|out[- ]of[- ](?:province|country)|"
            r"outside (?:of )?ontario|another province|other province)\b",
            re.I,
        ),
        re.compile(
            r"\b(?:located in ontario|outside (?:of )?ontario|out[- ]of[- ](?:province|country)|"
            r"resident of ontario)\b",
            re.I,
        ),
    ),
}


# conditions whose words say nothing else: '22 yo', 'in Quebec' are the condition, not the service asked about
STANDS_FOR_WORDS = ("age", "child", "location")


def condition_word(name: str) -> str:
    """The pseudo-word a word index holds for a condition: '<age>' (no real word starts with '<')."""
    return f"<{name}>"


def without_stated(question: str) -> str:
    """``question`` without the words that state an age or a place (they count as the condition instead)."""
    for name in STANDS_FOR_WORDS:
        question = CONDITIONS[name][0].sub(" ", question)
    return question


def conditions_asked(question: str) -> frozenset[str]:
    """The conditions ``question`` states: 'age', 'together', 'modality', 'location'."""
    return frozenset(name for name, (asked, _) in CONDITIONS.items() if asked.search(question))


def conditions_met(asked: frozenset[str], text: str) -> int:
    """How many of the ``asked`` conditions the rule sentence ``text`` sets."""
    return sum(1 for name in asked if CONDITIONS[name][1].search(text))
