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
the answer is flagged. The other way round, a line quoted as the answer may be
reserved for a group the question never names ("Talk4Healing: 24/7 talk, text, and
chat to support Indigenous women" for "24/7 crisis line I can give any age pt?"):
that answer is flagged too.

A question that asks to choose or compare ("which SSRI is easiest to come off of?", "remission in GAD vs just
response?", "best first-line AD for …") names no one option, so nothing above holds its passages to it, and the
answer is often a line from one drug's section that happens to share the question's words. The outline says which
sections are options of one kind: the children of a shared parent that are short headings naming a subject (the
drug sections under "First-line medication options") or that file the same sub-headings (the "Depression" and
"Anxiety" branches, each with "Overall approach"). An answer to a choosing question whose lines come from such
options the question does not name, or from one of the two options it compares, answers for that option only and
is flagged (``one_option``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from curbside.ask.subjects import names_subject
from curbside.llm.extractive import terms

__all__ = [
    "AGE",
    "OffSubject",
    "OneOption",
    "Outline",
    "asks_choice",
    "missing_population",
    "off_subject",
    "one_option",
    "question_populations",
    "served_groups",
    "unasked_groups",
]

SEPARATOR = " > "
# A heading of at most this many words names a subject ("Anxiety", "Sertraline (Zoloft®)", "Older
# adults"); longer ones describe a topic, and a question sharing a word with them says little
SUBJECT_MAX_TERMS = 3
PARALLEL_MIN = 2  # sub-sections of the same names that make two sibling headings options of one kind


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
        self.paths: set[tuple[str, ...]] = set()  # every section and every section above one
        self.headed: dict[str, set[str]] = {}  # each heading word: the headings that use it
        for path in paths:
            parts = tuple(p for p in path.split(SEPARATOR) if p) if path else ()
            for i, part in enumerate(parts):
                self.children.setdefault(parts[:i], set()).add(part)
                self.levels.setdefault(i, set()).add(part)
                self.paths.add(parts[: i + 1])
        for heading in set().union(*self.levels.values()):  # each heading once, however many paths repeat it
            for term in _subject_terms(heading):
                self.headed.setdefault(term, set()).add(heading)

    def siblings(self, parts: Sequence[str], depth: int) -> set[str]:
        return self.children.get(tuple(parts[:depth]), set()) - {parts[depth]}

    def cousins(self, parts: Sequence[str], depth: int) -> set[str]:
        """The other headings at the depth of ``parts[depth]`` anywhere in the document, siblings included."""
        return self.levels.get(depth, set()) - {parts[depth]}

    def options(self, parts: Sequence[str], depth: int) -> set[str]:
        """The options of one kind among which ``parts[depth]`` is filed, itself included, or an empty set.

        Options are children of a shared parent (never the document's top level, its parts): short headings naming
        a subject ("Sertraline (Zoloft®)" beside "Citalopram (Celexa®)"), when most of the parent's children are
        such headings, or headings filing the same outline below
        them, at least ``PARALLEL_MIN`` sub-sections of the same names ("Depression > Overall approach > Ongoing
        treatment options" beside "Anxiety > Overall approach > Ongoing treatment options"; one "Talking tips" that
        "Medication counselling" shares with "First-line medication options" makes no two options)."""
        if depth < 1 or depth >= len(parts):
            return set()
        parent = tuple(parts[:depth])
        children = self.children.get(parent, set())
        named = {c for c in children if _subject_heading(c)}
        if parts[depth] in named and len(named) > 1 and len(named) * 2 > len(children):
            return named  # a list of subjects ("Results" beside three of six sub-headings naming one is none)
        below: dict[str, set[tuple[str, ...]]] = {c: set() for c in children}
        for path in self.paths:
            if len(path) > depth + 1 and path[:depth] == parent and path[depth] in below:
                below[path[depth]].add(path[depth + 1 :])
        own = below.get(parts[depth], set())
        parallel = {c for c, subs in below.items() if c != parts[depth] and len(subs & own) >= PARALLEL_MIN}
        return parallel | {parts[depth]} if parallel else set()


# words a question asks for advice by, whatever its subject ('paxil dry mouth - any oral care tip?'): they name no
# section, though a heading may hold one ("Talking tips" beside "Specific side effect management for symptoms")
_ASKING_FOR = frozenset(terms("tip advice suggestion pointer"))  # stems: 'tips', 'suggestions' too


def off_subject(question: str, section_path: str, outline: Outline, body: str = "") -> OffSubject | None:
    """The first level (from the top) at which the passage sits under a sibling of what the question names.

    Words the passage's own text uses do not count as naming a sibling: a passage that speaks of
    devices is not off subject for a devices question because a "Devices" part sits beside its own.
    """
    asked = set(terms(question, question=True))
    said = set(terms(body))
    parts = [p for p in section_path.split(SEPARATOR) if p]
    # what could name a sibling: not words the passage itself uses, nor words asking for advice of any kind, nor
    # the options a question sets aside ('besides abilify and rexulti, what other add-on option?')
    naming = asked - said - _ASKING_FOR - _set_aside(question)
    for depth, heading in enumerate(parts):
        own = _subject_terms(heading)
        if own & asked:
            continue  # the question names this heading: on subject at this level
        # nor the passage's own deeper headings: 'talking point?' names "Talking tips" in "Management > Medication
        # counselling > Talking tips", not the "Talking tips" beside "Medication counselling"
        beneath = naming - set().union(*map(_subject_terms, parts[depth + 1 :]))
        for sibling in sorted(outline.siblings(parts, depth)):
            distinct = _named_subject(sibling, own, beneath) or _peculiar(sibling, parts[:depth], beneath, outline)
            if distinct:
                return OffSubject(heading, sibling)
    if any(_subject_terms(heading) & asked for heading in parts):
        return None  # the question names part of the passage's path: only a sibling can put it off subject
    words = _words(question)
    for depth, heading in enumerate(parts):
        own = _subject_terms(heading)
        if not _subject_heading(heading):
            # only a subject heading has cousins of its kind: "Guidance for switching medications" is a topic, and
            # a drug named elsewhere in the document ("Paroxetine (Paxil®)") puts no question off it
            continue
        for cousin in sorted(outline.cousins(parts, depth)):
            distinct = _named_subject(cousin, own, naming)
            exact = _words(cousin) - _words(heading)
            named = exact & words
            if distinct and not distinct & said and len(named) * 2 >= len(exact) and any(map(names_subject, named)):
                return OffSubject(heading, cousin)
    return None


# 'besides abilify and rexulti', 'other than the SSRIs', 'apart from CBT': up to the end of the clause
_SET_ASIDE = re.compile(r"\b(?:besides|other than|apart from|aside from|except(?: for)?)\s+([^,;:?!()-]+)", re.I)


# 'PBDE-47 minnow study - dissolved oxygen in the tanks?', 'EoE stage paper: OR for …': the words before the dash
# name the document the question is about, not one of its sections ("PBDE-47 exposures" beside "Animals and housing")
_DOCUMENT_NAMED = re.compile(
    r"^((?:(?!\s[-–—]\s)[^?:]){3,60}?\b(?:study|paper|article|trial|analysis|sample|cohort|serosurvey|survey)\b"
    r"(?:(?!\s[-–—]\s)[^?:]){0,20}?)(?:\s[-–—]\s|:\s)",
    re.I,
)


def _set_aside(question: str) -> set[str]:
    """The words of the options a question sets aside, and those naming the document it asks about: they name
    no section."""
    named = _DOCUMENT_NAMED.match(question)
    aside = [m.group(1) for m in _SET_ASIDE.finditer(question)] + ([named.group(1)] if named else [])
    return {t for text in aside for t in terms(text)}


def _subject_heading(heading: str) -> bool:
    """A short heading with a word naming a subject: a drug, a disease by its form, a brand ("Bupropion
    (Wellbutrin®)", "Hyponatremia"); not "Talking tips" or "Role of benzodiazepines for anxiety disorders"."""
    own = _subject_terms(heading)
    return 0 < len(own) <= SUBJECT_MAX_TERMS and any(map(names_subject, _words(heading)))


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


def _peculiar(heading: str, above: Sequence[str], naming: set[str], outline: Outline) -> set[str]:
    """The words of a short ``heading`` the question names (``naming``) that no other heading of the document uses
    but those ``above`` it: "appealing" names "1000 Appealing a Program Decision" beside "1005 Complaints" although
    "Program" and "Decision" go unnamed, for no other section speaks of appeals but their parent "Appeals and
    Complaints"."""
    subject = _subject_terms(heading)
    if len(subject) > SUBJECT_MAX_TERMS:
        return set()
    allowed = {heading, *above}
    return {t for t in subject & naming if outline.headed.get(t, set()) <= allowed}


def _subject_terms(heading: str) -> set[str]:
    """The words of a heading that say what it is about (numbering like "520" or "Part 5" left out)."""
    return {t for t in terms(heading) if not t[0].isdigit() and t != "part"}


# --- a question that chooses among options, answered from one ---------------------------------------
# The forms of a question that asks to choose among options or to compare them: "which SSRI", "X vs Y", "compared
# with", "the difference between", "best / preferred / of choice", a superlative ("safest", "easiest", "least").
_CHOICE = re.compile(
    r"\b(?:which|vs|versus|compar(?:e|ed|ing|ison)|differen(?:ce|t) between|better|best|worse|worst|prefer(?:red|able)?"
    r"|of choice|first choice|safer|safest|least|\w{3,}iest)\b",
    re.I,
)


def asks_choice(question: str) -> bool:
    """Whether the question asks to choose among options or to compare them ("which SSRI …?", "X vs Y?")."""
    return bool(_CHOICE.search(question))


@dataclass(frozen=True, slots=True)
class OneOption:
    """An answer to a choosing question drawn from some options' sections: those headings, and their parent."""

    headings: tuple[str, ...]
    parent: str
    options: int  # how many options the parent files


def one_option(question: str, cited: Sequence[tuple[str, Outline]]) -> OneOption | None:
    """Whether the answer to a question that chooses or compares (``asks_choice``), citing passages filed under
    ``cited`` (section path, outline of its document), is drawn from options the question does not name, or from
    only one of the options it names; None when the question does not choose, or the answer keeps to what it names.

    The options are read from the outline (``Outline.options``), at each level of a cited path. Options that are
    populations ("Peri/post natal" beside "Older adults") are what a question naming a population ("preferred
    antidepressant while breastfeeding?") is about, not what it chooses among: its answer from one is not flagged."""
    if not asks_choice(question):
        return None
    asked = set(terms(question, question=True))
    populations = bool(question_populations(question))
    # per parent (the path above the options): the options cited, the options the question names, all options
    drawn: dict[tuple[str, ...], tuple[set[str], set[str], set[str]]] = {}
    for path, outline in cited:
        parts = [p for p in path.split(SEPARATOR) if p]
        for depth in range(1, len(parts)):
            options = outline.options(parts, depth)
            if not options or (populations and any(map(_population_heading, options))):
                continue  # no options, or populations while the question names its own: it chooses among others
            used, named, _ = drawn.setdefault(tuple(parts[:depth]), (set(), set(), options))
            used.add(parts[depth])
            named.update(o for o in options if _subject_terms(o) & asked)
    for parent, (used, named, options) in sorted(drawn.items(), key=lambda item: -len(item[0])):  # deepest first
        unnamed = sorted(used - named)
        if unnamed or (len(named) > 1 and len(used & named) < len(named)):
            return OneOption(tuple(unnamed or sorted(used)), parent[-1], len(options))
    return None


def _population_heading(heading: str) -> bool:
    """Whether a heading names a population ("Older adults", "Pregnancy"): a word of it opens with a population stem."""
    stems = tuple(stem for group in _POPULATIONS.values() for stem in group)
    return any(word.startswith(stems) for word in re.findall(r"[a-z0-9]+", heading.lower()))


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


# --- groups a line is reserved for ------------------------------------------------------------------
# who a service, a program or a recommendation may be for; each pattern also finds the group in a question
_GROUPS: tuple[tuple[str, str], ...] = (
    ("Indigenous people", r"indigenous(?: \w+)?|first nations?|inuit|m[eé]tis|aboriginal(?: \w+)?"),
    ("women", r"women|girls?|mothers?"),
    ("men", r"men|boys?|fathers?"),
    ("students", r"(?:post-?secondary |university |college |high school )?students?"),
    ("veterans", r"veterans?"),
    ("2SLGBTQ+ people", r"(?:2s)?lgbtq\w*\+?"),
    ("newcomers", r"newcomers?|refugees?|immigrants?"),
    ("children", r"children|kids?|infants?|babies"),
    ("youth", r"youths?|adolescents?|teens?|teenagers?"),
    ("older adults", r"older adults?|seniors?|elderly"),
    ("pregnancy", r"pregnan\w*|perinatal|postpartum"),
    ("breastfeeding", r"breast-?feeding|lactating"),
)
# the line is for the group, not about it in passing: "to support Indigenous women", "for post-secondary students",
# "(post-secondary students)"; never "in women" or "(10 mg in older adults, …)", a caveat inside a line for everyone
_SERVED = tuple(
    (
        name,
        re.compile(
            rf"\b(?:for|support(?:ing|s)?|serving|serves|by)\s+(?:(?:young|adult|indigenous|black|older)\s+)?(?:{group})\b"
            rf"|\(\s*(?:(?:young|adult|indigenous|black|older)\s+)?(?:{group})\s*\)",
            re.I,
        ),
        re.compile(rf"\b(?:{group})\b", re.I),
    )
    for name, group in _GROUPS
)
_AGE_GROUPS = {"children": "children", "adolescents": "youth", "older adults": "older adults"}  # question_populations
# a line for everyone that mentions a group: "not approved for children", "(lower dose recommended for older adults)",
# "odds ratios for women versus men"
_NEGATED = re.compile(r"\b(?:not|no|never|nor)\b[^.;]{0,30}$", re.I)
_COMPARED = re.compile(r"^\W*(?:versus|vs\b|compared|relative to|than|and (?:wo)?men\b)", re.I)
_MARKER = re.compile(r"\[\d+(?:,\s*\d+)*\]")


def served_groups(text: str) -> set[str]:
    """The groups ``text`` says it is for ("to support Indigenous women" -> Indigenous people, women)."""
    out = set()
    for name, served, _ in _SERVED:
        if any(_reserved(text, m) for m in served.finditer(text)):
            out.add(name)
    return out


def _reserved(text: str, match: re.Match[str]) -> bool:
    """Whether a "for <group>" in ``text`` reserves the line for the group rather than noting it in passing."""
    before, after = text[: match.start()], text[match.end() :]
    if match.group().startswith("("):
        return True  # the line's own label: "Good2Talk: … (post-secondary students)"
    inside = before.count("(") > before.count(")")  # a caveat in brackets: "Max: 80 mg daily (… for older adults)"
    return not (inside or _NEGATED.search(before) or _COMPARED.match(after))


def unasked_groups(question: str, answer: str) -> list[str]:
    """The groups a line of the answer is reserved for when the question names none of them, in words or as an age
    ("Talk4Healing: … to support Indigenous women" for "24/7 crisis line I can give any age pt?"). A line for several
    groups, the question's among them ("for older adults, pregnancy and breastfeeding"), is not flagged."""
    named = {_AGE_GROUPS[p] for p in question_populations(question) if p in _AGE_GROUPS} | _mentioned(question)
    out: list[str] = []
    for line in _MARKER.split(answer):
        served = served_groups(line)
        if served and not _mentioned(line) & named:
            out.extend(sorted(served - set(out)))
    return out


def _mentioned(text: str) -> set[str]:
    return {name for name, _, mention in _SERVED if mention.search(text)}
