"""Understanding an ``adp.get`` request: what is asked, the funding context, and which device is meant.

``plan`` reads the request without the tables: the topics asked (batteries,
repairs, funding …), social assistance, income and household, and problems a
clerk would query at once (a negative income, two programs named). ``resolve``
matches the request's words against the loaded edition's terms (``adp_terms``):
the longest phrase wins; a term shared by several categories is settled by a
word of the question ('insulin pump for a child') or left for a follow-up.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from curbside.coverage.adp.asked_clause import GENERIC_TOPICS, asked_clause
from curbside.coverage.adp.meaning import QuestionMeaning
from curbside.coverage.adp.need_length import asks_duty, asks_requirement, short_term_need
from curbside.coverage.adp.tool import AdpCheck, AdpGetArgs, UseCase

__all__ = ["AdpRequest", "Decision", "Resolution", "TermIndex", "by_meaning", "norm", "plan", "resolve"]

# the nouns a clinician names a device by, in everyday words ('her chair', 'his hearing aids')
_DEVICE_NOUN = (
    r"(?:walkers?|wheelchairs?|chairs?|scooters?|devices?|aids?|frames?|seat\w*|cushions?|canes?|crutch\w*|rollators?|"
    r"equipment|pumps?|prosthe\w+|brace|orthos[ie]s|orthotics?|glasses|magnifiers?|batter(?:y|ies)|machine|"
    r"concentrator|cpap|bipap)\b"
)
_SURGICAL_REPAIRS = tuple("palate lip cleft hernia tendon fracture surgical valve aneurysm fistula".split())
_TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("batteries", re.compile(r"\bbatter(?:y|ies)\b", re.I)),
    # 'fix' is a repair when what is fixed is a device ('fix his wheelchair'), not 'fixed a mistake on the form';
    # a surgeon's repair ('after cleft palate repair', 'hernia repair') is none either
    ("repairs", re.compile(
        r"\b(?:"
        + "".join(f"(?<!{part} )" for part in _SURGICAL_REPAIRS)
        + r"repair\w*|broken|breaks?|fix(?:es|ed|ing)?(?: up)? (?:it|(?:the|his|her|their|my|a|an) (?:\w+ )?"
        r"(?:walker|wheelchair|chair|scooter|device|aid|frame|seat\w*|cushion|motor|wheels?|tires?|brakes?)))\b",
        re.I,
    )),
    # a device's upkeep, not an 'in-service' (a teaching session a manufacturer gives staff)
    ("maintenance", re.compile(r"\b(?:maintenance|maintain\w*|(?<!in-)(?<!in )servic(?:e|ed|ing))\b", re.I)),
    # a device lost, not 'lost his ear to cancer' or 'lost his licence': what is lost is a device or 'it', or
    # the loss is said of it ('the walker was lost', 'got lost')
    ("loss_theft", re.compile(
        rf"\b(?:stolen|theft)\b|\b(?:lost|loses?|losing|misplaced?)\s+(?:it|them|(?:(?:the|his|her|their|my|a|an)\s+)?"
        rf"(?:\w+\s+)?{_DEVICE_NOUN})|\b(?:was|were|got|been|is|are)\s+(?:\w+\s+)?(?:lost|misplaced)\b",
        re.I,
    )),
    # and damage by misuse in everyday words ('wrecked it goofing around', 'smashed', 'horsing around')
    ("misuse", re.compile(
        r"\b(?:misuse\w*|neglig\w*|damaged|abus(?:e|ed|ing)|wreck(?:ed|s|ing)?|smash(?:ed|es|ing)?|trash(?:ed|ing)|"
        r"goof(?:ed|ing)? (?:around|off)|horsing around|fooling around|playing around)\b",
        re.I,
    )),
    ("warranty_period", re.compile(r"\bwarrant\w*\b", re.I)),
    ("funding_period", re.compile(r"\b(?:how often|funding period|every \d+ years|how many years|replace\w*)\b", re.I)),
    ("exclusions", re.compile(r"\b(?:exclu\w*|not covered|isn'?t covered|not funded|doesn'?t cover)\b", re.I)),
    ("eligibility", re.compile(r"\b(?:eligib\w*|qualif\w*|criteria|requirements?|who can|can (?:my|the|a) patient get)\b", re.I)),
    ("funding", re.compile(r"\b(?:pay|pays|paid|cost\w*|fund\w*|cover\w*|percent\w*|share|portion|price|how much|contribut\w*|co-?pay\w*)\b|%", re.I)),
    ("cep", re.compile(r"\b(?:cep|central equipment pool|chronic equipment|low[- ]income|income)\b", re.I)),
)  # fmt: skip
# 'it' is the paperwork, not a device, when the question names paperwork and no device: "the invoice got put
# on hold for an error, how long do we have to fix it?" asks no repair
_PAPERWORK = re.compile(r"\b(?:invoices?|forms?|claims?|applications?|paperwork|submissions?|records?)\b", re.I)
_NAMES_DEVICE = re.compile(rf"\b{_DEVICE_NOUN}", re.I)
_BY_PRONOUN = re.compile(r"\b(?:it|them)$|^(?:was|were|got|been|is|are)\b", re.I)  # 'fix it', 'was lost'
_PROGRAMS_EXACT = re.compile(r"\b(OW|ODSP|ACSD)\b")  # upper case only: 'ow' is not a word to read as a program
_PROGRAMS_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("OW", re.compile(r"\bontario works\b", re.I)),
    ("ODSP", re.compile(r"\b(?:odsp|ontario disability support)\b", re.I)),
    ("ACSD", re.compile(r"\b(?:acsd|assistance for children with severe disabilities)\b", re.I)),
)
_ANY_ASSISTANCE = re.compile(r"\b(?:social assistance|welfare)\b", re.I)
_NO_ASSISTANCE = re.compile(r"\b(?:not on|no|without|doesn'?t (?:get|receive)) (?:social assistance|welfare|ow|odsp|acsd)\b", re.I)  # fmt: skip
_INCOME = re.compile(
    r"(?:income|earns?|makes?|salary)\D{0,20}?(?P<neg>-|minus |negative )?\$?\s?(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<k>k\b|thousand)?"
    r"|(?P<neg2>-)?\$\s?(?P<num2>\d[\d,]*(?:\.\d+)?)\s*(?P<k2>k\b|thousand)?(?=[^?]*\bincome\b)",
    re.I,
)
_FAMILY = re.compile(r"\b(?:family|families|household of [2-9]|couple|married|spouse|children|kids)\b", re.I)
_SINGLE = re.compile(r"\b(?:single|lives alone|alone)\b", re.I)
# a device wanted for getting about instead of a car: said outright, or by a patient who no longer drives
_COMMUNITY_ONLY = re.compile(
    r"\b(?:only (?:outdoors|outside|in the community)|car substitute|instead of (?:a |the )?(?:car|bus|taxi|driving)|"
    r"(?:just|only) for (?:outings|shopping|trips|travel\w*|getting around town)|"
    r"(?:no longer|can'?t|cannot|unable to|not allowed to) drive|lost (?:his|her|their|my) (?:driver'?s )?licen[cs]e)\b",
    re.I,
)
_WORD = re.compile(r"[^a-z0-9]+")
_MAX_PHRASE = 5


def norm(text: str) -> str:
    """'Power-Wheelchair batteries?' -> 'power wheelchair batteries'."""
    return " ".join(_WORD.sub(" ", text.lower().replace("'", "")).split())


@dataclass(frozen=True, slots=True)
class AdpRequest:
    """An ``adp.get`` request as understood before looking anything up."""

    text: str  # what the search path searches
    question: str | None
    device_type: str | None  # structured device.type
    category_key: str | None  # structured device.category
    checks: frozenset[AdpCheck]
    topics: frozenset[str]
    social_assistance: Literal["OW", "ODSP", "ACSD", "none"] | None
    income: float | None
    household: Literal["single", "family"] | None
    use_case: UseCase | None
    community_only: bool  # the question says the device is for outings / instead of a car
    problem: str | None = None  # what makes the request unanswerable as asked
    follow_up: str | None = None
    # the topics of the clause that asks, when earlier clauses tell a story ('the repair bills are huge -
    # will ADP replace it?') and the asking clause names a topic of its own; None: every topic is asked
    asked: frozenset[str] | None = None
    short_term: str | None = None  # the words saying the need is short-term ('after her hip replacement')
    requirement: bool = False  # it asks what the device must have or a party must do ('what warranty must it have?')

    @property
    def empty(self) -> bool:
        return not (self.question or self.device_type or self.category_key)


def _programs(text: str) -> set[str]:
    found = set(_PROGRAMS_EXACT.findall(text))
    found |= {program for program, pattern in _PROGRAMS_WORDS if pattern.search(text)}
    return found


def _income(text: str) -> float | None:
    match = _INCOME.search(text)
    if match is None:
        return None
    number = match.group("num") or match.group("num2")
    value = float(number.replace(",", ""))
    if match.group("k") or match.group("k2"):
        value *= 1000
    return -value if (match.group("neg") or match.group("neg2")) else value


def _about_paperwork(words: str) -> bool:
    """Whether 'it' in the question is paperwork: it names an invoice, a form … and no device."""
    return bool(_PAPERWORK.search(words)) and not _NAMES_DEVICE.search(words)


def _topics(words: str, *, paperwork: bool | None = None) -> set[str]:
    """The topics ``words`` ask about; 'fix it', 'lost it', 'it was lost' count only when 'it' can be a device."""
    if paperwork is None:
        paperwork = _about_paperwork(words)
    return {
        topic for topic, pattern in _TOPICS
        if any(not (paperwork and _BY_PRONOUN.search(m.group(0))) for m in pattern.finditer(words))
    }  # fmt: skip


def plan(args: AdpGetArgs) -> AdpRequest:
    question = args.q
    device_type = args.device.type if args.device else None
    category_key = args.device.category if args.device else None
    words = " ".join(filter(None, (question, device_type)))
    short_term = short_term_need(question)
    # 'after her hip replacement' is an operation, not a replaced device: its words ask no topic
    topic_words = words.replace(short_term, " ") if short_term else words
    topics = _topics(topic_words)
    problem = follow_up = None

    social: Literal["OW", "ODSP", "ACSD", "none"] | None = args.social_assistance
    said = _programs(words)
    said_none = bool(_NO_ASSISTANCE.search(words))
    if said or _ANY_ASSISTANCE.search(words):
        topics.add("social_assistance")
    if said and said_none:
        problem = f"The request says the patient receives {', '.join(sorted(said))} and also no social assistance."
        follow_up = "Does the patient receive Ontario Works, ODSP or ACSD now?"
        said = set()
    elif len(said) > 1:
        problem = f"The request names more than one social assistance program ({', '.join(sorted(said))})."
        follow_up = "Which program does the patient receive now: Ontario Works, ODSP or ACSD?"
    elif said:
        (named,) = said
        if social is not None and social != named:
            problem = f"social_assistance is {social!r}, but the question says the patient receives {named}."
            follow_up = f"Does the patient receive {named}, or is social_assistance={social!r} right?"
        social = social or named  # type: ignore[assignment]
    elif said_none and problem is None and social not in (None, "none"):
        problem = f"social_assistance is {social!r}, but the question says the patient receives no social assistance."
        follow_up = "Does the patient receive Ontario Works, ODSP or ACSD now?"
    elif said_none and problem is None:
        social = "none"
    if social in ("OW", "ODSP", "ACSD"):
        topics.add("social_assistance")

    income = args.patient_income
    spoken = _income(words) if words else None
    if income is None:
        income = spoken
    elif spoken is not None and abs(spoken - income) > 0.5 and problem is None:
        problem = f"patient_income is {income:,.0f}, but the question says {spoken:,.0f}."
        follow_up = "What is the patient's annual income?"
    if income is not None:
        topics.add("cep")
        if income < 0 and problem is None:
            problem = f"An annual income cannot be negative ({income:,.0f})."
            follow_up = "What is the patient's annual income (in dollars, before tax)?"
    household = args.household
    if household is None and words:
        if _FAMILY.search(words):
            household = "family"
        elif _SINGLE.search(words):
            household = "single"

    text = question or " ".join(filter(None, (device_type, category_key)))
    clause = asked_clause(question) if question else None
    asked = frozenset(_topics(clause, paperwork=_about_paperwork(words))) if clause else None
    return AdpRequest(
        text=text,
        question=question,
        device_type=device_type,
        category_key=category_key,
        checks=args.checks(),
        topics=frozenset(topics),
        social_assistance=social,
        income=income,
        household=household,
        use_case=args.use_case,
        community_only=bool(words and _COMMUNITY_ONLY.search(words)),
        problem=problem,
        follow_up=follow_up,
        asked=asked if asked and asked - GENERIC_TOPICS else None,
        short_term=short_term,
        requirement=asks_requirement(question) or asks_duty(question),
    )


@dataclass(slots=True)
class Resolution:
    """What a request's words name in the loaded edition."""

    kind: Literal["device", "category", "not_listed", "not_a_category", "none"]
    matched: str = ""
    device_key: str | None = None
    categories: list[str] = field(default_factory=list)  # one, or the candidates of an ambiguous term
    not_listed_key: str | None = None
    message: str | None = None  # not_a_category
    by_meaning: bool = False  # found by what the question means, not by a term of it (``meaning``)


class TermIndex:
    """The edition's terms by kind: normalised phrase -> targets."""

    def __init__(self, rows: list[tuple[str, str, str]]) -> None:
        self.by_kind: dict[str, dict[str, list[str]]] = {}
        for term, kind, target in rows:
            phrase = _key(term) if kind in ("category_key", "not_a_category") else norm(term)
            self.by_kind.setdefault(kind, {}).setdefault(phrase, []).append(target)
        self.category_names = {norm(t): t for targets in self.by_kind.get("category_key", {}).values() for t in targets}

    def category_descriptions(self) -> dict[str, str]:
        """Each category's name with its vocabulary terms: what its vector means ('Ocular Prostheses: artificial
        eye, eye prosthesis …')."""
        terms: dict[str, list[str]] = {name: [] for name in self.category_names.values()}
        for phrase, targets in self.by_kind.get("category", {}).items():
            for target in targets:
                terms.setdefault(target, []).append(phrase)
        return {name: f"{name}: {', '.join(sorted(said))}" if said else name for name, said in terms.items()}

    def find(self, text: str) -> Resolution:
        """The longest phrase of ``text`` naming a device, a category or a kind ADP does not list."""
        words = norm(text).split()
        for n in range(min(_MAX_PHRASE, len(words)), 0, -1):
            for i in range(len(words) - n + 1):
                phrase = " ".join(words[i : i + n])
                if phrase in self.category_names:
                    return Resolution("category", phrase, categories=[self.category_names[phrase]])
                for kind in ("device", "not_listed", "category"):
                    targets = self.by_kind.get(kind, {}).get(phrase)
                    if targets:
                        return _resolution(kind, phrase, sorted(set(targets)), words)
                said = self.by_kind.get("not_a_category_term", {}).get(phrase)
                if said:  # 'a CGM': no category of §105.05, a subject the manuals say something else about
                    return Resolution("not_a_category", phrase, message=said[0])
        return Resolution("none")

    def category(self, value: str) -> Resolution:
        """A structured category: a spec key, a §105.05 name, or a category term."""
        key = _key(value)
        if key in self.by_kind.get("not_a_category", {}):
            return Resolution("not_a_category", value, message=self.by_kind["not_a_category"][key][0])
        targets = self.by_kind.get("category_key", {}).get(key)
        if targets:
            return Resolution("category", value, categories=list(dict.fromkeys(targets)))
        if norm(value) in self.category_names:
            return Resolution("category", value, categories=[self.category_names[norm(value)]])
        found = self.find(value)
        return found if found.kind == "category" else Resolution("none", value)


def _key(text: str) -> str:
    return "_".join(norm(text).split())


def _resolution(kind: str, phrase: str, targets: list[str], words: list[str]) -> Resolution:
    if kind == "device":
        return Resolution("device", phrase, device_key=targets[0])
    if kind == "not_listed":
        return Resolution("not_listed", phrase, not_listed_key=targets[0])
    if len(targets) > 1:  # e.g. 'insulin pump': adults or children; 'prosthesis': limb, breast, ocular …
        narrowed = [t for t in targets if _named_by(t, (set(words) - set(phrase.split())) | _age_group(words))]
        targets = narrowed if len(narrowed) == 1 else targets
    return Resolution("category", phrase, categories=targets)


# an age the question gives ('my 40 yo', 'an 8 year old') names the group of a category split by age ('Insulin Pump
# and Supplies for Adults' / '... for Children'); the manuals loaded set no age between the two, so only ages no
# definition could place in the other group decide: 25 and over an adult, 12 and under a child
_AGE = re.compile(r"\b(\d{1,3})\s?(?:yo|y o|yrs? old|years? old|year old)\b")
ADULT_FROM, CHILD_TO = 25, 12


def _age_group(words: list[str]) -> set[str]:
    """'adults' or 'children' for a clear age in the question's normalised words, else nothing."""
    match = _AGE.search(" ".join(words))
    if match is None:
        return set()
    age = int(match.group(1))
    return {"adults"} if age >= ADULT_FROM else {"children"} if age <= CHILD_TO else set()


def _named_by(category: str, words: set[str]) -> bool:
    """A word of the question names the category by its first five letters ('child' ~ 'Children')."""
    stems = {w[:5] for w in norm(category).split() if len(w) >= 4 and w not in {"supplies", "devices", "prostheses"}}
    return any(len(w) >= 4 and w[:5] in stems for w in words)


@dataclass(slots=True)
class Decision:
    """What the request is about, after checking its fields against each other."""

    resolution: Resolution
    categories: list[str]  # the category, or the candidates still open
    problem: str | None = None
    follow_up: str | None = None


_NOT_LISTED = "(no ADP category)"


def _describe(r: Resolution) -> str:
    return repr(r.matched or r.message or "")


def by_meaning(decision: Decision, request: AdpRequest, meaning: QuestionMeaning) -> Decision:
    """``decision``, or the category the question clearly means when none of its words named a device or category
    ('a pressure-relieving mattress' is Pressure Modification Devices)."""
    if decision.resolution.kind != "none" or decision.problem or request.category_key or request.device_type:
        return decision
    category = meaning.nearest_category()
    if category is None:
        return decision
    return Decision(Resolution("category", category, categories=[category], by_meaning=True), [category])


def resolve(index: TermIndex, request: AdpRequest, device_category: Callable[[str], str | None]) -> Decision:
    """Read every field that names a device, check they agree, and keep the most specific.

    ``device_category`` gives a device key's category (from the edition's tables).
    """
    named: list[tuple[str, Resolution]] = []
    if request.category_key:
        category = index.category(request.category_key)
        if category.kind == "not_a_category":
            return Decision(category, [], category.message, _WHICH_DEVICE)
        if category.kind == "none":
            return Decision(category, [], f"{request.category_key!r} is not an ADP device category.", _WHICH_CATEGORY)
        named.append(("device.category", category))
    if request.device_type:
        typed = index.find(request.device_type)
        if typed.kind == "none":
            return Decision(typed, [], f"No ADP device matches {request.device_type!r}.", _WHICH_DEVICE)
        named.append(("device.type", typed))
    if request.question:
        spoken = index.find(request.question)
        if spoken.kind == "not_a_category" and not named:
            return Decision(spoken, [], spoken.message)
        if spoken.kind not in ("none", "not_a_category"):
            named.append(("the question", spoken))
    if not named:
        return Decision(Resolution("none"), [])

    def categories_of(r: Resolution) -> set[str]:
        if r.kind == "device" and r.device_key:
            return {device_category(r.device_key) or ""}
        if r.kind == "not_listed":
            return {_NOT_LISTED}
        return set(r.categories)

    common = categories_of(named[0][1])
    for (where_a, a), (where_b, b) in zip(named, named[1:], strict=False):
        both = common & categories_of(b)
        if not both:
            problem = f"{where_a} names {_describe(a)} but {where_b} names {_describe(b)}, which ADP funds under different categories."
            return Decision(b, [], problem, f"Which device is it: {a.matched} or {b.matched}?")
        common = both
    rank = {"device": 0, "not_listed": 1, "category": 2}
    primary = min((r for _, r in named), key=lambda r: rank[r.kind])  # first of equals: structured before spoken
    return Decision(primary, sorted(c for c in common if c != _NOT_LISTED))


_WHICH_DEVICE = (
    "Which device is it, as the Authorizer or prescriber wrote it (e.g. 'wheeled walker', 'power wheelchair', "
    "'hearing aid')?"
)
_WHICH_CATEGORY = "Which ADP device category is it (e.g. Mobility Devices, Hearing Devices, Visual Aids)?"
