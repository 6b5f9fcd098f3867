"""Embed the answer units of newly published chunks into ``unit_vectors`` (#13).

The extractive answer picks units (sentences, list items, "Label: value" lines) by the words they share with the
question; a stored embedding per unit lets it also weigh what a unit means ("pins and needles" / "paresthesia")
without encoding candidates at question time, which costs seconds. Units are split exactly as the answerer splits
them (``passage_units``), so a question finds the vector of every unit it scores; a unit text already stored
(an unchanged chunk of a new version) is not embedded again.
"""

from __future__ import annotations

from collections.abc import Sequence

from curbside.llm.extractive import passage_units
from curbside.search.embedders.base import Embedder
from curbside.store.documents import DocumentStore
from curbside.store.unit_vectors import UnitVectorStore

__all__ = ["UNIT_BATCH", "embed_units"]

UNIT_BATCH = 128  # units per encoder call


def embed_units(documents: DocumentStore, embedder: Embedder, version_ids: Sequence[int]) -> int:
    """Embed and store the units of these versions' chunks that have no vector of ``embedder`` yet; how many."""
    store = UnitVectorStore(documents.db)
    rowids = [rowid for version_id in version_ids for rowid, _ in documents.chunk_rows(version_id)]
    texts = [unit.text for passage in documents.passages(rowids).values() for unit in passage_units(passage, 0)]
    missing = store.missing(embedder.model_id, texts)
    for start in range(0, len(missing), UNIT_BATCH):
        batch = missing[start : start + UNIT_BATCH]
        vectors = embedder.embed_passages(batch)
        with documents.db.transaction():
            store.add(embedder.model_id, batch, vectors)
    return len(missing)
