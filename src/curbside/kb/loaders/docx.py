"""Word .docx via python-docx: Title style -> title, Heading 1-9 -> nested sections.

The zip is checked against the inflation limits first, and python-docx is given a copy
holding only the XML parts (``_zip.xml_only_copy``): pictures are never inflated.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import docx
from docx.document import Document
from docx.oxml.ns import qn
from docx.table import Table
from docx.text.paragraph import Paragraph

from curbside.kb.document import LoadedDocument
from curbside.kb.loaders import TreeBuilder, clean, parse_error, readable_stem
from curbside.kb.loaders._limits import InflateLimits
from curbside.kb.loaders._zip import open_word_package, xml_only_copy

_HEADING = re.compile(r"^heading (\d)$", re.I)


def load(path: Path, data: bytes, limits: InflateLimits) -> LoadedDocument:
    package = open_word_package(path.name, data, limits)
    with package.archive:
        text_only = xml_only_copy(package)
    try:
        document = docx.Document(io.BytesIO(text_only))
    except (zipfile.BadZipFile, KeyError) as exc:
        # KeyError: a relationship names a part the zip does not hold
        raise parse_error(path, f"is not a readable .docx (corrupt or not a Word file: {exc})") from exc
    tree = TreeBuilder()
    title: str | None = None
    for item in _body_items(document):
        if isinstance(item, Table):
            tree.add(_table_text(item), keep_lines=True)
            continue
        text = clean(item.text)
        style = item.style.name if item.style is not None else ""
        level = _HEADING.match(style or "")
        if style == "Title" and title is None:
            title = text or None
        elif level and text:
            tree.heading(int(level.group(1)), text)
        else:
            tree.add(text)
    title = title or clean(document.core_properties.title) or readable_stem(path)
    return LoadedDocument(title=title, root=tree.root, format="docx")


def _body_items(document: Document) -> Iterator[Paragraph | Table]:
    """Paragraphs and tables in document order, looking inside content controls (w:sdt)."""

    def walk(parent) -> Iterator[Paragraph | Table]:  # noqa: ANN001 - an lxml element
        for child in parent.iterchildren():
            if child.tag == qn("w:p"):
                yield Paragraph(child, document)
            elif child.tag == qn("w:tbl"):
                yield Table(child, document)
            elif child.tag in (qn("w:sdt"), qn("w:sdtContent")):
                yield from walk(child)

    yield from walk(document.element.body)


def _table_text(table: Table) -> str:
    """One line per row, cells joined by ' | '; merged cells once."""
    lines = []
    for row in table.rows:
        cells, previous = [], None
        for cell in row.cells:
            if cell._tc is previous:  # a horizontally merged cell repeats: keep it once
                continue
            previous = cell._tc
            cells.append(clean(cell.text))
        if any(cells):
            lines.append(" | ".join(cells))
    return "\n".join(lines)
