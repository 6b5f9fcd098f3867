"""Markdown via markdown-it-py tokens: headings (ATX and setext) nest by level.

Each list item is a unit (nested lists folded into a short label-like parent, a short
paragraph right above a list leading it); each table row reads "Header: cell; …"; hard
line breaks, and soft ones between "Label: value" lines, keep lines apart. A section
titled References or Bibliography is not indexed.
"""

from __future__ import annotations

import re
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from curbside.kb.document import BlockKind, LoadedDocument
from curbside.kb.loaders import TreeBuilder, clean, decode_text, readable_stem
from curbside.kb.loaders._units import (
    Cell,
    Item,
    is_label_line,
    is_lead,
    is_reference_title,
    line_kind,
    list_units,
    split_lines,
    table_units,
)

# Tokens that hold content: one of them between a lead-in paragraph and a list ends the lead-in.
_CONTENT = {"heading_open", "table_open", "inline", "fence", "code_block", "html_block", "hr"}
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)


def load(path: Path, data: bytes) -> LoadedDocument:
    text = decode_text(path, data).replace("\r\n", "\n")
    meta_title, text = _split_front_matter(text)
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    reader = _Reader(meta_title)
    reader.read(tokens)
    return LoadedDocument(title=reader.title or readable_stem(path), root=reader.tree.root, format="markdown")


def _split_front_matter(text: str) -> tuple[str | None, str]:
    """YAML front matter would otherwise parse as a rule plus a setext heading."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return None, text
    title = re.search(r"^title:\s*(.+)$", match.group(1), re.M)
    value = clean(title.group(1).strip("'\"")) if title else None
    return value or None, text[match.end() :]


class _Reader:
    def __init__(self, title: str | None) -> None:
        self.tree = TreeBuilder()
        self.title = title
        self._seen_heading = False
        self._skip_level: int | None = None
        self._pending: str | None = None  # a short paragraph that may lead the next list

    def read(self, tokens: list[Token]) -> None:
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if tok.type in ("bullet_list_open", "ordered_list_open"):
                items, i = _list(tokens, i)
                lead, self._pending = self._pending or "", None
                for text, kind in list_units(items, lead):
                    self._add(text, kind)
                continue
            if tok.type in _CONTENT:
                self._end_pending()
            if tok.type == "heading_open":
                self._heading(int(tok.tag[1]), _inline(tokens[i + 1]))
                i += 3
                continue
            if tok.type == "table_open":
                rows, header_rows, i = _table(tokens, i)
                for text in table_units(rows, header_rows=header_rows):
                    self._add(text, "table_row")
                continue
            if tok.type == "inline":
                self._paragraph(tokens[i])
            elif tok.type in ("fence", "code_block"):
                self._add(tok.content, "code", keep_lines=True)
            elif tok.type == "html_block" and not tok.content.lstrip().startswith("<!--"):
                self._add(re.sub(r"<[^>]+>", " ", tok.content), "paragraph")
            i += 1
        self._end_pending()

    def _heading(self, level: int, heading: str) -> None:
        # The first heading, when it is an h1, is the document title, not a section.
        if not self._seen_heading and level == 1 and (self.title is None or clean(self.title) == heading):
            self.title = heading
            self._seen_heading = True
            return
        self._seen_heading = True
        if self._skip_level is not None:
            if level > self._skip_level:
                return
            self._skip_level = None
        if is_reference_title(heading):
            self.tree.heading(level, None)
            self._skip_level = level
        else:
            self.tree.heading(level, heading)

    def _paragraph(self, token: Token) -> None:
        lines = _lines(token)
        if len(lines) == 1 and is_lead(lines[0], emphasised=_strong(token)):
            self._pending = lines[0]
            return
        for line in lines:
            self._add(line, line_kind(line))

    def _end_pending(self) -> None:
        if self._pending is not None:
            text, self._pending = self._pending, None
            kind = line_kind(text)
            self._add(text, "heading" if kind == "paragraph" else kind)

    def _add(self, text: str, kind: BlockKind, *, keep_lines: bool = False) -> None:
        if self._skip_level is None:
            self.tree.add(text, keep_lines=keep_lines, kind=kind)


def _inline(token: Token) -> str:
    return " ".join(_lines(token, soft_labels=False))


def _lines(token: Token, *, soft_labels: bool = True) -> list[str]:
    """The inline token's text as lines: hard breaks always split, soft ones between label lines."""
    lines = [""]
    soft: list[int] = []  # line indexes that start after a soft break
    for child in token.children or []:
        if child.type in ("text", "code_inline", "image"):
            lines[-1] += child.content
        elif child.type == "hardbreak":
            lines.append("")
        elif child.type == "softbreak":
            soft.append(len(lines))
            lines.append("")
    cleaned = [clean(line) for line in lines]
    # soft-wrapped lines join back into one, unless every line is a "Label: value" line
    if soft and not (soft_labels and all(is_label_line(x, capitalised=True) for x in cleaned if x)):
        merged: list[str] = []
        for k, line in enumerate(cleaned):
            if k in soft and merged:
                merged[-1] = clean(f"{merged[-1]} {line}")
            else:
                merged.append(line)
        cleaned = merged
    return [line for text in cleaned for line in split_lines(text)]


def _strong(token: Token) -> bool:
    """All text of the inline token is inside **strong** markup."""
    depth, seen = 0, False
    for child in token.children or []:
        if child.type == "strong_open":
            depth += 1
        elif child.type == "strong_close":
            depth -= 1
        elif child.type in ("text", "code_inline") and child.content.strip():
            if depth == 0:
                return False
            seen = True
    return seen


def _list(tokens: list[Token], i: int) -> tuple[list[Item], int]:
    """The list opening at ``tokens[i]`` as items (nested lists as children); the index after it."""
    close = tokens[i].type.replace("_open", "_close")
    level = tokens[i].level
    items: list[Item] = []
    i += 1
    while i < len(tokens) and not (tokens[i].type == close and tokens[i].level == level):
        tok = tokens[i]
        if tok.type == "list_item_open":
            items.append(Item(""))
        elif tok.type in ("bullet_list_open", "ordered_list_open") and items:
            children, i = _list(tokens, i)
            items[-1].children.extend(children)
            continue
        elif tok.type == "inline" and items:
            items[-1].text = clean(f"{items[-1].text} {_inline(tok)}")
        elif tok.type in ("fence", "code_block") and items:
            items[-1].text = clean(f"{items[-1].text} {tok.content}")
        i += 1
    return items, i + 1


def _table(tokens: list[Token], i: int) -> tuple[list[list[Cell]], int, int]:
    """Rows of cells, the number of header rows, and the index after the table."""
    rows: list[list[Cell]] = []
    header_rows = 0
    in_head = False
    while tokens[i].type != "table_close":
        tok = tokens[i]
        if tok.type == "thead_open":
            in_head = True
        elif tok.type == "thead_close":
            in_head = False
        elif tok.type == "tr_open":
            rows.append([])
            header_rows += in_head
        elif tok.type == "inline" and rows:
            rows[-1].append(Cell(_inline(tok), header=in_head))
        i += 1
    return rows, header_rows, i + 1
