"""Hostile files for loader tests, generated without ever holding their inflated size.

A deflate stream of one chunk repeated ``count`` times is one compressed block repeated
``count`` times: after ``Z_FULL_FLUSH`` the compressor starts afresh (no history, byte
aligned), so the same input compresses to the same bytes. A 1.5 GiB inflation costs a
1.5 MB string (and, when asked for, the CRC of the repeats: ~0.5 s a GiB).
"""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import docx
import pytest

MiB = 1024 * 1024
GiB = 1024 * MiB


@dataclass(frozen=True)
class Deflated:
    raw: bytes  # raw deflate (no zlib header), as a zip stores it
    size: int  # inflated size
    crc: int = 0
    adler: int = 1

    def zlib_stream(self) -> bytes:
        """The same data as a zlib stream (header + deflate + Adler-32), as a PDF /FlateDecode stream."""
        return b"\x78\xda" + self.raw + struct.pack(">I", self.adler)


def repeated(chunk: bytes, count: int, *, crc: bool = False, adler: bool = False) -> Deflated:
    """``chunk * count`` deflated from one compressed block; checksums only when asked for."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    assert compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH) == block, "no restart after a full flush"
    tail = compressor.flush(zlib.Z_FINISH)
    crc_value, adler_value = 0, 1
    for _ in range(count if crc or adler else 0):
        crc_value = zlib.crc32(chunk, crc_value) if crc else 0
        adler_value = zlib.adler32(chunk, adler_value) if adler else 1
    return Deflated(block * count + tail, len(chunk) * count, crc_value, adler_value)


def deflated(data: bytes) -> Deflated:
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return Deflated(compressor.compress(data) + compressor.flush(), len(data), zlib.crc32(data), zlib.adler32(data))


@dataclass(frozen=True)
class Entry:
    name: str
    body: Deflated
    # what the central directory claims, when it lies
    declared_size: int | None = None
    declared_crc: int | None = None
    flags: int = 0
    shares_data_of: int | None = None  # index of an earlier entry whose data this one points at


def write_zip(path: Path, entries: list[Entry]) -> Path:
    """A plain (non-zip64) deflated zip written by hand, so an entry can be precompressed or lie."""
    out = io.BytesIO()
    central, offsets = [], []
    for entry in entries:
        name = entry.name.encode()
        size = entry.body.size if entry.declared_size is None else entry.declared_size
        crc = entry.body.crc if entry.declared_crc is None else entry.declared_crc
        fields = (20, entry.flags, 8, 0, 0x21, crc, len(entry.body.raw), size, len(name))
        if entry.shares_data_of is None:
            offsets.append(out.tell())
            out.write(struct.pack("<4s5HIIIHH", b"PK\x03\x04", *fields, 0) + name + entry.body.raw)
        else:
            offsets.append(offsets[entry.shares_data_of])
        central.append(struct.pack("<4s6HIIIHHHHHII", b"PK\x01\x02", 20, *fields, 0, 0, 0, 0, 0, offsets[-1]) + name)
    start = out.tell()
    directory = b"".join(central)
    out.write(directory)
    out.write(struct.pack("<4s4HIIH", b"PK\x05\x06", 0, 0, len(entries), len(entries), len(directory), start, 0))
    path.write_bytes(out.getvalue())
    return path


def tiny_png() -> bytes:
    """A valid 1x1 grey PNG."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0\x80")) + chunk(b"IEND", b"")
    )


def docx_parts(text: str = "A real paragraph.") -> dict[str, bytes]:
    """The parts of a small genuine .docx made by python-docx, with one picture (word/media/image1.png)."""
    document = docx.Document()
    document.add_heading("Bomb test", level=1)
    document.add_paragraph(text)
    document.add_picture(io.BytesIO(tiny_png()))
    buffer = io.BytesIO()
    document.save(buffer)
    with zipfile.ZipFile(buffer) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def docx_with(path: Path, replace: dict[str, Entry] | None = None, *, text: str = "A real paragraph.") -> Path:
    """A genuine .docx whose named parts are swapped for (or joined by) the given entries."""
    replace = dict(replace or {})
    entries = [replace.pop(name, Entry(name, deflated(data))) for name, data in docx_parts(text).items()]
    return write_zip(path, entries + list(replace.values()))


def pdf_with_streams(path: Path, streams: list[bytes]) -> Path:
    """A valid PDF with one page per content stream (each a zlib stream, /FlateDecode)."""
    count = len(streams)
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, stream in enumerate(streams):
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
            f"/Contents {5 + 2 * i} 0 R >>".encode()
        )
        objects.append(f"<< /Length {len(stream)} /Filter /FlateDecode >>\nstream\n".encode() + stream + b"\nendstream")
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    out.writelines(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    path.write_bytes(out.getvalue())
    return path


def text_page(text: str) -> bytes:
    """A zlib content stream showing one line of text in /F1."""
    escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return zlib.compress(f"BT /F1 12 Tf 72 720 Td ({escaped}) Tj ET".encode())


_PROBE = """
import json, sys
from pathlib import Path

def high_water_mark():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))

from curbside.errors import CurbsideError
from curbside.kb.loaders import check_upload, load_document
import curbside.kb.loaders.docx, curbside.kb.loaders.pdf  # imports are not the file's cost

path = Path(sys.argv[2])
before = high_water_mark()
try:
    if sys.argv[1] == "load":
        document = load_document(path)
        result = {"error": None, "warnings": document.warnings}
    else:
        check_upload(path.name, path.read_bytes())
        result = {"error": None}
except CurbsideError as exc:
    result = {"error": type(exc).__name__, "message": exc.message}
result["growth"] = high_water_mark() - before
print(json.dumps(result))
"""


def in_subprocess(path: Path, call: str = "load") -> dict[str, object]:
    """``load_document(path)`` (or ``check_upload``) in a fresh interpreter: the outcome and
    the growth of its peak resident memory (VmHWM) over the call, in bytes. Linux only (/proc)."""
    if not Path("/proc/self/status").exists():
        pytest.skip("peak memory is read from /proc/self/status (Linux)")
    done = subprocess.run([sys.executable, "-c", _PROBE, call, str(path)], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
