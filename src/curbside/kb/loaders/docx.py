"""Word .docx via python-docx: Title style -> title, Heading 1-9 -> nested sections.

List paragraphs (a List style or Word numbering) are list items, nested by their level
and led in by a short paragraph above them ("Risk factors:"); each table row reads
"Header: cell; …" (the header row is one marked to repeat, a bold first row, or inferred);
line breaks inside a paragraph keep "Label: value" lines apart; superscript reference
markers are dropped. The zip is checked against the inflation limits first, and
python-docx is given a copy holding only the XML parts (``_zip.xml_only_copy``): pictures
are never inflated.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docx
from docx.document import Document
from docx.oxml.ns import qn
from docx.table import Table
from docx.text.paragraph import Paragraph
from docx.text.run import Run

from curbside.kb.document import BlockKind, LoadedDocument
from curbside.kb.loaders import TreeBuilder, clean, parse_error, readable_stem
from curbside.kb.loaders._limits import InflateLimits
from curbside.kb.loaders._units import (
    Cell,
    Item,
    is_lead,
    is_reference_marker,
    is_reference_title,
    line_kind,
    list_units,
    split_lines,
    table_units,
)
from curbside.kb.loaders._zip import open_word_package, xml_only_copy

_HEADING = re.compile(r"^heading (\d)$", re.I)
_LIST_STYLE = re.compile(r"^list(?: (?:bullet|number|continue|paragraph))?(?: (\d))?$", re.I)


def load(path: Path, data: bytes, limits: InflateLimits) -> LoadedDocument:
    package = open_word_package(path.name, data, limits)
    with package.archive:
        text_only = xml_only_copy(package)
    try:
        document = docx.Document(io.BytesIO(text_only))
    except (zipfile.BadZipFile, KeyError) as exc:
        # KeyError: a relationship names a part the zip does not hold
        raise parse_error(path, f"is not a readable .docx (corrupt or not a Word file: {exc})") from exc
    builder = _Builder()
    for item in _body_items(document):
        builder.item(item)
    builder.end_list()
    builder.end_pending()
    title = builder.title or clean(document.core_properties.title) or readable_stem(path)
    return LoadedDocument(title=title, root=builder.tree.root, format="docx")


class _Builder:
    """Paragraphs and tables in order; list paragraphs gather into one list until it ends."""

    def __init__(self) -> None:
        self.tree = TreeBuilder()
        self.title: str | None = None
        self._items: list[tuple[int, Item]] = []  # (level, item) of the open list
        self._pending: str | None = None  # a short paragraph that may lead the next list
        self._skip_level: int | None = None  # inside a References section

    def item(self, item: Paragraph | Table) -> None:
        if isinstance(item, Table):
            self.end_list()
            self.end_pending()
            if self._skip_level is None:
                for text in _table_units(item):
                    self.tree.add(text, kind="table_row")
            return
        text = _paragraph_text(item)
        style = item.style.name if item.style is not None else ""
        heading = _HEADING.match(style or "")
        list_level = _list_level(item, style or "")
        if style == "Title" and self.title is None:
            self.end_list()
            self.end_pending()
            self.title = clean(text) or None
        elif heading and clean(text):
            self.end_list()
            self.end_pending()
            self._heading(int(heading.group(1)), clean(text))
        elif list_level is not None and clean(text):
            self._list_item(list_level, clean(text))
        else:
            self.end_list()
            self.end_pending()
            lines = split_lines(text)
            if len(lines) == 1 and is_lead(lines[0], emphasised=_bold(item)):
                self._pending = lines[0]
            else:
                for line in lines:
                    self._add(line, line_kind(line))

    def _heading(self, level: int, text: str) -> None:
        if self._skip_level is not None and level > self._skip_level:
            return
        self._skip_level = None
        if is_reference_title(text):
            self.tree.heading(level, None)
            self._skip_level = level
        else:
            self.tree.heading(level, text)

    def _list_item(self, level: int, text: str) -> None:
        item = Item(text)
        for lvl, open_item in reversed(self._items):
            if lvl < level:
                open_item.children.append(item)
                break
        self._items.append((level, item))

    def end_list(self) -> None:
        if not self._items:
            return
        top = min(level for level, _ in self._items)
        roots = [item for level, item in self._items if level == top]
        lead, self._pending = self._pending or "", None
        self._items = []
        for text, kind in list_units(roots, lead):
            self._add(text, kind)

    def end_pending(self) -> None:
        if self._pending is not None:
            text, self._pending = self._pending, None
            kind = line_kind(text)
            self._add(text, "heading" if kind == "paragraph" else kind)

    def _add(self, text: str, kind: BlockKind) -> None:
        if self._skip_level is None:
            self.tree.add(text, kind=kind)


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


def _paragraph_text(paragraph: Paragraph) -> str:
    """The paragraph's text with line breaks kept and superscript reference markers left out."""
    parts: list[str] = []
    for inner in paragraph.iter_inner_content():
        runs = [inner] if isinstance(inner, Run) else list(inner.runs)
        for run in runs:
            text = run.text
            if run.font.superscript and is_reference_marker(text, "".join(parts)):
                continue
            parts.append(text)
    return "".join(parts).replace("\t", " ")


def _list_level(paragraph: Paragraph, style: str) -> int | None:
    """0-based nesting level when the paragraph is a list item (numbered or List-styled)."""
    ppr = paragraph._p.pPr
    num: Any = ppr.numPr if ppr is not None else None  # python-docx types numPr loosely
    if num is not None and num.numId is not None and num.numId.val != 0:
        return int(num.ilvl.val) if num.ilvl is not None else 0
    match = _LIST_STYLE.match(style)
    if match:
        return int(match.group(1)) - 1 if match.group(1) else 0
    style_obj = paragraph.style
    while style_obj is not None:  # numbering set on the style (or a style it is based on)
        sppr = style_obj.element.pPr
        if sppr is not None and sppr.numPr is not None:
            return 0
        style_obj = style_obj.base_style
    return None


def _bold(paragraph: Paragraph) -> bool:
    runs = [r for r in paragraph.runs if r.text.strip()]
    return bool(runs) and all(r.bold for r in runs)


def _table_units(table: Table) -> list[str]:
    """Rows as 'Header: cell; …'; a merged cell is one ``Cell`` in every position it covers."""
    cells: dict[object, Cell] = {}  # by <w:tc> element: held here, lxml keeps handing out the same proxy
    rows: list[list[Cell]] = []
    head = 0
    for r, row in enumerate(table.rows):
        marked = row._tr.trPr is not None and row._tr.trPr.find(qn("w:tblHeader")) is not None
        bold_row = r == 0 and all(_cell_bold(c) for c in row.cells if c.text.strip())
        out = []
        for cell in row.cells:
            if cell._tc not in cells:
                cells[cell._tc] = Cell(clean(cell.text), header=marked)
            out.append(cells[cell._tc])
        if (marked or bold_row) and r == head:
            head += 1
        rows.append(out)
    return table_units(rows, header_rows=head or None)


def _cell_bold(cell) -> bool:  # noqa: ANN001 - a python-docx _Cell
    return all(_bold(p) for p in cell.paragraphs if p.text.strip())
