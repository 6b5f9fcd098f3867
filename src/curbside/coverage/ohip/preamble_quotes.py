"""Sentences of the Schedule's own prose that answer a payment question naming no code.

"How often can the same doctor bill a consultation for the same diagnosis?", "what percentage of the
in-person fee is paid for a phone visit?", "how much is the hospitalist premium?" are answered by one
sentence of the General Preamble or of a section's definitions, not by a fee code. The index holds every
sentence of the stored Schedule passages (joined back across passage boundaries, which cut mid-sentence),
each with its page and the headings it sits under. A question is matched to the sentences that say the kind
of thing it asks (a limit, a time, whether it is payable, a percentage, a claim indicator) and share the
most of its words by weight; the sentence is quoted with its page, never paraphrased.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from curbside.coverage.ohip.query import STOP, schedule_words, stem, words_of
from curbside.coverage.ohip.rule_conditions import CONDITIONS, condition_word, conditions_asked, without_stated
from curbside.coverage.ohip.rule_quotes import ASKS, CLERK_STOP, MIN_PREFIX, SAYS, asked_rule_kinds

__all__ = ["LABEL", "PreambleQuote", "SentenceIndex", "asked_kinds", "question_stems"]

MAX_QUOTE_CHARS = 600
CONTEXT_SENTENCES = 8  # the rules under a heading lead in with what they are about: 'The focused practice
# psychotherapy premium is payable automatically …', then definitions, then 'increased by 17%'
QUANTITY_BONUS = 0.15  # of the question's word weight
KIND_BONUS = 0.05
CODE_WEIGHT = 2.0  # a code the question names, in median word weights (half when named the sentence before)
CONTEXT_CODES = 1
TITLED_CODES = 4  # a sentence naming at most this many codes is about their services: their titles are its context
MIN_SENTENCE_CHARS = 30
_QUANTITY_KINDS = frozenset({"limit", "time", "percent"})
_QUALIFYING = re.compile(r"\b(?:qualifying|eligible) (?:services|codes|fee codes)\W{0,3} means\b", re.I)

# kinds of question the code's own rule quotes do not cover: a premium's percentage, what goes on the claim
_ASKS_MORE = {
    "percent": re.compile(r"\b(percent\w*|per cent|premium)\b|%", re.I),
    "claim": re.compile(r"\b(indicator|suffix|on the claim)\b", re.I),
}
_SAYS_MORE = {
    "percent": re.compile(r"\d+(\.\d+)?\s?%|\d+ per cent", re.I),
    "claim": re.compile(r"\b(indicator|identif\w+|suffix)\b", re.I),
}
_CODE = re.compile(r"(?<![A-Za-z0-9])([A-Z]\d{3})(?![0-9])")
_HEADING_LINE = re.compile(r"^[A-Z][A-Z'’,/&() -]{8,80}$")  # a line in capitals: a heading
_KINDS = (*ASKS, *_ASKS_MORE)
_PAGE_MARK = re.compile(r"^\x00page (\S+)$")  # where a run of passages turns a page
_PAGE = re.compile(r"\[([A-Z]{1,2}\d+)\]")
_SPLIT = re.compile(
    r"\s+(?=(?:Notes?|Payment rules|Commentary|Claims submission instructions|Medical record requirements):)|"
    r"(?<=[.;\]])\s+(?=(?:\d{1,2}\.\s?)?[A-Z\"“\[])|\s+(?=\[Commentary)"
    r"|(?<=[a-z)\d])\s+(?=\d{1,2}\.\s[A-Z][a-z]+\s)"  # '… 16 years of age 2. Despite …', '… K730 2. Individual …'
)
_LIST_MARK = re.compile(
    r"(?:^|\s)(?:[a-z]|[ivx]{1,4}|\d{1,2})\.$"
)  # 'a.', 'ii.', '3.' end a fragment: not a sentence end
_TITLED = re.compile(r"^#? ?([A-Z]\d{3}) ([^\n]+?): (?:\$|fee |I\.C|add |no fee)", re.M)
_LETTER_PREFIX = re.compile(r"\b([a-z])-(?=[a-z]{3})", re.I)  # 'e-consultation' is one word, not 'e' and a consultation
_POSSESSIVE = re.compile(r"['’]s?\b")
_LISTING_LINE = re.compile(
    r"^#? ?[A-Z]\d{3} [^\n]*: (\$[\d,.]+|fee unknown|fee not aligned[^\n]*|I\.C\.?|add [\d.]+%)", re.M
)
_QUANTITY = re.compile(
    r"\b(\d+|one|two|three|four|five|six)\s*(\(\d+\)\s*)?(minutes?|units?|services?|per|months?|weeks?|days?|hours?|%|per cent)|\d%",
    re.I,
)
LABEL = re.compile(r"^(definitions?|payment rules|notes?|commentary|claims submission instructions?)\s*:?\s*$", re.I)
# which premium is asked matters here: 'age premium', 'hospitalist premium' (a code's title rarely says it)
_STOP = (STOP - {"premium", "premiums"}) | CLERK_STOP
_PERCENTAGE = stem("percentage")
# a clerk's word -> the Schedule's word for the same thing, in questions and sentences alike: the rules say
# what is payable (a clerk what gets paid), an examination, laboratory work ('normal lab work', A64), nevi,
# a refraction
_RULE_WORDS = {
    "paid": "payable",
    "exam": "examination",
    "exams": "examination",
    "lab": "laboratory",
    "labs": "laboratory",
    "bloodwork": "laboratory",
    "mole": "nevi",
    "moles": "nevi",
    "nevus": "nevi",
    "naevus": "nevi",
    "naevi": "nevi",
    # glasses are prescribed after a refraction ('Assessments rendered solely for the purpose of refraction …', A8)
    "glasses": "refract",
    "eyeglasses": "refract",
    "spectacles": "refract",
}
# a rule whose subject is 'this service' is about the service its heading names ('Re-assessment' > '2.This
# service is limited to three per patient per day …', A12): the heading's words are the sentence's own
_THIS_SERVICE = re.compile(
    r"^(?:(?:payment rules|notes?)\s*:\s*)?(?:\d{1,2}\.\s?)?(?:this|the|these) (?:services?|fee codes?|codes?)\b", re.I
)
# 'back' after a verb of coming or calling is no body part: 'her bloodwork came back normal'
_PARTICLE = re.compile(r"\b((?:came|come|comes|coming|got|get|gets|call|calls|called|went|go|goes) )back\b", re.I)
FOLLOWER_RARE = 100  # a word at most one sentence in this many holds ('symptomatology'), …
RARE_FLOOR = 2  # … or at most this many (in a small index every word is in one sentence of a few)
SIBLING_RARE = 100  # … when the word itself is in at most one sentence in this many
SIBLING_COMMON = 20  # … and meets no word in more than one sentence in this many
SIBLING_MIN = 7  # a question word this long meets the words its all-but-last letters begin: 'pregnant' 'pregnancy'
SIBLING_EXTRA = 1  # … no longer than it by more than this: 'suspiciou' meets 'suspicion', 'hyaluronic' does
# not meet 'hyaluronidase'
_GENERIC = frozenset(stem(w) for w in "patient patients physician doctor service services fee fees".split())


@dataclass(frozen=True, slots=True)
class PreambleQuote:
    text: str
    page: str
    topic: str  # the headings it sits under, 'GP: Consultations > CONSULTATION'
    score: float  # share of the question's word weight the sentence and its headings hold
    codes: frozenset[str]  # the codes the whole sentence (or the one before it) names
    # it holds a word or condition of the question besides the codes it names (or the question says nothing
    # else): a K045 rule that lists K013 among its prerequisites says nothing about "K013 for a 5 minute chat"
    worded: bool = True
    # the share it was ranked by, not capped at 1 (a condition it sets counts beyond the question's words): two
    # sentences that both hold all of the question are no tie when one also states the quantity asked
    rank: float | None = None  # None: ranked by ``score``

    @property
    def ranked_by(self) -> float:
        return self.score if self.rank is None else self.rank


@dataclass(frozen=True, slots=True)
class _Sentence:
    text: str
    page: str
    topic: str
    words: frozenset[str]
    topic_words: frozenset[str]  # its headings' words and the sentences before's
    codes: frozenset[str]
    codes_near: frozenset[str]  # named by the sentence before it (a numbered rule under rules naming them)
    says: frozenset[str]  # the kinds of thing it states: limit, time, payable, percent, claim
    quantity: bool  # it states a quantity ('3 units', '20 minutes', '17%')
    sets: frozenset[str]  # the conditions it sets: age, together, modality, location (``rule_conditions``)


def asked_kinds(question: str) -> list[str]:
    """What a question asks for that a sentence can state: limit, time, payable, percent, claim."""
    kinds = asked_rule_kinds(question)
    return kinds + [kind for kind, pattern in _ASKS_MORE.items() if pattern.search(question)]


def _says(kind: str, text: str) -> bool:
    return bool((SAYS.get(kind) or _SAYS_MORE[kind]).search(text))


def _stems(text: str) -> frozenset[str]:
    plain = words_of(_POSSESSIVE.sub("", _LETTER_PREFIX.sub(r"\1", text)))
    words = {stem(_RULE_WORDS.get(w, w)) for w in schedule_words(plain) if w not in _STOP and len(w) > 2}
    if _SAYS_MORE["percent"].search(text):
        words.add(_PERCENTAGE)  # '85%' is a percentage
    return frozenset(words)


def _sentences(body: str) -> list[str]:
    out: list[str] = []
    for piece in _SPLIT.split(body):
        if out and _LIST_MARK.search(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


class SentenceIndex:
    """Every sentence of the Schedule's passages, with its page and headings, findable by its words."""

    def __init__(self, passages: Iterable[tuple[str, str, str]]) -> None:
        """``passages``: (doc_key, section_path, text) in stored order (a passage's text starts with its title path)."""
        self.sentences: list[_Sentence] = []
        passages = list(passages)
        titles = _titles(passages)
        for topic, first_page, body in _runs(passages):
            before: list[frozenset[str]] = []
            codes_before: list[frozenset[str]] = []
            for heading, page, part in _under_headings(body, first_page):
                words_of_topic = _stems(f"{topic} {heading}")
                named_by_heading = _stems(heading or topic.rsplit(" > ", 1)[-1])
                qualifying: frozenset[str] = frozenset()  # the codes a premium's definitions name
                for raw in _sentences(" ".join(_LISTING_LINE.sub(" ", part).split())):
                    if len(raw) < MIN_SENTENCE_CHARS:
                        continue
                    words, codes = _stems(raw), frozenset(_CODE.findall(raw))
                    if _THIS_SERVICE.match(raw):
                        words |= named_by_heading
                    # the sentences before are its context: '… following a written request …' | 'In the event these
                    # requirements are not met, … a lesser assessment fee.'
                    context = words_of_topic.union(*before[-CONTEXT_SENTENCES:])
                    if len(codes) <= TITLED_CODES:
                        # 'G552 is not eligible for payment on the same day as G378' is about removing and inserting
                        # an IUD: the words are in the codes' titles (J47)
                        context = context.union(*(titles.get(code, frozenset()) for code in codes))
                    if _QUALIFYING.search(raw):
                        qualifying = codes
                    # a premium's rules under its heading are about the services its definitions name: '"Qualifying
                    # services" means A133, A134, A131, and A138.' … 'increased by 12% for the qualifying services' (A123)
                    near = frozenset().union(*codes_before[-CONTEXT_CODES:]) | qualifying
                    says = frozenset(kind for kind in _KINDS if _says(kind, raw))  # read once, not per question
                    quantity = bool(_QUANTITY.search(raw))
                    sets = frozenset(name for name, (_, sets_it) in CONDITIONS.items() if sets_it.search(raw))
                    # a condition the sentence sets is a word of it ('<age>'), weighed by how rare it is
                    own = words | {condition_word(name) for name in sets}
                    self.sentences.append(
                        _Sentence(raw, page, topic, own, context, codes, near - codes, says, quantity, sets)
                    )
                    before.append(words)
                    codes_before.append(codes)
        self.by_word: dict[str, list[int]] = defaultdict(list)
        self.by_code: dict[str, list[int]] = defaultdict(list)
        self.near_code: dict[str, list[int]] = defaultdict(list)
        for n, sentence in enumerate(self.sentences):
            for word in sentence.words | sentence.topic_words:
                self.by_word[word].append(n)
            for code in sentence.codes:
                self.by_code[code].append(n)
            for code in sentence.codes_near:
                self.near_code[code].append(n)
        total = max(len(self.sentences), 1)
        self.weight = {word: math.log(1 + total / len(ns)) for word, ns in self.by_word.items()}
        weights = sorted(self.weight.values())
        self.median = weights[len(weights) // 2] if weights else 1.0
        self.vocabulary = sorted(self.by_word)

    def split(self, words: Iterable[str]) -> list[str]:
        """``words``, a compound the index lacks as its two parts ('toenails': 'toe', 'nail'; the Schedule
        writes 'TOE-NAIL')."""
        out: list[str] = []
        for word in words:
            parts = next(
                (
                    (word[:n], stem(word[n:]))
                    for n in range(3, len(word) - 2)
                    if word[:n] in self.by_word and stem(word[n:]) in self.by_word
                ),
                None,
            )
            out += parts if parts and word not in self.by_word and not self._meeting(word) else [word]
        return out

    def _meeting(self, word: str) -> list[str]:
        """The index's words that meet ``word``: itself and the words it begins ('consult': 'consultation'); a
        word the index lacks, the longest word that begins it ('psychotherapeutic': 'psychotherapeut'). Not the
        words beginning a word it holds: 'hospitalist' is not a 'hospital'."""
        if len(word) < MIN_PREFIX:
            return [word] if word in self.by_word else []
        start = bisect.bisect_left(self.vocabulary, word)
        out: list[str] = []
        for other in self.vocabulary[start:]:
            if not other.startswith(word):
                break
            out.append(other)
        held = sum(len(self.by_word[other]) for other in out)
        if len(word) >= SIBLING_MIN and held <= self._few(SIBLING_RARE):
            # only for a word the Schedule rarely writes: a common one ('healthy') is asked in its own form
            # the same word in another derivation: 'pregnant' meets 'pregnancy', 'suspicious' 'suspicion'
            start = bisect.bisect_left(self.vocabulary, word[:-1])
            for other in self.vocabulary[start:]:
                if not other.startswith(word[:-1]):
                    break
                common = len(self.by_word[other]) > self._few(SIBLING_COMMON)  # 'healthy' is no 'health'
                if other not in out and len(other) <= len(word) + SIBLING_EXTRA and not common:
                    out.append(other)
        shorter = [word[:n] for n in range(len(word) - 1, MIN_PREFIX - 1, -1) if word[:n] in self.by_word]
        return out or shorter[:1]

    def postings(self, word: str) -> tuple[float, dict[int, bool]]:
        """(weight, sentence -> whether the sentence itself holds it) of ``word`` and the words meeting it,
        taken as one word: its weight is that of the union of the sentences holding any of them."""
        holds: dict[int, bool] = {}
        for other in self._meeting(word):
            for n in self.by_word[other]:
                holds[n] = holds.get(n, False) or other in self.sentences[n].words
        if not holds:
            return 0.0, holds
        return math.log(1 + max(len(self.sentences), 1) / len(holds)), holds

    def quotes(self, question: str, codes: Iterable[str] = (), limit: int = 2) -> list[PreambleQuote]:
        """The sentences that say what ``question`` asks and share the most of its words (and the ``codes`` it
        names), best first."""
        kinds = asked_kinds(question)
        wanted = question_stems(self, question)
        codes = list(dict.fromkeys(codes))
        if not kinds or not (wanted or codes):
            return []
        code_weight = CODE_WEIGHT * self.median  # a code named is worth two ordinary words
        postings = {w: self.postings(w) for w in wanted}
        # a word the Schedule never uses ('cottage', 'Synvisc') no sentence can hold: it counts, but half
        total = sum(postings[w][0] or self.median / 2 for w in wanted) + code_weight * len(codes)
        # a condition the question states (an age, the same visit, out of province) is a word of the sentences that
        # set it, weighed by how rare they are; one the answer need not speak to ('healthy 45 yo … pre-op ECG')
        # takes nothing from the others
        conditions = [condition_word(name) for name in sorted(conditions_asked(question))]
        postings |= {w: self.postings(w) for w in conditions}
        wanted += conditions
        scores: dict[int, float] = defaultdict(float)
        for code in codes:
            for n in self.by_code.get(code, ()):
                scores[n] += code_weight
            for n in self.near_code.get(code, ()):
                scores[n] += code_weight / 2
        worded: set[int] = set()
        for word in wanted:
            weight, holds = postings[word]
            for n, own in holds.items():
                # a word in the sentence itself counts fully; in its headings or the sentence before only, half
                scores[n] += weight if own else weight / 2
                worded.add(n)
        ranked: list[tuple[float, int, int]] = []
        # a number answers 'how many', 'how long', 'what percent'; not 'can I bill it?'
        counts = bool(_QUANTITY_KINDS.intersection(kinds))
        for n, score in scores.items():
            sentence = self.sentences[n]
            says = len(sentence.says.intersection(kinds))
            if says:
                # then the sentence that states a quantity, then says more of what is asked, then the shorter
                bonus = QUANTITY_BONUS * (sentence.quantity and counts) + KIND_BONUS * says
                ranked.append((score + bonus * total, len(sentence.text), n))
        ranked.sort(key=lambda item: (-item[0], item[1], item[2]))
        out: list[PreambleQuote] = []
        seen: set[str] = set()
        for ranked_score, _, n in ranked:
            sentence, score = self.sentences[n], scores[n]
            if sentence.text in seen:
                continue
            seen.add(sentence.text)
            text = _window(sentence.text, kinds, wanted)
            follower = self._follower(n, kinds)
            if follower is not None and len(text) + len(follower.text) < MAX_QUOTE_CHARS:
                seen.add(follower.text)
                text = f"{text} {follower.text}"
            out.append(
                PreambleQuote(
                    text,
                    sentence.page,
                    sentence.topic,
                    min(score / total, 1.0),
                    sentence.codes | sentence.codes_near,
                    worded=n in worded or not wanted,
                    rank=ranked_score / total if total else 0.0,
                )
            )
            if len(out) >= limit:
                break
        return out

    def _follower(self, n: int, kinds: list[str]) -> _Sentence | None:
        """The sentence after sentence ``n`` when it goes on with the same rule: under the same headings, it says
        what is asked too and shares a rare word with it ('Vasectomy reversal is an insured benefit only
        for treatment of significant symptomatology …' | 'Re-establishing fertility does not constitute
        significant symptomatology.', U5)."""
        if n + 1 >= len(self.sentences):
            return None
        sentence, after = self.sentences[n], self.sentences[n + 1]
        if after.topic != sentence.topic or not after.says.intersection(kinds):
            return None
        shared = (sentence.words & after.words) - _GENERIC
        return after if any(len(self.by_word[w]) <= self._few(FOLLOWER_RARE) for w in shared) else None

    def _few(self, per: int) -> int:
        """How many sentences one in ``per`` is, and never fewer than ``RARE_FLOOR``."""
        return max(RARE_FLOOR, len(self.sentences) // per)


def question_stems(index: SentenceIndex, question: str) -> list[str]:
    """The stems of ``question`` a sentence is matched by (no codes, no conditions it states, no generic words)."""
    plain = without_stated(_PARTICLE.sub(r"\1", _CODE.sub(" ", question)))
    return [w for w in dict.fromkeys(index.split(_stems(plain))) if w not in _GENERIC]


def _titles(passages: list[tuple[str, str, str]]) -> dict[str, frozenset[str]]:
    """Code -> its title's words, from the passages' listing lines ('G378 Insertion of intrauterine …: $39.95')."""
    out: dict[str, set[str]] = defaultdict(set)
    for _, _, text in passages:
        for code, title in _TITLED.findall(text):
            out[code] |= _stems(title)
    return {code: frozenset(words) for code, words in out.items()}


def _under_headings(body: str, page: str) -> list[tuple[str, str, str]]:
    """(heading, page, text) of a passage run cut at its capitalised heading lines ('FOCUSED PRACTICE
    PSYCHOTHERAPY PREMIUM' heads the rules below it, which never name it) and at its page marks."""
    out: list[tuple[str, str, list[str]]] = [("", page, [])]
    for line in body.splitlines():
        mark = _PAGE_MARK.match(line)
        if mark:
            out.append((out[-1][0], mark.group(1), []))
        elif _HEADING_LINE.match(line.strip()):
            out.append((line.strip(), out[-1][1], []))
        else:
            out[-1][2].append(line)
    return [(heading, at, "\n".join(lines)) for heading, at, lines in out if any(x.strip() for x in lines)]


def _window(text: str, kinds: list[str], wanted: list[str]) -> str:
    """``text``, or a long sentence's part where it says what is asked among the most of the question's words
    (a premium table's row 'Focused practice psychotherapy premium 17%', not its first row)."""
    if len(text) <= MAX_QUOTE_CHARS:
        return text
    spots = [m.start() for kind in kinds for m in (SAYS.get(kind) or _SAYS_MORE[kind]).finditer(text)]
    reach = MAX_QUOTE_CHARS // 3

    def near(at: int) -> int:
        return len(set(wanted) & _stems(text[max(0, at - reach) : at + reach]))

    at = max(spots, key=lambda spot: (near(spot), -spot), default=0)
    start = max(0, at - reach)
    start = text.rfind(" ", 0, start) + 1 if start else 0
    end = text.find(" ", start + MAX_QUOTE_CHARS)
    return ("… " if start else "") + (text[start:end] + " …" if end > 0 else text[start:])


def _runs(passages: Iterable[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """(topic, first page, body) of consecutive passages under one heading, their bodies joined (a page mark
    line where the page turns): the chunker cuts a rule mid-sentence ('… the amount' | 'payable to a physician
    shall be … increased by 17%'), and a heading's rules run over pages."""
    runs: list[tuple[str, str, str]] = []
    key: tuple[str, str] | None = None
    last_page = ""
    for doc_key, section_path, text in passages:
        head, _, body = text.partition("\n\n")
        if not body:
            head, body = "", text
        topic = _PAGE.sub("", head.split(" — ", 1)[-1]).strip()
        found = _PAGE.search(section_path) or _PAGE.search(body[:200])
        page = found.group(1) if found else ""
        here = (doc_key, _PAGE.sub("", section_path).strip())
        if key == here and runs:
            last_topic, first_page, last_body = runs[-1]
            turn = f"\n\x00page {page}" if page and page != last_page else ""
            runs[-1] = (last_topic, first_page or page, f"{last_body}{turn}\n{body}")
        else:
            heading = topic.rsplit(" > ", 1)[-1]
            if LABEL.match(heading) and runs and runs[-1][0] and key and key[0] == doc_key:
                # 'Definitions:' names no topic: the block belongs to the heading before it ('HOSPITALIST PREMIUM')
                topic = f"{runs[-1][0]} > {heading}"
            runs.append((topic, page, body))
        key, last_page = here, page or last_page
    return runs
