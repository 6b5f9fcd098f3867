"""NCBI Bookshelf's open-access file list: parse it, pick the books to fetch.

``<bookshelf_url>/file_list.csv`` (https://ftp.ncbi.nlm.nih.gov/pub/litarch/file_list.csv) lists one
book per line — ``File,Title,Publisher,Publication date/year,Accession ID,Last Updated``, e.g.
``ca/84/gene_NBK1116.tar.gz,GeneReviews,NCBI,1993,NBK1116,2026-08-31 02:41:04`` — where ``File`` is
the book's ``.tar.gz`` package relative to the same base. The guideline plan
(specs/guideline-rag-plan.md, "Guideline Download Pipeline") fetches the WHO's books from it.

Parsing is forgiving: the header is matched by name (any case) and, failing that, columns are
read by position; a row that cannot be a book (too few fields, an accession that is not
``NBK…``, a package path that could leave the archive's base) is counted, never fatal.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from curbside.errors import UpstreamError, ValidationError

__all__ = [
    "DEFAULT_PUBLISHER",
    "Book",
    "FileList",
    "Selection",
    "archive_url",
    "normalize_accession",
    "parse_file_list",
    "select_books",
    "title_pattern",
]

DEFAULT_PUBLISHER = "World Health Organization"
_ACCESSION = re.compile(r"^NBK\d{1,12}$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_COLUMNS = ("file", "title", "publisher", "year", "accession", "last_updated")


@dataclass(frozen=True, slots=True)
class Book:
    """One row of the file list."""

    file: str  # the package, relative to the Bookshelf base: "ca/84/gene_NBK1116.tar.gz"
    title: str
    publisher: str
    year: str
    accession: str  # "NBK1116"
    last_updated: str  # as the list writes it; compared as text to decide whether a book changed


@dataclass(slots=True)
class FileList:
    books: list[Book] = field(default_factory=list)
    bad_rows: list[str] = field(default_factory=list)  # "line 7: why", first few only
    bad_count: int = 0


_KEEP_BAD = 20


def parse_file_list(text: str) -> FileList:
    """The books of a ``file_list.csv`` body; raises ``UpstreamError`` when it is not such a list at all."""
    text = text.lstrip("\ufeff")
    head = text[:200].lower()
    if head.lstrip().startswith(("<!doctype", "<html", "<?xml", "{")):
        raise UpstreamError(f"NCBI Bookshelf's file_list.csv is not a CSV list (it starts {text[:60]!r}).")
    parsed = FileList()
    rows = csv.reader(io.StringIO(text))
    positions = dict(zip(_COLUMNS, range(len(_COLUMNS)), strict=True))
    for number, row in enumerate(rows, start=1):
        if not any(cell.strip() for cell in row):
            continue
        if number == 1 and _is_header(row):
            positions = _header_positions(row)
            continue
        book, why = _book(row, positions)
        if book is None:
            parsed.bad_count += 1
            if len(parsed.bad_rows) < _KEEP_BAD:
                parsed.bad_rows.append(f"line {number}: {why}")
        else:
            parsed.books.append(book)
    if not parsed.books and parsed.bad_count:
        raise UpstreamError(
            f"NCBI Bookshelf's file_list.csv holds no book in the expected format "
            f"(File,Title,Publisher,Publication date/year,Accession ID,Last Updated); first problem: {parsed.bad_rows[0]}."
        )
    return parsed


def _is_header(row: Sequence[str]) -> bool:
    """The first row is a header unless it reads as a book (a package path and an NBK accession)."""
    first = row[0].strip().lower()
    if first == "file" or any("accession" in cell.lower() for cell in row):
        return True
    return not first.endswith(".tar.gz") and not any(_ACCESSION.match(cell.strip().upper()) for cell in row)


def _header_positions(row: Sequence[str]) -> dict[str, int]:
    """Columns by name ("Accession ID", "Last Updated" …, any case); a name not found keeps its usual position."""
    found: dict[str, int] = {}
    for index, cell in enumerate(row):
        name = cell.strip().lower()
        if "accession" in name:
            key = "accession"
        elif "updated" in name:
            key = "last_updated"
        elif "publisher" in name:
            key = "publisher"
        elif "title" in name:
            key = "title"
        elif "date" in name or "year" in name:
            key = "year"
        elif name == "file" or "file" in name:
            key = "file"
        else:
            continue
        found.setdefault(key, index)
    return {name: found.get(name, default) for name, default in zip(_COLUMNS, range(len(_COLUMNS)), strict=True)}


def _book(row: Sequence[str], positions: dict[str, int]) -> tuple[Book | None, str]:
    def cell(name: str) -> str:
        index = positions[name]
        # control characters (a terminal escape in a title) never reach a screen or a file name
        return _CONTROL.sub(" ", row[index]).strip() if index < len(row) else ""

    if len(row) < 5:
        return None, f"{len(row)} fields, expected 6"
    accession = cell("accession").upper()
    if not _ACCESSION.match(accession):
        return None, f"accession {accession[:40]!r} is not an NBK number"
    file = cell("file")
    why = _unsafe_path(file)
    if why:
        return None, f"{accession}: package path {file[:80]!r} {why}"
    return Book(file, cell("title"), cell("publisher"), cell("year"), accession, cell("last_updated")), ""


def _unsafe_path(file: str) -> str | None:
    """Why a package path must not be fetched (it could leave the Bookshelf base), or None."""
    if not file:
        return "is empty"
    if not file.lower().endswith(".tar.gz"):
        return "is not a .tar.gz package"
    if "://" in file or file.startswith("/") or "\\" in file or "?" in file or "#" in file:
        return "is not a relative path"
    if any(part in {"", ".", ".."} for part in file.split("/")):
        return "has an empty, '.' or '..' part"
    return None


def archive_url(base_url: str, book: Book) -> str:
    return f"{base_url.rstrip('/')}/{book.file}"


def normalize_accession(text: str) -> str:
    """'nbk1116' → 'NBK1116'; anything else is a ``ValidationError`` naming the form expected."""
    value = text.strip().upper()
    if not _ACCESSION.match(value):
        raise ValidationError(
            f"{text!r} is not a Bookshelf accession; write it as NBK followed by digits, e.g. NBK1116."
        )
    return value


def title_pattern(text: str) -> re.Pattern[str]:
    """A case-insensitive search for ``text``: a regular expression, or the literal text when it is not one."""
    try:
        return re.compile(text, re.IGNORECASE)
    except re.error:
        return re.compile(re.escape(text), re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Selection:
    """Which books to fetch. ``publisher`` is a case-insensitive substring (None: any publisher)."""

    publisher: str | None = DEFAULT_PUBLISHER
    title: re.Pattern[str] | None = None
    accessions: tuple[str, ...] = ()
    limit: int | None = None

    def describe(self) -> str:
        parts = [f"publisher contains {self.publisher!r}" if self.publisher else "any publisher"]
        if self.title is not None:
            parts.append(f"title matches {self.title.pattern!r}")
        if self.accessions:
            parts.append(f"accession in {', '.join(self.accessions)}")
        if self.limit is not None:
            parts.append(f"first {self.limit}")
        return "; ".join(parts)


def select_books(books: Iterable[Book], selection: Selection) -> list[Book]:
    """The books matching every filter, in the list's order, each accession once, at most ``limit``."""
    publisher = selection.publisher.casefold() if selection.publisher else None
    wanted = set(selection.accessions)
    chosen: list[Book] = []
    seen: set[str] = set()
    for book in books:
        if book.accession in seen:
            continue
        if wanted and book.accession not in wanted:
            continue
        if publisher is not None and publisher not in book.publisher.casefold():
            continue
        if selection.title is not None and not selection.title.search(book.title):
            continue
        seen.add(book.accession)
        chosen.append(book)
        if selection.limit is not None and len(chosen) >= selection.limit:
            break
    return chosen
