"""``check_upload``: refuse bytes that are not what their file name says, before a job exists.

It reads the head, a few windows spread over the body, and for a .docx the zip directory
plus two small parts: milliseconds for any size, and never a full parse. Passing it
does not promise the file loads (a PDF may still be encrypted or scanned); failing it
means the loader would refuse the file too.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from curbside.errors import DocumentParseError, EmptyDocumentError, UnsupportedFormatError
from curbside.kb.loaders._limits import DEFAULT_LIMITS, InflateLimits
from curbside.kb.loaders._sniff import UTF16_BOMS, is_text_sample, looks_like, samples

_HEAD = 8192
_XML_HEAD = 64 * 1024  # a DOCTYPE with an internal subset can be long
_BLANK = re.compile(rb"(?:\xef\xbb\xbf)?\s*")
_XML_PROLOG = re.compile(r"(?:\s+|<\?.*?\?>|<!--.*?-->|<!DOCTYPE(?:[^\[>]|\[.*?\])*>)*", re.S)
_XML_NAME = re.compile(r"<(?:[A-Za-z_][\w.\-]*:)?([A-Za-z_][\w.\-]*)")
_XML_ENCODING = re.compile(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._\-]+)["']""")
_LABELS = {"text": "plain text", "markdown": "Markdown", "html": "HTML", "nxml": "XML"}


def check_upload(name: str, data: bytes, *, limits: InflateLimits = DEFAULT_LIMITS, **overrides: float) -> str:
    """Check that ``data`` is what ``name``'s extension says; return the format name.

    ``limits`` and keyword ``overrides`` (``zip_max_ratio=100`` …) are those of ``load_document``.

    Raises ``UnsupportedFormatError`` for an unsupported extension or bytes that are not
    that format (a PNG named .pdf, a non-Word zip named .docx, binary named .txt, XML that
    is not a JATS/BITS document), ``FileTooLargeError`` for a .docx over ``limits`` (a zip
    bomb), and ``EmptyDocumentError`` for no bytes or only whitespace.
    """
    from curbside.kb.loaders import detect_format  # the package imports this module

    limits = limits.with_overrides(**overrides)
    name = Path(name.replace("\\", "/")).name
    if not data:
        raise EmptyDocumentError(f"{name} is empty (0 bytes)")
    try:
        fmt = detect_format(Path(name), data[:_HEAD])
        if fmt == "docx":
            from curbside.kb.loaders._zip import open_word_package

            open_word_package(name, data, limits).archive.close()
        elif fmt != "pdf":
            _check_text(name, data, fmt)
    except DocumentParseError as exc:  # at the door, "not what it claims" is a format error
        raise UnsupportedFormatError(exc.message) from exc
    return fmt


def _check_text(name: str, data: bytes, fmt: str) -> None:
    label = _LABELS[fmt]
    if not data.startswith(UTF16_BOMS):  # detect_format has checked UTF-16's head (and called UTF-32 binary)
        for sample in samples(data):
            if not is_text_sample(sample):
                really = looks_like(sample)
                raise DocumentParseError(
                    f"{name} looks like binary data{' (' + really + ')' if really else ''}, not {label}; "
                    "check the file or give it the right extension"
                )
    if _BLANK.fullmatch(data):
        raise EmptyDocumentError(f"{name} holds only whitespace; there is no text to index")
    if fmt == "nxml":
        _check_xml(name, data)


def _check_xml(name: str, data: bytes) -> None:
    """Starts like XML, is UTF-8 unless it declares otherwise, and has a root the loader reads."""
    from curbside.kb.loaders.nxml import ARTICLE_ROOTS, BOOK_ROOTS

    if data.startswith(UTF16_BOMS):
        head = _utf16_head(data)
    else:  # the prolog is ASCII in any 8-bit encoding
        start = data[:_XML_HEAD].removeprefix(b"\xef\xbb\xbf")  # (slices: never copy the whole file)
        declared = _XML_ENCODING.match(start[:400].lstrip())
        encoding = declared.group(1).decode("ascii").lower().replace("_", "-") if declared else "utf-8"
        if encoding in {"utf-8", "utf8"} and not _utf8_samples(data):  # a UTF-8 BOM is valid UTF-8
            raise DocumentParseError(
                f"{name} is not valid UTF-8 and its XML declaration names no other encoding; "
                'save it as UTF-8 or declare its encoding (<?xml version="1.0" encoding="…"?>)'
            )
        head = start.decode("latin-1")
    prolog = _XML_PROLOG.match(head)
    rest = head[prolog.end() :] if prolog else head
    if rest and not rest.startswith("<"):
        raise DocumentParseError(f"{name} is not XML (it does not start with '<' after its prolog)")
    root = _XML_NAME.match(rest)
    if root and root.group(1) not in ARTICLE_ROOTS + BOOK_ROOTS:
        raise DocumentParseError(
            f"{name} is XML but not a JATS article or BITS book part (root element <{root.group(1)}>); "
            "only journal-article and NCBI Bookshelf XML is supported"
        )


def _utf16_head(data: bytes) -> str:
    """The start of UTF-16 text (the codec reads the BOM); undecodable units become U+FFFD."""
    return codecs.getincrementaldecoder("utf-16")(errors="replace").decode(data[:_XML_HEAD])


def _utf8_samples(data: bytes) -> bool:
    """Every sample decodes as UTF-8, allowing characters cut at a sample's edges."""
    for index, sample in enumerate(samples(data)):
        if index:  # a window may start inside a character: skip its continuation bytes
            sample = sample[next((i for i, b in enumerate(sample[:4]) if b & 0xC0 != 0x80), 0) :]
        try:
            codecs.getincrementaldecoder("utf-8")().decode(sample, final=False)
        except UnicodeDecodeError:
            return False
    return True
