"""The extractive answer: the units of the top passages that best answer the question.

Used when no model is configured and as the fallback when the model fails. A unit
is a sentence of a passage line; a list item, table row or "Label: value" line keeps
its own line through loading and chunking, so it is a candidate like any sentence. Each unit is quoted verbatim and ends with its [n], so every claim can
be checked against the source.

A unit is scored by the question's terms it contains (weighted by rarity among the
candidates, with a length norm as in BM25), plus half weight for terms found only in
its context: the passage's section path and the nearest heading line above it
("Sertraline > Dosing" makes "Initial: 25-50 mg daily" an answer to "sertraline
starting dose?"). A number in the unit counts when the question asks for a
quantity; the passage's rank and calibrated relevance add a small prior. Units far
below the best one are left out rather than padding the answer with other topics.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from curbside.sentences import split_sentences
from curbside.types import Citation, Passage

__all__ = ["ExtractiveAnswer", "Sentence", "extractive_answer", "passage_units", "terms"]

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
    "start": "start", "initial": "start", "initia": "start", "begin": "start", "beginn": "start",
    "max": "max", "maximu": "max", "maxima": "max", "highes": "max", "highest": "max",
    "dos": "dose", "dosage": "dose", "dosing": "dose",
    "older": "older", "elderl": "older", "geriat": "older",
    "child": "child", "childr": "child", "pediat": "child", "paedia": "child",
    "usual": "usual", "typica": "usual", "mainte": "usual",
}
# Terms are cut to this many letters after suffix stripping, so word families meet:
# pregnant/pregnancy, diabetic/diabetes, hypertensive/hypertension
TERM_PREFIX = 6
MIN_WORDS = 3
MAX_CHARS = 600
HEADING_MAX_WORDS = 6
CONTEXT_WEIGHT = 0.5  # a question term found only in the unit's section path or heading line
QUANTITY_BONUS = 0.6  # a number in the unit when the question asks how much, how long, which dose …
FOLLOW_SHARE = 0.45  # units scoring under this share of the best one are left out
DUPLICATE_JACCARD = 0.6
RANK_PRIOR = 0.35  # a top passage's unit needs less term overlap than a fifth passage's
# web-page furniture that survives HTML extraction: never an answer
_BOILERPLATE = re.compile(
    r"^(?:click|jump to|skip to|back to top|download|print this|share this|sign in|log in|subscribe)\b"
    r"|\bclick (?:here|to)\b",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^[A-Z][^:.;]{0,48}:\s+\S")
_DIGIT = re.compile(r"\d")
_QUANTITY_CUE = re.compile(
    r"\b(?:how (?:much|many|long|often|old)|dos(?:e|es|ing|age)|max(?:imum)?|minimum|starting|initial|rate|"
    r"percent(?:age)?|prevalence|incidence|fee|cost|price|duration|threshold|target|level|age|years?|months?|"
    r"weeks?|days?|when)\b",
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


def terms(text: str, *, question: bool = False) -> list[str]:
    lowered = text.lower()
    words = _WORD.findall(lowered)
    out = [
        _stem(w)
        for w in words
        if w not in _STOP and not (question and w in _QUESTION_ONLY) and (len(w) > 1 or w.isdigit())
    ]
    if question and "how long" in lowered:
        out.append("durati")  # "how long to continue …" asks for the duration
    return out


@dataclass(slots=True)
class Sentence:
    """One answer candidate: a line or sentence of a passage, with the terms of its context."""

    text: str
    rank: int  # index of its passage in the ranking
    position: int  # order inside the passage
    terms: frozenset[str]
    length: int
    context: frozenset[str] = frozenset()  # terms of the section path and the heading line above it
    number: bool = False
    score: float = 0.0


@dataclass(slots=True)
class ExtractiveAnswer:
    text: str
    citations: list[Citation]
    sentences: list[Sentence]


def passage_units(passage: Passage, rank: int) -> list[Sentence]:
    """The passage's answer candidates in order; heading-like lines become context, not candidates."""
    path_terms = frozenset(terms(passage.section_path))
    heading: frozenset[str] = frozenset()
    out: list[Sentence] = []
    for line in passage.body.splitlines():
        text = " ".join(line.split())
        if not text:
            continue
        if _is_heading(text) and not _BOILERPLATE.search(text):
            heading = frozenset(terms(text))
            continue
        label = _LABEL.match(text)
        context = path_terms | heading
        for i, raw in enumerate(split_sentences(text)):
            piece = " ".join(raw.split())
            if not _candidate(piece):
                continue
            words = terms(piece)
            if i and label:  # later sentences of a "Label: …" line are still about the label
                context |= frozenset(terms(text[: text.index(":")]))
            out.append(Sentence(piece, rank, len(out), frozenset(words), len(words), context, bool(_DIGIT.search(piece))))
    return out


# kept under its old name for callers that read sentences
passage_sentences = passage_units


def _is_heading(text: str) -> bool:
    """A short title-like line ("Dosing", "Treatment duration", "Onset of action") or a lead-in ending
    in a colon: it says what the lines under it are about, and is no answer itself."""
    if text.endswith(":"):
        return True
    if _LABEL.match(text) or _DIGIT.search(text):
        return False
    closed = text.rstrip("\"'”’)]").endswith((".", "!", "?", ";"))
    return len(text.split()) <= HEADING_MAX_WORDS and not closed


def _candidate(text: str) -> bool:
    n_words = len(text.split())
    if len(text) > MAX_CHARS or _BOILERPLATE.search(text):
        return False
    # "Depression: 2-4 weeks" and "Max: 200 mg daily" are short and whole
    return n_words >= MIN_WORDS or (n_words >= 2 and bool(_DIGIT.search(text)) and bool(_LABEL.match(text)))


def _score(candidates: list[Sentence], query_terms: set[str], relevance: Sequence[float | None], quantity: bool) -> None:
    n = len(candidates)
    df = Counter(t for s in candidates for t in (s.terms | s.context) if t in query_terms)
    average = sum(s.length for s in candidates) / max(n, 1)
    for s in candidates:
        own = s.terms & query_terms
        overlap = sum(math.log(1 + n / df[t]) for t in own)
        overlap += CONTEXT_WEIGHT * sum(math.log(1 + n / df[t]) for t in (s.context & query_terms) - own)
        if not overlap:
            s.score = 0.0
            continue
        norm = 0.5 + 0.5 * s.length / max(average, 1.0)
        score = overlap / norm + RANK_PRIOR / (1 + s.rank)
        if quantity and s.number:
            score += QUANTITY_BONUS
        p = relevance[s.rank]
        s.score = score * (0.6 + 0.4 * p) if p is not None else score


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / max(len(a | b), 1)


def extractive_answer(question: str, passages: Sequence[Passage], max_sentences: int) -> ExtractiveAnswer:
    query_terms = set(terms(question, question=True))
    candidates = [s for rank, p in enumerate(passages) for s in passage_units(p, rank)]
    quantity = bool(_QUANTITY_CUE.search(question))
    _score(candidates, query_terms, [p.relevance for p in passages], quantity)
    chosen: list[Sentence] = []
    ranked = sorted(candidates, key=lambda s: (-s.score, s.rank, s.position))
    best = ranked[0].score if ranked else 0.0
    for s in ranked:
        if len(chosen) >= max_sentences or s.score <= 0 or s.score < FOLLOW_SHARE * best:
            break
        if any(_jaccard(s.terms, c.terms) > DUPLICATE_JACCARD or s.text == c.text for c in chosen):
            continue
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
    return ExtractiveAnswer(" ".join(lines), citations, chosen)


def _excerpt(rank: int, chosen: list[Sentence], limit: int = 400) -> str:
    text = " ".join(s.text for s in chosen if s.rank == rank)
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"
