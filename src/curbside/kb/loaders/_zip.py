"""Zip containers (.docx): refuse bombs from the central directory alone, then read parts boundedly.

Nothing is inflated until the central directory has passed: entry count and directory size
(from the end record, before ``zipfile`` builds one object per entry), names, compression
method, overlapping entries, each entry's ratio, and the declared inflated totals.

Why declared sizes bound what is really inflated: ``zipfile`` takes sizes and CRC from the
central directory, and a member read stops returning data at the declared ``file_size``;
once that many bytes are out it checks the CRC, so a directory that under-states a part
gives a truncated part and a CRC error, never more data. But that holds for what a read
*returns*, not for what it inflates on the way: ``ZipFile.read()`` and ``.read()`` with no
size inflate up to ``ZipExtFile.MAX_N`` (1 GiB) in one step before truncating (a 1.5 MB
entry declaring 20 KB took 2.1 GB that way). ``read_part`` therefore asks for exactly
``file_size`` bytes, and each inflate step is then capped at what is still wanted, so
memory stays within the declared size. python-docx reads parts with ``ZipFile.read()``,
so it only ever sees a copy made here (``xml_only_copy``), stored uncompressed.
"""

from __future__ import annotations

import io
import posixpath
import struct
import zipfile
import zlib
from dataclasses import dataclass

from lxml import etree

from curbside.errors import DocumentParseError, FileTooLargeError
from curbside.kb.loaders._limits import InflateLimits, MiB, size_text

WORD_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
_OFFICE_DOCUMENT = "/officeDocument"  # the end of the relationship type, transitional or strict
_CONTENT_TYPES = "[Content_Types].xml"
_PACKAGE_RELS = "_rels/.rels"

# A central-directory record is 46 bytes plus name and extra field; Word writes ~80-120.
_DIRECTORY_BYTES_PER_ENTRY = 300
_MAX_NAME_CHARS = 1024
# Ratios of small entries do not matter (a 100 KB run of spaces compresses 1,000x and costs
# nothing); the totals bound many small entries together.
_RATIO_FLOOR = 1 * MiB
_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED}  # all Word writes; bzip2/lzma reads are unbounded
_LOCAL_HEADER = 30
_XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
_KINDS = {  # what a zip that is not a Word document is, by a part only that kind has
    "xl/workbook.xml": "an Excel workbook (.xlsx)",
    "ppt/presentation.xml": "a PowerPoint presentation (.pptx)",
    "mimetype": "an OpenDocument file (.odt/.ods/.odp)",
    "META-INF/MANIFEST.MF": "a Java archive",
    "visio/document.xml": "a Visio drawing",
}


@dataclass
class WordPackage:
    """A checked .docx: its archive, each part's content type, and the main document part."""

    name: str
    archive: zipfile.ZipFile
    content_types: dict[str, str]
    main_part: str

    def is_xml(self, info: zipfile.ZipInfo) -> bool:
        return _is_xml(info.filename, self.content_types)


def open_word_package(name: str, data: bytes, limits: InflateLimits) -> WordPackage:
    """Check a .docx against ``limits`` and find its main part, inflating only two small parts.

    Raises ``FileTooLargeError`` for a bomb and ``DocumentParseError`` for a damaged archive
    or a zip that is not a Word document.
    """
    archive = open_archive(name, data, limits)
    content_types = _content_types(name, archive)
    xml = sum(i.file_size for i in archive.infolist() if _is_xml(i.filename, content_types))
    if xml > limits.zip_max_xml_bytes:
        raise FileTooLargeError(
            f"{name}: its XML parts inflate to {size_text(xml)}, over the {size_text(limits.zip_max_xml_bytes)} "
            "limit for the text of one Word document; split the document or raise the limit"
        )
    return WordPackage(name, archive, content_types, _main_part(name, archive, content_types))


def xml_only_copy(package: WordPackage) -> bytes:
    """The package, stored uncompressed, with every non-XML part (pictures, fonts, objects) empty.

    python-docx reads every part it can reach into memory; text needs only the XML ones,
    and an empty picture is never looked at unless its image is asked for.
    """
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as copy:
        for info in package.archive.infolist():
            if not info.is_dir():
                body = read_part(package.name, package.archive, info) if package.is_xml(info) else b""
                copy.writestr(info.filename, body)
    return out.getvalue()


def open_archive(name: str, data: bytes, limits: InflateLimits) -> zipfile.ZipFile:
    """A ``ZipFile`` over ``data`` whose central directory passed every cap."""
    _check_end_record(name, data, limits)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
        raise DocumentParseError(
            f"{name} is not a readable zip archive ({_short(exc)}); it may be truncated or damaged, export it again"
        ) from exc
    _check_entries(name, archive.infolist(), limits)
    return archive


def read_part(name: str, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """One entry's bytes, never inflating more than its declared size (see the module docstring)."""
    try:
        with archive.open(info) as member:
            body = member.read(info.file_size)
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, NotImplementedError, ValueError) as exc:
        raise DocumentParseError(
            f"{name} is damaged: part {info.filename!r} cannot be read ({_short(exc)}); "
            "its zip directory does not match its data. Export the document again"
        ) from exc
    if len(body) != info.file_size:
        raise DocumentParseError(
            f"{name} is damaged: part {info.filename!r} holds {len(body):,} bytes, not the "
            f"{info.file_size:,} its zip directory declares. Export the document again"
        )
    return body


# ---------------------------------------------------------------- the central directory


def _check_end_record(name: str, data: bytes, limits: InflateLimits) -> None:
    """Entry count and directory size from the end record, before ``zipfile`` parses the directory.

    ``zipfile`` reads as many records as the declared directory *size* holds (the count
    may lie), one ``ZipInfo`` each, so the size is capped too.
    """
    at = data.rfind(b"PK\x05\x06", max(0, len(data) - 22 - 0xFFFF))
    if at < 0 or len(data) - at < 22:
        return  # no end record: zipfile reports the damage
    entries, directory = struct.unpack("<HI", data[at + 10 : at + 16])
    if (entries == 0xFFFF or directory == 0xFFFFFFFF) and at >= 20 and data[at - 20 : at - 16] == b"PK\x06\x07":
        (offset,) = struct.unpack("<Q", data[at - 12 : at - 4])  # zip64 end record
        if data[offset : offset + 4] == b"PK\x06\x06":
            entries, directory = struct.unpack("<QQ", data[offset + 32 : offset + 48])
    if entries > limits.zip_max_entries:
        raise FileTooLargeError(
            f"{name} is a zip of {entries:,} parts, over the {limits.zip_max_entries:,} limit; "
            "a Word document has tens to hundreds"
        )
    if directory > limits.zip_max_entries * _DIRECTORY_BYTES_PER_ENTRY:
        raise FileTooLargeError(
            f"{name}: its zip directory is {size_text(directory)}, more than "
            f"{limits.zip_max_entries:,} parts can need; refused as a likely zip bomb"
        )


def _check_entries(name: str, infos: list[zipfile.ZipInfo], limits: InflateLimits) -> None:
    if len(infos) > limits.zip_max_entries:
        raise FileTooLargeError(f"{name} is a zip of {len(infos):,} parts, over the {limits.zip_max_entries:,} limit")
    seen: set[str] = set()
    for info in infos:
        _check_name(name, info.filename, seen)
        if info.flag_bits & 0x1:
            raise DocumentParseError(
                f"{name} is password-protected ({info.filename!r} is encrypted); remove the password"
            )
        if info.compress_type not in _METHODS:
            raise DocumentParseError(
                f"{name}: part {info.filename!r} uses zip compression method {info.compress_type}; "
                "Word documents use deflate only. Save the document again from Word"
            )
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > _RATIO_FLOOR and ratio > limits.zip_max_ratio:
            raise FileTooLargeError(
                f"{name}: {info.filename} inflates to {size_text(info.file_size)} from "
                f"{size_text(info.compress_size)} (ratio {ratio:,.0f}:1), over the {limits.zip_max_ratio:,.0f}:1 "
                "limit for one part; refused as a likely zip bomb"
            )
    _check_overlap(name, infos)
    total = sum(i.file_size for i in infos)
    if total > limits.zip_max_inflated_bytes:
        raise FileTooLargeError(
            f"{name}: its {len(infos):,} parts inflate to {size_text(total)}, over the "
            f"{size_text(limits.zip_max_inflated_bytes)} limit; refused as a likely zip bomb"
        )


def _check_name(name: str, entry: str, seen: set[str]) -> None:
    if len(entry) > _MAX_NAME_CHARS or any(ord(ch) < 32 or ord(ch) == 127 for ch in entry):
        shown = entry[:60].encode("unicode_escape").decode("ascii") + ("…" if len(entry) > 60 else "")
        raise DocumentParseError(
            f"{name} holds a part with an impossible name ({len(entry):,} characters: '{shown}'); "
            "it is damaged or crafted, not a Word document"
        )
    key = entry.casefold()  # part names are case-insensitive in Office packages
    if key in seen:
        raise DocumentParseError(f"{name} holds two parts named {entry!r}; it is damaged or crafted")
    seen.add(key)


def _check_overlap(name: str, infos: list[zipfile.ZipInfo]) -> None:
    """Entries sharing compressed data (the non-recursive zip bomb) overlap in the file."""
    spans = sorted((i.header_offset, i.header_offset + _LOCAL_HEADER + i.compress_size, i.filename) for i in infos)
    for (_, end, first), (start, _, second) in zip(spans, spans[1:], strict=False):
        if end > start:
            raise DocumentParseError(
                f"{name}: parts {first!r} and {second!r} overlap in the file (a crafted zip bomb or a "
                "damaged archive); refused"
            )


# ---------------------------------------------------------------- the Word package


def _content_types(name: str, archive: zipfile.ZipFile) -> dict[str, str]:
    """Each entry's content type (lower-cased name -> type) from ``[Content_Types].xml``."""
    root = _xml_part(name, archive, _CONTENT_TYPES)
    defaults, overrides = {}, {}
    for element in root:
        tag = etree.QName(element).localname
        if tag == "Default":
            defaults[element.get("Extension", "").lower()] = element.get("ContentType", "")
        elif tag == "Override":
            overrides[element.get("PartName", "").lstrip("/").lower()] = element.get("ContentType", "")
    types = {}
    for info in archive.infolist():
        key = info.filename.lower()
        kind = overrides.get(key) or defaults.get(posixpath.splitext(key)[1].lstrip("."))
        if kind:
            types[key] = kind
    return types


def _main_part(name: str, archive: zipfile.ZipFile, content_types: dict[str, str]) -> str:
    """The part the package relationships name as the office document; it must be a Word one."""
    root = _xml_part(name, archive, _PACKAGE_RELS)
    targets = [
        el.get("Target", "")
        for el in root
        if (el.get("Type") or "").endswith(_OFFICE_DOCUMENT) and el.get("TargetMode") != "External"
    ]
    main = posixpath.normpath(targets[0].lstrip("/")) if targets else ""
    if not main or main.lower() not in {i.filename.lower() for i in archive.infolist()}:
        raise DocumentParseError(f"{name} is {_kind(archive)}, not a Word document")
    kind = content_types.get(main.lower(), "")
    if kind != WORD_MAIN and "word" in kind:  # .docm, .dotx, .dotm: python-docx opens Word Documents only
        raise DocumentParseError(
            f"{name} is a Word template or macro-enabled document ({kind}); save it from Word as a Word Document (.docx)"
        )
    if kind != WORD_MAIN:
        raise DocumentParseError(
            f"{name} is {_kind(archive)}, not a Word document (its main part is {kind or 'untyped'})"
        )
    return main


def _xml_part(name: str, archive: zipfile.ZipFile, part: str) -> etree._Element:
    info = next((i for i in archive.infolist() if i.filename.lower() == part.lower()), None)
    if info is None:
        raise DocumentParseError(f"{name} is {_kind(archive)}, not a Word document (it has no {part})")
    try:
        return etree.fromstring(read_part(name, archive, info), parser=_XML_PARSER)
    except etree.XMLSyntaxError as exc:
        raise DocumentParseError(f"{name} is damaged: its {part} is not valid XML ({exc.msg})") from exc


def _kind(archive: zipfile.ZipFile) -> str:
    names = {i.filename for i in archive.infolist()}
    return next((what for part, what in _KINDS.items() if part in names), "a zip archive")


def _is_xml(entry: str, content_types: dict[str, str]) -> bool:
    kind = content_types.get(entry.lower())
    if kind:
        return kind.endswith("xml")  # application/xml, text/xml, …+xml
    return entry.lower().endswith((".xml", ".rels"))


def _short(exc: Exception) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__
