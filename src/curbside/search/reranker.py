"""The reranker slot: an optional cross-encoder that re-scores (query, passage) pairs.

None ships offline, so the default is no reranker. ``CURBSIDE_RERANKER_MODEL_PATH``
must name a local sentence-transformers cross-encoder directory; hub names are
never fetched.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from curbside.errors import ConfigError
from curbside.settings import Settings
from curbside.types import Passage

__all__ = ["CrossEncoderReranker", "Reranker", "make_reranker"]


@runtime_checkable
class Reranker(Protocol):
    name: str

    def rerank(self, query: str, passages: Sequence[Passage]) -> list[float]:
        """One relevance score per passage, in input order; higher is better."""
        ...


class CrossEncoderReranker:
    """A sentence-transformers ``CrossEncoder`` from a local directory, loaded on first use (it imports torch)."""

    def __init__(self, path: Path, *, batch_size: int = 16, max_length: int = 512) -> None:
        self.path = Path(path)
        self.name = f"cross-encoder:{self.path.name}"
        self.batch_size = batch_size
        self.max_length = max_length
        self._model: Any = None
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        with self._lock:
            if self._model is not None:
                return
            os.environ.setdefault("HF_HUB_OFFLINE", "1")  # with local_files_only: never reach for a hub
            try:
                from sentence_transformers import CrossEncoder
            except ImportError as exc:
                raise ConfigError(f"The reranker needs 'sentence-transformers' ({exc.name} is missing).") from exc
            try:
                self._model = CrossEncoder(
                    str(self.path), device="cpu", local_files_only=True, max_length=self.max_length
                )
            except Exception as exc:  # a directory that is not a cross-encoder
                raise ConfigError(
                    f"Cannot load a cross-encoder from {str(self.path)!r} (CURBSIDE_RERANKER_MODEL_PATH): {exc}"
                ) from exc

    def rerank(self, query: str, passages: Sequence[Passage]) -> list[float]:
        if not passages:
            return []
        self.warm_up()
        pairs = [(query, p.text) for p in passages]
        scores = self._model.predict(pairs, batch_size=self.batch_size, show_progress_bar=False)
        return [float(s) for s in scores]


def make_reranker(settings: Settings) -> Reranker | None:
    """The configured reranker, or None. Cheap: weights load on first ``rerank``."""
    path = settings.reranker_model_path
    if path is None:
        return None
    path = Path(path).expanduser()
    if not path.is_dir():
        raise ConfigError(
            f"CURBSIDE_RERANKER_MODEL_PATH is {str(path)!r}, which is not an existing directory; "
            "point it at a local cross-encoder model directory or unset it."
        )
    return CrossEncoderReranker(path)
