"""Load the ODB formulary extract: parse all of it, swap the tables, index the passages.

Idempotent: the same file again leaves the tables as they are (same SHA-256)
and the ingest skips every unchanged passage document, so the report says
``unchanged``. A file that fails to parse changes nothing. Passage documents
of classes that left the formulary are taken out of search.
"""

from __future__ import annotations

import fnmatch
import hashlib
import time
from pathlib import Path
from typing import TYPE_CHECKING

from curbside.coverage.loading import LoadProgress, SourceReport
from curbside.coverage.odb.parse import parse_formulary, read_edition
from curbside.coverage.odb.passages import (
    DOC_PREFIX,
    NAMESPACE,
    SOURCE_TYPE,
    build_documents,
)
from curbside.coverage.odb.store import current_edition, replace_edition
from curbside.errors import CurbsideError
from curbside.kb.ingest import IngestOptions, IngestReport

if TYPE_CHECKING:
    from curbside.app import Curbside

__all__ = ["OdbLoader", "load_odb"]

PATTERN = "odb*formulary*.xml"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class OdbLoader:
    name = "odb"
    pattern = PATTERN

    def find(self, directory: Path) -> list[Path]:
        return sorted(p for p in directory.rglob("*") if p.is_file() and fnmatch.fnmatch(p.name.lower(), PATTERN))

    def load(self, app: Curbside, paths: list[Path], progress: LoadProgress | None) -> list[SourceReport]:
        """Load the newest edition among ``paths``; the others are reported as skipped."""
        dated: list[tuple[str, Path]] = []
        reports: list[SourceReport] = []
        for path in paths:
            try:
                dated.append((read_edition(path).formulary_date, path))
            except CurbsideError as exc:
                reports.append(SourceReport(self.name, str(path), "failed", exc.message, error_code=exc.code))
        if dated:
            dated.sort()
            newest = dated[-1][1]
            for _, path in dated[:-1]:
                reports.append(SourceReport(self.name, str(path), "skipped", f"an older edition than {newest.name}"))
            reports.append(load_odb(app, newest, progress))
        return reports


def load_odb(app: Curbside, path: Path, progress: LoadProgress | None = None) -> SourceReport:
    """Load one extract; failures come back in the report (status 'failed'), never half-applied."""
    started = time.perf_counter()
    report = SourceReport("odb", str(path), "failed", "")
    try:
        if progress is not None:
            progress.reading(path.name, path.stat().st_size)
        digest = _sha256(path)
        parsed = parse_formulary(path, on_bytes=progress.read if progress is not None else None)
        before = current_edition(app.db)
        tables_unchanged = before is not None and before.source_sha256 == digest
        if tables_unchanged and before is not None:
            edition = before
        else:
            edition = replace_edition(app.db, parsed, source_name=path.name, source_sha256=digest)
        report.edition = edition.label
        report.counts = parsed.counts()
        docs = build_documents(parsed, edition.label)
        options = IngestOptions(namespace=NAMESPACE, source_type=SOURCE_TYPE)
        ingest = app.ingestor.ingest_prepared(docs, options, progress, total=len(docs))
        removed = _remove_stale(app, {d.doc_key for d in docs})
        report.passages = _passage_counts(ingest, removed)
    except CurbsideError as exc:
        report.message, report.error_code = exc.message, exc.code
        report.seconds = time.perf_counter() - started
        return report
    except OSError as exc:
        report.message, report.error_code = f"Cannot read {path}: {exc.strerror or exc}.", "IO_ERROR"
        report.seconds = time.perf_counter() - started
        return report

    failed = ingest.failed
    if failed:
        report.status, report.error_code = "failed", failed[0].error_code
        report.message = (
            f"the tables hold {edition.label}, but {len(failed)} passage document(s) failed "
            f"({failed[0].doc_key}: {failed[0].message}); run the load again"
        )
    elif tables_unchanged and not report.passages["ingested"] and not removed:
        report.status, report.message = "unchanged", f"{edition.label} is already loaded; nothing to do"
    else:
        report.status = "loaded"
        replaced = "" if before is None or tables_unchanged else f", replacing {before.label}"
        report.message = f"{edition.label}: {len(parsed.drugs)} drugs{replaced}"
    report.seconds = time.perf_counter() - started
    return report


def _remove_stale(app: Curbside, keys: set[str]) -> int:
    """Take out of search the ODB passage documents of classes no longer in the formulary."""
    stale = [r.doc_key for r in app.documents.list_current(NAMESPACE) if r.doc_key.startswith(DOC_PREFIX)]
    stale = [key for key in stale if key not in keys]
    for key in stale:
        app.ingestor.remove(key)
    return len(stale)


def _passage_counts(ingest: IngestReport, removed: int) -> dict[str, int]:
    return {
        "ingested": ingest.count("ingested"),
        "unchanged": ingest.count("unchanged"),
        "failed": ingest.count("failed"),
        "removed": removed,
        "chunks": sum(o.chunks for o in ingest.outcomes if o.status in ("ingested", "unchanged")),
    }
