"""An index holds vectors of one embedding model: the guard records which, and
refuses another until ``curbside reindex`` re-embeds everything."""

from __future__ import annotations

from curbside.errors import ModelMismatchError
from curbside.search.embedders.base import Embedder
from curbside.store.database import Database
from curbside.store.protocols import VectorIndex

__all__ = ["ModelGuard"]


class ModelGuard:
    """An index holds one embedding model; record it on first use, refuse another later."""

    def __init__(self, db: Database, vectors: VectorIndex, embedder: Embedder) -> None:
        self.db, self.vectors, self.embedder = db, vectors, embedder

    def indexed_model(self) -> tuple[str, int] | None:
        model = self.db.get_meta("embedding_model")
        dim = self.db.get_meta("embedding_dim")
        return (model, int(dim)) if model and dim else None

    def check(self) -> None:
        indexed = self.indexed_model()
        if indexed is not None and indexed[0] != self.embedder.model_id:
            raise ModelMismatchError(
                f"The index was built with {indexed[0]!r} ({indexed[1]} dimensions) but the configured embedder is "
                f"{self.embedder.model_id!r}. Run `curbside reindex` to re-embed every current document with "
                "the configured model, or set CURBSIDE_EMBEDDER back."
            )

    def claim(self) -> None:
        """Check, and on an empty index record the configured model and size the vector table."""
        self.check()
        if self.indexed_model() is not None and self.vectors.dim is not None:
            return
        with self.db.transaction():  # the write lock: two first ingests must not both size the table
            if self.indexed_model() is None or self.vectors.dim is None:
                self.record()

    def record(self) -> None:
        with self.db.transaction():
            self.vectors.reset(self.embedder.dim)
            self.db.set_meta("embedding_model", self.embedder.model_id)
            self.db.set_meta("embedding_dim", str(self.embedder.dim))
            self.db.set_meta("embedding_backend", self.embedder.backend)
