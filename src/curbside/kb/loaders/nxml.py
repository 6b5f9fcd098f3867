"""JATS journal articles and BITS (NCBI Bookshelf) book parts via lxml.

Title paths read ``Article > Section > Subsection`` or ``Book > Chapter > Section``:
every ``<sec>`` becomes a Section, paragraphs, boxes and quotes become blocks; each
``<list-item>`` is a list item (nested lists folded in, ``_units.list_units``), each table
row a "Header: cell; …" line under the table's caption, each ``<def-item>`` a label.
References, acknowledgments, footnotes and the rest of ``<back>`` (except appendices) are
not indexed; citation and footnote cross-references are kept out of titles and headers.
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from curbside.errors import EmptyDocumentError
from curbside.kb.document import Block, BlockKind, LoadedDocument, Section
from curbside.kb.loaders import clean, clean_title, parse_error, readable_stem
from curbside.kb.loaders._units import Cell, Item, is_label_line, is_reference_title, list_units, table_units

# Elements whose text is never read: references, notes, media, metadata, TeX source
# (MathML next to it already carries the formula).
_SKIP = {
    "ref-list", "ack", "fn-group", "fn", "notes", "sec-meta", "kwd-group", "permissions",
    "graphic", "inline-graphic", "media", "tex-math", "alt-text", "long-desc", "object-id",
    "front-matter", "attrib", "processing-meta",
}  # fmt: skip
_SECTION_LIKE = {"sec", "app", "glossary", "book-part", "book-app"}
# Block-level elements that may sit inside a <p> and must become their own blocks.
_BLOCKS = {
    "p", "list", "table-wrap", "table-wrap-group", "fig", "fig-group", "boxed-text",
    "disp-quote", "def-list", "statement", "speech", "verse-group", "preformat", "code",
    "supplementary-material", "chem-struct-wrap", "array", "question-wrap",
} | _SECTION_LIKE  # fmt: skip
# Elements that never run into their neighbours' words (display formulas, cells, items).
_SPACED = {
    "break", "disp-formula", "disp-formula-group", "td", "th", "tr", "p", "list-item",
    "term", "def", "title", "label", "caption", "disp-quote",
}  # fmt: skip
_SKIP_ABSTRACTS = {"toc", "graphical", "teaser", "web-summary", "short"}
# Cross-references that are markers, not words: left out of titles and table headers.
_FOOTNOTE_XREFS = {"fn", "table-fn", "author-notes"}
_MARKER_XREFS = {"bibr", *_FOOTNOTE_XREFS}
# A list label that is only a bullet glyph: the block's kind already says "list item".
_GLYPHS = set("•●○◦▪■□➢➤►‣∙·*–-")
_EMPTY_BRACKETS = re.compile(r"\s*(?:\[[\s,;–-]*\]|\([\s,;–-]*\))")
_FOOTNOTE_SUP = re.compile(r"^\s*(?:[a-z]|[*†‡§¶#]+)\s*$")
# Root elements (namespace stripped) this loader reads; check_upload refuses others early.
ARTICLE_ROOTS = ("article",)
BOOK_ROOTS = ("book-part-wrapper", "book", "book-part")
_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True, remove_pis=True
)


def load(path: Path, data: bytes) -> LoadedDocument:
    try:
        root = etree.fromstring(data, parser=_PARSER)
    except etree.XMLSyntaxError as exc:
        raise parse_error(path, f"is malformed XML: line {exc.lineno}: {exc.msg}") from exc
    _strip_namespaces(root)
    if root.tag in ARTICLE_ROOTS:
        return _article(path, root)
    if root.tag in BOOK_ROOTS:
        return _book(path, root)
    raise parse_error(
        path,
        f"is XML but not a JATS article or BITS book part (root element <{root.tag}>); "
        "only journal-article and NCBI Bookshelf XML is supported",
    )


# ---------------------------------------------------------------- documents


def _article(path: Path, root: etree._Element) -> LoadedDocument:
    meta = root.find("front/article-meta")
    doc_root = Section(title=None)
    body = _body_content(root.find("body"))
    if body.is_empty():
        raise _no_body(path)
    for abstract in meta.findall("abstract") if meta is not None else []:
        if abstract.get("abstract-type") not in _SKIP_ABSTRACTS:
            section = Section(title=_title_of(abstract) or "Abstract")
            _fill(section, abstract)
            doc_root.children.append(section)
    doc_root.blocks.extend(body.blocks)
    doc_root.children.extend(body.children)
    for app in root.iterfind("back//app"):
        doc_root.children.append(_section(app))
    floats = root.find("floats-group")
    if floats is not None:
        section = Section(title="Figures and tables")
        _fill(section, floats)
        doc_root.children.append(section)
    title = _text(root.find("front/article-meta/title-group/article-title"))
    return LoadedDocument(
        title=title or readable_stem(path),
        root=doc_root,
        format="nxml",
        metadata=_article_ids(meta),
    )


def _book(path: Path, root: etree._Element) -> LoadedDocument:
    parts = [p for p in root.iter("book-part", "book-app") if not _inside_part(p)]
    if all(_body_content(p.find("body")).is_empty() for p in parts):
        raise _no_body(path)
    doc_root = Section(title=None, children=[_section(p) for p in parts])
    title = _text(root.find(".//book-meta/book-title-group/book-title"))
    if not title and len(doc_root.children) == 1 and doc_root.children[0].title:
        # No book title: the one chapter is the document; do not repeat it in every path.
        only = doc_root.children[0]
        title, doc_root = only.title or title, Section(title=None, blocks=only.blocks, children=only.children)
    part_type = parts[0].get("book-part-type")
    return LoadedDocument(
        title=title or readable_stem(path),
        root=doc_root,
        format="nxml",
        metadata={"book-part-type": part_type} if part_type else {},
    )


def _body_content(body: etree._Element | None) -> Section:
    """A <body>'s content as an untitled section (empty when there is no body)."""
    section = Section(title=None)
    if body is not None:
        _fill(section, body)
    return section


def _no_body(path: Path) -> EmptyDocumentError:
    return EmptyDocumentError(
        f"{path.name} has no <sec> sections or body text to index (metadata, abstract or references only?)"
    )


# ---------------------------------------------------------------- structure


def _section(el: etree._Element) -> Section:
    section = Section(title=_title_of(el))
    _fill(section, el)
    return section


def _fill(section: Section, container: etree._Element) -> None:
    """Add a container's children to ``section``: sub-sections, blocks, wrappers."""
    for child in container:
        if isinstance(child.tag, str) and child.tag not in ("title", "label", "caption"):
            _child(section, child)


def _child(section: Section, el: etree._Element) -> None:
    tag = el.tag
    if tag in _SKIP:
        return
    if tag in _SECTION_LIKE:
        if not is_reference_title(_title_of(el)):
            section.children.append(_section(el))
    elif tag == "book-part-meta":
        for abstract in el.findall("abstract"):
            sub = Section(title=_title_of(abstract) or "Abstract")
            _fill(sub, abstract)
            section.children.append(sub)
    elif tag == "p":
        _paragraph(section, el)
    elif tag == "list":
        _list(section, el)
    elif tag == "def-list":
        _def_list(section, el)
    elif tag in ("table-wrap", "table"):
        _table(section, el)
    elif tag in ("fig", "supplementary-material", "chem-struct-wrap"):
        _add(section, _heading_line(el), kind="caption")
    elif tag in ("preformat", "code"):
        _add(section, "".join(el.itertext()), keep_lines=True)
    elif tag == "back":
        for app in el.iterfind(".//app"):
            section.children.append(_section(app))
    elif any(isinstance(c.tag, str) and c.tag in _BLOCKS for c in el):
        # A wrapper (boxed-text, disp-quote, statement, body …): its heading, then its content.
        _add(section, _heading_line(el))
        _fill(section, el)
    else:  # leaf-ish element (disp-formula, verse-line …): its text is one block
        _add(section, _inline(el))


def _paragraph(section: Section, p: etree._Element) -> None:
    """A <p>: inline markup reads as plain text; lists or tables inside it become blocks."""
    parts = [p.text or ""]
    for child in p:
        if isinstance(child.tag, str) and child.tag in _BLOCKS:
            _add(section, "".join(parts))
            parts = []
            _child(section, child)
        else:
            parts.append(_inline(child, with_tail=False))
        parts.append(child.tail or "")
    _add(section, "".join(parts))


def _list(section: Section, el: etree._Element) -> None:
    """Each <list-item> one unit; nested lists fold into a short label-like parent."""
    others: list[etree._Element] = []
    items = _items(el, others)
    for text, kind in list_units(items, _heading_line(el)):
        _add(section, text, kind=kind)
    for other in others:  # tables, figures … inside list items: blocks of their own after the list
        _child(section, other)


def _items(el: etree._Element, others: list[etree._Element]) -> list[Item]:
    items = []
    for item in el:
        if item.tag != "list-item":
            if isinstance(item.tag, str) and item.tag not in ("title", "label", "caption"):
                others.append(item)
            continue
        label = _text(item.find("label"))
        parts = [] if not label or set(label) <= _GLYPHS else [label]
        children: list[Item] = []
        for child in item:
            if not isinstance(child.tag, str) or child.tag == "label":
                continue
            if child.tag == "p":
                inner = [c for c in child if isinstance(c.tag, str) and c.tag in _BLOCKS]
                for nested in inner:  # a list or table inside the item's <p>
                    if nested.tag == "list":
                        children.extend(_items(nested, others))
                    else:
                        others.append(nested)
                parts.append(_text_without(child, inner))
            elif child.tag == "list":
                children.extend(_items(child, others))
            else:
                others.append(child)
        items.append(Item(clean(" ".join(parts)), children))
    return items


def _text_without(p: etree._Element, inner: list[etree._Element]) -> str:
    """A <p>'s text leaving out the block elements nested in it (their tails are kept)."""
    parts = [p.text or ""]
    for child in p:
        parts.append("" if child in inner else _inline(child, with_tail=False))
        parts.append(child.tail or "")
    return clean("".join(parts))


def _def_list(section: Section, el: etree._Element) -> None:
    _add(section, _heading_line(el), kind="caption")
    for item in el.iterfind("def-item"):
        term = _text(item.find("term"))
        definition = " ".join(_text(d) for d in item.iterfind("def"))
        _add(section, f"{term}: {definition}" if term and definition else term or definition, kind="label")


def _table(section: Section, el: etree._Element) -> None:
    """Caption ('Table 1 Caption'), one 'Header: cell; …' line per row, then the table notes."""
    _add(section, _heading_line(el), kind="caption")
    for table in el.iter("table"):
        rows: list[list[Cell]] = []
        head = 0
        for row in table.iter("tr"):
            in_head = any(a.tag == "thead" for a in row.iterancestors())
            cells = [
                Cell(
                    _text(c, markers="none" if in_head else "notes"),
                    header=c.tag == "th" or in_head,
                    colspan=_span(c, "colspan"),
                    rowspan=_span(c, "rowspan"),
                )
                for c in row
                if c.tag in ("td", "th")
            ]
            if in_head and len(rows) == head:
                head += 1
            rows.append(cells)
        for text in table_units(rows, header_rows=head or None):
            _add(section, text, kind="table_row")
    for foot in el.iterfind("table-wrap-foot"):
        for p in foot.iter("p"):
            _add(section, _text(p))


def _span(cell: etree._Element, attr: str) -> int:
    try:
        return max(1, int((cell.get(attr) or "1").strip()))
    except ValueError:
        return 1


def _heading_line(el: etree._Element) -> str:
    """Label, title and caption of a figure, table, box or list, as one line."""
    bits = [_text(el.find("label")), _text(el.find("title"), markers="notes")]
    caption = el.find("caption")
    if caption is not None:
        bits.extend(_text(c, markers="notes") for c in caption if c.tag in ("title", "p"))
    return clean(" ".join(b for b in bits if b))


def _title_of(el: etree._Element) -> str | None:
    """A section's title; a <sec> label ("2.1") is kept in front of it, a chapter's is not."""
    if el.tag in ("book-part", "book-app"):
        return clean_title(_text(el.find("book-part-meta/title-group/title"), markers="none")) or None
    title = clean_title(_text(el.find("title"), markers="none"))
    label = _text(el.find("label"))
    return f"{label} {title}" if label and title else title or label or None


# ---------------------------------------------------------------- text


def _inline(el: etree._Element, *, with_tail: bool = False, markers: str = "all") -> str:
    """Text of mixed content in reading order, skipping footnotes, graphics and TeX.

    ``markers`` other than "all" also leaves out marker cross-references (``_is_marker``).
    """
    skip = el.tag in _SKIP or (markers != "all" and _is_marker(el, markers))
    if not isinstance(el.tag, str) or skip:
        return (el.tail or "") if with_tail else ""
    parts = [" " if el.tag in _SPACED else "", el.text or ""]
    for child in el:
        parts.append(_inline(child, with_tail=True, markers=markers))
    if el.tag in _SPACED:
        parts.append(" ")
    if with_tail:
        parts.append(el.tail or "")
    return "".join(parts)


def _is_marker(el: etree._Element, markers: str) -> bool:
    """A cross-reference or superscript that marks rather than says ("n<sup>a</sup>", "[12]").

    ``markers`` "notes" leaves out footnote marks only (table cells, where a cited source
    can be the content); "none" leaves out citations too (titles, column headers).
    """
    if el.tag == "xref":
        kinds = _FOOTNOTE_XREFS if markers == "notes" else _MARKER_XREFS
        return el.get("ref-type") in kinds
    return el.tag == "sup" and bool(_FOOTNOTE_SUP.match("".join(el.itertext())))


def _text(el: etree._Element | None, *, markers: str = "all") -> str:
    if el is None:
        return ""
    text = _inline(el, markers=markers)
    if markers != "all":
        text = _EMPTY_BRACKETS.sub("", text)  # "[<xref>12</xref>]" with the marker left out
    return clean(text)


def _add(section: Section, text: str, *, keep_lines: bool = False, kind: BlockKind | None = None) -> None:
    text = text.strip() if keep_lines else clean(text)
    if text:
        kind = kind or ("code" if keep_lines else "label" if is_label_line(text) else "paragraph")
        section.blocks.append(Block(text=text, kind=kind))


def _inside_part(el: etree._Element) -> bool:
    return any(a.tag in ("book-part", "book-app") for a in el.iterancestors())


def _strip_namespaces(root: etree._Element) -> None:
    """BITS may use a default namespace; match elements by local name only."""
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag.startswith("{"):
            el.tag = etree.QName(el).localname


def _article_ids(meta: etree._Element | None) -> dict[str, str]:
    if meta is None:
        return {}
    ids = {i.get("pub-id-type"): _text(i) for i in meta.iterfind("article-id")}
    return {k: v for k, v in ids.items() if k in ("doi", "pmid", "pmc", "pmcid") and v}
