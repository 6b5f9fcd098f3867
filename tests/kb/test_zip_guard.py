"""Zip bombs and crafted .docx archives are refused from the central directory, before parsing.

The memory tests run the public loader in a fresh interpreter and bound the growth of its
peak resident memory: before the guard, the first two files took 3.2 GB (until a 4 GB
address-space cap stopped them) and the lying directory 2.1 GB.
"""

from __future__ import annotations

import io
import random
import struct
import zipfile
import zlib
from pathlib import Path

import pytest
from bomb_files import Entry, GiB, MiB, deflated, docx_parts, docx_with, in_subprocess, repeated, write_zip

from curbside.errors import DocumentParseError, FileTooLargeError
from curbside.kb.loaders import (
    DEFAULT_LIMITS,
    ZIP_MAX_ENTRIES,
    ZIP_MAX_INFLATED_BYTES,
    ZIP_MAX_RATIO,
    ZIP_MAX_XML_BYTES,
    InflateLimits,
    load_document,
)

GROWTH_BOUND = 100 * MiB
DOCUMENT = "word/document.xml"
IMAGE = "word/media/image1.png"


# ---------------------------------------------------------------- bombs, measured


def test_docx_whose_text_inflates_to_1_5_gib_is_refused_from_the_directory(tmp_path: Path) -> None:
    bomb = repeated(b"A" * MiB, 1536, crc=True)
    path = docx_with(tmp_path / "minutes.docx", {DOCUMENT: Entry(DOCUMENT, bomb)})
    assert path.stat().st_size < 2 * MiB and bomb.size == 1.5 * GiB

    outcome = in_subprocess(path)

    assert outcome["error"] == "FileTooLargeError"
    assert outcome["message"] == (
        "minutes.docx: word/document.xml inflates to 1.5 GiB from 1.5 MiB (ratio 1,010:1), "
        "over the 200:1 limit for one part; refused as a likely zip bomb"
    )
    assert outcome["growth"] < GROWTH_BOUND


def test_docx_with_a_2_gib_picture_is_refused_from_the_directory(tmp_path: Path) -> None:
    bomb = repeated(bytes(MiB), 2048, crc=True)  # a valid entry: the CRC matches its 2 GiB
    path = docx_with(tmp_path / "photos.docx", {IMAGE: Entry(IMAGE, bomb)})
    assert path.stat().st_size < 2.5 * MiB

    outcome = in_subprocess(path)

    assert outcome["error"] == "FileTooLargeError"
    assert outcome["message"].startswith(
        "photos.docx: word/media/image1.png inflates to 2.0 GiB from 2.0 MiB (ratio 1,011:1), over the 200:1 limit"
    )
    assert outcome["growth"] < GROWTH_BOUND


def test_lying_central_directory_inflates_no_more_than_it_declares(tmp_path: Path) -> None:
    # document.xml really inflates to 1.5 GiB but the directory says 20,000 bytes, a harmless
    # ratio. Reading it through ZipFile.read() (as python-docx does) took 2.1 GB; the bounded
    # read stops at the declared size, where the CRC check fails.
    bomb = repeated(b"A" * MiB, 1536)
    path = docx_with(tmp_path / "liar.docx", {DOCUMENT: Entry(DOCUMENT, bomb, declared_size=20_000, declared_crc=1)})

    outcome = in_subprocess(path)

    assert outcome["error"] == "DocumentParseError"
    assert outcome["message"] == (
        "liar.docx is damaged: part 'word/document.xml' cannot be read (Bad CRC-32 for file "
        "'word/document.xml'); its zip directory does not match its data. Export the document again"
    )
    assert outcome["growth"] < GROWTH_BOUND


def test_lying_directory_with_a_forged_crc_yields_only_the_declared_bytes(tmp_path: Path) -> None:
    # The CRC of the first 20,000 bytes passes the check: the part is those bytes, no more.
    bomb = repeated(b"A" * MiB, 1536)
    forged = Entry(DOCUMENT, bomb, declared_size=20_000, declared_crc=zlib.crc32(b"A" * 20_000))
    path = docx_with(tmp_path / "forged.docx", {DOCUMENT: forged})

    outcome = in_subprocess(path)

    assert outcome["error"] == "DocumentParseError"
    assert outcome["message"].startswith("Could not read forged.docx as docx")  # 20,000 A's are not XML
    assert outcome["growth"] < GROWTH_BOUND


def test_50_mb_of_photos_still_loads_without_inflating_them(tmp_path: Path) -> None:
    photo = io.BytesIO()
    with zipfile.ZipFile(photo, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in docx_parts("Wound care photographs, week 1 to 6.").items():
            if name == IMAGE:  # a photo does not compress: random bytes, stored (the loader never decodes them)
                archive.writestr(name, random.Random(0).randbytes(50 * MiB), compress_type=zipfile.ZIP_STORED)
            else:
                archive.writestr(name, body)
    path = tmp_path / "wounds.docx"
    path.write_bytes(photo.getvalue())
    assert path.stat().st_size > 50 * MiB

    outcome = in_subprocess(path)

    assert outcome["error"] is None
    # the file's own 50 MB is read; the picture is neither inflated nor copied for python-docx
    assert outcome["growth"] < 50 * MiB + GROWTH_BOUND


# ---------------------------------------------------------------- pictures are never inflated


def test_pictures_are_not_read_at_all(tmp_path: Path) -> None:
    # A picture whose CRC is wrong would fail any read; the document still loads.
    image = Entry(IMAGE, deflated(b"\x89PNG not really" * 100), declared_crc=12345)
    doc = load_document(docx_with(tmp_path / "ward.docx", {IMAGE: image}, text="Falls prevention checklist."))
    assert [b.text for s in doc.root.walk() for b in s.blocks] == ["Falls prevention checklist."]


def test_an_ordinary_docx_passes_every_default(tmp_path: Path) -> None:
    doc = load_document(docx_with(tmp_path / "plain.docx", text="Hand hygiene before and after contact."))
    assert doc.format == "docx"
    assert DEFAULT_LIMITS == InflateLimits(
        zip_max_entries=ZIP_MAX_ENTRIES,
        zip_max_inflated_bytes=ZIP_MAX_INFLATED_BYTES,
        zip_max_xml_bytes=ZIP_MAX_XML_BYTES,
        zip_max_ratio=ZIP_MAX_RATIO,
    )


# ---------------------------------------------------------------- each cap, by override


def test_too_many_parts(tmp_path: Path) -> None:
    path = docx_with(tmp_path / "parts.docx")
    count = len(docx_parts())
    with pytest.raises(
        FileTooLargeError, match=rf"^parts.docx is a zip of {count} parts, over the 5 limit; a Word document"
    ):
        load_document(path, limits=InflateLimits(zip_max_entries=5))


def test_directory_larger_than_its_entry_count_can_need(tmp_path: Path) -> None:
    # The end record claims 1 entry but the directory holds 40 with long names: zipfile
    # would build them all, so the declared directory size is capped as well.
    entries = [Entry(f"word/{'n' * 200}{i}.xml", deflated(b"<x/>")) for i in range(40)]
    data = bytearray(write_zip(tmp_path / "many.docx", entries).read_bytes())
    end = data.rfind(b"PK\x05\x06")
    data[end + 8 : end + 12] = struct.pack("<HH", 1, 1)
    (tmp_path / "many.docx").write_bytes(data)
    with pytest.raises(
        FileTooLargeError, match=r"^many.docx: its zip directory is 10.0 KiB, more than 5 parts can need"
    ):
        load_document(tmp_path / "many.docx", limits=InflateLimits(zip_max_entries=5))


def test_total_inflated_size(tmp_path: Path) -> None:
    path = docx_with(tmp_path / "total.docx")
    count = len(docx_parts())
    with pytest.raises(
        FileTooLargeError, match=rf"^total.docx: its {count} parts inflate to \d+.\d KiB, over the 100.0 KiB limit"
    ):
        load_document(path, limits=InflateLimits(zip_max_inflated_bytes=100 * 1024))


def test_xml_size(tmp_path: Path) -> None:
    path = docx_with(tmp_path / "xml.docx")
    with pytest.raises(
        FileTooLargeError,
        match=r"^xml.docx: its XML parts inflate to \d+.\d KiB, over the 100.0 KiB limit for the text of one Word",
    ):
        load_document(path, limits=InflateLimits(zip_max_xml_bytes=100 * 1024, zip_max_inflated_bytes=GiB))


def test_ratio_of_one_part(tmp_path: Path) -> None:
    spaces = Entry("word/extra.xml", deflated(b" " * 2 * MiB))  # 2 MiB of spaces: ~1,000:1
    path = docx_with(tmp_path / "ratio.docx", {"word/extra.xml": spaces})
    with pytest.raises(
        FileTooLargeError, match=r"word/extra.xml inflates to 2.0 MiB from 2.\d KiB \(ratio 1,0\d\d:1\), over the 900:1"
    ):
        load_document(path, zip_max_ratio=900)  # a single cap, by keyword
    assert load_document(path, limits=InflateLimits(zip_max_ratio=1100)).format == "docx"


def test_unknown_limit_names_are_refused(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match=r"unknown inflate limit\(s\) max_ratio; the limits are: zip_max_entries, "):
        load_document(docx_with(tmp_path / "plain.docx"), max_ratio=10)


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError, match="zip_max_ratio, pdf_max_stream_bytes must be positive"):
        InflateLimits(zip_max_ratio=0, pdf_max_stream_bytes=-1)


# ---------------------------------------------------------------- crafted archives


def test_entries_sharing_compressed_data_overlap(tmp_path: Path) -> None:
    # The non-recursive zip bomb: many directory entries pointing at one run of data.
    kernel = deflated(b"<w:p/>" * 1000)
    entries = [Entry(f"word/part{i}.xml", kernel, shares_data_of=0 if i else None) for i in range(3)]
    path = write_zip(tmp_path / "overlap.docx", entries)
    with pytest.raises(
        DocumentParseError, match=r"^overlap.docx: parts 'word/part\d.xml' and 'word/part\d.xml' overlap"
    ):
        load_document(path)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("word/\x01document.xml", r"impossible name \(18 characters: 'word/\\x01document.xml'\)"),
        ("word/" + "x" * 2000 + ".xml", r"impossible name \(2,009 characters"),
    ],
)
def test_absurd_part_names(tmp_path: Path, entry: str, message: str) -> None:
    path = docx_with(tmp_path / "names.docx", {entry: Entry(entry, deflated(b"<x/>"))})
    with pytest.raises(DocumentParseError, match=message):
        load_document(path)


def test_duplicate_part_names(tmp_path: Path) -> None:
    parts = docx_parts()
    entries = [Entry(name, deflated(body)) for name, body in parts.items()]
    entries.append(Entry("WORD/document.xml", deflated(b"<w:document/>")))
    path = write_zip(tmp_path / "twice.docx", entries)
    with pytest.raises(DocumentParseError, match=r"^twice.docx holds two parts named 'WORD/document.xml'"):
        load_document(path)


def test_encrypted_part(tmp_path: Path) -> None:
    path = docx_with(tmp_path / "locked.docx", {DOCUMENT: Entry(DOCUMENT, deflated(b"x"), flags=0x1)})
    with pytest.raises(DocumentParseError, match=r"^locked.docx is password-protected"):
        load_document(path)


def test_compression_methods_other_than_deflate(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in docx_parts().items():
            archive.writestr(name, body, compress_type=zipfile.ZIP_BZIP2 if name == DOCUMENT else None)
    path = tmp_path / "bzip.docx"
    path.write_bytes(buffer.getvalue())
    with pytest.raises(DocumentParseError, match=r"part 'word/document.xml' uses zip compression method 12"):
        load_document(path)


# ---------------------------------------------------------------- zips that are not Word documents


def _zip(path: Path, parts: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, body in parts.items():
            archive.writestr(name, body)
    return path


def test_excel_workbook_named_docx(tmp_path: Path) -> None:
    rels = (
        b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        b'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
    )
    types = (
        b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        b'<Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" '
        b'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>'
    )
    path = _zip(
        tmp_path / "doses.docx", {"[Content_Types].xml": types, "_rels/.rels": rels, "xl/workbook.xml": b"<w/>"}
    )
    with pytest.raises(
        DocumentParseError,
        match=r"^doses.docx is an Excel workbook \(.xlsx\), not a Word document \(its main part is application/vnd.o",
    ):
        load_document(path)


def test_macro_enabled_document_named_docx(tmp_path: Path) -> None:
    parts = docx_parts()
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
        b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
        b"application/vnd.ms-word.document.macroEnabled.main+xml",
    )
    path = _zip(tmp_path / "macro.docx", parts)
    with pytest.raises(
        DocumentParseError,
        match=r"^macro.docx is a Word template or macro-enabled document \(application/vnd.ms-word.document.macroEnabled.main\+xml\); save it",
    ):
        load_document(path)


def test_opendocument_named_docx(tmp_path: Path) -> None:
    path = _zip(
        tmp_path / "letter.docx", {"mimetype": b"application/vnd.oasis.opendocument.text", "content.xml": b"<x/>"}
    )
    with pytest.raises(
        DocumentParseError,
        match=r"^letter.docx is an OpenDocument file \(.odt/.ods/.odp\), not a Word document \(it has no \[Content_Types\].xml\)",
    ):
        load_document(path)
