"""Stay on the question: is a passage about the condition, drug and population the question names?

A document's own outline says what its sections are about. A passage under
"Follow-up > Anxiety > Duration" answers a question about depression only by
accident when the same parent also has a "Depression" section: the question names
at least half the words of a short sibling heading and none of the passage's own.
The check reads the section paths of the passage's document, not a vocabulary we
keep, so it works for drugs ("Sertraline" beside "Citalopram"), conditions,
populations and any other way a document files its sections.

A document files the same kind of subject in more than one branch: the CEP page has
its first-line drugs under "Management > First-line medication options" and its
adjunct drugs under "Follow-up/monitoring > Depression". "rexulti starting dose?"
names "Brexpiprazole (Rexulti®)", a cousin of "Sertraline (Zoloft®)" rather than a
sibling, so the sibling check let Sertraline's "Initial: 25-50 mg daily" answer it.
A passage whose path the question does not name at all is off subject too when the
question names a short heading at the same depth elsewhere in the document that the
passage's text never mentions. A cousin is further away than a sibling, so it must be
named word for word (the six-letter stems that let "pregnant" meet "pregnancy" would
also let "pharmacogenomic" name "Pharmacological treatment options"), and by a word that
names a subject (``subjects.names_subject``: a drug, a disease, a name no dictionary
lists). Two drugs exclude each other; "210 Wheelchairs" does not exclude "605 Requests
for a Replacement Device", which answers for wheelchairs and every other device.

Populations are the exception with a short list of our own, because a question
names them in words the document does not use as headings ("an 80 year old",
"a 10 year old"): when the question names one and no cited passage mentions it,
the answer is flagged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from curbside.ask.subjects import names_subject
from curbside.llm.extractive import terms

__all__ = ["AGE", "OffSubject", "Outline", "missing_population", "off_subject", "question_populations"]

SEPARATOR = " > "
# A heading of at most this many words names a subject ("Anxiety", "Sertraline (Zoloft®)", "Older
# adults"); longer ones describe a topic, and a question sharing a word with them says little
SUBJECT_MAX_TERMS = 3


@dataclass(frozen=True, slots=True)
class OffSubject:
    """Why a passage is about something else: its heading, and the sibling heading the question names."""

    heading: str
    named: str


class Outline:
    """The section tree of one document version, from the section paths of its chunks."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.children: dict[tuple[str, ...], set[str]] = {}
        self.levels: dict[int, set[str]] = {}  # every heading at each depth, whatever its parent
        for path in paths:
            parts = tuple(p for p in path.split(SEPARATOR) if p) if path else ()
            for i, part in enumerate(parts):
                self.children.setdefault(parts[:i], set()).add(part)
                self.levels.setdefault(i, set()).add(part)

    def siblings(self, parts: Sequence[str], depth: int) -> set[str]:
        return self.children.get(tuple(parts[:depth]), set()) - {parts[depth]}

    def cousins(self, parts: Sequence[str], depth: int) -> set[str]:
        """The other headings at the depth of ``parts[depth]`` anywhere in the document, siblings included."""
        return self.levels.get(depth, set()) - {parts[depth]}


def off_subject(question: str, section_path: str, outline: Outline, body: str = "") -> OffSubject | None:
    """The first level (from the top) at which the passage sits under a sibling of what the question names.

    Words the passage's own text uses do not count as naming a sibling: a passage that speaks of
    devices is not off subject for a devices question because a "Devices" part sits beside its own.
    """
    asked = set(terms(question, question=True))
    said = set(terms(body))
    naming = asked - said  # what could name a sibling: not words the passage itself uses
    parts = [p for p in section_path.split(SEPARATOR) if p]
    for depth, heading in enumerate(parts):
        own = _subject_terms(heading)
        if own & asked:
            continue  # the question names this heading: on subject at this level
        for sibling in sorted(outline.siblings(parts, depth)):
            distinct = _named_subject(sibling, own, naming)
            if distinct:
                return OffSubject(heading, sibling)
    if any(_subject_terms(heading) & asked for heading in parts):
        return None  # the question names part of the passage's path: only a sibling can put it off subject
    words = _words(question)
    for depth, heading in enumerate(parts):
        own = _subject_terms(heading)
        if not own or len(own) > SUBJECT_MAX_TERMS:
            continue  # only a subject heading has cousins of its kind
        for cousin in sorted(outline.cousins(parts, depth)):
            distinct = _named_subject(cousin, own, naming)
            exact = _words(cousin) - _words(heading)
            named = exact & words
            if distinct and not distinct & said and len(named) * 2 >= len(exact) and any(map(names_subject, named)):
                return OffSubject(heading, cousin)
    return None


def _words(text: str) -> set[str]:
    """The whole words of ``text`` that ``terms`` keeps, singular: "Brexpiprazole (Rexulti®)" -> brexpiprazole, rexulti."""
    lowered = re.sub(r"(?<=[a-z])-(?=[a-z])", "", text.lower())
    words = {w for w in re.findall(r"[a-z0-9]+", lowered) if terms(w) and not w[0].isdigit()}
    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words}


def _named_subject(heading: str, own: set[str], naming: set[str]) -> set[str]:
    """The words of a short subject ``heading`` beyond ``own`` when the question names at least half of them
    (``naming``), else an empty set. A long descriptive heading ("Guiding principles for …") names no one subject."""
    subject = _subject_terms(heading)
    if not subject or len(subject) > SUBJECT_MAX_TERMS:
        return set()
    distinct = subject - own
    return distinct if distinct and len(distinct & naming) * 2 >= len(distinct) else set()


def _subject_terms(heading: str) -> set[str]:
    """The words of a heading that say what it is about (numbering like "520" or "Part 5" left out)."""
    return {t for t in terms(heading) if not t[0].isdigit() and t != "part"}


# --- populations --------------------------------------------------------------------------------
# question words -> the stems a passage uses for the same people (terms() stems and synonyms)
_POPULATIONS: dict[str, tuple[str, ...]] = {
    "children": ("child", "youth", "adoles", "infant", "paedia", "pediat", "kid", "kids", "boy", "girl"),
    "adolescents": ("adoles", "youth", "teen", "teenag", "child"),
    "older adults": ("older", "age", "aged", "65", "senior"),
    "pregnancy": ("pregna", "perina", "antena", "prenat", "matern"),
    "breastfeeding": ("breast", "lactat", "nursin", "postpa"),
    "infants": ("infant", "neonat", "newbor", "babies", "baby"),
}
_POPULATION_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:child|children|kids?|pa?ediatric|boy|girl)\b", re.I), "children"),
    (re.compile(r"\b(?:adolescents?|teen(?:ager)?s?|youth)\b", re.I), "adolescents"),
    (re.compile(r"\b(?:older adults?|elderly|geriatric|seniors?|older patients?|aged 65)\b", re.I), "older adults"),
    (re.compile(r"\b(?:pregnan(?:t|cy)|antenatal|prenatal|perinatal)\b", re.I), "pregnancy"),
    (re.compile(r"\b(?:breast-?feeding|lactating|lactation|nursing mothers?)\b", re.I), "breastfeeding"),
    (re.compile(r"\b(?:infants?|neonates?|newborns?|babies|baby)\b", re.I), "infants"),
)
# "a 15 year old", "an 80-year-old", and as a clinician writes it: "a 14 yo", "a 14 y/o", "a 14yo", "a 72 y.o."
AGE = re.compile(r"\b(\d{1,3})(?:[- ](?:year|yr)s?[- ]old\b|\s?y\.?/?o\b\.?)", re.I)
CHILD_BELOW = 13  # years: "a 10 year old" is a child
ADOLESCENT_BELOW = 18
OLDER_FROM = 65  # the age the guideline documents use for older adults


def question_populations(question: str) -> list[str]:
    """The populations a question names, in words or as an age ("an 80 year old" -> older adults)."""
    found = [name for pattern, name in _POPULATION_WORDS if pattern.search(question)]
    for match in AGE.finditer(question):
        age = int(match.group(1))
        if age < CHILD_BELOW:
            found.append("children")
        elif age < ADOLESCENT_BELOW:
            found.append("adolescents")
        elif age >= OLDER_FROM:
            found.append("older adults")
    return list(dict.fromkeys(found))


def missing_population(question: str, texts: Sequence[str]) -> list[str]:
    """Populations the question names that none of ``texts`` (the cited passages, paths included) mention."""
    words = set()
    for text in texts:
        lowered = text.lower()
        words.update(terms(lowered))
        words.update(w[:6] for w in re.findall(r"[a-z]+", lowered))
    return [name for name in question_populations(question) if not words & set(_POPULATIONS[name])]
