"""``curbside coverage load DIR``: find each source's file in DIR and hand it to that source's loader.

A source loader finds its files by name, parses them completely, swaps its
tables in one transaction and indexes its passages in its own search
namespace. The sources are those of ``curbside.coverage.sources.SOURCES``.
"""

from __future__ import annotations

import time
from pathlib import Path

from curbside.coverage.reports import CoverageStore, LoadProgress, LoadReport, SourceLoader
from curbside.errors import NotFoundError, ValidationError

__all__ = ["load_directory", "source_loaders"]

def source_loaders() -> tuple[SourceLoader, ...]:
    """Every source's loader, in the order of ``SOURCES``."""
    from curbside.coverage.sources import SOURCES

    return tuple(source.loader() for source in SOURCES)


def load_directory(store: CoverageStore, directory: Path, progress: LoadProgress | None = None) -> LoadReport:
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
            report.sources.extend(loader.load(store, paths, progress))
    report.seconds = time.perf_counter() - started
    return report
