"""How close in meaning each answer unit is to the question, by the search engine's own embedder.

The extractive answer scores units by the question's words; a unit that says the same thing in other words
("increase physical activity" for "does more exercise help?") needs meaning. ``llm/`` may not reach the search
engine, so the asker hands ``extractive_answer`` this function. The question is embedded once, on first use,
as a query and the units as passages (e5's asymmetric prefixes), in one batch.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from curbside.llm.extractive import Similarity
from curbside.search.embedders.base import Embedder

__all__ = ["unit_similarity"]

log = logging.getLogger(__name__)


def unit_similarity(embedder: Embedder, question: str) -> Similarity:
    """The cosine similarity of each text to ``question``. An embedder that fails gives no similarity (all
    zeros, which the extractive answer reads as "no meaning to add"): the words alone still answer."""
    query: list[np.ndarray] = []

    def similarity(texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        try:
            if not query:
                query.append(embedder.embed_query(question))
            vectors = embedder.embed_passages(list(texts))
        except Exception as exc:  # a remote embedder down, a timeout: answer on words alone
            log.warning("unit embedding failed (%s); the answer is chosen by its words alone", exc)
            return [0.0] * len(texts)
        return [float(v) for v in vectors @ query[0]]

    return similarity
