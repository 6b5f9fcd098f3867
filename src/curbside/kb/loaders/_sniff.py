"""What bytes really are, from magic numbers and samples: never a full parse."""

from __future__ import annotations

import codecs

# Magic numbers of binary files people often misname, to say what the file really is.
SIGNATURES = {
    b"%PDF-": "a PDF",
    b"PK\x03\x04": "a zip archive (e.g. .docx)",
    b"\xd0\xcf\x11\xe0": "an old Office file (.doc/.xls)",
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
    b"\x1f\x8b": "a gzip archive",
    b"7z\xbc\xaf\x27\x1c": "a 7-Zip archive",
    b"Rar!\x1a\x07": "a RAR archive",
    b"II*\x00": "a TIFF image",
    b"MM\x00*": "a TIFF image",
    b"\x7fELF": "a program (ELF)",
}
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
UTF32_BOMS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")


def looks_like(head: bytes) -> str:
    """What a misnamed file really is, by its magic number ('' if unknown)."""
    return next((what for magic, what in SIGNATURES.items() if head.startswith(magic)), "")


def is_binary(head: bytes) -> bool:
    """NULs (outside UTF-16) or a high share of control bytes mean not text."""
    if head.startswith(UTF16_BOMS) and not head.startswith(UTF32_BOMS):
        return not _is_utf16_text(head)  # UTF-16 with a BOM holds NULs and is still text
    if looks_like(head):
        return True
    return not is_text_sample(head)


def is_text_sample(sample: bytes) -> bool:
    """A NUL-free run of bytes with few control characters (2%, at least 2 allowed)."""
    if b"\x00" in sample:
        return False
    control = sum(1 for b in sample if b < 32 and b not in b"\t\n\r\f\v" or b == 127)
    return control <= max(2, len(sample) // 50)


def _is_utf16_text(head: bytes) -> bool:
    """Decodes as UTF-16 with few unpaired surrogates (U+FFFD here) and control characters."""
    text = codecs.getincrementaldecoder("utf-16")(errors="replace").decode(head)
    return text.count("\ufffd") <= max(2, len(text) // 100) and is_text_sample(text.encode("utf-8"))


def samples(data: bytes, *, head: int = 64 * 1024, window: int = 4096, count: int = 8) -> list[bytes]:
    """The head plus ``count`` windows spread evenly over the rest: cheap for any size."""
    out = [data[:head]]
    rest = len(data) - head
    if rest > 0:
        step = max(window, rest // count)
        out.extend(data[start : start + window] for start in range(head, len(data), step))
    return out
