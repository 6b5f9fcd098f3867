"""check_upload: bytes that are not what their name says are refused at the door.

Every real file passes; every bad one is refused with a message naming it, and the loader
refuses each bad one too (the check only says sooner what loading would say later).
"""

from __future__ import annotations

import io
import random
import zipfile
from pathlib import Path

import pytest
from bomb_files import Entry, MiB, docx_with, in_subprocess, repeated, tiny_png

import curbside.kb.loaders as loaders
from curbside.errors import CurbsideError, EmptyDocumentError, FileTooLargeError, UnsupportedFormatError
from curbside.kb.loaders import SUPPORTED_EXTENSIONS, InflateLimits, check_upload, load_document

FIXTURES = Path(__file__).parent / "fixtures"
SAMPLES = Path(loaders.__file__).parents[2] / "samples"
JATS = b'<?xml version="1.0"?>\n<!DOCTYPE article PUBLIC "-//NLM//DTD JATS" "x.dtd">\n<article><body><p>Text.</p></body></article>'


def _supported(*roots: Path) -> list[Path]:
    return sorted(p for root in roots for p in root.rglob("*") if p.suffix.lower() in SUPPORTED_EXTENSIONS)


def _zip(parts: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, body in parts.items():
            archive.writestr(name, body)
    return buffer.getvalue()


# ---------------------------------------------------------------- real files pass


def test_every_fixture_and_sample_passes() -> None:
    files = _supported(FIXTURES, SAMPLES)
    assert len(files) >= 12
    for path in files:
        assert check_upload(path.name, path.read_bytes()) == SUPPORTED_EXTENSIONS[path.suffix.lower()], path


def test_every_shared_guideline_and_manual_passes(shared_data: Path) -> None:
    files = _supported(shared_data / "guidelines", shared_data / "ontario/adp")
    assert {p.suffix for p in files} == {".html", ".nxml", ".pdf"}
    for path in files:
        check_upload(path.name, path.read_bytes())


def test_real_docx_passes(tmp_path: Path) -> None:
    path = docx_with(tmp_path / "plan.docx", text="Discharge plan.")
    assert check_upload("plan.docx", path.read_bytes()) == "docx"


@pytest.mark.parametrize(
    ("name", "data", "fmt"),
    [
        ("notes.txt", "Fièvre – 38,5 °C".encode("cp1252"), "text"),  # the loader falls back to cp1252
        ("notes.txt", "\ufeffUTF-8 with a BOM".encode(), "text"),
        ("notes.md", "# Fièvre\n\nTexte.".encode("utf-16"), "markdown"),
        ("page.HTML", b"<html><meta charset='shift_jis'><p>" + "血圧".encode("shift_jis"), "html"),
        ("article.xml", JATS.decode().encode("utf-16"), "nxml"),
        ("article.nxml", b'<?xml version="1.0" encoding="ISO-8859-1"?>\n<article><p>Caf\xe9</p></article>', "nxml"),
        ("ns.nxml", b'<j:article xmlns:j="urn:x"><j:p>x</j:p></j:article>', "nxml"),
        ("book.nxml", b"<!-- NCBI -->\n<book-part-wrapper><book-part/></book-part-wrapper>", "nxml"),
        ("scan.pdf", b"\xef\xbb\xbf  %PDF-1.4\n...", "pdf"),  # junk before the header, as Acrobat allows
        (r"C:\Users\me\Downloads\report.pdf", b"%PDF-1.7\n", "pdf"),
    ],
)
def test_unusual_but_valid_files_pass(name: str, data: bytes, fmt: str) -> None:
    assert check_upload(name, data) == fmt


# ---------------------------------------------------------------- bad files are refused


def _binary_after_text() -> bytes:
    text = b"Ordinary text.\n" * 10_000  # 150 KB of text, then the rest of the file is binary
    return text + random.Random(3).randbytes(2 * MiB)


BAD = [
    ("report.pdf", tiny_png(), "report.pdf is named .pdf but is not a PDF (no %PDF header; it looks like a PNG image)"),
    (
        "report.pdf",
        b"<html><body>Download failed</body></html>",
        "report.pdf is named .pdf but is not a PDF (no %PDF header)",
    ),
    (
        "notes.docx",
        _zip({"notes.txt": b"hello"}),
        "notes.docx is a zip archive, not a Word document (it has no [Content_Types].xml)",
    ),
    (
        "letter.docx",
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(500),
        "letter.docx is named .docx but is not a Word .docx file",
    ),
    ("notes.docx", b"PK\x03\x04" + bytes(300), "notes.docx is not a readable zip archive (File is not a zip file)"),
    ("notes.txt", random.Random(7).randbytes(4096), "notes.txt looks like binary data, not plain text"),
    ("notes.md", _binary_after_text(), "notes.md looks like binary data, not Markdown"),
    ("page.html", b"%PDF-1.4\n" + bytes(100), "page.html looks like binary data (a PDF), not HTML"),
    ("notes.txt", b"\xff\xfe" + random.Random(5).randbytes(4096), "notes.txt looks like binary data, not plain text"),
    ("bad.nxml", b"Just some words, not markup.", "bad.nxml is not XML (it does not start with '<' after its prolog)"),
    (
        "formulary.xml",
        b"<?xml version='1.0'?>\n<formulary><drug/></formulary>",
        "formulary.xml is XML but not a JATS article or BITS book part (root element <formulary>)",
    ),
    (
        "latin.nxml",
        b"<article><p>Caf\xe9</p></article>",
        "latin.nxml is not valid UTF-8 and its XML declaration names no other encoding",
    ),
]


@pytest.mark.parametrize(("name", "data", "message"), BAD, ids=[f"{i}-{b[0]}" for i, b in enumerate(BAD)])
def test_bytes_that_contradict_the_name_are_refused(tmp_path: Path, name: str, data: bytes, message: str) -> None:
    with pytest.raises(UnsupportedFormatError) as refused:
        check_upload(name, data)
    assert refused.value.message.startswith(message)
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(CurbsideError):  # the loader would have failed the job later
        load_document(path)


def test_excel_workbook_named_docx_says_what_it_is(tmp_path: Path) -> None:
    rels = (
        b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship '
        b'Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
        b'Target="xl/workbook.xml"/></Relationships>'
    )
    types = (
        b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override '
        b'PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        b'spreadsheetml.sheet.main+xml"/></Types>'
    )
    data = _zip({"[Content_Types].xml": types, "_rels/.rels": rels, "xl/workbook.xml": b"<workbook/>"})
    with pytest.raises(
        UnsupportedFormatError, match=r"^doses.docx is an Excel workbook \(.xlsx\), not a Word document"
    ):
        check_upload("doses.docx", data)


def test_unsupported_extension() -> None:
    with pytest.raises(
        UnsupportedFormatError, match=r"^formulary.xlsx: unsupported file type '.xlsx'; supported: .*\.docx"
    ):
        check_upload("formulary.xlsx", b"PK\x03\x04")


@pytest.mark.parametrize("data", [b"", b" \n\t\r\n", b"\xef\xbb\xbf\n\n"])
def test_empty_or_blank(data: bytes) -> None:
    with pytest.raises(EmptyDocumentError, match=r"^notes.txt (is empty|holds only whitespace)"):
        check_upload("notes.txt", data)


def test_zip_bomb_is_refused_at_the_door_without_inflating(tmp_path: Path) -> None:
    bomb = repeated(bytes(MiB), 2048)
    path = docx_with(tmp_path / "photos.docx", {"word/media/image1.png": Entry("word/media/image1.png", bomb)})
    outcome = in_subprocess(path, "check")
    assert outcome["error"] == "FileTooLargeError"
    assert outcome["message"].startswith("photos.docx: word/media/image1.png inflates to 2.0 GiB")
    assert outcome["growth"] < 100 * MiB


def test_zip_limits_are_an_override(tmp_path: Path) -> None:
    data = docx_with(tmp_path / "plan.docx").read_bytes()
    with pytest.raises(FileTooLargeError, match=r"^plan.docx is a zip of \d+ parts, over the 3 limit"):
        check_upload("plan.docx", data, limits=InflateLimits(zip_max_entries=3))
    with pytest.raises(FileTooLargeError, match=r"^plan.docx: its \d+ parts inflate to .*, over the 1.0 KiB limit"):
        check_upload("plan.docx", data, zip_max_inflated_bytes=1024)


def test_exports_match_the_public_names() -> None:
    assert set(loaders.__all__) == {
        "DEFAULT_LIMITS", "PARSER_VERSION", "PDF_MAX_INFLATED_BYTES", "PDF_MAX_STREAM_BYTES", "PDF_MAX_STREAM_TOKENS",
        "SUPPORTED_EXTENSIONS", "ZIP_MAX_ENTRIES", "ZIP_MAX_INFLATED_BYTES", "ZIP_MAX_RATIO", "ZIP_MAX_XML_BYTES",
        "InflateLimits", "check_upload", "detect_format", "load_document", "skip_reason",
    }  # fmt: skip
    assert all(hasattr(loaders, name) for name in loaders.__all__)


def test_an_uploaded_bomb_is_refused_before_a_job_or_original_exists(tmp_path: Path) -> None:
    """Ingestor.submit (the HTTP upload path) runs the check, with the limits from the settings."""
    from curbside.app import Curbside
    from curbside.settings import Settings

    bomb = repeated(bytes(MiB), 1536)
    data = docx_with(tmp_path / "big.docx", {"word/document.xml": Entry("word/document.xml", bomb)}).read_bytes()
    core = Curbside(Settings(home=tmp_path / "home", max_inflate_ratio=50))
    try:
        with pytest.raises(FileTooLargeError, match=r"word/document.xml inflates to 1.5 GiB .* over the 50:1"):
            core.ingestor.submit("big.docx", data)
        assert core.jobs.list() == []
        assert not (tmp_path / "home" / "originals").exists() or not any((tmp_path / "home" / "originals").rglob("*.docx"))
    finally:
        core.close()
