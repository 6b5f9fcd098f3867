"""What an ADP question means, beside its words: the manuals' sentences and the device categories nearest it.

"pt's teen son wrecked her walker goofing around on it" shares no word with "damaged due to misuse or
negligence"; "pressure-relieving mattress" is no term of the loaded vocabulary, yet plainly one of
Pressure Modification Devices. A MiniLM (the process's, ``ohip.dense_titles.title_embedder``) embeds every
sentence of the loaded manuals and every §105.05 category (its name and its vocabulary terms) once per
edition, at ``coverage load`` (cached in the home; warm-up reads them back); a call embeds its question once
(~10 ms) and takes one matrix product per table.

The meaning finds the neighbourhood, the words choose within it (``policy_quotes.PolicyIndex.quotes``); a
category is recognised by meaning only when it is clearly nearer than every other (``nearest_category``).
Without the model or the vectors (not warmed up) every call answers by words alone.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from curbside.errors import CurbsideError

if TYPE_CHECKING:
    from curbside.search.embedders.base import Embedder

__all__ = ["AdpMeaning", "MeaningVectors", "QuestionMeaning"]

log = logging.getLogger("curbside.coverage.adp")

# a category named by meaning alone: its description this near the question, and this much nearer than the
# next category's ('pressure-relieving mattress/overlay' for a sacral ulcer: 0.44 to Pressure Modification
# Devices, 0.19 to the next; on the 63 ADP dev questions, those naming no category stay below 0.38 or within
# 0.08 of the next: 'which part of the ADP application does the doctor fill in?' is 0.37 to Respiratory Equipment)
CATEGORY_COSINE = 0.40
CATEGORY_MARGIN = 0.15


@dataclass(frozen=True, slots=True)
class MeaningVectors:
    """The edition's sentence and category vectors (L2-normalised rows)."""

    sentences: np.ndarray  # one row per sentence of the policy index, in its order
    categories: tuple[str, ...]
    category_matrix: np.ndarray


@dataclass(frozen=True, slots=True)
class QuestionMeaning:
    """One question against the edition's vectors."""

    sentence_cosines: np.ndarray  # one per sentence of the policy index
    category_cosines: dict[str, float]

    def nearest_category(self) -> str | None:
        """The category the question means, when one is clearly nearer than the rest."""
        ranked = sorted(self.category_cosines.items(), key=lambda item: -item[1])
        if not ranked or ranked[0][1] < CATEGORY_COSINE:
            return None
        runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
        return ranked[0][0] if ranked[0][1] - runner_up >= CATEGORY_MARGIN else None


def _einsum(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    # einsum, not ``@``: BLAS's threads wake slowly on two busy cores (``ohip.dense_titles.TitleVectors``)
    return np.einsum("ij,j->i", matrix, query) if len(matrix) else np.zeros(0, dtype=np.float32)


class AdpMeaning:
    """The loaded edition's vectors (``build``: at load, then read back from the cache), and the model that embeds
    a question."""

    def __init__(self, embedder: Embedder | None = None, cache_dir: Path | None = None) -> None:
        """``embedder``: default the process's MiniLM; ``cache_dir``: where vectors are kept between processes."""
        self._embedder = embedder
        self._cache_dir = cache_dir
        self._lock = threading.Lock()
        self._key: Hashable | None = None
        self._vectors: MeaningVectors | None = None
        self._broken = False

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            from curbside.coverage.ohip.dense_titles import title_embedder  # one MiniLM per process

            self._embedder = title_embedder()
        return self._embedder

    def build(self, key: Hashable, sentences: Sequence[str], categories: dict[str, str]) -> None:
        """Embed the edition's ``sentences`` and ``categories`` (name -> its description) for ``key``."""
        with self._lock:
            if self._key == key or self._broken:
                return
            try:
                self.embedder.warm_up()
                matrix = self._embed(list(sentences))
                names = tuple(categories)
                category_matrix = self._embed([categories[name] for name in names])
            except CurbsideError as exc:
                self._broken = True
                log.warning("adp.get finds the manuals' sentences by their words only: %s", exc)
                return
            self._vectors = MeaningVectors(matrix, names, category_matrix)
            self._key = key

    def question(self, key: Hashable, text: str | None) -> QuestionMeaning | None:
        """``text`` against the vectors of edition ``key``; None when they are not built for it."""
        vectors = self._vectors
        if not text or vectors is None or self._key != key:
            return None
        query = np.asarray(self.embedder.embed_query(text), dtype=np.float32)
        cosines = _einsum(vectors.category_matrix, query)
        return QuestionMeaning(
            _einsum(vectors.sentences, query),
            {name: float(c) for name, c in zip(vectors.categories, cosines, strict=True)},
        )

    def _embed(self, texts: list[str]) -> np.ndarray:
        """Rows for ``texts``, read from the cache directory when these texts were embedded before by this model."""
        digest = hashlib.sha256("\x00".join([self.embedder.model_id, *texts]).encode()).hexdigest()[:24]
        path = self._cache_dir / f"adp-meaning-{digest}.npy" if self._cache_dir is not None else None
        if path is not None and path.exists():
            cached = np.load(path)
            if len(cached) == len(texts):
                return cached
        matrix = np.asarray(self.embedder.embed_passages(texts), dtype=np.float32) if texts else np.zeros((0, 0))
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npy")
            np.save(tmp, matrix)
            tmp.replace(path)
        return matrix
