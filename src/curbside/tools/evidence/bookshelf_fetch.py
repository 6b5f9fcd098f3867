"""``curbside guidelines fetch``: NCBI Bookshelf packages → verified archives → safely extracted ``.nxml`` → ingest.

The guideline plan's download pipeline (specs/guideline-rag-plan.md): read ``file_list.csv``, pick
the books (``bookshelf.select_books``), and for each one download its ``.tar.gz`` through the shared
outbound client (paced at NCBI's rate), check it is a real gzip tar within size limits, extract
only the chapter ``.nxml`` files (no front matter, reference lists or acknowledgements) into
``<home>/guidelines/nxml/<accession>/``, and hand them to the ``ingest`` callable the caller gives
(the application's ingestor, with source type ``guideline``; this module imports no application).

Resumable: ``manifest.json`` records per book its Last Updated, the archive's sha256 and the files
extracted, written after every book; a re-run skips a book whose Last Updated is unchanged and
whose files are all there, and only ingests it when an earlier run did not. A book that fails
(HTTP 404, a corrupt or hostile archive) is reported and the run goes on; an unreachable service
stops the run, the books not tried are reported as such.

Checking an archive and extracting it (trusting nothing in it) is ``bookshelf_archive``'s job.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from curbside.errors import RateLimitedError, UpstreamError
from curbside.tools.evidence.bookshelf import Book, FileList, Selection, archive_url, parse_file_list, select_books
from curbside.tools.evidence.bookshelf_archive import ArchiveLimits, ArchiveRejected, MiB, extract_nxml
from curbside.tools.evidence.common import service_for

if TYPE_CHECKING:
    from curbside.tools.outbound import OutboundClient, Service

__all__ = [
    "BookResult",
    "FetchProgress",
    "FetchReport",
    "GuidelinePaths",
    "Ingest",
    "IngestCounts",
    "Manifest",
    "fetch_guidelines",
]

FILE_LIST_MAX_BYTES = 64 * MiB  # the whole open-access list is a few MB
_COPY_BLOCK = 1 * MiB
_MANIFEST_FORMAT = 1
_DEFAULT_LIMITS = ArchiveLimits()  # frozen: one shared default is safe

Status = Literal["fetched", "skipped", "failed", "planned"]


@dataclass(frozen=True, slots=True)
class GuidelinePaths:
    """Where the pipeline keeps its files: ``root`` is ``<home>/guidelines``."""

    root: Path
    archives: Path

    @classmethod
    def under(cls, home: Path, archives: Path | None = None) -> GuidelinePaths:
        root = home / "guidelines"
        return cls(root=root, archives=archives or root / "archives")

    @property
    def nxml(self) -> Path:
        return self.root / "nxml"

    @property
    def manifest(self) -> Path:
        return self.root / "manifest.json"

    @property
    def file_list(self) -> Path:
        return self.root / "file_list.csv"

    def book_dir(self, accession: str) -> Path:
        return self.nxml / accession

    def archive(self, accession: str) -> Path:
        return self.archives / f"{accession}.tar.gz"


@dataclass(frozen=True, slots=True)
class IngestCounts:
    """What the ``ingest`` callable did with one book's files."""

    ingested: int = 0  # new or changed documents
    unchanged: int = 0
    failed: tuple[str, ...] = ()  # "file: why"


# the files of one book (all from the same directory) -> what became of them
Ingest = Callable[[Sequence[Path]], IngestCounts]


class FetchProgress(Protocol):
    def books(self, total: int) -> None: ...

    def book_done(self, accession: str, status: str) -> None: ...


class _NoProgress:
    def books(self, total: int) -> None:
        pass

    def book_done(self, accession: str, status: str) -> None:
        pass


@dataclass(slots=True)
class BookResult:
    accession: str
    title: str
    status: Status
    message: str
    files: list[str] = field(default_factory=list)  # the .nxml files of the book, in its directory
    skipped_parts: int = 0  # .nxml members left out as front matter, reference lists, acknowledgements
    ingested: int = 0
    unchanged: int = 0
    ingest_failed: list[str] = field(default_factory=list)


@dataclass(slots=True)
class FetchReport:
    selection: str
    listed: int = 0  # books in file_list.csv
    bad_rows: int = 0  # rows of it that could not be read as a book
    results: list[BookResult] = field(default_factory=list)
    not_listed: list[str] = field(default_factory=list)  # --accession values the list does not have
    filtered_out: list[str] = field(default_factory=list)  # --accession values the other filters excluded
    warnings: list[str] = field(default_factory=list)
    stopped: str | None = None  # why the run stopped early (the service became unreachable)
    stop_code: str | None = None
    dry_run: bool = False
    seconds: float = 0.0

    def count(self, status: Status) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def failed(self) -> list[BookResult]:
        return [r for r in self.results if r.status == "failed"]

    @property
    def extracted(self) -> int:
        return sum(len(r.files) for r in self.results if r.status == "fetched")

    @property
    def ingested(self) -> int:
        return sum(r.ingested for r in self.results)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["counts"] = {status: self.count(status) for status in ("fetched", "skipped", "failed", "planned")}
        data["nxml_extracted"] = self.extracted
        data["ingested"] = self.ingested
        data["ingest_failed"] = sum(len(r.ingest_failed) for r in self.results)
        data["seconds"] = round(self.seconds, 3)
        return data


class Manifest:
    """``manifest.json``: per accession what the last successful fetch of the book left on disk."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.books: dict[str, dict[str, Any]] = {}
        self.warning: str | None = None
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                books = data["books"] if isinstance(data, dict) else None
                if not isinstance(books, dict):
                    raise ValueError("no 'books' object")
                self.books = {k: v for k, v in books.items() if isinstance(v, dict)}
            except (OSError, ValueError, KeyError) as exc:
                self.warning = f"{path} could not be read ({exc}); every book is fetched again."

    def save(self) -> None:
        """Written whole or not at all (a crash mid-write keeps the previous manifest)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".part")
        tmp.write_text(json.dumps({"format": _MANIFEST_FORMAT, "books": self.books}, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)


async def fetch_guidelines(
    client: OutboundClient,
    *,
    base_url: str,
    paths: GuidelinePaths,
    selection: Selection,
    ingest: Ingest | None = None,
    dry_run: bool = False,
    prune_archives: bool = False,
    progress: FetchProgress | None = None,
    limits: ArchiveLimits = _DEFAULT_LIMITS,
    service: Service | None = None,
) -> FetchReport:
    """Run the pipeline; only the file list's failure raises (``UpstreamError``), a book's failure is in the report."""
    started = time.perf_counter()
    progress = progress or _NoProgress()
    service = service or service_for("bookshelf", client.settings)
    report = FetchReport(selection=selection.describe(), dry_run=dry_run)
    listing = await _read_file_list(client, base_url, paths, service)
    report.listed, report.bad_rows = len(listing.books), listing.bad_count
    if listing.bad_count:
        report.warnings.append(
            f"{listing.bad_count} rows of file_list.csv were not books (first: {listing.bad_rows[0]})."
        )
    chosen = select_books(listing.books, selection)
    listed = {b.accession for b in listing.books}
    picked = {b.accession for b in chosen}
    report.not_listed = [a for a in selection.accessions if a not in listed]
    report.filtered_out = [a for a in selection.accessions if a in listed and a not in picked]
    manifest = Manifest(paths.manifest)
    if manifest.warning:
        report.warnings.append(manifest.warning)
    run = _Run(client, base_url, paths, manifest, ingest, prune_archives, limits, service, report)
    progress.books(len(chosen))
    for book in chosen:
        if report.stopped:
            result = BookResult(book.accession, book.title, "failed", f"not tried: {report.stopped}")
        elif dry_run:
            result = run.plan(book)
        else:
            result = await run.book(book)
        report.results.append(result)
        progress.book_done(book.accession, result.status)
    report.seconds = time.perf_counter() - started
    return report


async def _read_file_list(client: OutboundClient, base_url: str, paths: GuidelinePaths, service: Service) -> FileList:
    url = f"{base_url.rstrip('/')}/file_list.csv"
    paths.root.mkdir(parents=True, exist_ok=True)
    try:
        await client.download(url, paths.file_list, service=service, max_bytes=FILE_LIST_MAX_BYTES)
    except UpstreamError as exc:
        raise UpstreamError(f"Could not read NCBI Bookshelf's file list ({url}): {exc.message}", code=exc.code) from exc
    return parse_file_list(paths.file_list.read_bytes().decode("utf-8", errors="replace"))


@dataclass
class _Run:
    client: OutboundClient
    base_url: str
    paths: GuidelinePaths
    manifest: Manifest
    ingest: Ingest | None
    prune_archives: bool
    limits: ArchiveLimits
    service: Service
    report: FetchReport

    def _have(self, book: Book) -> tuple[str, dict[str, Any] | None]:
        """'new', 'changed', 'missing' (files gone) or 'unchanged', and the manifest's entry."""
        entry = self.manifest.books.get(book.accession)
        if entry is None:
            return "new", None
        if entry.get("last_updated") != book.last_updated:
            return "changed", entry
        folder = self.paths.book_dir(book.accession)
        files = entry.get("files")
        if not isinstance(files, list) or not all(_is_ours(f) and (folder / f).is_file() for f in files):
            return "missing", entry  # gone, or a manifest edited by hand: never read a path it names
        return "unchanged", entry

    def plan(self, book: Book) -> BookResult:
        state, entry = self._have(book)
        if state == "unchanged" and entry is not None:
            return BookResult(
                book.accession,
                book.title,
                "skipped",
                f"unchanged since {book.last_updated}",
                files=list(entry.get("files") or []),
            )
        reason = {
            "new": "new",
            "changed": f"changed (Last Updated {entry.get('last_updated') if entry else '?'} → {book.last_updated})",
            "missing": "files missing on disk",
        }[state]
        return BookResult(book.accession, book.title, "planned", f"{reason}: would fetch {book.file}")

    async def book(self, book: Book) -> BookResult:
        state, entry = self._have(book)
        if state == "unchanged" and entry is not None:
            result = BookResult(
                book.accession,
                book.title,
                "skipped",
                f"unchanged since {book.last_updated}",
                files=list(entry.get("files") or []),
            )
            if self.ingest is not None and not entry.get("ingested") and result.files:
                self._ingest(book, result, entry)
            return result
        archive = self.paths.archive(book.accession)
        cached = state == "missing" and entry is not None and _sha256(archive) == entry.get("archive_sha256")
        if not cached:
            failed = await self._download(book, archive)
            if failed is not None:
                return failed
        digest = _sha256(archive) or ""
        try:
            extracted = extract_nxml(archive, self.paths, book.accession, self.limits)
        except ArchiveRejected as exc:
            archive.unlink(missing_ok=True)  # never kept: a re-run downloads it again
            return BookResult(book.accession, book.title, "failed", f"archive rejected: {exc}; it was deleted")
        entry = {
            "title": book.title,
            "file": book.file,
            "last_updated": book.last_updated,
            "archive_sha256": digest,
            "archive_bytes": archive.stat().st_size,
            "files": extracted.files,
            "skipped_parts": extracted.skipped_parts,
            "fetched": datetime.now(UTC).isoformat(timespec="seconds"),
            "ingested": False,
        }
        self.manifest.books[book.accession] = entry
        self.manifest.save()
        if self.prune_archives:
            archive.unlink(missing_ok=True)
        how = "extracted again from the cached archive" if cached else ("updated" if state == "changed" else "fetched")
        found = f"{len(extracted.files)} .nxml" + (
            f" ({extracted.skipped_parts} front matter/reference/acknowledgement parts left out)"
            if extracted.skipped_parts
            else ""
        )
        message = f"{how}: {found}" + "".join(f"; {note}" for note in extracted.notes)
        if not extracted.files:
            message += "; the package holds no chapter .nxml (nothing to ingest)"
        result = BookResult(
            book.accession, book.title, "fetched", message, files=extracted.files, skipped_parts=extracted.skipped_parts
        )
        if self.ingest is not None and extracted.files:
            self._ingest(book, result, entry)
        return result

    async def _download(self, book: Book, archive: Path) -> BookResult | None:
        """None when the archive is on disk; else the book's failure (and, for a dead service, the run stops)."""
        self.paths.archives.mkdir(parents=True, exist_ok=True)
        try:
            await self.client.download(
                archive_url(self.base_url, book), archive, service=self.service, max_bytes=self.limits.download_bytes
            )
        except (UpstreamError, RateLimitedError) as exc:
            if exc.code in ("UPSTREAM_UNAVAILABLE", "RATE_LIMITED"):
                # every further book would fail the same way (after its retries): stop, say why
                self.report.stopped, self.report.stop_code = exc.message, exc.code
            return BookResult(book.accession, book.title, "failed", f"download failed: {exc.message}")
        return None

    def _ingest(self, book: Book, result: BookResult, entry: dict[str, Any]) -> None:
        assert self.ingest is not None
        folder = self.paths.book_dir(book.accession)
        counts = self.ingest([folder / name for name in result.files])
        result.ingested, result.unchanged = counts.ingested, counts.unchanged
        result.ingest_failed = list(counts.failed)
        entry["ingested"] = not counts.failed
        self.manifest.save()


def _is_ours(name: object) -> bool:
    """A file name ``_flat_name`` could have written (a manifest entry naming anything else is not trusted)."""
    return isinstance(name, str) and not name.startswith(".") and bool(re.fullmatch(r"NBK\d+_[A-Za-z0-9._-]+", name))


def _sha256(path: Path) -> str | None:
    if not path.is_file():
        return None
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_COPY_BLOCK):
            digest.update(block)
    return digest.hexdigest()
