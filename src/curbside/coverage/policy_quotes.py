"""The sentence of a source's policy text that a question asks for, quoted, never paraphrased.

"How long does an appeal take?", "what percentage is paid for a phone visit?", "can we still bill a
consultation without a written request?" are answered by one sentence of a manual or of the Schedule's
rules. A source says what its questions can ask (``Vocabulary``: a time, a yes or no, a place, a count,
a percentage …) and what a sentence answering each says. A sentence qualifies when it says the kind of
thing asked and shares the question's rarer words (weighted by how few sentences use them, and by the
sentence's length as BM25 does, so a long list that names everything does not win); the words of the
heading a sentence sits under count at half weight ("Authorizer Status" for "who authorizes?"). A bullet
is quoted with the words that introduce its list, or with the sub-heading it follows ("Section 2 –
Devices and Eligibility • … completed by the prescriber").
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from curbside.coverage.parties import Parties

__all__ = ["PolicyIndex", "PolicyQuote", "PolicyText", "Vocabulary"]

MAX_QUOTES = 2
MIN_EVIDENCE = 4.0  # length-weighted idf of the shared words: about two words that few sentences use
MIN_FORM = 5  # letters a stem needs before it meets the manuals' longer or shorter forms of it
MAX_FORM_EXTRA = 4
MAX_BETWEEN = 2  # sentences between a best sentence and its companion quoted with them; more are left out, marked …
HEADING_WEIGHT = 0.5  # a heading's word says what its sentences are about, less sharply than their own words
# a sentence about the party the question is about shares that party, as a heading's word does ('pt' and
# 'The Applicant must …'); one about a party the question neither names nor implies ('The ADP Authorizers …'
# for 'can she apply?') answers another question: its evidence is halved, not dropped
PARTY_WEIGHT = 0.5
OTHER_PARTY_WEIGHT = 0.5
# the meaning (``quotes``' cosines): the sentences at most NEIGHBOURHOOD below the nearest one's cosine, and
# among the NEAREST, are its neighbourhood; they qualify on NEAR_EVIDENCE of shared words; a cosine counts
# MEANING_WEIGHT (a sentence 0.1 nearer outranks one with a rare shared word more)
# a sentence of the best quote's paragraph that does not say the kind asked joins it when it holds this share of the
# best one's evidence: the paragraph's condition beside its verdict (Mobility §405's 'may be … basic' and its
# 'must confirm … cannot be met by … a generic/transport chair')
COMPANION_SHARE = 0.8
NEIGHBOURHOOD = 0.15
NEAREST = 20
NEAR_EVIDENCE = 2.5
MEANING_WEIGHT = 20.0
FAR = 0.3
# a rule's exception: a sentence that excepts the one before it ('The only exception to this policy is …'), or one
# that allows what a rule just before it forbids on a condition ('The Program may accept a verbal appeal if …')
_EXCEPTS_PREVIOUS = re.compile(r"^(?:The only exception|However|Except|Notwithstanding)\b", re.I)
_EXCEPTION = re.compile(_EXCEPTS_PREVIOUS.pattern + r"|\bunless\b|\bmay\b[^.;]*\bif\b", re.I)
# a permission or prohibition with its verb: 'The Vendor may charge …' answers 'can the vendor charge …?'
_MODAL_VERB = re.compile(r"\b(?:may|may not|can|cannot|can not|must not|will not)\s+(?:\w+ly\s+)?([a-z]+)", re.I)
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z(])")
# a labelled sub-heading a list runs into: "… (e.g. social assistance) Section 2 – Devices and Eligibility"
_SUBHEAD = re.compile(r"\s((?:Section|Part|Step|Schedule) \d+[A-Z]? [–-] [^•]+?)\s*$")
_COMMON = frozenset(
    """a an and any are as at be been but by can could do does for from has have how i if in is it its may my
    of on or our s should so that the their them they this to was we what when where which who will with would
    you your""".split()
)


@dataclass(frozen=True, slots=True)
class PolicyText:
    """One block of policy text: where it is (``source``, ``ref``, ``page``) and its words."""

    source: str  # 'core', 'mobility-devices' (an ADP manual) …
    ref: str  # '1000.13', a rule's heading …
    page: str
    text: str
    heading: str = ""  # the title of the section the text sits in ('Authorizer Status')


@dataclass(frozen=True, slots=True)
class PolicyQuote:
    source: str
    ref: str
    page: str
    text: str
    score: float
    governs: bool = False  # the governing manual's sentence on the same asked words as a category manual's quote
    other_party: bool = False  # the sentence is about a party the question neither names nor implies
    by_meaning: bool = False  # ranked first by what the question means: by its words alone another was, or none
    exception: bool = False  # the exception the next paragraph makes to the best quote's rule, quoted with it
    off_clause: bool = False  # the sentence holds none of the words of the question's asking clause (only its story)


@dataclass(frozen=True)
class Vocabulary:
    """What a source's questions ask and what its answering sentences say, kind by kind.

    ``asks`` is in order, most specific first: the first kind a question asks decides. ``amount`` marks
    questions its structured data answers (no quote). ``spelled`` expands words a clinician writes into
    the source's ('wsib' -> 'workplace safety insurance'), ``phrased`` a phrase ('pay her back' ->
    'reimbursement'); ``stop`` are its words too common to count.
    """

    asks: Mapping[str, re.Pattern[str]]
    says: Mapping[str, re.Pattern[str]]
    amount: re.Pattern[str] | None = None
    spelled: Mapping[str, str] = field(default_factory=dict)
    stop: frozenset[str] = frozenset()
    phrased: Mapping[re.Pattern[str], str] = field(default_factory=dict)  # a phrase -> the source's words for it
    governing: str = ""  # the source whose policy governs every other ('core': the ADP Policies and Procedures)
    parties: Parties | None = None  # whom its rules are written for ('the Applicant', 'the Vendor'); None: not told
    # the clause of a question that asks, when others only tell what happened ('residents have to buy from the
    # home's vendor - is that allowed?' asks a yes or no, not an obligation); None: the whole question asks
    asking: Callable[[str], str | None] | None = None

    def kind(self, question: str) -> str | None:
        """What ``question`` asks (a key of ``asks``): the first kind its asking clause asks, else its own."""
        clause = self.asking(question) if self.asking is not None else None
        for text in filter(None, (clause, question)):
            kind = next((kind for kind, pattern in self.asks.items() if pattern.search(text)), None)
            if kind is not None:
                return kind
        return None

    def stems(self, text: str) -> set[str]:
        low = text.lower()
        words = re.findall(r"[a-z][a-z']+", low)
        # a hyphenated word is also one word: the manual's 'back-up' meets a clerk's 'backup'
        words += [m.replace("-", "") for m in _HYPHENATED.findall(low)]
        words += [w for word in words for w in self.spelled.get(word, "").split()]
        words += [w for phrase, said in self.phrased.items() if phrase.search(low) for w in said.split()]
        return {_stem(w) for w in words if w not in _COMMON and w not in self.stop}


_HYPHENATED = re.compile(r"[a-z]+(?:-[a-z]+)+")
_SUFFIXES = ("ations", "ation", "atures", "ature", "ers", "er", "ing", "ed", "es", "s", "e")


def _stem(word: str) -> str:
    """'authorize', 'authorizer', 'authorization' -> 'authoriz'; 'process', 'processed' -> 'process';
    'signature' -> 'sign'."""
    word = word.removesuffix("'s")
    for suffix in _SUFFIXES:
        if len(word) >= max(len(suffix) + 4, 4 if suffix == "s" else 0) and word.endswith(suffix):
            if suffix == "s" and word.endswith(("ss", "us", "is")):  # 'process', 'status', 'diagnosis'
                continue
            return word[: -len(suffix)]
    return word


@dataclass(frozen=True, slots=True)
class _Unit:
    block: PolicyText
    text: str
    stems: frozenset[str]
    heading: frozenset[str]  # the heading's stems the sentence does not use itself
    party: str | None = None  # whom the sentence is about ('applicant'), when the vocabulary tells parties


class PolicyIndex:
    """Every sentence of a source's policy text, with its words' rarity; built once per load."""

    def __init__(self, blocks: Iterable[PolicyText], vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self.units = []
        for b in blocks:
            heading = vocabulary.stems(b.heading)
            for text in sentences(b.text):
                stems = frozenset(vocabulary.stems(text))
                party = vocabulary.parties.of_sentence(text) if vocabulary.parties else None
                self.units.append(_Unit(b, text, stems, frozenset(heading - stems), party))
        df = Counter(stem for unit in self.units for stem in unit.stems)
        self.mean_words = sum(len(u.stems) for u in self.units) / max(len(self.units), 1)
        total = max(len(self.units), 1)
        self.idf = {stem: math.log(total / count) for stem, count in df.items()}
        # a party is as telling as the share of sentences written for it is small
        parties = Counter(unit.party for unit in self.units if unit.party)
        self.party_idf = {party: math.log(total / count) for party, count in parties.items()}

    def texts(self) -> list[str]:
        """Every sentence, in the order ``quotes`` takes their cosines."""
        return [unit.text for unit in self.units]

    def quotes(
        self, question: str | None, subject: str = "", cosines: np.ndarray | None = None
    ) -> list[PolicyQuote]:
        """Up to two sentences that answer what ``question`` asks, best first (and the exception the manual makes to
        the best one's rule, ``_exception``); none when the evidence is thin.

        ``subject`` is what the question is about ('walker'): a sentence must share a word beyond it, or
        "does ADP cover a walker?" would be answered by any sentence that names walkers. ``cosines`` (one per
        sentence, ``texts`` order) say how near each sentence's meaning is to the question's: the sentences
        nearest it (``_neighbourhood``) qualify on fewer shared words and whatever kind of thing they say
        ('wrecked it goofing around' and 'damaged due to misuse'), and every sentence ranks by its words plus
        ``MEANING_WEIGHT`` x its cosine: the meaning finds the neighbourhood, the words choose within it."""
        vocabulary = self.vocabulary
        if not question or (vocabulary.amount is not None and vocabulary.amount.search(question)):
            return []
        asked = vocabulary.kind(question)
        wanted = vocabulary.stems(question)
        if asked is None or not wanted:
            return []
        says = vocabulary.says[asked]
        about = vocabulary.stems(subject)
        forms = {stem: self._forms(stem) for stem in wanted}
        party_of = self._party_judge(question, asked)
        clause = vocabulary.asking(question) if vocabulary.asking is not None else None
        clause_stems = (vocabulary.stems(clause) - about) & wanted if clause else set()
        near = _neighbourhood(cosines)
        # a sentence this far from the nearest one's meaning tells another situation, whatever words it shares
        # ('lost or stolen' devices for 'lost his licence, wants a scooter instead of driving')
        meant = cosines is not None and len(cosines) == len(self.units) > 0
        closeness = cosines if cosines is not None and meant else np.zeros(len(self.units), dtype=np.float32)
        far = float(closeness.max()) - FAR if meant else -math.inf
        scored: list[tuple[float, int]] = []  # rank (evidence plus meaning), unit number
        unsaid: dict[int, float] = {}  # unit number -> evidence, of sentences that do not say the kind asked
        evidence_of: dict[int, float] = {}
        by_words: tuple[float, int] | None = None  # the best sentence by words alone
        holds: dict[int, set[str]] = {}  # unit number -> the question's stems it holds in its own words
        others: set[int] = set()  # unit numbers about a party the question does not mention
        def held_by(n: int) -> set[str]:
            """The question's stems sentence ``n`` holds in its own words."""
            return {stem for stem, its in forms.items() if its & self.units[n].stems}

        for n, unit in enumerate(self.units):
            held = held_by(n)
            shared = sum(max(self.idf[f] for f in forms[stem] & unit.stems) for stem in held)
            shared += HEADING_WEIGHT * sum(
                max(self.idf[f] for f in forms[stem] & unit.heading) for stem in forms if forms[stem] & unit.heading
            )
            # the party reorders sentences found by their words; it finds none by itself
            length = 0.5 + 0.5 * len(unit.stems) / self.mean_words
            floor = NEAR_EVIDENCE if n in near else MIN_EVIDENCE
            found = shared / length >= floor
            verdict = party_of(unit)
            if verdict is True:
                shared += PARTY_WEIGHT * self.party_idf[unit.party or ""]
            evidence = shared / length
            if verdict is False:
                evidence *= OTHER_PARTY_WEIGHT
                others.add(n)
            if not (found and evidence >= floor and held - about) or closeness[n] < far:
                continue
            if evidence >= MIN_EVIDENCE and says.search(unit.text) and (by_words is None or evidence > by_words[0]):
                by_words = (evidence, n)
            said = bool(says.search(unit.text)) or (asked == "allowed" and self._permits(unit.text, forms, held - about))
            if said:
                scored.append((evidence + MEANING_WEIGHT * float(closeness[n]), n))
                evidence_of[n] = evidence
                holds[n] = held
            else:
                unsaid[n] = evidence
        scored.sort(reverse=True)
        if scored:  # a sentence of the best one's paragraph holding as much of the question joins it, whatever it says
            best = scored[0][1]
            joining = [
                (e, n) for n, e in unsaid.items()
                if self.units[n].block is self.units[best].block and e >= COMPANION_SHARE * evidence_of[best]
            ]  # fmt: skip
            if joining and not any(self.units[n].block is self.units[best].block for _, n in scored[1:]):
                e, n = max(joining)
                scored.insert(1, (scored[0][0], n))
                evidence_of[n] = e
                holds[n] = held_by(n)
        # the sentences holding none of the asking clause's words, when the question tells a story before it asks
        off_clause = {n for n in holds if clause_stems and not holds[n] & clause_stems}
        quotes = self._with_companion(scored, evidence_of, others, off_clause)[:MAX_QUOTES]
        if quotes and (by_words is None or by_words[1] != scored[0][1]):
            quotes[0] = dataclasses.replace(quotes[0], by_meaning=True)
        governing = self._governing(scored, evidence_of, holds, others)
        if governing is not None and governing.text != quotes[0].text:
            quotes = [quotes[0], governing]
        exception = self._exception(scored[0][1], lambda n: bool(held_by(n) - about)) if scored else None
        if exception is not None and all(exception.text not in q.text for q in quotes):
            quotes = [quotes[0], exception, *quotes[1:]]
        return quotes

    @staticmethod
    def _permits(text: str, forms: dict[str, frozenset[str]], asked: set[str]) -> bool:
        """Whether ``text`` allows or forbids the very act a yes-or-no question names: a modal followed by one of
        the question's own verbs ('The Vendor may refuse to provide the Device' for 'can the vendor refuse …?')."""
        verbs = {_stem(m.group(1).lower()) for m in _MODAL_VERB.finditer(text)}
        return any(forms[stem] & verbs for stem in asked)

    def _exception(self, best: int, shares: Callable[[int], bool]) -> PolicyQuote | None:
        """The exception the next sentences of the best one's section make to its rule, when one follows within
        ``MAX_BETWEEN`` sentences and shares a word of the question: a rule quoted without its exception
        misleads ('The appeal must be submitted in writing' and §1000.07's verbal appeal)."""
        unit = self.units[best]
        section = unit.block.ref.split(".")[0]
        for n in range(best + 1, min(best + MAX_BETWEEN + 2, len(self.units))):
            other = self.units[n]
            if other.block.source != unit.block.source or other.block.ref.split(".")[0] != section:
                return None
            if other.block is not unit.block and _EXCEPTION.search(other.text) and shares(n):
                b = other.block
                return PolicyQuote(b.source, b.ref, b.page, other.text, 0.0, exception=True)
        return None

    def _party_judge(self, question: str, asked: str) -> Callable[[_Unit], bool | None]:
        """Whether a sentence is about the question's party (True), about a party the question neither names nor
        implies (False), or neither is known (None). A 'who' question asks for the party, one naming only the
        party everyone is addressed to ('does ADP fund …?') none: no judge."""
        parties = self.vocabulary.parties
        if parties is None or asked == "who":
            return lambda unit: None
        mentioned = parties.of_question(question)
        if not mentioned - parties.everyone:  # 'does ADP fund …?' names no party of its own
            return lambda unit: None

        def judge(unit: _Unit) -> bool | None:
            if unit.party is None or unit.party in parties.everyone:
                return None
            return unit.party in mentioned

        return judge

    def _governing(
        self,
        scored: list[tuple[float, int]],
        evidence_of: dict[int, float],
        holds: dict[int, set[str]],
        others: set[int],
    ) -> PolicyQuote | None:
        """The governing source's best qualifying sentence holding every question word the best quote holds,
        when the best is another source's: a category manual's rule restates, narrower, a general one the
        governing manual applies to every category (Mobility §310 'used solely for: • Sports' under the core
        §300.05 'cannot be used exclusively for … recreation or sports')."""
        governing = self.vocabulary.governing
        if not scored or not governing or self.units[scored[0][1]].block.source == governing:
            return None
        asked = holds[scored[0][1]]
        for _, n in scored[1:]:
            unit = self.units[n]
            if unit.block.source == governing and asked <= holds[n]:
                b = unit.block
                return PolicyQuote(b.source, b.ref, b.page, unit.text, evidence_of[n] + 2.0, True, n in others)
        return None

    def _forms(self, stem: str) -> frozenset[str]:
        """``stem`` and the manuals' stems of the same word in another form: one begins the other, the shorter of
        at least ``MIN_FORM`` letters, the longer at most ``MAX_FORM_EXTRA`` letters longer ('resident' meets the
        manual's 'resid' of 'reside', 'replacement' its 'replac' of 'replaced'; 'care' meets no 'career')."""
        found = {stem} & self.idf.keys()
        if len(stem) >= MIN_FORM:
            found |= {
                other
                for other in self.idf
                if len(other) >= MIN_FORM
                and abs(len(other) - len(stem)) <= MAX_FORM_EXTRA
                and (other.startswith(stem) or stem.startswith(other))
            }
        return frozenset(found)

    def known(self, word: str) -> bool:
        """Whether every stem of ``word`` (its own, not the words it is spelled out as) is used by some sentence."""
        stems = {_stem(w) for w in re.findall(r"[a-z][a-z']+", word.lower())}
        return all(stem in self.idf for stem in stems)

    def _with_companion(
        self,
        scored: list[tuple[float, int]],
        evidence_of: dict[int, float],
        others: set[int],
        off_clause: set[int],
    ) -> list[PolicyQuote]:
        """The quotes, best first; the best is joined by another qualifying sentence of its own paragraph, in
        the paragraph's order ("Occupational Therapists and Physiotherapists … must be registered as
        Authorizers …" and "Registered Authorizers for wheelchairs must also be …")."""
        if not scored:
            return []
        best = scored[0][1]
        best_evidence = evidence_of[best]
        numbers = [best]
        companion = next(
            (n for _, n in scored[1:] if self.units[n].block is self.units[best].block),
            None,
        )
        gap = " "
        if companion is not None and "•" not in self.units[best].text + self.units[companion].text:
            first, last = sorted((best, companion))
            # a quote is the manual's own run of words: the sentences between the two are quoted too ('ADP
            # Clients must be given choice of Vendor.' between §1010's two), or the gap is marked when long
            numbers = list(range(first, last + 1)) if last - first <= MAX_BETWEEN + 1 else [first, last]
            gap = " " if len(numbers) == last - first + 1 else " … "
            scored = [s for s in scored if s[1] not in numbers or s[1] == best]
        b = self.units[best].block
        if (
            numbers == [best]
            and best > 0
            and self.units[best - 1].block is b
            and _EXCEPTS_PREVIOUS.search(self.units[best].text)
        ):
            numbers = [best - 1, best]  # an exception is quoted with the rule it excepts
        text = gap.join(self.units[n].text for n in numbers)
        out = [
            PolicyQuote(
                b.source,
                b.ref,
                b.page,
                text,
                best_evidence + 2.0,
                other_party=best in others,
                off_clause=all(n in off_clause for n in numbers if n in evidence_of),
            )
        ]
        for _, n in scored[1:]:
            other = self.units[n].block
            text = self.units[n].text
            out.append(
                PolicyQuote(
                    other.source,
                    other.ref,
                    other.page,
                    text,
                    evidence_of[n] + 2.0,
                    other_party=n in others,
                    off_clause=n in off_clause,
                )
            )
        return out


def _neighbourhood(cosines: np.ndarray | None) -> set[int]:
    """The sentences whose meaning is nearest the question's: among the ``NEAREST``, within ``NEIGHBOURHOOD``."""
    if cosines is None or not len(cosines):
        return set()
    ranked = np.argsort(-cosines, kind="stable")[:NEAREST]
    top = float(cosines[ranked[0]])
    return {int(n) for n in ranked if cosines[n] >= top - NEIGHBOURHOOD}


# a numbered list's next number, left at the end of the sentence before it ('… for all invoices: 1.')
_TRAILING_NUMBER = re.compile(r"\s\d{1,2}\.$")
# a title the text repeats before its list ('Power Elevating Leg Rests 1. Decrease in swelling …'): no sentence
_TITLE = re.compile(r"^[A-Z0-9][\w’'/&()-]*(?: [A-Z0-9][\w’'/&()-]*)* ?$")  # words one space apart: no backtracking


def sentences(text: str) -> list[str]:
    """A block's sentences; a bulleted list becomes its lead-in plus each bullet. A title the text repeats before a
    numbered list is no sentence, and a list's next number is no part of the sentence it follows."""
    out: list[str] = []
    for sentence in _SENTENCE.split(" ".join(text.split())):
        sentence = _TRAILING_NUMBER.sub("", sentence)
        if _TITLE.match(sentence):
            continue
        if "•" not in sentence:
            out.append(sentence.strip())
            continue
        lead, *bullets = sentence.split("•")
        lead = lead.strip()
        for bullet in bullets:
            subhead = _SUBHEAD.search(bullet)
            if subhead is not None:  # the bullets after it belong to the sub-heading, not to the first lead-in
                bullet = bullet[: subhead.start()]
            item = bullet.strip().rstrip(";,")
            if item:
                out.append(f"{lead} • {item}" if lead else item)
            if subhead is not None:
                lead = subhead.group(1).strip()
    return [s for s in out if len(s) >= 20]
