"""Caps on what a compressed file may inflate to, checked before (or while) it is parsed.

A .docx is a zip and a PDF holds Flate streams: a 1.5 MB file can inflate to 1.5 GiB
(deflate reaches ~1,032:1 on repeated bytes). Every cap below is a module constant and a
field of ``InflateLimits``; ``load_document(..., limits=InflateLimits(...))`` overrides
them, so settings can own the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from curbside.errors import size_text  # noqa: F401 - re-exported for the loaders

__all__ = [
    "DEFAULT_LIMITS",
    "PDF_MAX_INFLATED_BYTES",
    "PDF_MAX_STREAM_BYTES",
    "PDF_MAX_STREAM_TOKENS",
    "ZIP_MAX_ENTRIES",
    "ZIP_MAX_INFLATED_BYTES",
    "ZIP_MAX_RATIO",
    "ZIP_MAX_XML_BYTES",
    "InflateLimits",
]

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB

# A Word file has ~15-40 parts, one per picture, chart or embedded object on top; a
# thousand is a huge manual. Past this the central directory alone costs real memory.
ZIP_MAX_ENTRIES = 10_000

# Declared inflated size of all entries, pictures included. Photos (JPEG/PNG) are already
# compressed and inflate ~1:1, so an upload at the default 200 MB file limit stays near
# 200 MB; 512 MiB leaves room for the odd uncompressed TIFF/BMP/EMF (Word stores pasted
# bitmaps as PNG). Pictures are never inflated by the loader (see ZIP_MAX_XML_BYTES), so this
# guards the archive as a whole. (Settings' CURBSIDE_MAX_INFLATED_BYTES has the same default.)
ZIP_MAX_INFLATED_BYTES = 512 * MiB

# Declared inflated size of the XML parts, the only parts the docx loader inflates and
# parses. The loader's copy, python-docx and lxml hold ~5.5x the XML size (measured: a 17 MB
# document.xml, 60,000 paragraphs or 1,000+ pages, grew the process by 94 MB), so 128 MiB
# bounds a load near 700 MB while leaving ~8x the XML of a 1,000-page manual.
ZIP_MAX_XML_BYTES = 128 * MiB

# Largest inflated:compressed ratio of one entry (checked for entries inflating past 1 MiB;
# smaller ones cost nothing whatever their ratio). Word XML compresses 5-20x (python-docx's own styles.xml: 29x); very
# repetitive tables reach ~50-100x. Deflate tops out at ~1,032x, which is where bombs
# live, so 200x sits well clear of both.
ZIP_MAX_RATIO = 200

# One PDF stream (content, form, object stream) after decoding. Text pages' content streams
# run to KBs (the shared ADP manuals: at most 31 KB a page); a dense vector drawing a few MB.
# pypdf's own default is 75 MB; at 32 MiB a Flate bomb costs ~2x this before pypdf stops.
# A page over it is skipped with a warning, not the whole file.
PDF_MAX_STREAM_BYTES = 32 * MiB

# Tokens (operators, operands, array members) pypdf parses from one content stream. Parsing
# is pure Python at ~170 bytes of memory a token, so pypdf's default (2,000,000) lets one
# crafted page take ~350 MB and seconds. A dense text page has 5,000-20,000 tokens (the
# ADP manuals' densest: 31 KB of content); 500,000 keeps a 25x margin and ~85 MB. A page
# past it (a detailed map or drawing) is skipped with a warning.
PDF_MAX_STREAM_TOKENS = 500_000

# Decoded page content (content streams and form XObjects) of the whole PDF. The 132-page
# ADP manual decodes to 2 MB; 256 MiB is 100x a 1,000-page manual and bounds both memory
# and pypdf's pure-Python content parsing (~10 MB/s), which a many-page bomb would exploit.
PDF_MAX_INFLATED_BYTES = 256 * MiB


@dataclass(frozen=True)
class InflateLimits:
    """Caps on inflation; the defaults are the module constants above."""

    zip_max_entries: int = ZIP_MAX_ENTRIES
    zip_max_inflated_bytes: int = ZIP_MAX_INFLATED_BYTES
    zip_max_xml_bytes: int = ZIP_MAX_XML_BYTES
    zip_max_ratio: float = ZIP_MAX_RATIO
    pdf_max_stream_bytes: int = PDF_MAX_STREAM_BYTES
    pdf_max_stream_tokens: int = PDF_MAX_STREAM_TOKENS
    pdf_max_inflated_bytes: int = PDF_MAX_INFLATED_BYTES

    def __post_init__(self) -> None:
        bad = [f.name for f in fields(self) if not getattr(self, f.name) > 0]
        if bad:
            raise ValueError(f"InflateLimits: {', '.join(bad)} must be positive")

    def with_overrides(self, **overrides: Any) -> InflateLimits:
        """A copy with the named caps replaced, e.g. ``zip_max_ratio=100``; unknown names are refused."""
        unknown = sorted(set(overrides) - {f.name for f in fields(self)})
        if unknown:
            known = ", ".join(f.name for f in fields(self))
            raise TypeError(f"unknown inflate limit(s) {', '.join(unknown)}; the limits are: {known}")
        return replace(self, **overrides) if overrides else self


DEFAULT_LIMITS = InflateLimits()
