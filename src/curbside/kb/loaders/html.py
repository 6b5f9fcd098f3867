"""HTML via BeautifulSoup + lxml: h1-h6 nest by level; page chrome and hidden parts are dropped."""

from __future__ import annotations

import re
from pathlib import Path

from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.element import Comment, Declaration, Doctype, ProcessingInstruction

from curbside.kb.document import LoadedDocument
from curbside.kb.loaders import TreeBuilder, clean, readable_stem, same_text

_DROP = {
    "script", "style", "nav", "aside", "form", "noscript", "template",
    "iframe", "svg", "canvas", "button", "select", "object", "embed", "head",
}  # fmt: skip
_PAGE_CHROME = {"header", "footer"}  # dropped unless they sit inside the article itself
_INLINE = {
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i",
    "ins", "kbd", "label", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup",
    "time", "u", "var", "wbr", "img",
}  # fmt: skip
_HEADINGS = {f"h{n}" for n in range(1, 7)}
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_TITLE_SEPARATORS = re.compile(r"\s+[|–—-]\s+")
_SKIP_STRINGS = (Comment, Declaration, Doctype, ProcessingInstruction)


def load(path: Path, data: bytes) -> LoadedDocument:
    soup = BeautifulSoup(data, "lxml")
    for br in soup.find_all("br"):
        br.replace_with(" ")
    title = _title(soup)
    walker = _Walker(title)
    walker.walk(soup.body or soup)
    walker.flush()
    return LoadedDocument(title=title or readable_stem(path), root=walker.tree.root, format="html")


def _title(soup: BeautifulSoup) -> str | None:
    """<title>, minus a " | Site name" suffix when the first h1 shows where the real title ends."""
    h1 = soup.find("h1")
    h1_text = clean(h1.get_text(" ")) if h1 else ""
    tag = soup.head.find("title") if soup.head else None  # not an <svg><title> in the body
    text = clean(tag.get_text()) if tag else ""
    if text and h1_text and any(same_text(p, h1_text) for p in _TITLE_SEPARATORS.split(text)):
        return h1_text
    return text or h1_text or None


class _Walker:
    """Walks the DOM in order: inline text accumulates, block elements flush it as a block."""

    def __init__(self, title: str | None) -> None:
        self.tree = TreeBuilder()
        self.title = title
        self._buffer: list[str] = []
        self._seen_heading = False

    def flush(self) -> None:
        self.tree.add("".join(self._buffer))
        self._buffer = []

    def walk(self, element: Tag) -> None:
        for child in element.children:
            if isinstance(child, NavigableString):
                if not isinstance(child, _SKIP_STRINGS):
                    self._buffer.append(str(child))
            elif isinstance(child, Tag) and not _dropped(child):
                self._element(child)

    def _element(self, el: Tag) -> None:
        name = el.name
        if name in _INLINE:
            self.walk(el)
            return
        self.flush()
        if name in _HEADINGS:
            # " " between strings: citation superscripts must not glue to words ("factors 1, 3")
            self._heading(int(name[1]), clean(el.get_text(" ")))
        elif name == "pre":
            self.tree.add(el.get_text(), keep_lines=True)
        elif name == "table" and not el.find(_HEADINGS) and not el.find("table"):
            self.tree.add(_table_text(el), keep_lines=True)
        elif name == "dl" and not el.find(_HEADINGS):
            for text in _definitions(el):
                self.tree.add(text)
        else:  # block container (p, li, dt, dd, blockquote, div, layout table …)
            self.walk(el)
            self.flush()

    def _heading(self, level: int, text: str) -> None:
        # An h1 repeating the page title would only duplicate it in every title path.
        if not self._seen_heading and level == 1 and same_text(text, self.title):
            self._seen_heading = True
            return
        self._seen_heading = True
        if text:
            self.tree.heading(level, text)


def _dropped(el: Tag) -> bool:
    if el.name in _DROP:
        return True
    if el.name in _PAGE_CHROME and not el.find_parent(["article", "main"]):
        return True
    return (
        el.has_attr("hidden")
        or el.get("aria-hidden") == "true"
        or bool(_HIDDEN_STYLE.search(str(el.get("style") or "")))
    )


def _definitions(dl: Tag) -> list[str]:
    """<dt>term</dt><dd>meaning</dd> -> 'term: meaning', so the term stays with its meaning."""
    out: list[str] = []
    term = ""
    for child in dl.find_all(["dt", "dd"]):
        if _dropped(child) or child.find_parent("dl") is not dl:
            continue
        text = clean(child.get_text(" "))
        if child.name == "dt":
            if term:
                out.append(term)
            term = text
        else:
            out.append(f"{term}: {text}" if term else text)
            term = ""
    if term:
        out.append(term)
    return out


def _table_text(table: Tag) -> str:
    """Caption, then one line per row with cells joined by ' | '."""
    lines = []
    caption = table.find("caption")
    if caption:
        lines.append(clean(caption.get_text(" ")))
    for row in table.find_all("tr"):
        if row.find_parent("table") is not table:
            continue
        cells = [clean(c.get_text(" ")) for c in row.find_all(["th", "td"], recursive=False)]
        if any(cells):
            lines.append(" | ".join(cells))
    return "\n".join(line for line in lines if line)
