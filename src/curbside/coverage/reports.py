"""What a coverage load reports, and the store parts a source's loader writes to."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from curbside.kb.ingest import ProgressReporter

if TYPE_CHECKING:
    from curbside.kb.ingest import Ingestor
    from curbside.store.database import Database
    from curbside.store.documents import DocumentStore

__all__ = ["CoverageStore", "LoadProgress", "LoadReport", "SourceLoader", "SourceReport", "SourceStatus"]


@dataclass(frozen=True)
class CoverageStore:
    """Where coverage data goes: the tables (``db``), the passages (``documents``) and the ingestor that
    indexes them (resolved when a load first needs it: a status read loads no model)."""

    db: Database
    documents: DocumentStore
    ingestor: Callable[[], Ingestor]
    cache_dir: Path | None = None  # where a source keeps what it derives at load (vectors), read by its service


SourceStatus = Literal["loaded", "unchanged", "failed", "skipped"]


class LoadProgress(ProgressReporter, Protocol):
    """Ingest progress (passages) plus reading the source file."""

    def reading(self, name: str, total_bytes: int) -> None: ...

    def read(self, done_bytes: int) -> None: ...


@dataclass(slots=True)
class SourceReport:
    source: str
    path: str
    status: SourceStatus
    message: str
    edition: str | None = None  # e.g. 'ODB Formulary Edition 43 (2025-08-29)'
    counts: dict[str, int] = field(default_factory=dict)
    passages: dict[str, int] = field(default_factory=dict)  # documents ingested / unchanged / failed / removed, chunks
    seconds: float = 0.0
    error_code: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "path": self.path,
            "status": self.status,
            "message": self.message,
            "edition": self.edition,
            "counts": self.counts,
            "passages": self.passages,
            "seconds": round(self.seconds, 3),
            "error_code": self.error_code,
        }


class SourceLoader(Protocol):
    name: str  # 'odb'
    pattern: str  # file name pattern, for messages

    def find(self, directory: Path) -> list[Path]: ...

    def load(self, store: CoverageStore, paths: list[Path], progress: LoadProgress | None) -> list[SourceReport]: ...


@dataclass(slots=True)
class LoadReport:
    directory: str
    sources: list[SourceReport] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def failed(self) -> list[SourceReport]:
        return [s for s in self.sources if s.status == "failed"]

    def to_dict(self) -> dict[str, Any]:
        return {
            "directory": self.directory,
            "sources": [s.to_dict() for s in self.sources],
            "seconds": round(self.seconds, 3),
        }
