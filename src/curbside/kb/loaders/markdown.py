"""Markdown via markdown-it-py tokens: headings (ATX and setext) nest by level."""

from __future__ import annotations

import re
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from curbside.kb.document import LoadedDocument
from curbside.kb.loaders import TreeBuilder, clean, decode_text, readable_stem

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)


def load(path: Path, data: bytes) -> LoadedDocument:
    text = decode_text(path, data).replace("\r\n", "\n")
    meta_title, text = _split_front_matter(text)
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    tree = TreeBuilder()
    title = meta_title
    seen_heading = False
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open":
            heading = _inline(tokens[i + 1])
            level = int(tok.tag[1])
            # The first heading, when it is an h1, is the document title, not a section.
            if not seen_heading and level == 1 and (title is None or clean(title) == heading):
                title = heading
            else:
                tree.heading(level, heading)
            seen_heading = True
            i += 3
            continue
        if tok.type == "table_open":
            i = _table(tokens, i, tree)
            continue
        if tok.type == "inline":
            tree.add(_inline(tok))
        elif tok.type in ("fence", "code_block"):
            tree.add(tok.content, keep_lines=True)
        elif tok.type == "html_block" and not tok.content.lstrip().startswith("<!--"):
            tree.add(re.sub(r"<[^>]+>", " ", tok.content))
        i += 1
    return LoadedDocument(title=title or readable_stem(path), root=tree.root, format="markdown")


def _split_front_matter(text: str) -> tuple[str | None, str]:
    """YAML front matter would otherwise parse as a rule plus a setext heading."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return None, text
    title = re.search(r"^title:\s*(.+)$", match.group(1), re.M)
    value = clean(title.group(1).strip("'\"")) if title else None
    return value or None, text[match.end() :]


def _inline(token: Token) -> str:
    parts: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline", "image"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return clean("".join(parts))


def _table(tokens: list[Token], i: int, tree: TreeBuilder) -> int:
    """One block per table, one line per row, cells joined by ' | '."""
    rows: list[list[str]] = []
    while tokens[i].type != "table_close":
        tok = tokens[i]
        if tok.type == "tr_open":
            rows.append([])
        elif tok.type == "inline" and rows:
            rows[-1].append(_inline(tok))
        i += 1
    tree.add("\n".join(" | ".join(row) for row in rows if any(row)), keep_lines=True)
    return i + 1
