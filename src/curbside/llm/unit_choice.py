"""Which units of the top passages hold the answer: a logistic model over the extractive scorer's evidence.

The hand-written score of ``extractive.py`` (question words weighted by rarity, the kind of value asked, the
meaning cosine) ranks a unit that says the question's words above one that answers it in other words: "healthy
40M on paroxetine IR - how high can I go?" led with "GI bleeding (consider gastroprotective agent if high risk)"
while "Max: 50 mg daily" sat fourth. This model weighs that score together with the evidence behind it (each
signal as a feature) and was fitted on labelled units: every unit of the passages Curbside drew its answers from
for the answerable questions of the guideline QA sets, a unit being positive when it holds the question's gold
fact. ``benchmarks/fit_unit_choice.py`` fits it, reports its cross-validated effect (one set left out at a time)
and writes ``unit_choice.json``.

Features are computed among one question's units only (shares of the best, places in the order), so the
weights do not depend on how long a document or a passage is.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from curbside.llm.extractive import (
    LABEL_LINE,
    Sentence,
    answer_kind,
    asks_quantity,
    asks_whether,
    question_terms,
    terms,
)

__all__ = ["FEATURES", "UnitChoice", "choice_features", "load_unit_choice"]

FEATURES = (
    "score_share",  # the hand score as a share of the best unit's
    "score_place",  # 1 / (1 + its place when the units are ordered by the hand score)
    "meaning_gap",  # its meaning cosine minus the best unit's (MISSING_MEANING below the best where none is stored)
    "meaning_place",  # 1 / (1 + its place by meaning cosine)
    "rare_words",  # the question words it says, weighted by their rarity among the units, as a share of all
    "rare_words_in_context",  # the same, counting words of its section path and heading line
    "words_share",  # the share of the question's words it says, unweighted
    "passage_place",  # 1 / (1 + the rank of its passage)
    "relevance",  # its passage's calibrated relevance (0.5 where none)
    "kind_shown",  # the question asks a kind of value (a dose, a price, a time span) and it shows one
    "kind_missing",  # … and it shows none
    "has_number",
    "number_missing",  # the question asks a quantity and it has no number
    "list_item",  # a "Label: value" line of a list
    "listed",  # a short line listed under a heading
    "log_length",
    "opens_passage",
    "echo",  # fewer than two words beyond the question's
    "label_line",
    "rare_question_word",  # it says a question word that at most two units say
    "asks_whether",
    "asks_whether_rare_word",
    "unscored",  # the hand score is zero: no question word, not close in meaning
    "context_share",  # the share of the question's words its section path and heading line say
    "density",  # the share of its own words that are the question's
    "short",  # four words or fewer
    "refers_elsewhere",  # "(see section 915.04)": a pointer, not a fact
    "word_pairs",  # pairs of adjacent question words it says in the same order
)
MISSING_MEANING = 0.1
NO_RELEVANCE = 0.5
RARE_UNITS = 2
SHORT_WORDS = 4
_REFERS = re.compile(r"\bsee section\b|\(see ", re.I)


def choice_features(question: str, units: Sequence[Sentence], relevance: Sequence[float | None]) -> list[list[float]]:
    """One row of ``FEATURES`` per unit, in input order."""
    if not units:
        return []
    query = question_terms(question)
    ordered = terms(question, question=True)
    asked_pairs = set(zip(ordered, ordered[1:], strict=False))
    kind = answer_kind(question)
    quantity = asks_quantity(question)
    whether = asks_whether(question)
    n = len(units)
    df = Counter(t for u in units for t in (u.terms | u.context) if t in query)
    idf = {t: math.log(1 + n / df[t]) for t in df}
    total_idf = sum(idf.values()) or 1.0
    best = max(u.score for u in units)
    score_place = {id(u): i for i, u in enumerate(sorted(units, key=lambda u: -u.score))}
    cosines = [u.meaning for u in units if u.meaning is not None]
    top_cosine = max(cosines, default=0.0)
    meaning_place = {
        id(u): i
        for i, u in enumerate(sorted((u for u in units if u.meaning is not None), key=lambda u: -(u.meaning or 0)))
    }
    rows = []
    for u in units:
        own = u.terms & query
        said = (u.terms | u.context) & query
        rare = any(df[t] <= RARE_UNITS for t in own)
        shown = kind is not None and bool(kind.search(u.text))
        words = terms(u.text)
        p = relevance[u.rank] if u.rank < len(relevance) else None
        cosine = u.meaning if u.meaning is not None else top_cosine - MISSING_MEANING
        rows.append([
            u.score / best if best > 0 else 0.0,
            1.0 / (1 + score_place[id(u)]),
            cosine - top_cosine,
            1.0 / (1 + meaning_place.get(id(u), 50)),
            sum(idf.get(t, 0.0) for t in own) / total_idf,
            sum(idf.get(t, 0.0) for t in said) / total_idf,
            len(own) / max(len(query), 1),
            1.0 / (1 + u.rank),
            p if p is not None else NO_RELEVANCE,
            float(shown),
            float(kind is not None and not shown),
            float(u.number),
            float(quantity and not u.number),
            float(u.item is not None),
            float(u.listed_under is not None),
            math.log(1 + u.length),
            float(u.position == 0),
            float(len(u.terms - query) < 2),
            float(bool(LABEL_LINE.match(u.text))),
            float(rare),
            float(whether),
            float(whether and rare),
            float(u.score <= 0),
            len(u.context & query) / max(len(query), 1),
            len(own) / max(len(u.terms), 1),
            float(u.length <= SHORT_WORDS),
            float(bool(_REFERS.search(u.text))),
            float(len(asked_pairs & set(zip(words, words[1:], strict=False)))),
        ])  # fmt: skip
    return rows


@dataclass(frozen=True)
class UnitChoice:
    """A fitted logistic model: standardised features, one weight each."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    intercept: float

    def __call__(self, question: str, units: Sequence[Sentence], relevance: Sequence[float | None]) -> list[float]:
        """The chance each unit holds the answer, in input order."""
        out = []
        for row in choice_features(question, units, relevance):
            z = self.intercept + sum(
                w * (x - m) / s for w, x, m, s in zip(self.weights, row, self.mean, self.scale, strict=True)
            )
            out.append(1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0))))
        return out


@cache
def load_unit_choice() -> UnitChoice | None:
    """The model ``fit_unit_choice.py`` wrote, or None where its file is absent or fitted on other features."""
    try:
        data = json.loads(resources.files("curbside.llm").joinpath("unit_choice.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    if tuple(data["features"]) != FEATURES:
        return None  # features changed since the fit: the hand score alone until it is refitted
    return UnitChoice(
        features=FEATURES,
        mean=tuple(data["mean"]),
        scale=tuple(data["scale"]),
        weights=tuple(data["weights"]),
        intercept=float(data["intercept"]),
    )
