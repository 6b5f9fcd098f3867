"""HTML via BeautifulSoup + lxml: h1-h6 nest by level; page chrome and hidden parts are dropped.

Structure becomes units (``_units``): each <li> is a list item (nested lists and a short
lead-in paragraph folded in), each table row a "Header: cell; …" line, each <dt>/<dd> pair
and each <br>-separated "Label: value" line a label. Before the walk the page is pruned:
chrome (nav, header/footer, search widgets, buttons and JS controls, screen-reader-only
text), in-page navigation ("Jump to:" link lists), reference-list containers and
superscript reference markers ("options<sup>1,3–5</sup>"). A section titled References
or Bibliography is skipped up to the next heading of its level or above.
"""

from __future__ import annotations

import re
from pathlib import Path

from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.element import Comment, Declaration, Doctype, PageElement, ProcessingInstruction

from curbside.kb.document import BlockKind, LoadedDocument
from curbside.kb.loaders import TreeBuilder, clean, readable_stem, same_text
from curbside.kb.loaders._units import (
    Cell,
    Item,
    is_lead,
    is_reference_marker,
    is_reference_title,
    is_ui_hint,
    line_kind,
    list_units,
    split_lines,
    table_units,
)

_DROP = {
    "script", "style", "nav", "aside", "form", "noscript", "template", "input",
    "iframe", "svg", "canvas", "select", "object", "embed", "head",
}  # fmt: skip
_PAGE_CHROME = {"header", "footer"}  # dropped unless they sit inside the article itself
_INLINE = {
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i",
    "ins", "kbd", "label", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup",
    "time", "u", "var", "wbr", "img",
}  # fmt: skip
_BOLD = {"b", "strong"}
_HEADINGS = {f"h{n}" for n in range(1, 7)}
_LISTS = {"ul", "ol"}
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_TITLE_SEPARATORS = re.compile(r"\s+[|–—-]\s+")
_SKIP_STRINGS = (Comment, Declaration, Doctype, ProcessingInstruction)
# class or id tokens of page furniture and of reference-list containers
_CHROME_CLASSES = {
    "breadcrumb", "breadcrumbs", "skip-link", "skip-links", "sr-only", "visually-hidden",
    "screen-reader-text", "screen-reader-only", "share", "social-share", "sharing", "cookie-banner",
    "cookie-notice", "badge", "close-wrapper", "overlay", "print-only",
}  # fmt: skip
_CONTROL_CLASSES = {"button", "btn", "close", "open-modal"}  # on <a>, <span>, <button>
_REFERENCE_CLASSES = {"references", "reference-list", "ref-list", "bibliography", "citations"}
_KICKER_MAX_WORDS = 10
_BR = "\u2028"  # LINE SEPARATOR stands for <br>: whitespace to ``clean``, a line end to ``flush``


def load(path: Path, data: bytes) -> LoadedDocument:
    soup = BeautifulSoup(data, "lxml")
    title = _title(soup)
    body = soup.body or soup
    _prune(body)
    walker = _Walker(title)
    walker.walk(body)
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


# ---------------------------------------------------------------- pruning


def _prune(body: Tag) -> None:
    """Remove what is never content, mark line breaks, drop reference superscripts."""
    _drop_tree(body)
    for el in body.find_all(["p", "ul", "ol", "div"]):
        if not el.decomposed and _in_page_navigation(el):
            el.decompose()
    for sup in body.find_all("sup"):
        if is_reference_marker(sup.get_text(), _text_before(sup)):
            sup.decompose()
    for br in body.find_all("br"):
        br.replace_with(_BR)


def _drop_tree(el: Tag) -> None:
    for child in list(el.children):
        if not isinstance(child, Tag):
            continue
        if _dropped(child):
            child.decompose()
        elif child.name == "button" or (child.name in ("a", "span") and _is_control(child)):
            if child.find(_HEADINGS):  # an accordion toggle holding the section's heading
                _drop_tree(child)
                child.unwrap()
            else:
                child.decompose()
        else:
            _drop_tree(child)


def _dropped(el: Tag) -> bool:
    if el.name in _DROP:
        return True
    if el.name in _PAGE_CHROME and not el.find_parent(["article", "main"]):
        return True
    classes = {c.lower() for c in el.get("class") or []}
    identity = classes | {str(el.get("id") or "").lower()}
    if classes & _CHROME_CLASSES or identity & _REFERENCE_CLASSES:
        return True
    if any(c == "search" or c.startswith(("search-", "site-search")) for c in classes):
        return True
    return (
        el.has_attr("hidden")
        or el.get("aria-hidden") == "true"
        or bool(_HIDDEN_STYLE.search(str(el.get("style") or "")))
    )


def _is_control(el: Tag) -> bool:
    """A JS control written as a link or span: a button class, role=button, or href="#"."""
    classes = {c.lower() for c in el.get("class") or []}
    if classes & _CONTROL_CLASSES or el.get("role") == "button":
        return True
    return el.name == "a" and el.has_attr("href") and str(el["href"]).strip() in ("", "#")


def _in_page_navigation(el: Tag) -> bool:
    """Text that is only links to anchors on this page ("Jump to: Screen patient …")."""
    links = el.find_all("a", href=True)
    if not links or not all(str(a["href"]).startswith("#") for a in links):
        return False
    rest = "".join(s for s in el.find_all(string=True) if s.find_parent("a") is None)
    return not re.sub(r"[\W_]+", "", rest)


def _text_before(el: Tag) -> str:
    """The nearest non-blank text before ``el`` in document order."""
    for _, string in zip(range(8), el.find_all_previous(string=True), strict=False):
        if not isinstance(string, _SKIP_STRINGS) and string.strip():
            return str(string)
    return ""


# ---------------------------------------------------------------- text


def _text(node: PageElement) -> str:
    """Reading text of a node: inline markup adds no spaces, block elements do, list items get '; '."""
    if isinstance(node, NavigableString):
        return "" if isinstance(node, _SKIP_STRINGS) else str(node)
    if not isinstance(node, Tag):
        return ""
    if node.name in _INLINE:
        return "".join(_text(c) for c in node.children)
    if node.name in _LISTS:
        items = [clean(_text(li)) for li in node.find_all("li", recursive=False)]
        return " " + "; ".join(i for i in items if i) + " "
    return " " + "".join(_text(c) for c in node.children) + " "


def _emphasised(el: Tag) -> bool:
    """All of the element's text is bold."""

    def bold(string: NavigableString) -> bool:
        for parent in string.parents:
            if parent is el:
                return False
            if parent.name in _BOLD:
                return True
        return False

    strings = [s for s in el.find_all(string=True) if s.strip() and not isinstance(s, _SKIP_STRINGS)]
    return bool(strings) and all(bold(s) for s in strings)


def _next_element(el: Tag) -> Tag | None:
    """The next sibling element, only blank text in between."""
    for sib in el.next_siblings:
        if isinstance(sib, Tag):
            return sib
        if isinstance(sib, NavigableString) and not isinstance(sib, _SKIP_STRINGS) and sib.strip():
            return None
    return None


# ---------------------------------------------------------------- the walk


class _Walker:
    """Walks the DOM in order: inline text accumulates, block elements flush it as blocks."""

    def __init__(self, title: str | None) -> None:
        self.tree = TreeBuilder()
        self.title = title
        self._buffer: list[str] = []
        self._seen_heading = False
        self._skip_level: int | None = None  # inside a References section opened at this level
        self._lead: tuple[Tag, str] | None = None  # (the list it introduces, its lead-in text)

    # --- output

    def _add(self, text: str, kind: BlockKind, *, keep_lines: bool = False) -> None:
        if self._skip_level is None:
            self.tree.add(text, keep_lines=keep_lines, kind=kind)

    def flush(self, *, emphasised: bool = False) -> None:
        text = "".join(self._buffer)
        self._buffer = []
        lines = split_lines(text, _BR)
        for line in lines:
            kind = line_kind(line)
            if emphasised and len(lines) == 1 and kind == "paragraph" and is_lead(line, emphasised=True):
                kind = "heading"
            self._add(line, kind)

    # --- elements

    def walk(self, element: Tag) -> None:
        for child in list(element.children):
            if isinstance(child, NavigableString):
                if not isinstance(child, _SKIP_STRINGS):
                    self._buffer.append(str(child))
            elif isinstance(child, Tag):
                self._element(child)

    def _element(self, el: Tag) -> None:
        name = el.name
        if name in _INLINE:
            self.walk(el)
            return
        if name in _HEADINGS:
            self._heading(int(name[1]), el)
            return
        self.flush()
        if name == "pre":
            self._add(el.get_text(), "code", keep_lines=True)
        elif name == "table" and not el.find(_HEADINGS) and not el.find("table"):
            self._table(el)
        elif name == "dl" and not el.find(_HEADINGS):
            for text in _definitions(el):
                self._add(text, "label" if ": " in text else "paragraph")
        elif name in _LISTS and not _layout_list(el):
            self._list(el)
        elif name == "p" and self._lead_in(el):
            pass
        elif _dialog(el):  # its headings end with it: what follows is not inside the dialog
            mark = self.tree.mark()
            self.walk(el)
            self.flush()
            self.tree.close_to(mark)
        else:  # block container (p, blockquote, div, layout list or table …)
            self.walk(el)
            self.flush(emphasised=name == "p" and _emphasised(el))

    def _lead_in(self, p: Tag) -> bool:
        """A short paragraph right above a list ("Coverage", "Risk factors:") waits to lead it."""
        following = _next_element(p)
        if following is None or following.name not in _LISTS or _layout_list(following):
            return False
        text = clean(_text(p))
        if not is_lead(text, emphasised=_emphasised(p)):
            return False
        self._lead = (following, text)
        return True

    def _list(self, el: Tag) -> None:
        lead = self._lead[1] if self._lead is not None and self._lead[0] is el else ""
        self._lead = None
        for text, kind in list_units(_items(el), lead):
            self._add(text, kind)

    def _table(self, table: Tag) -> None:
        caption = table.find("caption")
        if caption is not None and caption.find_parent("table") is table:
            self._add(clean(_text(caption)), "caption")
        rows: list[list[Cell]] = []
        head = 0
        for tr in table.find_all("tr"):
            if tr.find_parent("table") is not table:
                continue
            cells = [
                Cell(clean(_text(c)), header=c.name == "th", colspan=_span(c, "colspan"), rowspan=_span(c, "rowspan"))
                for c in tr.find_all(["th", "td"], recursive=False)
            ]
            if tr.find_parent("thead") is not None and len(rows) == head:
                head += 1
            rows.append(cells)
        for text in table_units(rows, header_rows=head or None):
            self._add(text, "table_row")

    def _heading(self, level: int, el: Tag) -> None:
        text = clean(_text(el))
        kicker = self._kicker(el)
        self.flush()
        if self._skip_level is not None:
            if level > self._skip_level:
                return
            self._skip_level = None
        # An h1 repeating the page title would only duplicate it in every title path.
        if not self._seen_heading and level == 1 and same_text(text, self.title):
            self._seen_heading = True
            return
        self._seen_heading = True
        if not text:
            return
        if is_reference_title(text):
            self.tree.heading(level, None)  # ends the section before it
            self._skip_level = level
            return
        if _external_link_only(el, text):
            self._add(text, "heading")  # a call to action ("Sign up for …"), not a section
            return
        self.tree.heading(level, None if is_ui_hint(text) else text)
        if kicker:
            self._add(kicker, "heading")

    def _kicker(self, heading: Tag) -> str:
        """A short line set just above a heading, inside its box ("SSRIs" over "Sertraline")."""
        before = heading.find_previous_sibling()
        text = clean("".join(self._buffer))
        if (
            isinstance(before, Tag)
            and before.name in _INLINE
            and text
            and same_text(text, _text(before))
            and len(text.split()) <= _KICKER_MAX_WORDS
            and not text.endswith((".", "!", "?", ";", ","))
        ):
            self._buffer = []
            return text
        return ""


def _dialog(el: Tag) -> bool:
    classes = {c.lower() for c in el.get("class") or []}
    return (
        el.name == "dialog"
        or el.get("role") in ("dialog", "alertdialog")
        or el.get("aria-modal") == "true"
        or "modal" in classes
    )


def _external_link_only(heading: Tag, text: str) -> bool:
    links = heading.find_all("a", href=True)
    return (
        len(links) == 1
        and str(links[0]["href"]).startswith(("http://", "https://"))
        and same_text(_text(links[0]), text)
    )


def _layout_list(el: Tag) -> bool:
    """A list used for layout (cards, sliders): its items hold headings or tables."""
    return any(li.find([*_HEADINGS, "table"]) for li in el.find_all("li", recursive=False))


def _items(list_el: Tag) -> list[Item]:
    """The list's items; a list nested in an item (even inside wrappers) gives its children."""
    items = []
    for li in list_el.find_all("li", recursive=False):
        nested = [sub for sub in li.find_all(list(_LISTS)) if sub.find_parent("li") is li]
        children: list[Item] = []
        for sub in nested:
            if sub.find_parent(list(_LISTS)) in nested:
                continue  # inside another nested list: read with it
            children.extend(_items(sub))
        for sub in nested:
            sub.extract()  # the list is read whole here; its item text must not repeat them
        items.append(Item(clean(_text(li)), children))
    return items


def _span(cell: Tag, attr: str) -> int:
    try:
        return max(1, int(str(cell.get(attr) or "1").strip()))
    except ValueError:
        return 1


def _definitions(dl: Tag) -> list[str]:
    """<dt>term</dt><dd>meaning</dd> -> 'term: meaning', so the term stays with its meaning."""
    out: list[str] = []
    term = ""
    for child in dl.find_all(["dt", "dd"]):
        if child.find_parent("dl") is not dl:
            continue
        text = clean(_text(child))
        if child.name == "dt":
            if term:
                out.append(term)
            term = text.rstrip(" :")
        else:
            out.append(f"{term}: {text}" if term else text)
            term = ""
    if term:
        out.append(term)
    return out
