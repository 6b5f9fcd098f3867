"""Small protocols the knowledge base talks to, so a PostgreSQL + pgvector
backend can be added without touching callers. ``tests/store/test_contract.py``
runs every implementation through the same cases.

Indexes work inside the caller's transaction (``Database.transaction()``), so a
document's chunks become visible to search all at once or not at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from curbside.types import SearchFilters

__all__ = ["ChunkMeta", "LexicalIndex", "VectorIndex"]


@dataclass(frozen=True, slots=True)
class ChunkMeta:
    """The filterable fields stored beside each indexed chunk."""

    namespace: str
    doc_key: str
    source_type: str | None = None
    specialty: str | None = None


@runtime_checkable
class VectorIndex(Protocol):
    """Dense vectors (L2-normalised float32) keyed by chunk row id."""

    @property
    def dim(self) -> int | None:
        """Dimension of the stored vectors, or None before ``reset``."""
        ...

    def reset(self, dim: int) -> None:
        """Drop every vector and prepare storage for ``dim``-dimensional ones."""
        ...

    def add(self, rowids: Sequence[int], vectors: np.ndarray, metas: Sequence[ChunkMeta]) -> None: ...

    def delete(self, rowids: Sequence[int]) -> None: ...

    def search(self, query: np.ndarray, k: int, filters: SearchFilters) -> list[tuple[int, float]]:
        """Up to ``k`` (rowid, cosine similarity) pairs, most similar first."""
        ...

    def similarities(self, query: np.ndarray, rowids: Sequence[int]) -> dict[int, float]:
        """Cosine similarity of ``query`` to each stored row in ``rowids``."""
        ...

    def vectors(self, rowids: Sequence[int]) -> dict[int, np.ndarray]:
        """Stored vectors of the rows in ``rowids`` that exist (near-duplicate removal uses them)."""
        ...

    def count(self) -> int: ...


@runtime_checkable
class LexicalIndex(Protocol):
    """A BM25 keyword index keyed by chunk row id."""

    def add(self, rowids: Sequence[int], texts: Sequence[str], metas: Sequence[ChunkMeta]) -> None: ...

    def delete(self, rowids: Sequence[int]) -> None: ...

    def search(self, terms: Sequence[str], k: int, filters: SearchFilters) -> list[tuple[int, float]]:
        """Up to ``k`` (rowid, score) pairs matching any of ``terms``, best first; higher is better."""
        ...

    def count(self) -> int: ...

    def document_frequency(self, terms: Sequence[str], *, prefix: bool = False) -> dict[str, int]:
        """For each term, how many indexed chunks hold it (0: nothing in the knowledge base mentions it); with
        ``prefix``, how many hold a word beginning with it."""
        ...
