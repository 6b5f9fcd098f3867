"""``curbside coverage load DIR``: find each source's file in DIR and hand it to that source's loader.

A source loader finds its files by name, parses them completely, swaps its
tables in one transaction and indexes its passages in its own search
namespace. ODB is the first; OHIP and ADP (#6) add theirs to ``source_loaders``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from curbside.errors import NotFoundError, ValidationError
from curbside.kb.ingest import ProgressReporter

if TYPE_CHECKING:
    from curbside.app import Curbside

__all__ = ["LoadProgress", "LoadReport", "SourceLoader", "SourceReport", "load_directory", "source_loaders"]

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

    def load(self, app: Curbside, paths: list[Path], progress: LoadProgress | None) -> list[SourceReport]: ...


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


def source_loaders() -> tuple[SourceLoader, ...]:
    """Every source's loader (imported here: each source module imports this one for its report types)."""
    from curbside.coverage.adp.load import AdpLoader
    from curbside.coverage.odb.load import OdbLoader
    from curbside.coverage.ohip.load import OhipLoader

    return (OdbLoader(), OhipLoader(), AdpLoader())


def load_directory(app: Curbside, directory: Path, progress: LoadProgress | None = None) -> LoadReport:
    """Load every source whose file is in ``directory``; a source with no file there is left as it is."""
    if not directory.is_dir():
        raise NotFoundError(f"No such directory: {directory}. Pass the folder that holds the ministry's files.")
    started = time.perf_counter()
    report = LoadReport(str(directory))
    found = [(loader, loader.find(directory)) for loader in source_loaders()]
    if not any(paths for _, paths in found):
        expected = "; ".join(f"{loader.name}: {loader.pattern}" for loader, _ in found)
        raise ValidationError(f"No coverage source files in {directory} (expected {expected}).")
    for loader, paths in found:
        if paths:
            report.sources.extend(loader.load(app, paths, progress))
    report.seconds = time.perf_counter() - started
    return report
