"""The extractive answer: the sentences of the top passages that best answer the question.

Used when no model is configured and as the fallback when the model fails. Each
sentence is quoted verbatim from its passage and ends with its [n], so every
claim can be checked against the source. Sentences are scored by the question's
terms they contain (weighted by rarity among the candidate sentences, with a
length norm as in BM25) plus a small prior for the passage's rank; the chosen
ones are shown grouped by passage, in the passage's own order, without repeats.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from curbside.sentences import split_sentences
from curbside.types import Citation, Passage

__all__ = ["ExtractiveAnswer", "Sentence", "extractive_answer", "terms"]

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
# Terms are cut to this many letters after suffix stripping, so word families meet:
# pregnant/pregnancy, diabetic/diabetes, hypertensive/hypertension
TERM_PREFIX = 6
MIN_WORDS = 4
MAX_CHARS = 600
# web-page furniture that survives HTML extraction: never an answer
_BOILERPLATE = re.compile(
    r"^(?:click|jump to|skip to|back to top|download|print this|share this|sign in|log in|subscribe)\b"
    r"|\bclick (?:here|to)\b",
    re.IGNORECASE,
)
HEADING_MAX_WORDS = 12
DUPLICATE_JACCARD = 0.6
RANK_PRIOR = 0.35  # a top passage's sentence needs less term overlap than a fifth passage's


def _stem(word: str) -> str:
    # light suffix stripping, then a prefix: "doses"/"dose", "treated"/"treat", "pregnant"/"pregnancy"
    if word[0].isdigit():
        return word
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: len(word) - len(suffix)] + keep
            break
    return word[:TERM_PREFIX]


def terms(text: str, *, question: bool = False) -> list[str]:
    words = _WORD.findall(text.lower())
    return [
        _stem(w)
        for w in words
        if w not in _STOP and not (question and w in _QUESTION_ONLY) and (len(w) > 1 or w.isdigit())
    ]


@dataclass(slots=True)
class Sentence:
    text: str
    rank: int  # index of its passage in the ranking
    position: int  # order inside the passage
    terms: frozenset[str]
    length: int
    score: float = 0.0


@dataclass(slots=True)
class ExtractiveAnswer:
    text: str
    citations: list[Citation]
    sentences: list[Sentence]


def passage_sentences(passage: Passage, rank: int) -> list[Sentence]:
    out: list[Sentence] = []
    for line in passage.body.splitlines():
        for raw in split_sentences(line):
            text = " ".join(raw.split())
            words = terms(text)
            if len(text.split()) < MIN_WORDS or len(text) > MAX_CHARS or _is_heading(text) or _BOILERPLATE.search(text):
                continue
            out.append(Sentence(text, rank, len(out), frozenset(words), len(words)))
    return out


def _is_heading(text: str) -> bool:
    # a short line without closing punctuation or a comma is a heading or a table cell, not a claim
    closed = text.rstrip("\"'”’)]").endswith((".", "!", "?", ":", ";"))
    return len(text.split()) < HEADING_MAX_WORDS and not closed and "," not in text


def _score(candidates: list[Sentence], query_terms: set[str]) -> None:
    n = len(candidates)
    df = Counter(t for s in candidates for t in s.terms if t in query_terms)
    average = sum(s.length for s in candidates) / max(n, 1)
    for s in candidates:
        overlap = sum(math.log(1 + n / df[t]) for t in s.terms & query_terms)
        norm = 0.5 + 0.5 * s.length / max(average, 1.0)
        s.score = overlap / norm + (RANK_PRIOR / (1 + s.rank) if overlap else 0.0)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / max(len(a | b), 1)


def extractive_answer(question: str, passages: Sequence[Passage], max_sentences: int) -> ExtractiveAnswer:
    query_terms = set(terms(question, question=True))
    candidates = [s for rank, p in enumerate(passages) for s in passage_sentences(p, rank)]
    _score(candidates, query_terms)
    chosen: list[Sentence] = []
    for s in sorted(candidates, key=lambda s: (-s.score, s.rank, s.position)):
        if len(chosen) >= max_sentences or s.score <= 0:
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
