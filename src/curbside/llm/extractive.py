"""The extractive answer: the units of the top passages that best answer the question.

Used when no model is configured and as the fallback when the model fails. A unit
is a sentence of a passage line; a list item, table row or "Label: value" line keeps
its own line through loading and chunking, so it is a candidate like any sentence. Each unit is quoted verbatim and ends with its [n], so every claim can
be checked against the source.

A unit is scored by the question's terms it contains (weighted by rarity among the
candidates, with a length norm as in BM25), plus half weight for terms found only in
its context: the passage's section path and the nearest heading line above it
("Sertraline > Dosing" makes "Initial: 25-50 mg daily" an answer to "sertraline
starting dose?"). A unit without the kind of value the question asks for (mg for a dose,
money for a price, a time span for "how long"; any number for other quantities) counts
less, and one that only repeats the question's words counts a third; the passage's rank and calibrated relevance add a small prior. Units far
below the best one are left out rather than padding the answer with other topics. Where unit embeddings are
stored, a unit close in meaning to the question gains for the question words it misses (``MEANING_WEIGHT``).
Given a ``chooser`` (``unit_choice.py``, as ``ask`` gives one), the units are taken in the order of its fitted
chances, the score above being one of its signals.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from curbside.llm.lay_terms import clinical_words
from curbside.sentences import split_sentences
from curbside.types import Citation, Passage

__all__ = [
    "ANSWER_KINDS",
    "KIND_NAMES",
    "LABEL_LINE",
    "UNITS_VERSION",
    "Chooser",
    "ExtractiveAnswer",
    "Meaning",
    "Sentence",
    "answer_kind",
    "asked_kind",
    "asks_quantity",
    "asks_whether",
    "extractive_answer",
    "passage_units",
    "question_terms",
    "terms",
]

_WORD = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")
_STOP = frozenset(
    "a an and are as at be been being but by can could did do does doing for from had has have how i if in "
    "into is it its may me might my no not of on or our should so than that the their them then there these "
    "they this those to was we were what when where which while who whom why will with would you your "
    "about after again against all am any because before between both during each few further he her here "
    "hers him his itself just more most nor now only other out over own same she some such too under until "
    "up very yes also use used using patient patients treatment recommended".split()
)
# Drop from the question only: words that carry the asking, not the subject
_QUESTION_ONLY = frozenset("tell explain give list describe whats best".split())
# Words a clinician and a guideline use for the same thing, met on one term (after stemming)
_SYNONYMS = {
    "tab": "tablet", "liquid": "soluti",  # a clinician's "tabs", "liquid" are the monograph's forms
    "start": "start", "initial": "start", "initia": "start", "begin": "start", "beginn": "start",
    "max": "max", "maximu": "max", "maxima": "max", "highes": "max", "highest": "max",
    "dos": "dose", "dosage": "dose", "dosing": "dose",
    "older": "older", "elderl": "older", "geriat": "older", "senior": "older",
    "child": "child", "childr": "child", "pediat": "child", "paedia": "child",
    "usual": "usual", "typica": "usual", "mainte": "usual",
}
# What a question's phrasing asks for, in the words a source files it under
_QUESTION_PHRASES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"\bhow long\b"), ("durati",)),
    (re.compile(r"\bhow often\b"), ("every", "period", "interv", "freque")),
    (re.compile(r"\b(?:starts?|begins?) (?:to )?work|\btakes? to work\b|\bkicks? in\b"), ("onset", "effect")),
    (re.compile(r"\bpostpartum\b"), ("postna", "perina")),
    # the strengths a drug comes in are its forms' line ("30 mg, 60 mg capsule"), which never says "strength"
    (re.compile(r"\bstrengths?\b(?! ?(?:of|in) (?:the )?evidence)|\bcomes? in\b|\bformulations?\b"),
     ("tablet", "capsul", "soluti")),
    # "when should I switch", "when does ADP fund": the criteria a source lists under "When to consider:"
    (re.compile(r"^(?:when|in what case|under what)\b|\bwhen (?:should|does|do|is|are|can|to)\b"),
     ("consid", "criter", "indica", "eligib")),
    (re.compile(r"\bhow much\b(?!.*\b(?:pay|paid|cost|price|fee|cover|fund))"), ("dose", "amount")),
    (re.compile(r"\b(?:should not|shouldn't|must not|can't|cannot|not be given|avoid)\b"), ("contra", "avoid")),
    # abbreviations the guideline pages use for the disorders they treat (CANMAT/CEP usage)
    (re.compile(r"\bgeneral(?:i[sz]ed)? anxiety\b"), ("gad",)),
    (re.compile(r"\bmajor depressi"), ("mdd",)),
    (re.compile(r"\bsocial anxiety\b"), ("sad",)),
)
# Terms are cut to this many letters after suffix stripping, so word families meet:
# pregnant/pregnancy, diabetic/diabetes, hypertensive/hypertension
TERM_PREFIX = 6
# How ``passage_units`` cuts a passage into answer units; bump whenever a unit's text can change, so that the stored
# unit vectors are made again (``kb.ingest.Ingestor.fingerprint``). units-2: a short line between two short items is an
# item, not the heading of the next, and so is a line telling what to do ("Avoid in older adults and pregnancy").
# units-3: a manual's numbered section title ("805 ADP Processing Errors") is a heading
UNITS_VERSION = "units-3"
MIN_WORDS = 3
MAX_CHARS = 600
HEADING_MAX_WORDS = 6
LIST_ITEM_MAX_WORDS = 10  # a line longer than this is prose, not a list item
CONTEXT_WEIGHT = 0.5  # a question term found only in the unit's section path or heading line
KIND_MISSING_FACTOR = 0.5  # the question asks for a dose, a price or a time span the unit does not show
NUMBER_MISSING_FACTOR = 0.75  # the question asks for some other quantity and the unit has no number
FOLLOW_SHARE = 0.45  # units scoring under this share of the best one are left out
RELEVANCE_SHARE = 0.5  # … and units from a passage under this share of the best passage's relevance
MIN_NEW_TERMS = 2  # a unit with fewer words than this beyond the question's tells the reader nothing new
ECHO_FACTOR = 0.3
# A question giving the patient's value ("eGFR 28", "GAD7 of 12") is answered by the rule whose range holds it:
# "contraindicated when the eGFR is below 30", not "not recommended when the eGFR is between 30 and 45"
# A question asking whether something is so ("pregabalin - any lip/face swelling warning?") is answered by the
# labelled line that says it, though it says nothing else ("Warnings: Angioedema", "Genitourinary: priapism"): no
# echo factor for such a line holding a question term this few of the units hold
RARE_IN_PASSAGES = 2
_ASKS_WHETHER = re.compile(
    r"^\s*(?:is|are|does|do|did|can|could|will|would|has|have)\s+\S|\bany\b[^?]*\?|\blisted\b|\bknown (?:se|side)",
    re.I,
)
OUT_OF_RANGE_FACTOR = 0.3
IN_RANGE_FACTOR = 1.3
DEFINITION_FACTOR = 1.5  # a unit that opens with the term a "what is" question asks about
DUPLICATE_JACCARD = 0.6
RANK_PRIOR = 0.35  # a top passage's unit needs less term overlap than a fifth passage's
# The meaning score: a unit whose embedding is within MEANING_MARGIN of the closest candidate's cosine to the
# question gains up to MEANING_WEIGHT x (how far inside that margin it is), in proportion to the share of the
# question's terms its words miss: meaning fills the gap words leave ("brain zaps" / "electric shock
# sensations") and does not outvote a unit that already says the question's words
MEANING_WEIGHT = 24.0
MEANING_MARGIN = 0.05
# web-page furniture that survives HTML extraction: never an answer
_BOILERPLATE = re.compile(
    r"^(?:click|jump to|skip to|back to top|download|print this|share this|sign in|log in|subscribe)\b"
    r"|\bclick (?:here|to)\b"
    # a document's terms of use answer no clinical question, and a question naming the source ('per CEP') finds them:
    # "This Tool is a product of the CEP.", "Use of this Tool for commercial purposes …", "please notify the CEP … of
    # any use or reprinting of the Tool", "Please use the following citation when referencing the Tool: …"
    r"|^this (?:tool|document|resource|guide) is a product of\b|\bpermission to use, copy\b|\bfor commercial purposes\b"
    r"|\bany use or reprinting\b|\bfollowing citation when referencing\b",
    re.IGNORECASE,
)
# a line saying where the text comes from ("Source: Hypertension Canada, 2020 …"): an answer only to a question
# asking for the source
_ATTRIBUTION = re.compile(r"^(?:sources?|references?|adapted from|reproduced from|citations?)\b\s*:", re.I)
_ASKS_SOURCE = re.compile(
    r"\b(?:sources?|based on|references?|cit(?:e|es|ed|ation)|publish\w*|who (?:wrote|issued)|adapted|where from)\b",
    re.I,
)
_LIST_ITEM = re.compile(r"^[-•▪◦●]\s+(?=\S)")  # loaders write PDF list items as "- item"
_INNER_HYPHEN = re.compile(r"(?<=[a-z])-(?=[a-z])")
_LABEL = re.compile(r"^[A-Z][^:.;]{0,48}:\s+\S")
LABEL_LINE = _LABEL
# an item of a list that names what each value is for: "Max: 200 mg daily", "2. Wheelchairs - 5 years"
_ITEM_LABEL = re.compile(r"^([A-Z][^:.;]{0,48}?)\s*(:|\s[-–])\s+\S")
_NUMBERED = re.compile(r"^\d{1,2}[.)]\s+")
_BRACKETED = re.compile(r"\([^()]*\)")
_DIGIT = re.compile(r"\d")
_VALUES = re.compile(r"[;:✓✗✔✘]")
_MEASURED = re.compile(r"\$|\d\s*(?:%|mg|mcg|µg|g|ml|mL|kg|mmol|units?)\b")
_TIME_SPAN = (
    r"\d+(?:\.\d+)?\s*(?:(?:-|–|to)\s*\d+\s*)?(?:business |calendar |working )?(?:days?|weeks?|months?|years?|hours?|minutes?)\b"
    r"|\(\d+\) (?:business |calendar |working )?(?:days?|weeks?|months?|years?)"
    # spelled out: "six months or longer", "thirty (30) days"
    r"|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|twenty|thirty|sixty|ninety)"
    r"(?: \(\d+\))? (?:business |calendar |working )?(?:days?|weeks?|months?|years?|hours?)\b"
)
# how often a thing is done: "at least yearly", "every 3 months", "twice a year"; "daily" is left out, as every dose
# line says it ("20 mg daily")
_MANY_UNITS = r"\bhow many (?:minutes|hours|days|weeks|months|years)\b"
_FREQUENCY = (
    _TIME_SPAN + r"|\b(?:yearly|annually|monthly|weekly|quarterly|fortnightly|biannually)\b"
    r"|\bevery (?:other |few )?(?:day|week|month|year)s?\b|\b(?:once|twice|\w+ times) (?:a|per|each) (?:day|week|month|year)\b"
)
# an age as a source states one: "aged 50", "ages 50-74", "age ≥ 65", "50 years of age", "65 years and older",
# "65–69-year olds"; a bare "50" or "50 years" (a duration) is not one
_AGE_SHOWN = re.compile(
    r"\bage[sd]?\s*(?:of\s+)?(?:≥|>=|>|≤|<=|<)?\s*\d{1,3}\b"
    r"|\b\d{1,3}\s*(?:(?:-|–|to)\s*\d{1,3})?[\s-]*(?:years?|yrs?)(?:[\s-]*of[\s-]*age|[\s-]*old|\s+(?:and|or) (?:older|over))",
    re.I,
)
# What kind of value a question asks for (first match wins), and how a unit shows one
ANSWER_KINDS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (
        re.compile(r"\b(?:dose|doses|dosing|dosage|intakes?)\b", re.I),  # "safe daily intake": a dose by mouth
        re.compile(r"\d\s*(?:mg|mcg|µg|micrograms?|g|units?|ml|mmol|mg/kg)\b", re.I),
    ),
    (  # a sum of money: "what is the approved price for a scooter?" is not answered by "ADP pays 75%"
        re.compile(
            r"^(?!.*\b(?:percent(?:age)?|share|proportion|portion)\b).*\b(?:price|cost|fee|grant|rebate|charge)s?\b",
            re.I,
        ),
        re.compile(r"\$\s?\d|\b\d[\d,.]*\s*dollars\b", re.I),
    ),
    (
        re.compile(
            r"\b(?:price|cost|fee|grant|rebate|charge)\b|\bhow much\b.*\b(?:pay|paid|cover|fund)"
            r"|\bwhat (?:does|do|will|would)\b.+\bpay (?:for|toward|towards) \w",
            re.I,
        ),
        re.compile(r"\$\s?\d|\d\s?%|\bpercent", re.I),
    ),
    (re.compile(r"\bhow (?:often|frequently)\b", re.I), re.compile(_FREQUENCY, re.I)),
    (  # "how many weeks …?" asks a time span, answered by "6-8 weeks", not by any number
        re.compile(rf"\bhow (?:long|soon|fast|quickly)\b|{_MANY_UNITS}|\bduration\b|\bhalf-?li(?:fe|ves)\b", re.I),
        re.compile(_TIME_SPAN, re.I),
    ),
    (re.compile(r"\bwhat age\b|\bhow old\b|\b(?:minimum|starting) age\b|\bage (?:limit|cut-?off)", re.I), _AGE_SHOWN),
    (  # a count: "how many questions …?" is answered by "49 questions" or "twelve serine hydrolases"
        re.compile(r"\bhow many\b", re.I),
        re.compile(
            r"\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|"
            r"thousand|million|billion|dozen)\b",
            re.I,
        ),
    ),
    (  # a study's ratio: "HR 0.81 (95% CI 0.72-0.91)", "odds ratio of 1.4"; a bare "HR"/"OR" only in capitals
        re.compile(r"(?-i:\b(?:HRs?|ORs?|RRs?|IRR)\b)|\b(?:hazard|odds|risk|rate) ratios?\b|\brelative risks?\b|\bodds\b", re.I),
        re.compile(
            r"(?-i:\b(?:HR|OR|RR|IRR)\b)\s*[=:]?\s*\d|\bratios?\b[^.;]{0,30}\d\.\d"
            r"|\d\.\d+\s*[(\[]\s*(?:95\s*%\s*(?:CI|confidence interval)[:,]?\s*)?\d\.\d+\s*(?:-|–|to|,)\s*\d\.\d+",
            re.I,
        ),
    ),
    (  # a rate or share of a population: "2.8% of cattle", "12 per 100,000", "1 in 500", "36/120"
        re.compile(
            r"\b(?:\w*prevalence|incidence|percentage|proportion|(?:fatality|mortality|survival|response|remission|"
            r"relapse|recurrence|attack|infection|positivity) rates?)\b",
            re.I,
        ),
        re.compile(r"\d\s?%|\bpercent\b|\bper (?:100|1,?000|10,?000|100,?000)\b|\b1 in [\d,]+|\b\d+\s*(?:/|out of)\s*\d+", re.I),
    ),
    (  # a threshold of a measurement: "QTc > 500 ms", "eGFR below 30 mL/min", "at least 50%"
        re.compile(
            r"\b(?:thresholds?|cut-?offs?|cut points?)\b"  # not "target": "which molecule does it target?"
            r"|\bwhat (?:qtc?|e?gfr|creatinine|hba1c|a1c|bp|blood pressure|ldl|tsh|inr|heart rate)\b",
            re.I,
        ),
        re.compile(
            r"[<>≤≥]\s*=?\s*\d|\d+(?:\.\d+)?\s*(?:ms|msec|mmol/?l|mg/dl|ml/min\S*|mmhg|bpm|%)"
            r"|\b(?:above|below|over|under|exceed\w*|less than|greater than|more than|at least|at most)\s+\d"
            r"|\b\d+\s*(?:-|–|to)\s*\d+\s*[:=]|\bscores? (?:of )?\d",  # a score band: "15-21: severe"
            re.I,
        ),
    ),
    (  # a concentration: "MIC of 1.6 µg/mL", "IC50 = 3 µM"
        re.compile(r"(?-i:\bMICs?\b)|\b(?:IC|EC)50\b|\binhibitory concentrations?\b", re.I),
        re.compile(r"\d\s*(?:µg|μg|ug|mg|ng|pg|µM|μM|uM|nM|mM|pM|M)\b(?:\s*/\s*m?l\b)?", re.I),
    ),
    (  # a telephone number: "1-800-268-6021", "(416) 555-0100"
        # a fax is asked by its number ("fax # for …"), not by faxing ("how do I fax a referral?") nor by what goes
        # with one ("what has to go with a referral fax?"); "what number on a label …" asks no telephone
        re.compile(
            r"\b(?:tele)?phone\b|\bfax\s*(?:numbers?|#|no\b)|\bnumber\b.*\b(?:call|phone|fax|reach)\b"
            r"|\b(?:call|phone|fax|reach)\b.*\bnumber\b",
            re.I,
        ),
        re.compile(r"\(?\b\d{3}\)?[-.\s]\d{3}[-.\s]\d{4}\b|\b1-8\d\d-", re.I),
    ),
    (  # a code a form or a payer asks for: "LU code 430", "fee code K013", "ICD-10 F32"
        re.compile(r"\bcodes?\b", re.I),
        # … or a code table's row: "REG - Client who is not under a program listed above" (ADP benefit codes)
        re.compile(
            r"\bcodes?\b[^.;]{0,30}?\b[A-Z]{0,3}-?\d{2,}|\b(?:LU|LUC)\s*#?\s*\d+|(?-i:\b[A-Z]\d{3}[A-Z]?\b)"
            r"|(?-i:^[A-Z]{2,4}\s[-–]\s\S)",
            re.I,
        ),
    ),
)
_CLAUSE_NUMBER = re.compile(r"^\(?\d+(?:\.\d+)+\)?\s+")  # "1000.12 During …": a manual's clause, not a value
# "805 ADP Processing Errors": a manual's numbered section title, not a figure
_SECTION_NUMBER = re.compile(r"^\d{3,4}\s+(?=[A-Z])")


# ANSWER_KINDS' kinds in order (amount: money or a share)
KIND_NAMES = (
    "dose", "price", "amount", "frequency", "time span", "age", "count", "ratio", "rate", "threshold",
    "concentration", "phone number", "code",
)  # fmt: skip


# The question word says what is asked before a value word that is only its object: "when do I see them after each
# dose change?" asks a time, "can a client appeal the approved price?" yes or no; neither asks for a dose or a price.
_ASKS_TIME = re.compile(rf"\bhow (?:long|often|frequently|soon|fast|quickly)\b|{_MANY_UNITS}", re.I)
_ASKS_NO_VALUE = re.compile(  # at the start, or after a topic set off by a dash: "cross-tapering SSRIs - when …"
    r"(?:^|\s[-–—:]\s)\s*(?:when|why|who|where|"
    r"(?:is|are|was|were|does|do|did|can|could|should|will|would|may|has|have|must)\s)",
    re.I,
)
_ASKS_VALUE = re.compile(r"\bhow (?:much|many)\b|\b(?:what|which)\b", re.I)


# a value word that only qualifies or is the object of what is asked: "high-dose PBDE-47" (not "the high dose?"),
# "regardless of dose", "skips doses half the week", "won't go higher on the dose", "a dosing trick", "can follow-up
# be a phone call", "a funding model that mixes fixed price and grant"
_NOT_ASKED_VALUE = re.compile(
    r"\b(?:high|low|mid|medium|single|double|same)-dose\b|\bregardless of (?:the )?dose\b"
    r"|\b(?:skip|miss|forget|forgot)(?:s|ped|sed|ping|sing|ting)?\s+(?:\w+\s+)?doses?\b"
    r"|\b(?:higher|lower|up|down) on (?:the|her|his|their) dose\b"
    r"|\bdosing (?:message|trick|tip|advice|approach|strategy|principle)s?\b"
    r"|\b(?:by|over the|on the) (?:tele)?phone\b(?!\s*(?:line|number|#|no\b))|\b(?:tele)?phone calls?\b"
    r"|\b(?:tele)?phone (?:or|and) (?:e-?mail|video|virtual)\b"
    r"|\bfixed[- ]price\b"
    # a price's change or how a price is set: 'requesting a price increase - what's the ADP expectation?', 'how does
    # ADP benchmark its price?'
    r"|\bprice (?:increase|change|review|adjustment)s?\b"
    r"|\b(?:benchmark|compare|set|determine)s? (?:its |the |their )?prices?\b",
    re.I,
)


def _kind_index(question: str) -> int | None:
    """The index in ``ANSWER_KINDS`` of the kind of value the question asks for, or None."""
    question = _NOT_ASKED_VALUE.sub(" ", question)
    if _ASKS_TIME.search(question):
        timed = (KIND_NAMES.index("frequency"), KIND_NAMES.index("time span"))
        return next(i for i in timed if ANSWER_KINDS[i][0].search(question))
    if _ASKS_NO_VALUE.search(question) and not _ASKS_VALUE.search(question):
        return None
    asked = [i for i, (asks, _) in enumerate(ANSWER_KINDS) if asks.search(question)]
    phone = KIND_NAMES.index("phone number")
    if phone in asked:
        return phone  # "ADP fax # to send a grant application?" asks a number, not the grant's price
    dose, price = KIND_NAMES.index("dose"), KIND_NAMES.index("price")
    if asked[:1] == [dose] and price in asked:
        return price  # "cost of the usual dose", "price per dose": the dose is what is priced
    return asked[0] if asked else None


def answer_kind(question: str) -> re.Pattern[str] | None:
    """How a unit shows the kind of value the question asks for, or None when it asks for no particular kind."""
    index = _kind_index(question)
    return None if index is None else ANSWER_KINDS[index][1]


def asked_kind(question: str) -> str | None:
    """The name of the kind of value the question asks for ("dose", "price", "amount", "frequency", "time span", "age",
    "count"), or None."""
    index = _kind_index(question)
    return None if index is None else KIND_NAMES[index]


_QUANTITY_CUE = re.compile(
    r"\b(?:how (?:much|many|long|often|old)|dos(?:e|es|ing|age)|max(?:imum)?|minimum|starting|initial|rate|"
    r"percent(?:age)?|\w*prevalence|incidence|fee|cost|price|duration|threshold|target|level|age|years?|months?|"
    r"weeks?|days?|when|reliability|validity|sensitivity|specificity|accuracy|odds|hazard|ratio|correlation|"
    r"score)\b",
    re.IGNORECASE,
)


def _stem(word: str) -> str:
    # light suffix stripping, then a prefix: "doses"/"dose", "treated"/"treat", "pregnant"/"pregnancy"
    if word[0].isdigit():
        return word
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: len(word) - len(suffix)] + keep
            break
    stem = word[:TERM_PREFIX]
    return _SYNONYMS.get(stem, _SYNONYMS.get(word, stem))


def asked_for(question: str) -> frozenset[str]:
    """The terms a question's phrasing adds: what it asks for, in the words a source files it under
    ("when should I switch" -> consider, criteria, indication, eligibility)."""
    lowered = _INNER_HYPHEN.sub("", question.lower())
    return frozenset(t for phrase, added in _QUESTION_PHRASES if phrase.search(lowered) for t in added)


# "2nd line" is the guideline's "Second-line"
_ORDINALS = {"1st": "first", "2nd": "second", "3rd": "third", "4th": "fourth"}
_ORDINAL = re.compile(r"\b(?:1st|2nd|3rd|4th)\b")
# A patient's age said the clinician's way ("76M", "82F", "80 yo", "a 6-year-old") names the population a source
# writes as "older adults" or "children": age groups as in the CEP page (older adults 65+) and pediatric labels
_PATIENT_AGE = re.compile(r"\b(\d{1,3})\s*(?:[mf]|yo|y/o|yrs?|years?(?:[- ]old)?|-year-old)\b", re.I)
OLDER_ADULT_AGE = 65
ADULT_AGE = 18
CHILD_AGE = 13


def age_group_terms(question: str) -> list[str]:
    """The population terms a patient's stated age implies: "older" for 65 and over, "child" under 13, "adoles" for
    13 to 17."""
    out: list[str] = []
    for match in _PATIENT_AGE.finditer(question):
        age = int(match.group(1))
        if age >= OLDER_ADULT_AGE:
            out.append("older")
        elif age < CHILD_AGE:
            out.append("child")
        elif age < ADULT_AGE:
            out.append("adoles")
    return list(dict.fromkeys(out))


def terms(text: str, *, question: bool = False) -> list[str]:
    lowered = _INNER_HYPHEN.sub("", text.lower())  # "post-menopausal" meets "postmenopausal"
    lowered = _ORDINAL.sub(lambda m: _ORDINALS[m.group(0)], lowered)
    words = _WORD.findall(lowered)
    out = [
        _stem(w)
        for w in words
        if w not in _STOP and not (question and w in _QUESTION_ONLY) and (len(w) > 1 or w.isdigit())
    ]
    if question:
        for phrase, added in _QUESTION_PHRASES:
            if phrase.search(lowered):
                out.extend(added)
        out.extend(_stem(w) for w in clinical_words(lowered))  # "itchy skin" asks about pruritus
        out.extend(age_group_terms(text))
    return out


@dataclass(slots=True)
class Sentence:
    """One answer candidate: a line or sentence of a passage, with the terms of its context."""

    text: str
    rank: int  # index of its passage in the ranking
    position: int  # order inside the passage
    terms: frozenset[str]
    length: int
    context: frozenset[str] = frozenset()  # terms of the title, section path and the heading line above it
    number: bool = False
    score: float = 0.0
    # the list of "Label: value" or "Label - value" lines it is an item of (counted within its passage), and its label
    item: tuple[int, frozenset[str]] | None = None
    listed_under: int | None = None  # the line index of the heading whose list of short lines it is an item of
    meaning: float | None = None  # its embedding's cosine to the question's, where its vector is stored
    choice: float | None = None  # the fitted chance that it holds the answer (``unit_choice``), where a model is given


@dataclass(slots=True)
class ExtractiveAnswer:
    text: str
    citations: list[Citation]
    sentences: list[Sentence]
    candidates: list[Sentence] = field(default_factory=list)  # every unit scored, chosen or not


def passage_units(
    passage: Passage, rank: int, asked: frozenset[str] = frozenset(), short_items: bool = False
) -> list[Sentence]:
    """The passage's answer candidates in order; heading-like lines become context, not candidates. With
    ``asked`` (``asked_for``), a list whose lead-in names what the question asks for is a candidate too."""
    # the document title and section path say what every unit below them is about
    path_terms = frozenset(terms(passage.section_path)) | frozenset(terms(passage.title))
    heading: frozenset[str] = frozenset()
    out: list[Sentence] = []
    lines = [" ".join(line.split()) for line in passage.body.splitlines()]
    lines = [line for line in lines if line]
    block, separator = 0, ""  # a list of labelled lines ends at a heading, a line without a label or another separator
    under_heading = False  # the line before was a heading, or an item of the short lines listed under one
    heading_line = -1
    after_item = False  # the line before was a short item of a list, not a heading
    named_by = ""  # a "Label: name" line naming the line under it
    for index, text in enumerate(lines):
        item = _LIST_ITEM.match(text)
        if item:
            text = text[item.end() :]  # a bulleted line (PDF lists): a candidate however short, never a heading
        heads = index + 1 < len(lines)  # a title-like last line heads nothing: an article title, a short snippet
        title_like = not item and _is_heading(text) and not _BOILERPLATE.search(text)
        # short lines one after another are a list under the first of them ("Warnings" / "Angioedema" / "Caution in
        # renal impairment" / …): each is an item read under that heading, not the heading of the next. One that
        # titles prose is a subheading ("Treatment" / "First-line drug classes" / "For adults … blocker."), and a
        # numbered one titles its clause ("525.01 Power Tilt or Power Recline")
        listed = (
            title_like
            and under_heading
            and not (text.endswith(":") or _CLAUSE_NUMBER.match(text) or _SECTION_NUMBER.match(text))
            and not (heads and _closed(lines[index + 1]))
        )
        # a short line between two other short items is one of them, not the heading of the next: "GI bleeding
        # (consider gastroprotective agent if high risk)" / "Hyponatremia (especially in elderly)" / "Serotonin
        # syndrome/Neuroleptic malignant syndrome (NMS)" on a drug card's list of warnings
        sibling = title_like and after_item and heads and _short_item(lines[index + 1])
        under_heading = title_like
        after_item = not title_like and _short_item(text)
        if title_like and heads and not listed and not sibling:
            heading, heading_line = frozenset(terms(text)), index
            block += 1
            continue
        if named_by:  # the line a "Label: name" line names is read with it: "… (SPIN): Cut off points for …"
            text, named_by = f"{named_by}: {text}", ""
        elif not item and heads and _names_next(text, lines[index + 1]):
            named_by = text
            continue
        labelled = _ITEM_LABEL.match(_NUMBERED.sub("", text))
        if labelled is None or labelled.group(2) != separator:
            block += 1
            separator = labelled.group(2) if labelled else ""
        in_list = (block, frozenset(terms(labelled.group(1)))) if labelled else None
        label = _LABEL.match(text)
        context = path_terms | heading
        previous: frozenset[str] = frozenset()
        for i, raw in enumerate(split_sentences(text)):
            piece = " ".join(raw.split())
            words = terms(piece)
            if i and label:  # later sentences of a "Label: …" line are still about the label
                context |= frozenset(terms(text[: text.index(":")]))
            # a sentence continues the one before it in its paragraph: "Human milk is not sterile. Instead,
            # it provides … Staphylococcus, Streptococcus and Pseudomonas" answers through its lead-in
            before, previous = previous, frozenset(words)
            if not _candidate(piece):
                if not (short_items and listed and heading_line >= 0 and piece):
                    continue
                # asked whether something is so, a short item of a list is read with its heading: "Warnings:
                # Angioedema" answers "any lip/face swelling warning?" ("Angioedema" alone says nothing of what it is)
                piece = f"{lines[heading_line]}: {piece}"
                words = terms(piece)
            number = bool(_DIGIT.search(_CLAUSE_NUMBER.sub("", piece)))
            unit = Sentence(piece, rank, len(out), frozenset(words), len(words), context | before, number)
            unit.item = in_list
            unit.listed_under = heading_line if listed else None
            out.append(unit)
        if not item and heads and _titles_values(text, lines[index + 1]):
            heading = frozenset(terms(text))  # and it stays a unit: its figures may be what is asked
    for text in _lists(lines, asked):
        if _candidate(text):
            words = terms(text)
            number = bool(_DIGIT.search(text))
            out.append(Sentence(text, rank, len(out), frozenset(words), len(words), path_terms, number))
    return out


def _lists(lines: list[str], asked: frozenset[str]) -> list[str]:
    """Each list whose lead-in line names what the question asks for, as one unit: "When to consider: First
    antidepressant tried; Bothersome side effects; <25% improvement on symptom scale; …" for "when should I
    switch?". Its items are units of their own too, but the lead-in that says what they are is in no item. A
    question naming one item ("which form for a breast prosthesis grant?") is answered by that item, so a lead-in
    the question's phrasing does not ask for ("The Application Forms are as follows:") makes no list unit."""
    out: list[str] = []
    for index, line in enumerate(lines):
        if not (line.endswith(":") and len(line.split()) <= HEADING_MAX_WORDS and asked & set(terms(line))):
            continue
        items: list[str] = []
        for item in lines[index + 1 :]:
            item = _LIST_ITEM.sub("", item)
            words = item.split()
            # an item is a short phrase; a one-word line ("Advantages") titles the next block, a lead-in another list
            if len(words) < 2 or len(words) > LIST_ITEM_MAX_WORDS or item.endswith(":") or item.endswith("."):
                break
            items.append(item)
        if len(items) >= 2:
            out.append(f"{line} {'; '.join(items)}")
    return out


# kept under its old name for callers that read sentences
passage_sentences = passage_units


def _is_heading(text: str) -> bool:
    """A short title-like line ("Dosing", "Treatment duration", "Onset of action") or a lead-in ending
    in a colon: it says what the lines under it are about, and is no answer itself."""
    if text.endswith(":"):
        return True
    text = _SECTION_NUMBER.sub("", _CLAUSE_NUMBER.sub("", text))  # "525.03 Power Elevating Leg Rests" titles a clause
    if _LABEL.match(text) or _DIGIT.search(text) or _INSTRUCTION.match(text):
        return False
    return len(text.split()) <= HEADING_MAX_WORDS and not _closed(text, ".!?;")


def _titles_values(text: str, following: str) -> bool:
    """Whether a line titles the "Label: value" lines below it though a figure in brackets keeps it from looking
    like a heading: "Cost for usual dose ($/100 days)" over "SR: $66-207" and "XL: $41-72"."""
    bare = " ".join(_BRACKETED.sub(" ", text).split())
    return bare != text and _is_heading(bare) and bool(_LABEL.match(following))


def _names_next(text: str, following: str) -> bool:
    """Whether a "Label: name" line names what the unlabelled line under it is about: "Social anxiety disorder
    (SAD): Social Phobia Inventory (SPIN)" over "Cut off points for minimal (score ≤20), mild (score 21-30), …",
    whose figures answer "SPIN of 26 - what severity?" though the line itself names no scale."""
    value = text.partition(":")[2].strip()
    return (
        bool(_LABEL.match(text))
        and value[:1].isupper()  # a name ('Patient Health Questionnaire 9 (PHQ-9)'), not a value ('Max: 200 mg')
        and not _MEASURED.search(value)
        and not _VALUES.search(value)  # 'Coverage: ODB ✓: LU 315; NIHB ✓' lists values
        and len(following.split()) > HEADING_MAX_WORDS  # what it names is a line of content, not a title
        and not _closed(text, ".!?;")
        and len(text.split()) <= 2 * HEADING_MAX_WORDS
        and not _LABEL.match(following)
        and not _is_heading(following)
    )


# a line telling what to do is an item, however short: "Avoid in older adults and pregnancy", "Use with caution in
# narrow-angle glaucoma" open a drug card's warnings, and no heading is worded as an instruction
_INSTRUCTION = re.compile(r"^(?:avoid|use (?:with|in)|do not|don't|consider|monitor|caution)\b", re.I)


def _short_item(text: str) -> bool:
    """Whether a line reads as an item of a list: a few words, no label, not a sentence, not a lead-in."""
    text = _LIST_ITEM.sub("", text)
    return (
        len(text.split()) <= LIST_ITEM_MAX_WORDS
        and not text.endswith(":")
        and not _LABEL.match(text)
        and not _closed(text, ".!?;")
    )


def _closed(text: str, ends: str = ".!?") -> bool:
    """Whether a line ends as a sentence does (before closing quotes and brackets): prose, not an item or a title."""
    return text.rstrip("\"'”’)]").endswith(tuple(ends))


def _candidate(text: str) -> bool:
    n_words = len(text.split())
    if len(text) > MAX_CHARS or _BOILERPLATE.search(text):
        return False
    # "Depression: 2-4 weeks" and "Max: 200 mg daily" are short and whole
    return n_words >= MIN_WORDS or (n_words >= 2 and bool(_DIGIT.search(text)) and bool(_LABEL.match(text)))


def _score(
    candidates: list[Sentence],
    query_terms: set[str],
    relevance: Sequence[float | None],
    quantity: bool,
    kind: re.Pattern[str] | None,
    defines: list[str] | None = None,
    meaning: Meaning | None = None,
    weighed: int | None = None,
    value: float | None = None,
    whether: bool = False,
) -> None:
    # a reserve passage's units (rank >= ``weighed``) are scored among all candidates, the others among the units
    # of the first passages only: a reserve passage does not change how the first passages' units score
    def statistics(group: list[Sentence]) -> tuple[int, Counter[str], float]:
        df = Counter(t for s in group for t in (s.terms | s.context) if t in query_terms)
        return len(group), df, sum(s.length for s in group) / max(len(group), 1)

    whole = statistics(candidates)
    first = whole if weighed is None else statistics([s for s in candidates if s.rank < weighed])
    for s in candidates:
        n, df, average = first if weighed is None or s.rank < weighed else whole
        own = s.terms & query_terms
        overlap = sum(math.log(1 + n / df[t]) for t in own)
        overlap += CONTEXT_WEIGHT * sum(math.log(1 + n / df[t]) for t in (s.context & query_terms) - own)
        if not overlap:
            s.score = 0.0
            continue
        norm = 0.5 + 0.5 * s.length / max(average, 1.0)
        score = overlap / norm + RANK_PRIOR / (1 + s.rank)
        if kind is not None and not kind.search(s.text):
            score *= KIND_MISSING_FACTOR  # a dose question, and no dose in this unit
        elif kind is None and quantity and not s.number:
            score *= NUMBER_MISSING_FACTOR
        if value is not None:
            score *= _range_factor(s.text, value)
        if defines and _opens_with(s.text, defines):
            score *= DEFINITION_FACTOR  # "Phenotypic complexity quantifies …" answers "what is phenotypic complexity?"
        if (
            len(s.terms - query_terms) < MIN_NEW_TERMS
            and not _gives_value(s, query_terms, quantity, kind)
            and not (whether and _LABEL.match(s.text) and any(df[t] <= RARE_IN_PASSAGES for t in own))
        ):
            score *= ECHO_FACTOR  # "Urogenital: sexual dysfunction" only repeats the question
        p = relevance[s.rank]
        s.score = score * (0.6 + 0.4 * p) if p is not None else score
    if meaning is not None and candidates:
        _add_meaning(candidates, query_terms, meaning([s.text for s in candidates]), weighed)


# the cosine of each unit's embedding to the question's, None for a unit without a stored vector
Meaning = Callable[[list[str]], Sequence[float | None]]


def _add_meaning(
    candidates: list[Sentence], query_terms: set[str], similarities: Sequence[float | None], weighed: int | None = None
) -> None:
    known = [c for s, c in zip(candidates, similarities, strict=True) if c is not None and (weighed is None or s.rank < weighed)]
    if not known:
        return
    floor = max(known) - MEANING_MARGIN  # cosines are comparable among one question's units, not across questions
    for s, similarity in zip(candidates, similarities, strict=True):
        s.meaning = similarity
        if similarity is None or similarity <= floor:
            continue
        missed = 1 - len((s.terms | s.context) & query_terms) / max(len(query_terms), 1)
        s.score += MEANING_WEIGHT * missed * (similarity - floor)


_NUMBER = r"(\d+(?:\.\d+)?)"
# a number the question gives bare, as a reading: not a dose, a duration, an age, a count or an ordinal
_BARE_NUMBER = re.compile(
    rf"(?<![\w.,/-]){_NUMBER}(?![\w.%/-])(?!,\d)(?!\s*(?:mg|mcg|µg|ug|g|kg|ml|l|mmhg|mmol|x|times|yo|y/o|years?|yrs?|"
    r"months?|mos?|weeks?|wks?|days?|hours?|hrs?|minutes?|mins?|tabs?|caps?|units?|pts?|patients?|people|doses?)\b)",
    re.I,
)
_RANGES = (
    re.compile(rf"\bbetween {_NUMBER} and {_NUMBER}"),
    re.compile(rf"(?<![\w.]){_NUMBER}\s?(?:-|–|to)\s?{_NUMBER}(?![\w.])(?!\s*(?:mg|mcg|%))"),
)
_BELOW = re.compile(rf"(?:\bbelow|\bless than|\bunder|<|≤)\s?{_NUMBER}", re.I)
_ABOVE = re.compile(rf"(?:\babove|\bgreater than|\bmore than|\bover|\bat least|>|≥)\s?{_NUMBER}", re.I)


def patient_value(question: str) -> float | None:
    """The one bare number a question gives as the patient's reading ("eGFR 28", "GAD7 of 12"), or None."""
    found = [float(m.group(1)) for m in _BARE_NUMBER.finditer(question)]
    return found[0] if len(found) == 1 else None


def _range_factor(text: str, value: float) -> float:
    """How a unit's ranges meet the patient's value: lifted when one holds it, lowered when it states ranges and
    none does (a rule for other readings), unchanged when it states none."""
    ranges = [(float(m.group(1)), float(m.group(2))) for pattern in _RANGES for m in pattern.finditer(text)]
    ranges += [(-math.inf, float(m.group(1))) for m in _BELOW.finditer(text)]
    ranges += [(float(m.group(1)), math.inf) for m in _ABOVE.finditer(text)]
    ranges = [(low, high) for low, high in ranges if low < high]
    if not ranges:
        return 1.0
    return IN_RANGE_FACTOR if any(low <= value <= high for low, high in ranges) else OUT_OF_RANGE_FACTOR


def _gives_value(unit: Sentence, query_terms: set[str], quantity: bool, kind: re.Pattern[str] | None) -> bool:
    """Whether a unit adds the value a quantity question asks for, a number the question does not hold: "Wheelchairs
    - 5 years" answers "how many years before ADP funds another manual wheelchair?" though "5" is its only news."""
    if not (quantity or kind is not None) or (kind is not None and not kind.search(unit.text)):
        return False
    return any(t[0].isdigit() for t in unit.terms - query_terms)


_WHAT_IS = re.compile(r"^\s*what (?:is|are) (?:an? |the )?(.+?)\s*\??\s*$", re.I)


def defined_terms(question: str) -> list[str]:
    """The terms of what a "what is X?" question asks to define (empty for other questions)."""
    match = _WHAT_IS.match(question)
    return terms(match.group(1)) if match and len(match.group(1).split()) <= 5 else []


def _opens_with(text: str, subject: list[str]) -> bool:
    return terms(text)[: len(subject)] == subject


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / max(len(a | b), 1)


def _repeats(unit: Sentence, chosen: Sentence, query_terms: set[str]) -> bool:
    """Whether ``unit`` says what ``chosen`` already says. Judged on the words each adds to the question's:
    every candidate shares the question's words, so two units naming "fatty acid binding protein 2" are
    repeats only if what they say about it is the same ("intestinal epithelial cells" is news beside
    "human … gene")."""
    if unit.text == chosen.text:
        return True
    added, said = unit.terms - query_terms, chosen.terms - query_terms
    if not added and not said:  # neither adds a word to the question's: compare them whole
        return _jaccard(unit.terms, chosen.terms) > DUPLICATE_JACCARD
    return _jaccard(added, said) > DUPLICATE_JACCARD


# a patient's age in the question ("a 15 year old", "aged 72") describes the patient, not a quantity to match:
# "first-line medication for depression in a 15 year old?" had been answered with "Max: 15 mg daily"
_AGE = re.compile(r"\b(\d{1,3})(?:\s*|-)(?:years?|yrs?|y/?o|months?|mos?)(?:\s*|-)old\b|\baged?\s+(\d{1,3})\b", re.I)


def _age_numbers(question: str) -> set[str]:
    return {m.group(1) or m.group(2) for m in _AGE.finditer(question)}


# a start that already happened is the story, not what is asked: "new headaches after starting cipralex - how do I
# manage?" asks no starting dose, and its "start" is not the card's "Initial: 5-10 mg daily" ("what dose when
# starting zoloft?" still asks one)
_STARTED = re.compile(
    r"\b(?:since|after)\s+(?:(?:she|he|they|i|we|pt|the pt)\s+)?(?:start(?:ing|ed)|began|beginning)\b"
    r"|(?<!\bbe )\bstarted\b",  # 'started fetzima at 20 - usual maintenance range?' ('should it be started' asks)
    re.I,
)


def question_terms(question: str) -> set[str]:
    """The terms a unit is matched on: the question's, less the patient's age in years and a start it tells of."""
    return set(terms(_STARTED.sub(" ", question), question=True)) - _age_numbers(question)


def asks_quantity(question: str) -> bool:
    """Whether the question's words cue a quantity ("how much", "dose", "starting", "weeks") beside a start it only
    tells of."""
    return bool(_QUANTITY_CUE.search(_STARTED.sub(" ", question)))


def asks_whether(question: str) -> bool:
    """Whether the question asks if something is so ("any renal caution?", "is insomnia listed?")."""
    return bool(_ASKS_WHETHER.search(question))


# the chance each unit holds the answer (``unit_choice.UnitChoice``), given the question, the scored units and their
# passages' relevance
Chooser = Callable[[str, Sequence["Sentence"], Sequence[float | None]], Sequence[float]]
CHOICE_SHARE = 0.5  # with a chooser: units under this share of the best unit's chance are left out


def extractive_answer(
    question: str,
    passages: Sequence[Passage],
    max_sentences: int,
    meaning: Meaning | None = None,
    reserve: Sequence[Passage] = (),
    chooser: Chooser | None = None,
) -> ExtractiveAnswer:
    """The answer units of ``passages``; ``meaning`` (optional) gives each candidate's embedding cosine to the
    question, which lifts units that say what the question asks in other words. A unit of a ``reserve`` passage
    (one the search ranked high by fusion but below the similarity threshold) may join the answer, never lead it:
    one scoring above the best unit of ``passages`` is left out, and their scores are unchanged. With a ``chooser``
    the units are taken in the order of its chances (the hand score being one of its features), not of the score."""
    query_terms = question_terms(question)
    asked = asked_for(question)
    weighed = len(passages) if reserve else None
    passages = [*passages, *reserve]
    whether = asks_whether(question)
    every = [s for rank, p in enumerate(passages) for s in passage_units(p, rank, asked, whether)]
    if not _ASKS_SOURCE.search(question):
        every = [s for s in every if not _ATTRIBUTION.match(s.text)]
    quantity = asks_quantity(question)
    relevance = [p.relevance for p in passages]
    _score(
        every,
        query_terms,
        relevance,
        quantity,
        answer_kind(question),
        defined_terms(question),
        meaning,
        weighed,
        patient_value(question),
        whether,
    )
    candidates = [s for s in every if weighed is None or s.rank < weighed]
    chosen: list[Sentence] = []
    best = max((s.score for s in candidates), default=0.0)
    joining = [s for s in every if weighed is not None and s.rank >= weighed and s.score <= best]
    pool = [*candidates, *joining]
    if chooser is not None and pool:
        for s, chance in zip(pool, chooser(question, pool, relevance), strict=True):
            s.choice = chance
    top_relevance = max((r for r in relevance[:weighed] if r is not None), default=None)
    for s in _in_order(pool, best, weighed):
        if len(chosen) >= max_sentences:
            break
        if any(_repeats(s, c, query_terms) or _other_item(s, c, query_terms) or _sibling(s, c, query_terms) for c in chosen):
            continue
        if chosen and _far_less_relevant(relevance[s.rank], top_relevance):
            continue  # 'pristiq max dose?': aripiprazole's "Max: 15 mg daily" (relevance 0.35 beside 0.95)
        chosen.append(s)
    if not chosen and candidates:
        # the passages passed the relevance threshold but share no word with the question
        # (synonyms, another language): quote the best passage's opening instead of nothing
        chosen = [c for c in candidates if c.rank == candidates[0].rank][:2]
    chosen.sort(key=lambda s: (s.rank, s.position))
    numbers: dict[int, int] = {}
    lines: list[str] = []
    for s in chosen:
        n = numbers.setdefault(s.rank, len(numbers) + 1)
        lines.append(f"{s.text} [{n}]")
    citations = [
        Citation.from_passage(n, passages[rank], excerpt=_excerpt(rank, chosen)) for rank, n in numbers.items()
    ]
    return ExtractiveAnswer(" ".join(lines), citations, chosen, candidates)


def _in_order(pool: list[Sentence], best: float, weighed: int | None) -> list[Sentence]:
    """The units that may join the answer, best first: by the chooser's chance where one was given, else by score;
    none far below the best, none without a question word or a meaning close to it, and a reserve unit never first."""
    if any(s.choice is not None for s in pool):
        leading = [s for s in pool if s.score > 0 and (weighed is None or s.rank < weighed)]
        top = max((s.choice or 0.0 for s in leading), default=0.0)
        ranked = sorted(pool, key=lambda s: (-(s.choice or 0.0), s.rank, s.position))
        kept = [s for s in ranked if s.score > 0 and (s.choice or 0.0) >= CHOICE_SHARE * top]
        while kept and weighed is not None and kept[0].rank >= weighed:
            kept.pop(0)  # a reserve passage's unit joins an answer, never leads it
        return kept
    ranked = sorted(pool, key=lambda s: (-s.score, s.rank, s.position))
    return [s for s in ranked if s.score > 0 and s.score >= FOLLOW_SHARE * best]


def _other_item(unit: Sentence, chosen: Sentence, query_terms: set[str]) -> bool:
    """Whether ``unit`` is another item of the list ``chosen`` was taken from, giving another subject's value: it
    lacks a question word the chosen item holds and holds none the chosen item lacks. "Ambulation Aids - 5 years"
    beside "Wheelchairs - 5 years" for a wheelchair question; "Max: 200 mg daily" beside "Initial: 25-50 mg daily"
    for a starting dose. Items naming what the question asks just as well ("Initial" and "Max" for "starting and
    maximum dose?") stay."""
    if unit.item is None or chosen.item is None or unit.rank != chosen.rank:
        return False
    if unit.item[0] != chosen.item[0] or unit.item[1] == chosen.item[1]:
        return False  # another list, or the same label: "Light Therapy: …" lines are all about light therapy
    asked = chosen.terms & query_terms
    return bool(asked - unit.terms) and not (unit.terms & query_terms) - chosen.terms


def _sibling(unit: Sentence, chosen: Sentence, query_terms: set[str]) -> bool:
    """Whether ``unit`` is another short line of the list ``chosen`` is an item of, naming no question word it lacks:
    "Insulin Pumps Supplies" beside "Enteral Feeding Equipment and Supplies" for a question about supplies tells
    the reader nothing more about the question."""
    if unit.listed_under is None or unit.listed_under != chosen.listed_under or unit.rank != chosen.rank:
        return False
    return not (unit.terms & query_terms) - chosen.terms


def _far_less_relevant(relevance: float | None, top: float | None) -> bool:
    """Whether a passage is far less relevant than the best one found: its units do not join the answer."""
    return relevance is not None and top is not None and relevance < RELEVANCE_SHARE * top


def _excerpt(rank: int, chosen: list[Sentence], limit: int = 400) -> str:
    text = " ".join(s.text for s in chosen if s.rank == rank)
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"
