"""Pieces every source loader shares: finding and hashing its files, swapping its tables, indexing its passages.

A loader (ODB, OHIP, ADP) finds its files by name, parses them completely,
swaps its tables, then ingests its passage documents into its own search
namespace and takes out the documents its new edition no longer has. The
finding, hashing, superseding and passage steps are the same for every
source; they live here so each loader keeps only what its source's files need.
"""

from __future__ import annotations

import fnmatch
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from curbside.kb.ingest import DocumentOutcome, IngestOptions, IngestReport, PreparedDocument

if TYPE_CHECKING:
    from curbside.coverage.reports import CoverageStore, LoadProgress
    from curbside.store.database import Database

__all__ = ["PassageIndex", "PatternLoader", "passage_counts", "sha256_file", "supersede"]


class PatternLoader:
    """A loader that finds its source's files by a name pattern (``coverage load`` prints it when none is found)."""

    name: str  # 'odb'
    pattern: str  # 'odb*formulary*.xml', matched against lower-case file names

    def find(self, directory: Path) -> list[Path]:
        return sorted(p for p in directory.rglob("*") if p.is_file() and fnmatch.fnmatch(p.name.lower(), self.pattern))


def sha256_file(path: Path) -> str:
    """The file's SHA-256, read in 1 MiB blocks: the same file again leaves the tables as they are."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def supersede(db: Database, editions_table: str, data_tables: Sequence[str], stamp: str) -> None:
    """Inside the swap's transaction: empty the source's tables and mark the loaded edition superseded.

    ``data_tables`` come children first: foreign keys are on.
    """
    for table in data_tables:
        db.execute(f"DELETE FROM {table}")
    db.execute(
        f"UPDATE {editions_table} SET status = 'superseded', superseded_at = ? WHERE status = 'current'", (stamp,)
    )


@dataclass(frozen=True, slots=True)
class PassageIndex:
    """Where a source's passages are searched: its namespace, source type and document key prefix."""

    namespace: str
    source_type: str
    doc_prefix: str

    def ingest(
        self, store: CoverageStore, docs: list[PreparedDocument], progress: LoadProgress | None
    ) -> tuple[IngestReport, int]:
        """Ingest ``docs`` (unchanged ones are skipped), then take out the source's other documents.

        Returns the ingest report and how many documents were taken out of search.
        """
        options = IngestOptions(namespace=self.namespace, source_type=self.source_type)
        ingest = store.ingestor().ingest_prepared(docs, options, progress, total=len(docs))
        return ingest, self._remove_stale(store, {d.doc_key for d in docs})

    def _remove_stale(self, store: CoverageStore, keep: set[str]) -> int:
        """Take out of search the source's documents the new edition no longer has."""
        current = [r.doc_key for r in store.documents.list_current(self.namespace)]
        stale = [key for key in current if key.startswith(self.doc_prefix) and key not in keep]
        for key in stale:
            store.ingestor().remove(key)
        return len(stale)


def passage_counts(outcomes: Iterable[DocumentOutcome], removed: int) -> dict[str, int]:
    """The load report's passage figures: documents ingested / unchanged / failed / removed, and chunks."""
    done = list(outcomes)
    return {
        "ingested": sum(o.status == "ingested" for o in done),
        "unchanged": sum(o.status == "unchanged" for o in done),
        "failed": sum(o.status == "failed" for o in done),
        "removed": removed,
        "chunks": sum(o.chunks for o in done if o.status in ("ingested", "unchanged")),
    }
