"""The payment-rule sentences a question asks about, quoted in the answer.

"How often can I bill a periodic health visit?", "minimum time for K133?", "can we bill A003 in the
patient's home?" are answered by one sentence of a rule block, not by a fee. The question says which kind
of sentence it wants (a limit, a time, whether it is payable); the sentence must say that kind of thing
and share the question's words or the conditions it states (an age, the same visit, phone or video, a place:
``rule_conditions``). A numbered rule is quoted whole when short ('4. G365 … not eligible … with a general
assessment … One of the add-on codes E430 or E431 is eligible …', J48): its second sentence is often the
answer's other half. Nothing is paraphrased: the rule is quoted with its page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from curbside.coverage.ohip.list_markers import spaced_markers
from curbside.coverage.ohip.query import STOP, stem, words_of
from curbside.coverage.ohip.rule_conditions import conditions_asked, conditions_met
from curbside.coverage.ohip.store import RuleRow

__all__ = [
    "ASKS",
    "CLERK_STOP",
    "MIN_PREFIX",
    "SAYS",
    "RuleQuote",
    "asked_rule_kinds",
    "meets",
    "rule_quotes",
    "rule_units",
    "subject_codes",
]

MAX_QUOTES = 2
MAX_ITEM_CHARS = 600  # a numbered rule longer than this is quoted by its sentences
CONDITION_WEIGHT = 2.0  # a condition the question states and the rule sets: worth two shared words
MIN_PREFIX = 5  # 'consult' meets 'consultation', 'inject' 'injection'; 'test' does not meet 'testicular'

# what the question asks -> what a sentence answering it says
ASKS = {
    # 'can she bill A775 again?' asks whether a repeat is within the limit
    "limit": re.compile(
        r"\b(how (many|often)|per (year|week|day|month|patient)|limit\w*|maximum|max|each year|a year|annual\w*|"
        r"drops?|before|again|another|repeat\w*)\b|"
        # 'had her baseline 2 yrs ago, can she get the 2nd one now?': the time since the last one, against the interval
        r"\b\d+\s*(yrs?|years?|mos?|months?|wks?|weeks?) ago\b",
        re.I,
    ),
    "time": re.compile(r"\b(how long|minimum|minutes?|time|in person|face[- ]to[- ]face)\b", re.I),
    # 'bill OHIP?', 'will OHIP cover the reversal?': whether it is insured at all
    "payable": re.compile(
        r"\b(can|may|could) (i|we|you|they|he|she)\b.*\b(bill|claim|add|charge|use|still)\b|\b(eligible|payable|"
        r"allowed|billable|insured|covered)\b|\bhow (do|should|would|can) (i|we|you) (bill|claim|code|charge)\b|"
        r"\b(bill|charge|claim)\w* (to )?ohip\b|\bohip (cover|pay)s?\b|"
        # 'can OHIP be billed?', 'OHIP or do I charge them?': whether it is OHIP's or the patient's to pay
        r"\bohip (be |get )?(billed|charged|claimed)\b|\bohip or (do|should|can) (i|we) charge\b|"
        # 'can both be billed?', '… only done 2 visits - ok?': whether it is payable as done
        r"\b(can|may|could) (both|they|these|it|this|that) be (billed|claimed|paid)\b|\b(ok|okay)\s*\?",
        re.I,
    ),
    # 'how is the 2nd one paid?', 'does the fee change?': the share of the fee paid in a circumstance
    "rate": re.compile(
        r"\bhow (is|are|would|will|does|do) (the |a |an |my |it\b|they\b|that\b|this\b)[\w\s-]{0,30}?\b(paid|pay)\b|"
        r"\b(does|will|would) the (fee|payment) (change|drop|go down)\b|\bpaid at (the )?full\b",
        re.I,
    ),
}
SAYS = {
    "limit": re.compile(
        r"\b(limited to|maximum of|per (patient|physician|provider)\b[^.]*\bperiod|per (week|day|month|year)|"
        r"\d+ (units?|services?|per\b(?! cent)|times)|(one|two|three|once|twice) (per|every)|first (two|three|\w+) units|"
        r"up to \w+ times|every \d+ (years?|months?))",
        re.I,
    ),
    "time": re.compile(r"\b(\d+ minutes|minimum|start and stop times|in person|direct contact)\b", re.I),
    "payable": re.compile(
        r"\b(not (eligible|payable|billable|insured)|only (eligible|payable)|is payable|are payable|"
        r"(is|are) eligible for payment|lesser assessment fee|uninsured|not an? insured|not insured|"
        r"insured and payable|not considered acceptable|does not constitute|(is|are) only insured|insured (benefits?|services?) only|"
        # the Schedule's other ways of saying a service is not OHIP's to pay
        r"(must|should|is to) be billed to the patient|should not be (separately )?(billed|claimed))\b",
        re.I,
    ),
    "rate": re.compile(r"\d+(\.\d+)?\s?%|\b\d+ per cent\b", re.I),
}
_GENERIC = frozenset(stem(w) for w in "patient patients physician doctor service services fee".split())
# a clerk's pronouns and helper words ('I take the old one out'): they say nothing about the service
CLERK_STOP = frozenset(
    "he she her his him they our us one out take took put did doing just all want wants wanted old gets getting "
    "through then that this another because nothing doesn't doesnt don't dont like off now today already ago "
    "again pts".split()
) | frozenset("cover covers covered".split())  # how a clerk asks whether it is insured, not what the service is
_CODE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]\d{3}(?![0-9])")
_THIS_SERVICE = re.compile(r"^(?:\d{1,2}\.\s?)?(?:this|the|these|that) (?:services?|fee codes?|codes?)\b", re.I)
_SUBJECT_RUN = re.compile(r"(?<![A-Za-z0-9])[A-Z]\d{3}(?:(?:\s*(?:,|/|\bor\b|\band\b|\()\s*)+[A-Z]\d{3}(?![0-9]))*")
_ACRONYM = re.compile(r"\b[A-Z]{3,6}\b")
_CAPITALISED = re.compile(r"[A-Z][a-z]*")
_QUANTITY = re.compile(
    r"\b\d+\s*(minutes?|units?|per|months?|weeks?|days?|hours?|times|years?|%)|\b(one|two|three|four) (per|every)\b|"
    r"\bonce (per|every)\b",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=\d{1,2}\.\s?[A-Z]|[A-Z])")
# a numbered rule starts '2. G365 …', '3.Chronic …', also where the text lost the full stop before it
# ('… per 12-month period 2. G550 is eligible …', J49)
_ITEM = re.compile(r"(?<=[\w.;:)\]%])\s+(?=\d{1,2}\.\s?[A-Z])")
_NUMBERED = re.compile(r"\s*\d{1,2}\.\s?[A-Z]")
_HOW_MUCH = re.compile(r"\bhow (often|many|long)\b", re.I)
_LEAD = re.compile(r"^(payment rules|notes?|commentary)\s*:\s*|^\d{1,2}\.\s*", re.I)


@dataclass(frozen=True, slots=True)
class RuleQuote:
    code: str
    page: str
    text: str


def meets(wanted: str, word: str) -> bool:
    """Whether a question's stem ``wanted`` meets a rule's stem ``word``: the same, or it begins the word
    ('consult': 'consultation'; but 'hospitalist' is not a 'hospital')."""
    return wanted == word or (len(wanted) >= MIN_PREFIX and word.startswith(wanted))


# 'what can I bill for …', 'which code do we claim': asks for a code, not whether the service is payable
_ASKS_CODE = re.compile(r"\b(what|which)( \w+){0,2} (can|may|could|do|should) (i|we) (bill|claim|charge)\b", re.I)


def asked_rule_kinds(question: str) -> list[str]:
    """The kinds of rule ``question`` asks: limit, time, payable. 'How often can I bill K133?' asks a limit,
    not whether K133 is payable."""
    asked = [
        kind
        for kind, pattern in ASKS.items()
        if pattern.search(_ASKS_CODE.sub(" ", question) if kind == "payable" else question)
    ]
    if "payable" in asked and len(asked) > 1 and _HOW_MUCH.search(question):
        asked.remove("payable")
    return asked


def _spelled(acronyms: set[str], text: str) -> int:
    """How many of ``acronyms`` ('MMSE') ``text`` spells out ('Mini-Mental State Examination')."""
    if not acronyms:
        return 0
    initials = "".join(m.group(0)[0] if m.group(0)[:1].isupper() else " " for m in re.finditer(r"[A-Za-z]+", text))
    return sum(1 for acronym in acronyms if acronym in initials)


def rule_units(text: str) -> list[str]:
    """The quotable units of a rule block: each numbered rule, whole when short; other text by its sentences."""
    units: list[str] = []
    for item in _ITEM.split(text):
        clean = _clean(item)
        if _NUMBERED.match(item) and len(clean) <= MAX_ITEM_CHARS:
            units.append(clean)
        else:
            units += [_clean(sentence) for sentence in _SENTENCE.split(item)]
    return units


def _clean(text: str) -> str:
    return _LEAD.sub("", _LEAD.sub("", text.strip().lstrip("["))).strip().rstrip("]").strip()


def subject_codes(text: str) -> set[str]:
    """The codes a rule sentence is about: the first codes it names, with those joined to them ('1.Patients are
    limited to one baseline test (X145 or X146) …'; '2.K188 is not eligible … in addition to K189': K188). A rule
    about 'this service' is about its block's own code, whatever codes it names ('This service is not eligible for
    payment if a claim is submitted for K071 or K072 for the same telephone call.', J102)."""
    if _THIS_SERVICE.match(text):
        return set()
    run = _SUBJECT_RUN.search(text)
    return set(_CODE.findall(run.group(0))) if run else set()


def rule_quotes(question: str | None, rules: Iterable[RuleRow], leading: str | None = None) -> list[RuleQuote]:
    """Up to two rules of ``rules`` that answer what ``question`` asks: from the codes' own rule blocks, and from
    blocks that only mention a code, the numbered rules that are about it (``subject_codes``: 'Patients are limited
    to one baseline test (X145 or X146) in their lifetime.' sits under X149's heading, D16). ``leading`` is the
    code the answer states first: a sentence about it is about the question even when it repeats none of the
    question's words, if it names no other code ('IV lidocaine infusions … max per yr?' found G387, whose rule says
    only '3. G387 is limited to a maximum of 6 per patient per 12 month period.', J56)."""
    if not question:
        return []
    asked = asked_rule_kinds(question)
    if not asked:
        return []
    plain = words_of(_CODE.sub(" ", question))
    wanted = {stem(w) for w in plain if w not in STOP and w not in CLERK_STOP and len(w) > 2} - _GENERIC
    acronyms = set(_ACRONYM.findall(question)) - {"OHIP"}
    conditions = conditions_asked(question)
    scored: list[tuple[float, int, RuleQuote]] = []
    seen: set[str] = set()
    for order, rule in enumerate(rules):
        heading_words = {stem(w) for w in words_of(rule.heading)}
        for text in rule_units(rule.text):
            if len(text) < 20 or not text[:1].isupper() or text in seen:
                continue  # a fragment the block split mid-sentence ('G310, G313) and …') is not quoted
            if rule.relation != "subject" and rule.code not in subject_codes(text):
                continue  # another code's rule that names this one
            seen.add(text)
            says = [kind for kind in asked if SAYS[kind].search(text)]
            if not says:
                continue
            # a sentence is about its block's heading too ('Maximum once per pregnancy.' under 'Antenatal
            # preventative health assessment')
            words = heading_words | {stem(w) for w in words_of(text)}
            shared = sum(1 for w in wanted if any(meets(w, x) for x in words)) + _spelled(acronyms, text)
            met = conditions_met(conditions, text)
            # … and names no other code: 'Z602, Z603 or Z611 is not eligible … in addition to Z610' is about a pairing
            about_leading = leading is not None and rule.code == leading and set(_CODE.findall(text)) == {leading}
            if (
                not shared
                and not met
                and not about_leading
                and (wanted or conditions or rule.code.lower() not in question.lower())
            ):
                # says the right kind of thing about something else; only 'can I bill G365?', which says nothing
                # but the code, is answered by any rule of it that says what is asked
                continue
            # a sentence that states the quantity asked about beats one that only talks about it
            quantity = 1.5 if _QUANTITY.search(text) else 0.0
            score = 3 * len(says) + shared + quantity + CONDITION_WEIGHT * met
            scored.append((score, -order, RuleQuote(rule.code, rule.page, spaced_markers(text))))
    scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
    return [quote for _, _, quote in scored[:MAX_QUOTES]]
