"""A shared file's bytes as text: text formats decoded the way the knowledge base decodes them, PDFs
through the knowledge base's own PDF loader (its text layer, running headers and page numbers
dropped, decompression capped), with '[page N]' lines where pages begin."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from curbside.errors import DocumentParseError, UnsupportedFormatError

__all__ = ["TEXT_SUFFIXES", "READABLE_SUFFIXES", "ReadText", "file_format", "to_text"]

TEXT_SUFFIXES = frozenset({".txt", ".text", ".md", ".markdown", ".csv", ".tsv", ".json"})
READABLE_SUFFIXES = TEXT_SUFFIXES | {".pdf"}


@dataclass
class ReadText:
    format: str  # "text" | "pdf"
    text: str
    pages: int | None = None
    warnings: list[str] = field(default_factory=list)


def file_format(path: str) -> str:
    """'text' or 'pdf' by the name's suffix, or an ``UnsupportedFormatError`` listing what can be read."""
    suffix = PurePosixPath(path).suffix.lower()
    if suffix == ".pdf":
        return "pdf"
    if suffix in TEXT_SUFFIXES:
        return "text"
    readable = ", ".join(sorted(READABLE_SUFFIXES))
    raise UnsupportedFormatError(
        f"{path}: files.read reads {readable} files, not {suffix or 'files without a suffix'!r}."
    )


def to_text(path: str, data: bytes) -> ReadText:
    """The text of ``data`` (the file at ``path``); CPU-bound for PDFs: call it off the event loop."""
    name = PurePosixPath(path).name
    if file_format(path) == "pdf":
        return _pdf_text(name, data)
    from curbside.kb.loaders import decode_text
    from curbside.kb.loaders._sniff import is_binary

    if is_binary(data[:8192]):
        raise DocumentParseError(f"{path} looks like binary data, not text; check the file or its suffix.")
    text = decode_text(Path(name), data).replace("\r\n", "\n").replace("\r", "\n")
    return ReadText(format="text", text=text)


def _pdf_text(name: str, data: bytes) -> ReadText:
    from curbside.kb.loaders import DEFAULT_LIMITS
    from curbside.kb.loaders import pdf as pdf_loader

    if b"%PDF-" not in data[:1024]:
        raise DocumentParseError(f"{name} is named .pdf but is not a PDF (no %PDF header).")
    # The loader takes a path for its messages, and for OCR of pages without a text layer when tesseract is
    # installed. The path given here is in an empty folder, so no OCR runs: it would outlast the call's timeout.
    with tempfile.TemporaryDirectory(prefix="curbside-ws-") as empty:
        document = pdf_loader.load(Path(empty) / name, data, DEFAULT_LIMITS)
    lines: list[str] = []
    page: int | None = None
    for section in document.root.walk():
        pending_title = section.title  # written after the page marker of its first block
        for block in section.blocks:
            if block.page is not None and block.page != page:
                page = block.page
                lines.append(f"[page {page}]")
            if pending_title:
                lines.append(pending_title)
                pending_title = None
            lines.append(block.text)
        if pending_title:
            lines.append(pending_title)
    # the loader speaks of indexing; here the text goes into a conversation
    warnings = [w.replace("is not indexed", "is not included") for w in document.warnings]
    return ReadText(format="pdf", text="\n".join(lines), pages=document.page_count, warnings=warnings)
