"""How relevant a hit is, as a probability a reader can use (0–1, and high / medium / low).

A fused rank score (reciprocal rank fusion, ~0.03) orders hits but says nothing about whether
a hit answers the query, and a cosine similarity means different things for different models
(e5 puts nearly everything above 0.8). So each hit's evidence — its dense similarity, where the
keyword (BM25) and dense retrievers ranked it, and how many of the query's keywords it holds —
goes through a logistic model fitted per embedding model on labelled query–passage pairs
(``benchmarks/fit_relevance.py``: BioASQ questions and their expert-chosen snippets). The
coefficients, and how well they were calibrated on held-out questions, are in
``relevance_models.toml`` beside this file. An embedder without a fitted model gets no
relevance (``None``): the hits are still ranked, they just do not claim a probability.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from curbside.types import RelevanceLabel, relevance_label

__all__ = ["Evidence", "RelevanceLabel", "RelevanceModel", "keyword_coverage", "relevance_label", "relevance_model"]

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STEM = 5  # keywords match by their first five letters: 'pregnancy' meets 'pregnant'
_MODELS = Path(__file__).with_name("relevance_models.toml")


@dataclass(frozen=True, slots=True)
class Evidence:
    similarity: float | None  # dense cosine similarity to the query
    dense_rank: int | None  # 1-based, None when the dense retriever did not return it
    lexical_rank: int | None  # 1-based, None when BM25 did not return it
    coverage: float  # share of the query's keywords the passage holds

    def features(self) -> list[float]:
        return [
            self.similarity if self.similarity is not None else 0.0,
            1.0 / self.dense_rank if self.dense_rank else 0.0,
            1.0 / self.lexical_rank if self.lexical_rank else 0.0,
            self.coverage,
        ]


FEATURES = ("similarity", "1/dense_rank", "1/lexical_rank", "keyword_coverage")


def keyword_coverage(keywords: list[str], text: str) -> float:
    """The share of ``keywords`` (lower-case) found in ``text``, matching on their first letters."""
    if not keywords:
        return 0.0
    words = {w[:_STEM] for w in _WORD.findall(text.casefold())}
    return sum(1 for k in keywords if k[:_STEM] in words) / len(keywords)


@dataclass(frozen=True)
class RelevanceModel:
    model_id: str
    intercept: float
    weights: tuple[float, ...]

    def probability(self, evidence: Evidence) -> float:
        z = self.intercept + sum(w * x for w, x in zip(self.weights, evidence.features(), strict=True))
        return 1.0 / (1.0 + math.exp(-z)) if z > -50 else 0.0


@cache
def _models() -> dict[str, RelevanceModel]:
    if not _MODELS.exists():
        return {}
    data = tomllib.loads(_MODELS.read_text(encoding="utf-8"))
    out: dict[str, RelevanceModel] = {}
    for entry in data.get("model", []):
        if tuple(entry["features"]) != FEATURES:
            continue  # fitted on other features: unusable, never misread
        out[entry["model_id"]] = RelevanceModel(entry["model_id"], float(entry["intercept"]), tuple(entry["weights"]))
    return out


def relevance_model(model_id: str) -> RelevanceModel | None:
    """The fitted model for an embedding model id, or None when none was fitted."""
    return _models().get(model_id)
