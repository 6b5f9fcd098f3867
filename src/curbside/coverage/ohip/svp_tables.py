"""The General Preamble's special visit premium tables, cell by cell: which setting, row and time period a code pays.

Every table opens with a heading line (``SPECIAL VISIT PREMIUM TABLE I``, ``SPECIAL VISIT
PREMIUM TABLE - ANAESTHESIA SERVICES``) and the setting it covers (``Emergency Department``),
then the PDF's text layer writes, read from the 2025-03-03 file:

* the column headers, one block of lines per time period, blocks apart by a blank line
  (``Sat., Sun.`` / ``and`` / ``Holidays`` / ``(07:0024:00)``: the extractor drops or spaces
  the dash of a time range);
* per row, its label (``Travel`` / ``Premium``, ``First person`` / ``seen``) and then that row's
  cells left to right, each ``$36.40`` over its code over its limit in parentheses
  (``(max. 2 per`` / ``time period)``); a cell may share a line (``$36.40 B966``, ``B966 (no``)
  or have no code (``$0.00``);
* the corner header ``Premium`` somewhere (first, or after the last cell), and the page
  furniture (``Amd 12 Draft 1``, edition stamps, page labels) wherever a page ends.

Tables of one row write no row label and may put a cell between two column headers
(obstetrical delivery, surgical assistant and anaesthesia services); their cells are still in
column order. The extractor wrote Table X's body (Geriatric Home Visit) before its heading, at
the end of Table IX: a body that starts a second set of column headers is held, and given to
the next heading when that heading has no body of its own (``SvpTable.body_before_title``).

Rows and columns come from each table's own text. A table is read only when every row has one
cell per column, every column header names one known time period, no line is left over, a code
recurs only in one row and with one fee, and its codes share a prefix letter; otherwise the
table is reported in ``SvpTables.skipped`` with the reason and gives no cell (no guessing which
cell a code belongs to).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from curbside.coverage.ohip.layout import is_furniture, page_markers

__all__ = [
    "SkippedTable",
    "SvpCell",
    "SvpTable",
    "SvpTables",
    "read_svp_tables",
    "special_visit_cells",
]

_HEADING = re.compile(r"^SPECIAL VISIT PREMIUM TABLE\b(?:\s*(?P<no>[IVX]+)\s*$)?")
_FEE = re.compile(r"^\$(?P<fee>\d{1,4}(?:,\d{3})*\.\d{2})(?:\s+(?P<rest>.*))?$")
_NOT_APPLICABLE = re.compile(r"^(?:not applicable|n/a)$", re.IGNORECASE)
_CODE = re.compile(r"^(?P<code>[A-Z]\d{3}[A-Z]?)(?:\s+(?P<rest>.*))?$")
_STRAY_LIMIT = re.compile(r"^\((?:max|no max)", re.IGNORECASE)
_TIME = re.compile(r"\((\d{2}:\d{2})\s*-?\s*(\d{2}:\d{2})\)")
_HEADER_START = re.compile(r"^(?:Weekdays?|Daytime|Evenings?|Sat\.|Saturdays?|Nights?|Sacrifice|Elective)\b")
_CORNER = "Premium"
_ROW_LABEL = re.compile(r"^[A-Za-z][A-Za-z()' ]{0,60}$")
_END = re.compile(r"^(?:Note:|Notes:|Payment rules|Commentary|\[)")
_CAPS = re.compile(r"^[A-Z][A-Z’'&,/()\- –]*$")  # 'GENERAL PREAMBLE', 'HOURS': capitals, no digit
_MAX_LINES = 600  # a table body is under 200 lines; past this a missing end is not read as a table

# the label every table's column header is read as, and the time range a header with one must print
_WEEKDAY = "Weekdays daytime (07:00-17:00)"
_SACRIFICE = "Daytime with sacrifice of office hours"
_EVENING = "Evenings (17:00-24:00) Monday to Friday"
_WEEKEND = "Saturdays, Sundays and holidays (07:00-24:00)"
_NIGHT = "Nights (00:00-07:00)"
_ELECTIVE = "Elective home visit"
_TIMES = {
    _WEEKDAY: ("07:00", "17:00"),
    _SACRIFICE: ("07:00", "17:00"),
    _EVENING: ("17:00", "24:00"),
    _WEEKEND: ("07:00", "24:00"),
    _NIGHT: ("00:00", "07:00"),
}


@dataclass(frozen=True, slots=True)
class SvpCell:
    code: str | None  # 'K963'; None for a cell with no code ('$0.00', 'Not applicable')
    table: str  # the setting the table covers, as printed: 'Emergency Department'
    table_no: str | None  # 'I' … 'X'; None for the named tables (anaesthesia services …)
    row: str | None  # 'Travel premium', 'First person seen'; None in a table of one unlabelled row
    column: str  # 'Saturdays, Sundays and holidays (07:00-24:00)'
    column_text: str  # the header as printed, spaces collapsed: 'Sat., Sun. and Holidays (07:0024:00)'
    fee: str | None  # '36.40' (dollars, no sign); None for 'Not applicable'
    limit: str | None  # 'max. 6 per time period'; None when the cell prints none
    page: str  # 'GP69'
    line: int  # 1-based line of the cell's code (its fee when it has none)


@dataclass(frozen=True, slots=True)
class SvpTable:
    heading: str  # 'SPECIAL VISIT PREMIUM TABLE I'
    table_no: str | None
    title: str  # 'Emergency Department'
    note: str  # the line(s) under the title: 'Not eligible for payment to Emergency Department Physicians …'
    rows: tuple[str | None, ...]  # (None,) for a table of one unlabelled row
    columns: tuple[str, ...]
    cells: tuple[SvpCell, ...]  # row-major
    page: str  # the heading's page
    line: int  # the heading's 1-based line
    body_before_title: bool = False  # the extractor wrote the body before the heading (Table X)


@dataclass(frozen=True, slots=True)
class SkippedTable:
    heading: str  # 'SPECIAL VISIT PREMIUM TABLE IX', or 'untitled table body' for a body no heading claimed
    title: str
    page: str
    line: int  # 1-based
    reason: str


@dataclass(frozen=True, slots=True)
class SvpTables:
    tables: tuple[SvpTable, ...]
    skipped: tuple[SkippedTable, ...]

    def by_code(self) -> dict[str, tuple[SvpCell, ...]]:
        """Every cell of a code, in table order; most codes have one (B960 has two, B966 five)."""
        found: dict[str, list[SvpCell]] = {}
        for table in self.tables:
            for cell in table.cells:
                if cell.code is not None:
                    found.setdefault(cell.code, []).append(cell)
        return {code: tuple(cells) for code, cells in found.items()}


def special_visit_cells(lines: Sequence[str]) -> dict[str, tuple[SvpCell, ...]]:
    """Fee code -> its cells in the special visit premium tables that could be read (see ``read_svp_tables``)."""
    return read_svp_tables(lines).by_code()


def read_svp_tables(lines: Sequence[str]) -> SvpTables:
    """Every special visit premium table in ``lines``, read or skipped with a reason.

    ``lines`` are the text file's lines as ``text.split("\\n")`` gives them, so that ``SvpCell.line`` is the
    file's line number (``str.splitlines`` also breaks at the form feeds that start pages).
    """
    raw = list(lines)
    headings = [i for i, line in enumerate(raw) if _HEADING.match(line.strip())]
    if not headings:
        return SvpTables((), ())
    markers = page_markers(raw)
    marker_lines = [i for i, _ in markers]
    labels = [label for _, label in markers]
    skip = set(marker_lines)

    def page_of(i: int) -> str:
        at = bisect_left(marker_lines, i)
        return labels[at] if at < len(labels) else (labels[-1] if labels else "")

    tables: list[SvpTable] = []
    skipped: list[SkippedTable] = []
    held: list[_Segment] = []  # bodies after a table's first that ran up to the next heading
    for n, start in enumerate(headings):
        stop = headings[n + 1] if n + 1 < len(headings) else len(raw)
        region = _Region.read(raw, start, min(stop, start + _MAX_LINES), skip)
        heading_page = page_of(start)
        if not region.segments and not region.error and len(held) == 1:  # Table X: its body came first
            region.segments.append(held.pop())
            region.body_before_title = True
        skipped.extend(_orphan_skip(orphan, page_of) for orphan in held)
        held = []
        if region.error or not region.segments:
            reason = region.error or "no table body under the heading"
            skipped.append(SkippedTable(region.heading, region.title, heading_page, start + 1, reason))
            continue
        first, *rest = region.segments
        if region.end == stop:
            held = rest
        else:
            skipped.extend(_orphan_skip(orphan, page_of) for orphan in rest)
        table, reason = _build(region, first, heading_page, start + 1, page_of)
        if table is None:
            skipped.append(SkippedTable(region.heading, region.title, heading_page, start + 1, reason))
        else:
            tables.append(table)
    skipped.extend(_orphan_skip(orphan, page_of) for orphan in held)
    return SvpTables(tuple(tables), tuple(skipped))


@dataclass(slots=True)
class _Cell:
    fee: str | None
    code: str | None
    limit: str | None
    index: int  # 0-based line of the code, else of the fee


@dataclass(slots=True)
class _Header:
    label: str
    text: str


@dataclass(slots=True)
class _Segment:
    """One table body: its column headers, row labels and cells in reading order."""

    headers: list[_Header] = field(default_factory=list)
    rows: list[str] = field(default_factory=list)
    cells: list[list[_Cell]] = field(default_factory=lambda: [[]])  # per row; [0] before the first label
    first_index: int = -1

    @property
    def empty(self) -> bool:
        return not self.headers and not self.rows and not any(self.cells)


@dataclass(slots=True)
class _Region:
    heading: str
    table_no: str | None
    title: str = ""
    note: str = ""
    segments: list[_Segment] = field(default_factory=list)
    error: str = ""
    body_before_title: bool = False
    end: int = 0  # the line index reading stopped at: the next heading's, or a line that ends a table

    @classmethod
    def read(cls, raw: list[str], start: int, stop: int, skip: set[int]) -> _Region:
        """The heading at ``start`` and the lines after it up to ``stop`` or the first line that ends a table."""
        heading = raw[start].strip()
        match = _HEADING.match(heading)
        region = cls(heading=heading, table_no=match.group("no") if match else None)
        first = start + 1
        while first < stop and _CAPS.match(raw[first].strip()):
            region.heading += " " + raw[first].strip()  # '… SACRIFICE OF OFFICE' / 'HOURS'
            first += 1
        items: list[tuple[int, str]] = []  # (index, stripped text); furniture and page labels left out
        region.end = stop
        for i in range(first, stop):
            if i in skip:
                continue
            text = raw[i].strip()
            if text and is_furniture(text):
                continue
            if text and (_END.match(text) or (" " in text and _CAPS.match(text))):
                region.end = i  # 'Note:', a running head ('GENERAL PREAMBLE'), the next section's heading
                break
            items.append((i, text))
        k = region._read_title(items, 0)
        region._read_body(items, k)
        return region

    def _read_title(self, items: list[tuple[int, str]], k: int) -> int:
        while k < len(items) and not items[k][1]:
            k += 1
        if k < len(items) and not _starts_body(items[k][1]):
            self.title = items[k][1]
            k += 1
        notes = []
        while k < len(items) and items[k][1] and not _starts_body(items[k][1]):
            notes.append(items[k][1])
            k += 1
        self.note = " ".join(notes)
        if not self.title:
            self.title = self.heading.removeprefix("SPECIAL VISIT PREMIUM TABLE").strip(" -–").title()
        return k

    def _read_body(self, items: list[tuple[int, str]], k: int) -> None:
        segment = _Segment()
        block: list[tuple[int, str]] = []
        while k < len(items):
            index, text = items[k]
            if not text:
                segment = self._flush(block, segment)
                k += 1
            elif _FEE.match(text) or _NOT_APPLICABLE.match(text):
                segment = self._flush(block, segment)
                cell, k, problem = _read_cell(items, k)
                self.error = self.error or problem
                if segment.first_index < 0:
                    segment.first_index = index
                segment.cells[-1].append(cell)
            else:
                block.append((index, text))
                k += 1
        segment = self._flush(block, segment)
        if not segment.empty:
            self.segments.append(segment)

    def _flush(self, block: list[tuple[int, str]], segment: _Segment) -> _Segment:
        """Read the text block (a column header, a row label or the corner 'Premium'); the segment to go on with."""
        if not block:
            return segment
        text = " ".join(t for _, t in block)
        index = block[0][0]
        strays = [(i, t) for i, t in block if (_CODE.match(t) and " " not in t) or _STRAY_LIMIT.match(t)]
        block.clear()
        if text == _CORNER or self.error:
            return segment
        if strays:
            self.error = f"{strays[0][1]!r} at line {strays[0][0] + 1} is outside a cell"
            return segment
        label = _column_label(text)
        if label is not None:
            if segment.rows and any(segment.cells[1:]):  # a second set of column headers: another table's body
                self.segments.append(segment)
                segment = _Segment()
            elif segment.rows:
                self.error = f"column header {text!r} at line {index + 1} after a row label"
                return segment
            if segment.first_index < 0:
                segment.first_index = index
            segment.headers.append(_Header(label, text))
        elif _HEADER_START.match(text):
            self.error = f"column header {text!r} at line {index + 1} names no single time period"
        elif not _ROW_LABEL.match(text):
            self.error = f"unexpected text {text!r} at line {index + 1}"
        elif not segment.headers:
            self.error = f"row label {text!r} at line {index + 1} before any column header"
        else:
            segment.rows.append(text[0].upper() + text[1:].lower())
            segment.cells.append([])
        return segment


def _starts_body(text: str) -> bool:
    return bool(_HEADER_START.match(text) or text == _CORNER or _FEE.match(text) or _NOT_APPLICABLE.match(text))


def _read_cell(items: list[tuple[int, str]], k: int) -> tuple[_Cell, int, str]:
    """The cell starting at ``items[k]``: fee, then code, then limit, on one line or several; the next item."""
    index, text = items[k]
    k += 1
    fee_match = _FEE.match(text)
    if fee_match is None:  # 'Not applicable'
        return _Cell(None, None, None, index), k, ""
    fee = fee_match.group("fee").replace(",", "")
    rest = (fee_match.group("rest") or "").strip()
    if not rest and k < len(items) and _CODE.match(items[k][1]):
        index, rest = items[k]
        k += 1
    code = None
    code_match = _CODE.match(rest)
    if code_match:
        code = code_match.group("code")
        rest = (code_match.group("rest") or "").strip()
    if rest and not rest.startswith("("):
        return _Cell(fee, code, None, index), k, f"unexpected {rest!r} in the cell at line {index + 1}"
    if not rest and k < len(items) and items[k][1].startswith("(") and not _TIME.search(items[k][1]):
        rest = items[k][1]
        k += 1
    if not rest:
        return _Cell(fee, code, None, index), k, ""
    parts = [rest]
    depth = rest.count("(") - rest.count(")")
    while depth > 0 and k < len(items):  # across blank lines: page furniture may split a limit
        line = items[k][1]
        if line and (_FEE.match(line) or _CODE.match(line) or _HEADER_START.match(line) or _NOT_APPLICABLE.match(line)):
            break
        if line:
            parts.append(line)
            depth += line.count("(") - line.count(")")
        k += 1
    limit = " ".join(parts)
    if depth != 0 or not (limit.startswith("(") and limit.endswith(")")):
        return _Cell(fee, code, None, index), k, f"limit {limit!r} of the cell at line {index + 1} is not closed"
    return _Cell(fee, code, " ".join(limit[1:-1].split()), index), k, ""


def _column_label(text: str) -> str | None:
    """'Sat., Sun. and Holidays (07:0024:00)' -> 'Saturdays, Sundays and holidays (07:00-24:00)'; None: not one period."""
    lower = " ".join(text.lower().split())
    non_elective = bool(re.search(r"\bnon-?\s?elective\b", lower))
    lower = re.sub(r"\bnon-?\s?elective\b", " ", lower)
    periods = []
    if "sacrifice of office hours" in lower:
        periods.append(_SACRIFICE)
    elif re.search(r"\b(?:weekdays? )?daytime\b", lower):
        periods.append(_WEEKDAY)
    if re.search(r"\bevenings?\b", lower):
        periods.append(_EVENING)
    if re.search(r"\bsat(?:\.|urdays?\b)", lower):
        periods.append(_WEEKEND)
    if re.search(r"\bnights?\b", lower):
        periods.append(_NIGHT)
    if re.search(r"\belective home visits?\b", lower):
        periods.append(_ELECTIVE)
    times = _TIME.findall(lower)
    if len(periods) != 1 or len(times) > 1:
        return None
    label = periods[0]
    if times and _TIMES.get(label) != times[0]:
        return None
    if label == _EVENING and "monday" not in lower:
        return None
    return f"{label} (non-elective)" if non_elective else label


def _build(
    region: _Region, segment: _Segment, page: str, line: int, page_of: Callable[[int], str]
) -> tuple[SvpTable | None, str]:
    """The table, or None and why its cells cannot be placed with confidence."""
    headers = segment.headers
    if not headers:
        return None, "no column headers"
    columns = [h.label for h in headers]
    if len(set(columns)) != len(columns):
        return None, f"a time period heads two columns: {columns}"
    if segment.rows:
        if segment.cells[0]:
            return None, f"{len(segment.cells[0])} cell(s) before the first row label"
        rows: list[str | None] = list(segment.rows)
        grid = segment.cells[1:]
    else:
        rows = [None]
        grid = segment.cells[:1]
    for label, cells in zip(rows, grid, strict=True):
        if len(cells) != len(columns):
            name = f"row {label!r}" if label else "the table's one row"
            return None, f"{name} has {len(cells)} cells for {len(columns)} columns"
    rows_of: dict[str, set[int]] = {}
    fees_of: dict[str, set[str | None]] = {}
    for r, cells in enumerate(grid):
        for cell in cells:
            if cell.code is not None:
                rows_of.setdefault(cell.code, set()).add(r)
                fees_of.setdefault(cell.code, set()).add(cell.fee)
    for code in rows_of:
        if len(rows_of[code]) > 1:
            return None, f"{code} is in {len(rows_of[code])} rows"
        if len(fees_of[code]) > 1:
            return None, f"{code} has fees {sorted(f or '' for f in fees_of[code])}"
    prefixes = {code[0] for code in rows_of}
    if len(prefixes) > 1:
        return None, f"codes of different prefixes {sorted(prefixes)} in one table"
    out = tuple(
        SvpCell(
            cell.code,
            region.title,
            region.table_no,
            label,
            header.label,
            header.text,
            cell.fee,
            cell.limit,
            page_of(cell.index),
            cell.index + 1,
        )
        for label, cells in zip(rows, grid, strict=True)
        for header, cell in zip(headers, cells, strict=True)
    )
    table = SvpTable(
        region.heading,
        region.table_no,
        region.title,
        region.note,
        tuple(rows),
        tuple(columns),
        out,
        page,
        line,
        region.body_before_title,
    )
    return table, ""


def _orphan_skip(segment: _Segment, page_of: Callable[[int], str]) -> SkippedTable:
    index = max(segment.first_index, 0)
    return SkippedTable(
        "untitled table body",
        "",
        page_of(index),
        index + 1,
        "a second set of column headers inside a table, and the next heading has a body of its own",
    )
