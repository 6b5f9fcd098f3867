"""Units that must survive loading whole, and text that must not be indexed at all.

Every loader that can see structure hands it to these helpers, so a list item, a table
row or a "Label: value" line comes out as one self-contained line of text however the
source spelt it:

* ``list_units`` folds a (nested) list, and the short lead-in above it, into lines:
  ``Usual:`` over ``MDD: 50-100 mg daily`` … reads ``Usual: MDD: 50-100 mg daily; GAD: …``.
* ``table_units`` reads a table a row at a time, each cell under its column header:
  ``Drug: sertraline; Initial dose: 25 mg``; spans are expanded so a row read alone is whole.
* ``split_lines`` / ``line_kind`` keep hard line breaks between label lines.

What is kept out: citations (``is_citation``: "… [Internet]. … [cited 2022 Nov 10]. Available
from: https://…"), reference-list headings (``is_reference_title``), UI hints such as "Scroll
(left-right) for details" (``is_ui_hint``) and reference markers glued to headings
(``is_reference_marker``, ``strip_heading_marks``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from curbside.kb.document import BlockKind

__all__ = [
    "Cell",
    "Item",
    "is_citation",
    "is_label_line",
    "is_lead",
    "is_navigation_title",
    "is_reference_marker",
    "is_reference_title",
    "is_ui_hint",
    "keep",
    "line_kind",
    "list_units",
    "split_lines",
    "strip_heading_marks",
    "table_units",
]

# ---------------------------------------------------------------- label lines

# "Initial: 25-50 mg daily", "Depression: 6-12 months after symptom remission"
_LABEL = re.compile(r"^(?P<label>[^\s:][^:]{0,59}?)\s*:\s+\S")
_LABEL_MAX_WORDS = 8
# "Severe malaria is a medical emergency: give …" is a sentence, not a label
_VERB = re.compile(r"\b(?:is|are|was|were|be|been|has|have|had|should|must|may|might|will|would|can|could|do|does)\b", re.I)


def is_label_line(text: str, *, capitalised: bool = False) -> bool:
    """``text`` starts with a short label, a colon and a value.

    ``capitalised`` asks for a label that starts with a capital letter or a digit, for
    text whose line breaks may fall anywhere (PDF, plain text).
    """
    match = _LABEL.match(text)
    if not match:
        return False
    label = match.group("label")
    words = len(label.split())
    if words > _LABEL_MAX_WORDS or re.search(r"[.!?;]\s", label) or (words >= 3 and _VERB.search(label)):
        return False  # a sentence runs on before the colon
    if label.casefold().startswith(("http", "www.")):
        return False
    return not capitalised or label[0].isupper() or label[0].isdigit()


def line_kind(text: str) -> BlockKind:
    return "label" if is_label_line(text) else "paragraph"


def split_lines(text: str, sep: str = "\n") -> list[str]:
    """Hard line breaks (``sep``, e.g. from <br>) kept as separate lines, each cleaned.

    A break inside a sentence (the next line starts in lower case after a line with no
    closing punctuation) is a soft wrap: the two lines are joined.
    """
    out: list[str] = []
    for raw in text.split(sep):
        line = " ".join(raw.split())
        if not line:
            continue
        if out and line[0].islower() and not out[-1].endswith((".", ":", ";", "!", "?")):
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
    return out


def is_lead(text: str, *, emphasised: bool = False) -> bool:
    """A short line that introduces the list below it ("Coverage", "Risk factors:")."""
    words = text.split()
    if not words or len(words) > 12:
        return False
    if text.endswith(":"):
        return True
    return emphasised and len(words) <= 8 and not text.endswith((".", "!", "?", ";", ","))


# ---------------------------------------------------------------- lists


@dataclass(slots=True)
class Item:
    """One list item: its own text and the items of any list nested in it."""

    text: str
    children: list[Item] = field(default_factory=list)


# A run of items short enough to read as one line: "Coverage: ODB ✓; NIHB ✓"
_FOLD_MAX_ITEMS = 12
_FOLD_MAX_ITEM_CHARS = 100
_FOLD_MAX_CHARS = 300
_PREFIX_MAX_WORDS = 6  # a longer lead-in is its own line rather than repeated on every item


def list_units(items: Sequence[Item], lead: str = "") -> list[tuple[str, BlockKind]]:
    """The list as self-contained lines, with the lead-in folded in where it is short.

    A lead-in of a few words folds into the items ("Coverage: ODB ✓; NIHB ✓") unless every
    item is a "Label: value" line already; a longer one stays a line of its own. Nested
    items under a label-like parent ("Usual:", "Adults") fold into the parent's line when
    they are short, and are prefixed with it otherwise.
    """
    units = [u for item in items for u in _item_units(item)]
    lead = " ".join(lead.split())
    if not lead:
        return [(u, "list_item") for u in units]
    if not units:
        return [(lead, "heading")]
    labelled = all(is_label_line(u) for u in units)  # "Initial: 25 mg" says what it is already
    if len(lead.split()) <= _PREFIX_MAX_WORDS and not labelled:
        return [(u, "list_item") for u in _fold(lead, units)]
    return [(lead, "heading"), *((u, "list_item") for u in units)]


def _item_units(item: Item) -> list[str]:
    text = " ".join(item.text.split())
    children = [u for child in item.children for u in _item_units(child)]
    if not children:
        return [text] if text else []
    if not text:
        return children
    if _label_like(text):
        return _fold(text, children)
    return [text, *children]


def _label_like(text: str) -> bool:
    words = text.split()
    if text.endswith(":"):
        return len(words) <= 12
    return len(words) <= 4 and not text.endswith((".", "!", "?", ";", ","))


def _fold(head: str, units: list[str]) -> list[str]:
    head = strip_heading_marks(head.rstrip(" :")).rstrip(" :")
    if (
        len(units) <= _FOLD_MAX_ITEMS
        and all(len(u) <= _FOLD_MAX_ITEM_CHARS for u in units)
        and sum(len(u) for u in units) <= _FOLD_MAX_CHARS
    ):
        parts = [u.rstrip(".;") for u in units[:-1]] + [units[-1].rstrip(";")]
        return [f"{head}: {'; '.join(parts)}"]
    return [f"{head}: {u}" for u in units]


# ---------------------------------------------------------------- tables


@dataclass(slots=True, eq=False)
class Cell:
    """A table cell as written: spans are expanded by ``table_units``.

    Loaders that expand spans themselves (python-docx) pass the same ``Cell`` object in
    every position it covers; compared by identity, it is read once per row.
    """

    text: str
    header: bool = False  # a <th>, or a cell of a row marked as a header row
    colspan: int = 1
    rowspan: int = 1


_MAX_SPAN = 100
_HEADER_CELL_MAX_WORDS = 6


def table_units(rows: Sequence[Sequence[Cell]], *, header_rows: int | None = None) -> list[str]:
    """One line per row: ``Header: cell; Header: cell``; ``header_rows`` None infers them.

    Header rows stacked over each other (a spanning "Goats" over "n", "Seroprevalence")
    give combined column headers ("Goats n"). A row with a single cell across the table is
    a group label and stands alone. Without headers a two-column row reads "key: value",
    a wider one "a | b | c".
    """
    grid = _grid(rows)
    if not grid:
        return []
    width = max(len(row) for row in grid)
    n_head = _header_rows(grid, width) if header_rows is None else max(0, min(header_rows, len(grid)))
    if n_head == len(grid):
        n_head = 0  # headers and nothing under them: read the rows as data
    headers = _column_headers(grid[:n_head], width)
    out = []
    for row in grid[n_head:]:
        if _all_headers(row) and len(_distinct(row)) >= 2:
            headers = _column_headers([row], width)  # a header row repeated mid-table
            continue
        if text := _row_text(row, headers, width):
            out.append(text)
    return out


def _grid(rows: Sequence[Sequence[Cell]]) -> list[list[Cell | None]]:
    grid: list[list[Cell | None]] = []
    carried: dict[int, tuple[Cell, int]] = {}  # column -> (cell spanning down into it, rows left)
    for row in rows:
        out: list[Cell | None] = []
        for cell in row:
            _take_carried(out, carried)
            for _ in range(max(1, min(cell.colspan, _MAX_SPAN))):
                out.append(cell)
                if cell.rowspan > 1:
                    carried[len(out) - 1] = (cell, min(cell.rowspan, _MAX_SPAN) - 1)
        _take_carried(out, carried)
        if any(c is not None and c.text for c in out):
            grid.append(out)
    return grid


def _take_carried(out: list[Cell | None], carried: dict[int, tuple[Cell, int]]) -> None:
    """Fill the columns that cells from rows above span down into."""
    while len(out) in carried:
        cell, left = carried.pop(len(out))
        out.append(cell)
        if left > 1:
            carried[len(out) - 1] = (cell, left - 1)


def _distinct(row: Sequence[Cell | None]) -> list[tuple[int, Cell]]:
    """(first column, cell) for each distinct non-empty cell of the row, in order."""
    seen: set[int] = set()
    out = []
    for j, cell in enumerate(row):
        if cell is None or id(cell) in seen:
            continue
        seen.add(id(cell))
        if cell.text:
            out.append((j, cell))
    return out


def _all_headers(row: Sequence[Cell | None]) -> bool:
    cells = [c for _, c in _distinct(row)]
    return bool(cells) and all(c.header for c in cells)


def _header_rows(grid: list[list[Cell | None]], width: int) -> int:
    n = 0
    while n < len(grid) - 1 and _all_headers(grid[n]):
        n += 1
    if n or len(grid) < 2 or width < 2:
        return n
    # No marked headers: a first row of short, digit-free labels over rows holding numbers
    # (or over three or more columns) is a header row.
    first = [c.text for _, c in _distinct(grid[0])]
    if len(first) < 2 or any(re.search(r"\d", t) or len(t.split()) > _HEADER_CELL_MAX_WORDS for t in first):
        return 0
    body_digits = any(re.search(r"\d", c.text) for row in grid[1:] for _, c in _distinct(row))
    return 1 if width >= 3 or body_digits else 0


def _column_headers(header_grid: list[list[Cell | None]], width: int) -> list[str]:
    headers = []
    for j in range(width):
        parts: list[str] = []
        for row in header_grid:
            cell = row[j] if j < len(row) else None
            text = cell.text.rstrip(" :") if cell is not None else ""
            if text and (not parts or parts[-1] != text):
                parts.append(text)
        headers.append(" ".join(parts))
    return headers


def _row_text(row: list[Cell | None], headers: list[str], width: int) -> str:
    cells = _distinct(row)
    if not cells:
        return ""
    if len(cells) == 1 and width > 1:
        return cells[0][1].text  # a group label across the table ("Menopausal status (%)")
    if not any(headers):
        texts = [c.text for _, c in cells]
        if width == 2 and len(texts) == 2:
            return f"{texts[0].rstrip(' :')}: {texts[1]}"
        return " | ".join(texts)
    parts = []
    for j, cell in cells:
        header = headers[j] if j < len(headers) else ""
        same = header.casefold() == cell.text.casefold()
        parts.append(f"{header}: {cell.text}" if header and not same else cell.text)
    return "; ".join(parts)


# ---------------------------------------------------------------- what is kept out

# A citation needs one strong sign and a second sign of either strength.
_CITATION_STRONG = [
    re.compile(r"\[Internet\]", re.I),
    re.compile(r"\[cited\b[^\]]{0,40}\d{4}[^\]]{0,20}\]", re.I),
    re.compile(r"\bAvailable (?:from|at|online)\s*:?\s*(?:<\s*)?(?:https?://|www\.)", re.I),
    re.compile(r"\bdoi\s*:?\s*10\.\d{4,9}/|\bdoi\.org/10\.", re.I),
    re.compile(r"\bPMID\s*:?\s*\d{5,}"),
    re.compile(r"\[(?:product monograph|monograph|serial online|homepage on the Internet)\]", re.I),
    # "Smith J, Doe AB, Roe C." — an author list opening the line
    re.compile(r"^(?:[A-Z][\w'’\-]+(?: [A-Z][\w'’\-]+)? [A-Z]{1,3}(?:,\s*|\.\s+|\s+and\s+)){2,}"),
]
_CITATION_WEAK = [
    re.compile(r"\bet al\b"),
    # Vancouver "2019;393(10170):123-30", "2020 Jan;12:e45"
    re.compile(r"\b(?:19|20)\d\d(?:\s+[A-Z][a-z]{2,8}\.?(?:\s+\d{1,2})?)?\s*;\s*\d+\s*(?:\([\w\-–\s]+\))?\s*:\s*[eE]?\d+"),
    re.compile(r"\b(?:Accessed|Retrieved|cited)\s+(?:on\s+)?(?:\d{1,2}\s+)?[A-Z][a-z]+\.?\s+(?:\d{1,2},?\s+)?\d{4}"),
    re.compile(r"\b(?:Ottawa|Toronto|London|Geneva|New York|Washington|Oxford)\s*(?:\([A-Z]{2}\))?\s*:\s*[A-Z]"),
]
_CITATION_MAX_CHARS = 700
_ENUMERATOR = re.compile(r"^\s*(?:\[\d{1,4}\]|\(?\d{1,4}[.)])\s*")


def is_citation(text: str) -> bool:
    """A bibliography entry: "… [Internet]. 2024 [cited 18 July 2024]. Available from: https://…"."""
    if len(text) > _CITATION_MAX_CHARS:
        return False
    text = _ENUMERATOR.sub("", text)
    strong = sum(1 for p in _CITATION_STRONG if p.search(text))
    if not strong:
        return False
    return strong + sum(1 for p in _CITATION_WEAK if p.search(text)) >= 2


_REFERENCE_TITLE = re.compile(
    r"^(?:(?:\d+(?:\.\d+)*|[IVX]+)\.?\s+)?"
    r"(?:references?(?: list| cited)?|bibliography|citations|works cited|(?:cited )?literature(?: cited)?"
    r"|selected references|key references|reference sources)$",
    re.I,
)


def is_reference_title(title: str | None) -> bool:
    """A heading over a reference list or bibliography: its section is not indexed."""
    return bool(title) and bool(_REFERENCE_TITLE.match(" ".join((title or "").split()).rstrip(" :")))


_NAVIGATION_TITLE = re.compile(r"^(?:table of )?contents$", re.I)


def is_navigation_title(title: str | None) -> bool:
    """A heading over a table of contents: section titles and page numbers ("510 Contact 28"), no answer."""
    return bool(title) and bool(_NAVIGATION_TITLE.match(" ".join((title or "").split()).rstrip(" :")))


_UI_HINT = re.compile(
    r"^(?:"
    r"(?:scroll|swipe)\b.{0,40}\b(?:for (?:more|details)|to (?:see|view|read) more)"
    r"|(?:click|tap) (?:here )?to (?:expand|collapse|open|close|view|see|show)\b.{0,40}"
    r"|expand all|collapse all|expand|collapse|show (?:more|less|all)|read (?:more|less)|view (?:more|less|all)"
    r"|back to top|(?:skip|jump) to (?:the )?(?:main )?content|jump to|on this page|in this (?:section|article|page)"
    r"|table of contents|close|open|menu|toggle navigation|print(?: this page)?|share(?: this page)?"
    r"|no results found(?: \d+ ?/ ?\d+)?|loading(?:\.\.\.|…)?"
    r")[\s.:!…]*$",
    re.I,
)


def is_ui_hint(text: str) -> bool:
    """A control or instruction for the page, not content ("Scroll (left-right) for details")."""
    return bool(_UI_HINT.match(" ".join(text.split())))


def keep(text: str) -> bool:
    """Whether a block of running text is content (not a citation, not a UI hint)."""
    return bool(text) and not is_citation(text) and not is_ui_hint(text)


# ---------------------------------------------------------------- reference markers

_MARK_SEP = r"[\s,;\-–—\[\]()]*"
_MARK = r"(?:\d{1,3}|[*†‡§¶#]+)"
_SUP_MARKER = re.compile(rf"^{_MARK_SEP}{_MARK}(?:{_MARK_SEP}{_MARK})*{_MARK_SEP}$")
_UNITS = {"m", "cm", "mm", "km", "dm", "µm", "μm", "nm", "ft"}


def is_reference_marker(sup: str, before: str) -> bool:
    """Superscript text that cites (``remission<sup>1</sup>``, ``options<sup>1,3–5</sup>``).

    Not an exponent: after a digit (``10<sup>9</sup>``), after a length unit
    (``m<sup>2</sup>``) or a signed power after a letter (``L<sup>-1</sup>``).
    """
    if not _SUP_MARKER.match(sup) or not sup.strip():
        return False
    before = before.rstrip()
    if not before:
        return True
    last = before[-1]
    if last.isdigit():
        return False
    if last.isalpha() and sup.strip()[0] in "-−–":
        return False
    unit = re.search(r"(?:^|[\s/(·.])([A-Za-zµμ]{1,2})$", before)
    return not (unit and unit.group(1) in _UNITS)


_TRAILING_MARKS = re.compile(r"[\s*†‡§¶]+$")


def strip_heading_marks(title: str) -> str:
    """'Dosing***' -> 'Dosing': footnote symbols trailing a heading."""
    return _TRAILING_MARKS.sub("", title)
