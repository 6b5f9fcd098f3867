"""Load a source that comes as one file per edition (the ODB extract, the Schedule's text).

Of the files found, the newest edition loads and the others are reported as
skipped. Loading one file: parse all of it, swap the tables in one transaction
(unless the same file, by SHA-256, is already loaded), ingest the passages
(unchanged ones are skipped) and take out the ones the edition no longer has.
A failure comes back in the report, never half-applied: a file that fails to
parse changes nothing. The same file again reports ``unchanged``.
A source's loader subclasses ``EditionLoader`` and says only how to read,
store and describe its files.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Generic, Protocol, TypeVar

from curbside.coverage.reports import CoverageStore, LoadProgress, SourceReport
from curbside.coverage.source_load import PassageIndex, PatternLoader, passage_counts, sha256_file
from curbside.errors import CurbsideError
from curbside.kb.ingest import PreparedDocument

if TYPE_CHECKING:
    from curbside.store.database import Database

__all__ = ["EditionLoader"]


class Edition(Protocol):
    @property
    def label(self) -> str: ...

    @property
    def source_sha256(self) -> str: ...


P = TypeVar("P")  # the parsed file
E = TypeVar("E", bound=Edition)  # the stored edition's record


class EditionLoader(PatternLoader, ABC, Generic[P, E]):
    passages: ClassVar[PassageIndex]
    # bump when parsing changes what is stored: an unchanged file is then read again (not for a
    # comment or a refactor, which a hash of the source files would have taken for a new parser)
    parser_version: ClassVar[str]

    # --- what each source says about its files ----------------------------------------------------
    @abstractmethod
    def edition_date(self, path: Path) -> str:
        """The edition's date (ISO), read cheaply from the file: it picks the newest file."""
        ...

    @abstractmethod
    def parse(self, path: Path, on_bytes: Callable[[int], None] | None) -> P: ...

    @abstractmethod
    def current(self, db: Database) -> E | None: ...

    @abstractmethod
    def replace(self, db: Database, parsed: P, source_name: str, source_sha256: str) -> E:
        """Swap the stored edition for ``parsed`` in one transaction."""
        ...

    @abstractmethod
    def counts(self, parsed: P) -> dict[str, int]: ...

    @abstractmethod
    def documents(self, parsed: P, edition: E) -> list[PreparedDocument]: ...

    @abstractmethod
    def loaded_message(self, parsed: P) -> str:
        """What a load says after the edition's label, e.g. '4,567 drugs'."""
        ...

    # --- the load itself -------------------------------------------------------------------------
    def load(self, store: CoverageStore, paths: list[Path], progress: LoadProgress | None) -> list[SourceReport]:
        """Load the newest edition among ``paths``; the others are reported as skipped."""
        dated: list[tuple[str, Path]] = []
        reports: list[SourceReport] = []
        for path in paths:
            try:
                dated.append((self.edition_date(path), path))
            except (CurbsideError, OSError) as exc:
                message, code = _failure(path, exc)
                reports.append(SourceReport(self.name, str(path), "failed", message, error_code=code))
        if dated:
            dated.sort()
            newest = dated[-1][1]
            for _, path in dated[:-1]:
                reports.append(SourceReport(self.name, str(path), "skipped", f"an older edition than {newest.name}"))
            reports.append(self.load_file(store, newest, progress))
        return reports

    def load_file(self, store: CoverageStore, path: Path, progress: LoadProgress | None = None) -> SourceReport:
        """Load one file; failures come back in the report (status 'failed'), never half-applied."""
        started = time.perf_counter()
        report = SourceReport(self.name, str(path), "failed", "")
        try:
            if progress is not None:
                progress.reading(path.name, path.stat().st_size)
            digest = sha256_file(path)
            parsed = self.parse(path, progress.read if progress is not None else None)
            before = self.current(store.db)
            # the same file read by a changed parser must be read again: its version is part of the key
            version_key = f"coverage.{self.name}.parser_version"
            same_parser = store.db.get_meta(version_key) == self.parser_version
            if before is not None and before.source_sha256 == digest and same_parser:
                edition, tables_unchanged = before, True
            else:
                edition, tables_unchanged = self.replace(store.db, parsed, path.name, digest), False
                store.db.set_meta(version_key, self.parser_version)
            report.edition = edition.label
            report.counts = self.counts(parsed)
            ingest, removed = self.passages.ingest(store, self.documents(parsed, edition), progress)
            report.passages = passage_counts(ingest.outcomes, removed)
        except (CurbsideError, OSError) as exc:
            report.message, report.error_code = _failure(path, exc)
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
            report.message = f"{edition.label}: {self.loaded_message(parsed)}{replaced}"
        report.seconds = time.perf_counter() - started
        return report


def _failure(path: Path, exc: CurbsideError | OSError) -> tuple[str, str]:
    """The report's message and error code for a file that could not be read or parsed."""
    if isinstance(exc, CurbsideError):
        return exc.message, exc.code
    return f"Cannot read {path}: {exc.strerror or exc}.", "IO_ERROR"
