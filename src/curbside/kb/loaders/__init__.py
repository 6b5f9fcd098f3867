"""Document loaders: a file on disk in, a ``LoadedDocument`` section tree out.

``load_document`` does the checks every format shares (exists, size, empty, what the
bytes really are) and then hands the bytes to one format module. Format modules are
imported lazily so a text ingest never pays for pypdf or python-docx, and so they can
import the small helpers defined here. Compressed formats (.docx, PDF streams) are held
to ``InflateLimits`` before and while they are parsed. ``check_upload`` is the cheap
gate for bytes that arrive without a file: head bytes, samples and a zip directory.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from pathlib import Path

from curbside.errors import (
    CurbsideError,
    DocumentParseError,
    EmptyDocumentError,
    NotFoundError,
    UnsupportedFormatError,
    too_large,
)
from curbside.kb.document import Block, BlockKind, LoadedDocument, Section
from curbside.kb.loaders._limits import (
    DEFAULT_LIMITS,
    PDF_MAX_INFLATED_BYTES,
    PDF_MAX_STREAM_BYTES,
    PDF_MAX_STREAM_TOKENS,
    ZIP_MAX_ENTRIES,
    ZIP_MAX_INFLATED_BYTES,
    ZIP_MAX_RATIO,
    ZIP_MAX_XML_BYTES,
    InflateLimits,
)
from curbside.kb.loaders._sniff import is_binary, looks_like
from curbside.kb.loaders._units import is_label_line, keep, strip_heading_marks
from curbside.kb.loaders._upload import check_upload

__all__ = [
    "DEFAULT_LIMITS",
    "PARSER_VERSION",
    "PDF_MAX_INFLATED_BYTES",
    "PDF_MAX_STREAM_BYTES",
    "PDF_MAX_STREAM_TOKENS",
    "SUPPORTED_EXTENSIONS",
    "ZIP_MAX_ENTRIES",
    "ZIP_MAX_INFLATED_BYTES",
    "ZIP_MAX_RATIO",
    "ZIP_MAX_XML_BYTES",
    "InflateLimits",
    "check_upload",
    "detect_format",
    "load_document",
    "skip_reason",
]

# Goes into the content hash: bump whenever any loader's output changes.
# loaders-2: list items, table rows (with their headers) and label lines are blocks of their
# own with a kind; citations, reference sections, UI hints and heading markers are dropped.
# loaders-3: a PDF line ending in an abbreviation's point ("(e.g.") or continued in lower case is no paragraph end.
# loaders-4: a PDF outline entry titled Table of Contents is navigation, not indexed.
PARSER_VERSION = "loaders-4"

SUPPORTED_EXTENSIONS: dict[str, str] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".html": "html",
    ".htm": "html",
    ".nxml": "nxml",
    ".xml": "nxml",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".text": "text",
}

# NCBI Bookshelf packs non-clinical parts of a book in files named by these prefixes.
_SKIP_PREFIXES = {
    "fm-": "front matter (preface, foreword, contents): not guideline content",
    "rl-": "reference list: citations only, not guideline content",
    "ak-": "acknowledgments: not guideline content",
}

_HEAD_BYTES = 8192
_TEXT_LABELS = {"text": "plain text", "markdown": "Markdown", "html": "HTML", "nxml": "XML"}
_TEXT_FORMATS = set(_TEXT_LABELS)
_INFLATING = {"docx", "pdf"}  # their ``load`` takes the InflateLimits too


# ---------------------------------------------------------------- public API


def skip_reason(path: Path) -> str | None:
    """Why an NCBI Bookshelf part should not be indexed, or None to index it."""
    path = Path(path)
    if SUPPORTED_EXTENSIONS.get(path.suffix.lower()) != "nxml":
        return None
    name = path.name.lower()
    for prefix, reason in _SKIP_PREFIXES.items():
        if name.startswith(prefix):
            return reason
    return None


def detect_format(path: Path, head: bytes) -> str:
    """The format name for ``path``, after checking its first bytes agree with the extension."""
    path = Path(path)
    ext = path.suffix.lower()
    fmt = SUPPORTED_EXTENSIONS.get(ext)
    if fmt is None:
        supported = ", ".join(sorted(SUPPORTED_EXTENSIONS))
        raise UnsupportedFormatError(
            f"{path.name}: unsupported file type {ext or '(no extension)'!r}; supported: {supported}"
        )
    really = looks_like(head)
    if fmt == "pdf" and b"%PDF-" not in head[:1024]:
        raise DocumentParseError(
            f"{path.name} is named .pdf but is not a PDF (no %PDF header"
            f"{'; it looks like ' + really if really else ''}); export it again as PDF"
        )
    if fmt == "docx" and not head.startswith(b"PK\x03\x04"):
        hint = "; save it as .docx" if head.startswith(b"\xd0\xcf\x11\xe0") else ""
        raise DocumentParseError(
            f"{path.name} is named .docx but is not a Word .docx file (not a zip archive"
            f"{'; it looks like ' + really if really else ''}){hint}"
        )
    if fmt in _TEXT_FORMATS and is_binary(head):
        raise DocumentParseError(
            f"{path.name} looks like binary data{' (' + really + ')' if really else ''}, "
            f"not {_TEXT_LABELS[fmt]}; check the file or give it the right extension"
        )
    return fmt


def load_document(
    path: Path, *, max_bytes: int | None = None, limits: InflateLimits = DEFAULT_LIMITS, **overrides: float
) -> LoadedDocument:
    """Load one file into a section tree; every failure is a ``CurbsideError``.

    ``limits`` caps what a .docx or a PDF may inflate to (``FileTooLargeError`` past them);
    keyword ``overrides`` replace single caps by field name, e.g. ``zip_max_ratio=100``.
    """
    limits = limits.with_overrides(**overrides)
    path = Path(path)
    if not path.exists():
        raise NotFoundError(f"No such file: {path}")
    if not path.is_file():
        raise NotFoundError(f"{path} is not a file")
    try:
        size = path.stat().st_size
        data = path.read_bytes() if max_bytes is None or size <= max_bytes else b""
    except OSError as exc:  # permissions, a vanished network mount …
        raise DocumentParseError(f"{path.name} cannot be read: {exc.strerror or exc}") from exc
    if max_bytes is not None and size > max_bytes:
        raise too_large(path.name, size, max_bytes, "CURBSIDE_MAX_FILE_BYTES")
    if size == 0:
        raise EmptyDocumentError(f"{path.name} is empty (0 bytes)")
    fmt = detect_format(path, data[:_HEAD_BYTES])
    if fmt in _TEXT_FORMATS and not data.removeprefix(b"\xef\xbb\xbf").strip():
        raise EmptyDocumentError(f"{path.name} holds only whitespace; there is no text to index")

    module = importlib.import_module(f"{__name__}.{fmt}")
    try:
        doc: LoadedDocument = module.load(path, data, limits) if fmt in _INFLATING else module.load(path, data)
    except CurbsideError:
        raise
    except Exception as exc:  # third-party parsers raise anything; never leak a traceback
        detail = " ".join(str(exc).split())[:300] or type(exc).__name__
        raise DocumentParseError(f"Could not read {path.name} as {fmt}: {detail}") from exc

    prune_empty(doc.root)
    if doc.root.is_empty():
        raise EmptyDocumentError(f"{path.name} contains no text to index")
    return doc


# ---------------------------------------------------------------- helpers for the format modules


def clean(text: str | None) -> str:
    """Collapse all (Unicode) whitespace runs to one space and strip."""
    return " ".join(text.split()) if text else ""


def clean_title(text: str | None) -> str:
    """A heading as a title-path element: clean, without a trailing colon or footnote marks."""
    return strip_heading_marks(clean(text)).rstrip(" :")


def readable_stem(path: Path) -> str:
    """``who-malaria_guide`` -> ``Who malaria guide``: a title of last resort."""
    words = clean(re.sub(r"[-_.]+", " ", Path(path).stem))
    if not words:
        return Path(path).name
    return words[0].upper() + words[1:] if words.islower() else words


def same_text(a: str | None, b: str | None) -> bool:
    return clean(a).casefold() == clean(b).casefold()


class TreeBuilder:
    """Builds a section tree from a flat run of headings (with levels) and blocks."""

    def __init__(self) -> None:
        self.root = Section(title=None)
        self._stack: list[tuple[int, Section]] = [(0, self.root)]

    @property
    def current(self) -> Section:
        return self._stack[-1][1]

    def heading(self, level: int, title: str | None) -> Section:
        """Open a section; it nests under the nearest open heading of a lower level.

        An empty title opens an untitled section (a heading that is only page furniture
        still ends the section before it). When the section being closed has the same
        title and no subsections, it is the same heading written twice (a card's title,
        then the title of the dialog holding its details): it moves to the new level and
        keeps its text instead of leaving a stray copy nested in the wrong place.
        """
        text = clean_title(title)
        moved: Section | None = None
        top = self._stack[-1][1]
        if text and len(self._stack) > 1 and not top.children and same_text(top.title, text):
            parent = self._stack[-2][1]
            parent.children = [c for c in parent.children if c is not top]
            moved = top
        while self._stack[-1][0] >= level:
            self._stack.pop()
        section = moved or Section(title=text or None)
        self.current.children.append(section)
        self._stack.append((level, section))
        return section

    def mark(self) -> list[tuple[int, Section]]:
        """The open sections, to close what opens after this with ``close_to``."""
        return list(self._stack)

    def close_to(self, mark: list[tuple[int, Section]]) -> None:
        """Close every section opened (or moved to another level) since ``mark``.

        For a self-contained box such as a dialog: its headings end with it.
        """
        k = 0
        while k < min(len(mark), len(self._stack)) and mark[k][1] is self._stack[k][1] and mark[k][0] == self._stack[k][0]:
            k += 1
        del self._stack[max(1, k) :]

    def add(
        self, text: str, page: int | None = None, *, keep_lines: bool = False, kind: BlockKind | None = None
    ) -> None:
        """Append a block to the open section; ``keep_lines`` keeps line breaks (code).

        Without a ``kind`` a "Label: value" line is a label, anything else a paragraph.
        Citations and UI hints are not content and are dropped.
        """
        if keep_lines:
            text = "\n".join(line.rstrip() for line in text.strip("\n").splitlines()).strip()
            kind = kind or "code"
        else:
            text = clean(text)
            if not keep(text):
                return
            kind = kind or ("label" if is_label_line(text) else "paragraph")
        if text:
            self.current.blocks.append(Block(text=text, page=page, kind=kind))


def prune_empty(section: Section) -> None:
    """Drop descendant sections that hold no text (e.g. a title over skipped content)."""
    section.children = [c for c in section.children if not c.is_empty()]
    for child in section.children:
        prune_empty(child)


# A bullet glyph (dropped: the block's kind says it is a list item), or a number or letter
# (kept: it carries order). "o" is Word's second-level bullet when exported to PDF.
_GLYPH = re.compile(r"^(?:[•●○◦▪■□➢➤►‣∙·*–-]|o(?=\s+[A-Z]))\s+")
_NUMBERED = re.compile(r"^(?:\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\([ivxIVX]{1,5}\))\s")


def join_units(lines: Iterable[str]) -> list[tuple[str, BlockKind]]:
    """Re-flow hard-wrapped lines into blocks, keeping list items and label lines whole.

    A bullet or numbered line starts a list item (a bullet glyph is dropped); a line
    opening with a capitalised "Label:" after a complete line starts a label block; other
    lines join the block before them, a word hyphenated across lines joined ("trans-" + "fer" -> "transfer").
    """
    blocks: list[tuple[str, BlockKind]] = []
    current = ""
    kind: BlockKind = "paragraph"
    for raw in lines:
        line = clean(raw)
        if not line:
            continue
        glyph = _GLYPH.match(line)
        starts: BlockKind | None = None
        if glyph or _NUMBERED.match(line):
            starts = "list_item"
            line = line[glyph.end() :] if glyph and line[glyph.end() :] else line
        elif is_label_line(line, capitalised=True) and _ended(current, kind):
            starts = "label"
        if not current or starts:
            if current:
                blocks.append((current, kind))
            current, kind = line, starts or "paragraph"
        elif re.search(r"[A-Za-z]-$", current) and line[0].islower():
            current = current[:-1] + line
        else:
            current = f"{current} {line}"
    if current:
        blocks.append((current, kind))
    return [(text, kind) for text, kind in blocks if keep(text)]


def _ended(current: str, kind: BlockKind) -> bool:
    """Whether the block so far is complete, so a "Label:" line after it is a new unit, not a wrap."""
    return not current or kind == "label" or current.endswith((".", ":", ";", "!", "?")) or len(current) <= 40


def join_lines(lines: Iterable[str]) -> list[str]:
    """``join_units`` without the kinds."""
    return [text for text, _ in join_units(lines)]


def parse_error(path: Path, what: str) -> DocumentParseError:
    """``what`` reads on from the file name: "is encrypted; …"."""
    return DocumentParseError(f"{Path(path).name} {what}")


def decode_text(path: Path, data: bytes) -> str:
    """Decode text bytes: BOM, then UTF-8, then cp1252 / latin-1 (only for NUL-free bytes)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if b"\x00" in data:
            raise parse_error(path, "is not valid UTF-8 text and holds NUL bytes (binary data?)") from exc
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")
