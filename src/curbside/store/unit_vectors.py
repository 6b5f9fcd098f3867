"""Embeddings of answer units (``unit_vectors``), keyed by the embedding model and the unit's text.

Written at ingest (``kb/unit_meaning.py``) and read at question time by the extractive answer's meaning score.
Stored as float16: a corpus's units outnumber its chunks ten to one, and half precision moves a cosine by
less than a thousandth.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

import numpy as np

from curbside.store.database import Database

__all__ = ["UnitVectorStore", "text_hash"]


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class UnitVectorStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def missing(self, model_id: str, texts: Iterable[str]) -> list[str]:
        """The distinct texts among ``texts`` that have no vector of this model yet, in first-seen order."""
        wanted = {text_hash(t): t for t in texts}
        have = self._known(model_id, list(wanted))
        return [t for h, t in wanted.items() if h not in have]

    def add(self, model_id: str, texts: Sequence[str], vectors: np.ndarray) -> None:
        rows = [
            (model_id, text_hash(t), np.asarray(v, dtype=np.float16).tobytes())
            for t, v in zip(texts, vectors, strict=True)
        ]
        self.db.executemany("INSERT OR REPLACE INTO unit_vectors VALUES (?, ?, ?)", rows)

    def vectors(self, model_id: str, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """Each text's vector (float32), for the texts that have one."""
        by_hash = {text_hash(t): t for t in texts}
        out: dict[str, np.ndarray] = {}
        for start in range(0, len(by_hash), 500):
            hashes = list(by_hash)[start : start + 500]
            marks = ",".join("?" * len(hashes))
            for h, blob in self.db.rows(
                f"SELECT text_hash, vector FROM unit_vectors WHERE model_id = ? AND text_hash IN ({marks})",
                [model_id, *hashes],
            ):
                out[by_hash[h]] = np.frombuffer(blob, dtype=np.float16).astype(np.float32)
        return out

    def count(self, model_id: str) -> int:
        return int(self.db.scalar("SELECT count(*) FROM unit_vectors WHERE model_id = ?", (model_id,)) or 0)

    def _known(self, model_id: str, hashes: list[str]) -> set[str]:
        known: set[str] = set()
        for start in range(0, len(hashes), 500):
            part = hashes[start : start + 500]
            marks = ",".join("?" * len(part))
            known |= {
                h
                for (h,) in self.db.rows(
                    f"SELECT text_hash FROM unit_vectors WHERE model_id = ? AND text_hash IN ({marks})",
                    [model_id, *part],
                )
            }
        return known
