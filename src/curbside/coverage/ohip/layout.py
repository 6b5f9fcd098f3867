"""The Schedule of Benefits text as the PDF extraction left it: edition, pages, table of contents.

The text file is the PDF's text layer in the extractor's reading order. What
this module relies on, read from the 2025-03-03 file:

* every page carries two furniture lines — ``Amd 12 Draft 1`` and the edition
  date ``February 14, 2025 (effective March 3, 2025)`` (unchanged pages keep an
  older ``March 4, 2024 (effective April 1, 2024)`` stamp, sometimes glued to a
  heading, sometimes with broken spacing) — and its page label (``GP45``,
  ``A11``, ``AD2``), all three near each other but not always where the page
  ends: the extractor may put a few lines of the page after them;
* a label sits close to furniture and counts up within its prefix, which tells
  a label from a fee code on a line of its own (``A128`` is both shapes);
* the main table of contents (before the General Preamble's own) maps every
  section to its first page: ``Anaesthesia (01) ........ A72``.

A line's page is the label of the next page marker at or after it; the few
lines the extractor moved past a marker are attributed one page late, which a
citation tolerates (the section it names is right).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

from curbside.errors import DocumentParseError

__all__ = [
    "Edition",
    "Layout",
    "Line",
    "TocEntry",
    "edition_label",
    "is_furniture",
    "iso_date",
    "page_markers",
    "read_layout",
]

_FURNITURE = re.compile(
    r"(?:Amd\d+Draft\d+|[A-Z][a-z]+\d{1,2},\d{4}\(effective[A-Z][a-z]+\d{1,2},\d{4}\))$"
)  # matched on the line with spaces removed: the extractor breaks words ('effec tive', 'Marc h')
_LABEL = re.compile(r"^(GP|SP|NI|A[A-Z]|[A-Z])([1-9]\d{0,2})$")
_TOC_ENTRY = re.compile(r"^(?P<title>.+?)\s*\.{2,}\s*(?P<label>(?:GP|SP|A[A-Z]|[A-Z])\d{1,3})$")
_TOC_PART = re.compile(r"^(?P<prefix>GP|SP|NI|A[A-Z]|[A-Z])\.\s+(?P<title>\S.*)$")
_TOC_LINE = re.compile(r"\.{4,}\s*(?:GP|SP|A[A-Z]|[A-Z])?\d{1,3}$")
_SPECIALTY = re.compile(r"\((\d{2})\)\s*$")
_EDITION = re.compile(
    r"^\(?(?P<published>[A-Z][a-z]+ \d{1,2}, \d{4}) \(effective (?P<effective>[A-Z][a-z]+ \d{1,2}, \d{4})\)"
)
_AMENDMENT = re.compile(r"^Amd (\d+)")
_MONTHS = {
    m: i
    for i, m in enumerate(
        "January February March April May June July August September October November December".split(), start=1
    )
}
_MIN_PAGES = 10  # fewer numbered pages: not a Schedule text (the 2025 file has 809 before its index)
_NEAR = 3  # furniture within this many lines of a label makes it a page marker


def edition_label(effective: str) -> str:
    """'OHIP Schedule of Benefits (effective 2025-03-03)': in every passage title and every answer."""
    return f"OHIP Schedule of Benefits (effective {effective})"


def is_furniture(text: str) -> bool:
    """The amendment line or an edition-date stamp, possibly glued to a heading."""
    return bool(_FURNITURE.search(text.replace(" ", ""))) if text else False


def iso_date(date: str) -> str:
    """'March 3, 2025' -> '2025-03-03'."""
    match = re.match(r"([A-Z][a-z]+) (\d{1,2}), (\d{4})", date)
    if match is None:
        raise DocumentParseError(f"Cannot read the date {date!r}: expected 'Month D, YYYY'.")
    month, day, year = match.groups()
    if month not in _MONTHS:
        raise DocumentParseError(f"Unknown month {month!r} in the edition date {date!r}.")
    return f"{year}-{_MONTHS[month]:02d}-{int(day):02d}"


@dataclass(frozen=True, slots=True)
class Edition:
    published: str  # YYYY-MM-DD, 'February 14, 2025'
    effective: str  # YYYY-MM-DD, 'March 3, 2025'
    amendment: str | None  # 'Amd 12 Draft 1'

    @property
    def label(self) -> str:
        return edition_label(self.effective)


@dataclass(frozen=True, slots=True)
class Line:
    no: int  # 1-based line number in the file
    text: str  # stripped
    page: str  # label of the page it is on, e.g. 'GP45'; '' before the first numbered page


@dataclass(frozen=True, slots=True)
class TocEntry:
    part: str  # 'A'
    part_title: str  # 'Consultations and Visits'
    title: str  # 'Anaesthesia (01)'
    first_page: str  # 'A72'
    specialty: str | None  # '01'

    @property
    def section_id(self) -> str:
        return f"{self.part}:{self.title}"


def _label_key(label: str) -> tuple[str, int] | None:
    match = _LABEL.match(label)
    return (match.group(1), int(match.group(2))) if match else None


@dataclass(slots=True)
class Layout:
    edition: Edition
    lines: list[Line]  # every line that is not page furniture or a page marker (blank lines kept, text '')
    pages: list[str]  # labels in file order
    toc: list[TocEntry]
    body_start: int  # index in ``lines`` after the tables of contents
    body_end: int  # index in ``lines`` where the Numeric Index starts (not parsed: an older edition's table)
    _sections: dict[str, TocEntry | None] = field(default_factory=dict, repr=False)

    def section_of(self, page: str) -> TocEntry | None:
        """The table-of-contents entry whose pages hold ``page``."""
        if page not in self._sections:
            self._sections[page] = self._find_section(page)
        return self._sections[page]

    def _find_section(self, page: str) -> TocEntry | None:
        key = _label_key(page)
        if key is None:
            return None
        found: tuple[int, TocEntry] | None = None
        for entry in self.toc:
            first = _label_key(entry.first_page)
            if (
                first is not None
                and first[0] == key[0]
                and first[1] <= key[1]
                and (found is None or found[0] <= first[1])
            ):
                found = (first[1], entry)
        return found[1] if found else None

    def part_title(self, prefix: str) -> str | None:
        return next((e.part_title for e in self.toc if e.part == prefix), None)


def read_layout(text: str, name: str = "the schedule") -> Layout:
    raw = text.split("\n")
    edition = _read_edition(raw, name)
    markers = page_markers(raw)
    if len(markers) < _MIN_PAGES:
        raise DocumentParseError(
            f"{name} has {len(markers)} page markers; a Schedule of Benefits text extraction has hundreds. "
            "Is it the text of the ministry's PDF?"
        )
    toc, toc_end = _read_toc(raw, name)
    marker_lines = [i for i, _ in markers]
    labels = [label for _, label in markers]
    furniture = {i for i, line in enumerate(raw) if is_furniture(line.strip())}
    skip = set(marker_lines) | furniture
    lines: list[Line] = []
    body_end = None
    for i, line in enumerate(raw):
        if i in skip:
            continue
        at = bisect_left(marker_lines, i)
        page = labels[at] if at < len(labels) else labels[-1]
        stripped = line.strip()
        if body_end is None and i > toc_end and re.match(r"^(Numeric Index|NUMERIC INDEX)", stripped):
            body_end = len(lines)
        lines.append(Line(i + 1, stripped, page))
    if body_end is None:
        raise DocumentParseError(
            f"{name} looks truncated: it has no Numeric Index after the schedule's last section. "
            "Extract the whole PDF again and load the complete text."
        )
    # the front matter (both tables of contents) sits before the first page's marker, so it reads as page 1
    first = labels[0]
    toc_lines = [n for n, line in enumerate(lines) if line.page == first and _TOC_LINE.search(line.text)]
    body_start = toc_lines[-1] + 1 if toc_lines else 0
    return Layout(edition, lines, labels, toc, body_start, body_end)


def _read_edition(raw: list[str], name: str) -> Edition:
    head = [line.strip() for line in raw[:40]]
    found = next((m for m in map(_EDITION.match, head) if m), None)
    if found is None:
        raise DocumentParseError(
            f"{name} does not start like the Schedule of Benefits: no '(Month D, YYYY (effective Month D, YYYY))' "
            "line in its first 40 lines."
        )
    amendment = next((line for line in head if _AMENDMENT.match(line)), None)
    return Edition(iso_date(found.group("published")), iso_date(found.group("effective")), amendment)


def page_markers(raw: list[str]) -> list[tuple[int, str]]:
    """(line index, label) of every page marker, in file order.

    A label must have furniture within three lines, and count up within its part;
    a new part's first label other than 1 needs both furniture lines around it (a fee code on a
    line of its own near one furniture line is not a page). Parts may skip pages,
    so a shortened copy of the file (tests) still reads.
    """
    furniture = [bool(_FURNITURE.search(line.replace(" ", ""))) if line.strip() else False for line in raw]
    amendment = [line.strip().startswith("Amd ") for line in raw]
    accepted: list[tuple[int, str]] = []
    last: dict[str, int] = {}
    current: str | None = None
    for i, line in enumerate(raw):
        key = _label_key(line.strip())
        if key is None:
            continue
        near = range(max(0, i - _NEAR), min(len(raw), i + _NEAR + 1))
        if not any(furniture[j] for j in near if j != i):
            continue
        prefix, number = key
        if prefix == current:
            if number <= last[prefix]:
                continue
        else:
            wide = range(max(0, i - 2 * _NEAR - 2), min(len(raw), i + 2 * _NEAR + 3))
            both = any(amendment[j] for j in wide) and any(furniture[j] and not amendment[j] for j in wide)
            if not (number == 1 or both) or number <= last.get(prefix, 0):
                continue
        if len(accepted) >= 2 and accepted[-2][1].rstrip("0123456789") == prefix != current:
            _, wrong = accepted.pop()  # parts do not interleave: the label between two of this part was a fee code
            wrong_prefix = wrong.rstrip("0123456789")
            earlier = [
                int(label[len(wrong_prefix) :]) for _, label in accepted if label.rstrip("0123456789") == wrong_prefix
            ]
            if earlier:
                last[wrong_prefix] = max(earlier)
            else:
                del last[wrong_prefix]
        accepted.append((i, line.strip()))
        last[prefix] = number
        current = prefix
    return accepted


def _read_toc(raw: list[str], name: str) -> tuple[list[TocEntry], int]:
    """The main table of contents, from 'GP. General Preamble' to 'NI. Numeric Index' (and the index of that line)."""
    entries: list[TocEntry] = []
    part = part_title = None
    for n, line in enumerate(raw[:2000]):
        text = line.strip()
        head = _TOC_PART.match(text)
        if head and ".." not in text:
            _close_part(entries, part, part_title)
            part, part_title = head.group("prefix"), head.group("title").strip()
            if part == "NI":
                return _toc_checked(entries, name), n
            continue
        entry = _TOC_ENTRY.match(text)
        if entry and part is not None and part_title is not None:
            title = re.sub(r"\s+", " ", entry.group("title")).strip()
            specialty = _SPECIALTY.search(title)
            label = entry.group("label")
            if label.startswith(part) and _label_key(label) and any(c.isalpha() for c in title):
                entries.append(TocEntry(part, part_title, title, label, specialty.group(1) if specialty else None))
    return _toc_checked(entries, name), min(len(raw), 2000)


def _close_part(entries: list[TocEntry], part: str | None, part_title: str | None) -> None:
    """A part the contents list without sections ('AF. Appendix F') is one section, named as the part, from its
    first page: its listings are read like any other (K053 'A Limitation to Participation Form', AF2)."""
    if part is None or part_title is None or part == "GP" or any(e.part == part for e in entries):
        return
    entries.append(TocEntry(part, part_title, part_title, f"{part}1", None))


def _toc_checked(entries: list[TocEntry], name: str) -> list[TocEntry]:
    if not entries:
        raise DocumentParseError(f"{name} has no table of contents ('GP. General Preamble' … 'NI. Numeric Index').")
    return entries
