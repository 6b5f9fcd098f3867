"""The ``Embedder`` protocol every embedding backend implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

__all__ = ["Embedder", "l2_normalise"]


@runtime_checkable
class Embedder(Protocol):
    """Turns text into L2-normalised float32 vectors.

    ``model_id`` identifies the vector space: an index built with one model id
    refuses vectors from another. ``max_tokens`` is the model's maximum input,
    the default chunk cap; ``count_tokens`` counts with the model's own tokenizer.
    Construction is cheap; ``warm_up`` loads weights (called lazily otherwise).
    """

    model_id: str
    backend: str
    max_tokens: int
    batch_size: int

    @property
    def dim(self) -> int: ...  # a property: a remote model's dimension is learnt from its first answer

    # cosine below which a passage is not relevant; models differ widely (e5 scores
    # everything above 0.8), so each backend carries its own calibrated default
    relevance_threshold: float

    def warm_up(self) -> None: ...

    def count_tokens(self, texts: Sequence[str]) -> list[int]: ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """(n, dim) float32, one row per text, L2-normalised."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """(dim,) float32, L2-normalised."""
        ...


def l2_normalise(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)
