"""Read an ADP manual (PDF) into numbered sections and paragraphs, each with its pages.

The manuals are Word documents printed to PDF with a bookmark outline: parts
("Part 3: Clients"), policies ("305 Funding Available to Clients") and, now and
then, a numbered sub-entry ("1100.01"). The outline is the authority for
section ids, titles and start pages; each section's text runs from its heading
line to the next entry's heading. Inside a section, numbered paragraphs
("305.00", "305.01" …) start new paragraphs. Running headers ("<manual title>
<page>" / "July 2023") and part divider pages are dropped.

A file that cannot be read completely — not a PDF, truncated, a page whose text
cannot be extracted, no outline — raises ``DocumentParseError``: a manual
is loaded whole or not at all.
"""

from __future__ import annotations

import io
import logging
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pypdf import PdfReader

from curbside.errors import DocumentParseError

__all__ = [
    "CORE_KEY",
    "PARSER_VERSION",
    "ManualSection",
    "Paragraph",
    "ParsedManual",
    "manual_key",
    "normalize",
    "parse_manual",
]

# bump when parsing changes what is stored (2: a part's introduction is read): the next load re-writes the tables
PARSER_VERSION = "2"
CORE_TITLE = "Policies and Procedures Manual for the Assistive Devices Program"
CORE_KEY = "core"
_MONTHS = (
    "January February March April May June July August September October November December".split()  # noqa: SIM905
)
_EDITION = re.compile(rf"^({'|'.join(_MONTHS)})\s+(\d{{4}})$")
_PART = re.compile(r"^Part\s+(\d+):\s*(.+)$")
_SECTION = re.compile(r"^(\d{3,4}(?:\.\d{2})?)\s+(.+)$")
_APPENDIX = re.compile(r"^Appendix\s+([A-Z])\b:?\s*(.*)$")
_SKIPPED_ENTRIES = ("table of contents", "table of amendments")
_SUBHEADINGS = {"policy", "procedure", "procedures"}
_LIST_ITEM = re.compile(r"^(?:[•o▪-]\s|\d{1,2}\.\s|[a-z]\.\s|[ivx]{1,4}\.\s)")
_TAIL_BYTES = 2048


def normalize(text: str) -> str:
    """One line, single spaces, straight quotes: how rule quotes are compared with the manual."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    text = text.replace("\u00a0", " ").replace("\u2011", "-")
    return " ".join(text.split())


def manual_key(title: str) -> str:
    """'core' for the ADP Manual; a Policy and Administration Manual by its category, e.g. 'mobility-devices'."""
    if normalize(title).casefold() == CORE_TITLE.casefold():
        return CORE_KEY
    match = re.match(r"^(.+?)\s+Policy and Administration Manual$", normalize(title), re.IGNORECASE)
    if match is None:
        raise DocumentParseError(
            f"{title!r} is neither the ADP Manual ({CORE_TITLE!r}) nor a '<category> Policy and Administration "
            "Manual'; only the Assistive Devices Program's manuals can be loaded as ADP data."
        )
    return re.sub(r"[^a-z0-9]+", "-", match.group(1).lower()).strip("-")


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A numbered paragraph ('305.01'), or a section's text before its first numbered one (id '305')."""

    paragraph_id: str
    page: int
    page_end: int
    lines: tuple[tuple[int, str], ...]  # (page, line) as extracted, running headers removed

    @property
    def text(self) -> str:
        """Lines re-flowed: one line per list item, otherwise joined with spaces."""
        out: list[str] = []
        for _, line in self.lines:
            if out and not _LIST_ITEM.match(line):
                out[-1] = f"{out[-1]} {line}"
            else:
                out.append(line)
        return "\n".join(" ".join(part.split()) for part in out)

    def pieces_by_page(self) -> list[tuple[int, str]]:
        """The text split where the page turns, so a passage block carries its own page."""
        pieces: list[tuple[int, list[tuple[int, str]]]] = []
        for page, line in self.lines:
            if not pieces or pieces[-1][0] != page:
                pieces.append((page, []))
            pieces[-1][1].append((page, line))
        return [(page, Paragraph(self.paragraph_id, page, page, tuple(lines)).text) for page, lines in pieces]


@dataclass(slots=True)
class ManualSection:
    """One outline entry with an id: a policy ('305'), a numbered sub-entry ('1100.01'), an appendix, or a part's
    introduction ('Part 4', the text between the part's heading and its first policy)."""

    section_id: str
    title: str
    part: str  # 'Part 3: Clients'; '' before the first part
    page: int
    page_end: int
    paragraphs: list[Paragraph] = field(default_factory=list)

    @property
    def introduces_part(self) -> bool:
        return self.section_id.startswith("Part ")

    @property
    def heading(self) -> str:
        return f"{self.section_id} {self.title}" if self.section_id[0].isdigit() else f"{self.section_id}: {self.title}"


@dataclass(slots=True)
class ParsedManual:
    key: str  # 'core', 'mobility-devices'
    title: str  # as in the running header
    edition: str  # 'July 2023', as printed on every page
    edition_date: str  # '2023-07'
    page_count: int
    sections: list[ManualSection]
    warnings: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.title} ({self.edition})"

    def section(self, section_id: str) -> ManualSection | None:
        """The section with this id, or the one holding the numbered paragraph ('305.01' -> 305)."""
        for section in self.sections:
            if section.section_id == section_id or any(p.paragraph_id == section_id for p in section.paragraphs):
                return section
        return None

    def paragraph(self, paragraph_id: str) -> Paragraph | None:
        for section in self.sections:
            for paragraph in section.paragraphs:
                if paragraph.paragraph_id == paragraph_id:
                    return paragraph
        return None

    def text_of(self, section_id: str) -> str:
        """Normalised text of a numbered paragraph, or of a whole section (all its paragraphs)."""
        paragraph = self.paragraph(section_id)
        if paragraph is not None:
            return normalize(paragraph.text)
        section = next((s for s in self.sections if s.section_id == section_id), None)
        if section is None:
            return ""
        return normalize(" ".join(p.text for p in section.paragraphs))

    def counts(self) -> dict[str, int]:
        return {
            "pages": self.page_count,
            "sections": len(self.sections),
            "paragraphs": sum(len(s.paragraphs) for s in self.sections),
        }


@contextmanager
def _quiet_pypdf() -> Iterator[None]:
    """pypdf logs repaired cross-reference tables at WARNING; the load report says what matters."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def _fail(name: str, problem: str) -> DocumentParseError:
    return DocumentParseError(f"{name} {problem}; the ADP data was not changed. Download the manual again.")


def parse_manual(path: Path, data: bytes | None = None) -> ParsedManual:
    """Parse one manual completely, or raise ``DocumentParseError`` saying what is wrong with the file.

    The same bytes are parsed once per process (a reload of unchanged files, ~2 s a manual, is then free);
    treat the result as read-only.
    """
    return _parse(path.name, path.read_bytes() if data is None else data)


@lru_cache(maxsize=4)
def _parse(name: str, data: bytes) -> ParsedManual:
    if not data.startswith(b"%PDF-"):
        raise _fail(name, "is not a PDF (it does not start with '%PDF-')")
    if b"%%EOF" not in data[-_TAIL_BYTES:]:
        raise _fail(name, "looks truncated: it does not end with the PDF end-of-file marker")
    with _quiet_pypdf():
        try:
            reader = PdfReader(io.BytesIO(data))
            page_count = len(reader.pages)
            texts = [page.extract_text() or "" for page in reader.pages]
            outline = _outline(reader)
        except Exception as exc:  # noqa: BLE001 - pypdf raises many types for a damaged file
            raise _fail(name, f"cannot be read as a PDF ({type(exc).__name__}: {exc})") from exc
    if not outline:
        raise _fail(name, "has no bookmark outline, so its sections cannot be told apart (is it an ADP manual?)")
    pages = [[line.strip() for line in text.splitlines() if line.strip()] for text in texts]
    title, edition = _running_header(name, pages)
    key = manual_key(title)
    month, year = _EDITION.match(edition).groups()  # type: ignore[union-attr]  # checked by _running_header
    body = [_strip_header(lines, title, edition) for lines in pages]
    sections, warnings = _sections(name, outline, body)
    if len([s for s in sections if s.section_id[0].isdigit()]) < 5:
        raise _fail(name, "has fewer than 5 numbered sections in its outline; it is not a complete ADP manual")
    return ParsedManual(
        key=key,
        title=title,
        edition=edition,
        edition_date=f"{year}-{_MONTHS.index(month) + 1:02d}",
        page_count=page_count,
        sections=sections,
        warnings=warnings,
    )


def _outline(reader: PdfReader) -> list[tuple[str, int]]:
    """(title, 1-based page) of every outline entry, in outline order."""
    entries: list[tuple[str, int]] = []

    def walk(items: list[object]) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
                continue
            page = reader.get_destination_page_number(item)  # type: ignore[arg-type]
            title = normalize(str(item.title))  # type: ignore[attr-defined]
            if title and page is not None and page >= 0:
                entries.append((title, page + 1))

    walk(reader.outline)  # type: ignore[arg-type]
    return entries


def _running_header(name: str, pages: list[list[str]]) -> tuple[str, str]:
    """(manual title, edition) from the header most pages print: '<title> <page>' then 'July 2023'."""
    titles: Counter[str] = Counter()
    editions: Counter[str] = Counter()
    for number, lines in enumerate(pages, start=1):
        if len(lines) >= 2 and re.search(rf"\s{number}$", lines[0]) and _EDITION.match(lines[1]):
            titles[normalize(lines[0][: -len(str(number))])] += 1
            editions[normalize(lines[1])] += 1
    if not titles or titles.most_common(1)[0][1] < len(pages) // 2:
        raise _fail(name, "has no running header ('<manual title> <page>' / '<Month> <year>') on most pages")
    return titles.most_common(1)[0][0], editions.most_common(1)[0][0]


def _strip_header(lines: list[str], title: str, edition: str) -> list[str]:
    if len(lines) >= 2 and normalize(lines[0]).startswith(title) and normalize(lines[1]) == edition:
        lines = lines[2:]
    # a part divider page: the part's name and its number only ('Clients' / '3')
    if len(lines) <= 4 and lines and re.fullmatch(r"\d{1,2}|[A-Z]", lines[-1]) and all(len(x) < 40 for x in lines):
        return []
    return lines


@dataclass(frozen=True, slots=True)
class _Entry:
    kind: str  # part | section
    entry_id: str
    title: str
    page: int
    full: str  # the heading as the outline writes it


def _entries(outline: list[tuple[str, int]]) -> list[_Entry]:
    out: list[_Entry] = []
    for title, page in outline:
        if title.casefold() in _SKIPPED_ENTRIES:
            continue
        if match := _PART.match(title):
            out.append(_Entry("part", match.group(1), match.group(2), page, title))
        elif match := _SECTION.match(title):
            out.append(_Entry("section", match.group(1), match.group(2), page, title))
        elif match := _APPENDIX.match(title):
            out.append(_Entry("section", f"Appendix {match.group(1)}", match.group(2) or "Appendix", page, title))
    return out


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", normalize(text)).casefold()


def _find_heading(lines: list[str], start: int, heading: str) -> tuple[int, int] | None:
    """(first line, line after) of ``heading`` in ``lines`` from ``start``; a title may wrap over lines."""
    target = _squeeze(heading)
    for i in range(start, len(lines)):
        seen = _squeeze(lines[i])
        if not seen or not target.startswith(seen[: max(len(target) // 2, 1)]) or not target.startswith(seen):
            continue
        j = i + 1
        while seen != target and j < len(lines) and target.startswith(seen + _squeeze(lines[j])):
            seen += _squeeze(lines[j])
            j += 1
        if seen == target or len(seen) >= len(target) * 0.6:
            return i, j
    return None


def _sections(
    name: str, outline: list[tuple[str, int]], body: list[list[str]]
) -> tuple[list[ManualSection], list[str]]:
    entries = _entries(outline)
    if not entries or not any(e.kind == "part" for e in entries):
        raise _fail(name, "has no 'Part N:' entries in its outline; it is not laid out as an ADP manual")
    first_page = min(e.page for e in entries if e.kind == "part")
    # where each entry's heading starts: (page, line index, line after the heading)
    positions: list[tuple[int, int, int]] = []
    warnings: list[str] = []
    cursor = (first_page, 0)
    for entry in entries:
        page, line = cursor if entry.page == cursor[0] else (entry.page, 0)
        if entry.page < cursor[0]:
            raise _fail(name, f"has an outline out of page order at {entry.full!r}")
        found = _find_heading(body[page - 1], line, entry.full)
        if found is None:
            warnings.append(f"heading {entry.full!r} not found on page {page}; its text starts at the page top")
            found = (line, line)
        positions.append((page, found[0], found[1]))
        cursor = (page, found[1])

    sections: list[ManualSection] = []
    part = ""
    for n, entry in enumerate(entries):
        if entry.kind == "part":
            part = entry.full
        page, _, after = positions[n]
        end_page, end_line = (positions[n + 1][0], positions[n + 1][1]) if n + 1 < len(entries) else (len(body), None)
        lines: list[tuple[int, str]] = []
        for p in range(page, end_page + 1):
            chunk = body[p - 1]
            lo = after if p == page else 0
            hi = end_line if (p == end_page and end_line is not None) else len(chunk)
            lines.extend((p, line) for line in chunk[lo:hi])
        if entry.kind == "part":
            # a part's own introduction, before its first policy (Mobility Part 4: 'the Authorizer must provide
            # the medical diagnosis … and avoid including a list of symptoms'), is policy too
            if lines:
                intro = ManualSection(f"Part {entry.entry_id}", entry.title, part, page, max(p for p, _ in lines))
                intro.paragraphs = [Paragraph(intro.section_id, lines[0][0], lines[-1][0], tuple(lines))]
                sections.append(intro)
            continue
        section = ManualSection(entry.entry_id, entry.title, part, page, max([page, *(p for p, _ in lines)]))
        section.paragraphs = _paragraphs(entry.entry_id, page, lines)
        sections.append(section)
    return sections, warnings


def _rejoin_numbers(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The text layer sometimes splits a paragraph number: '8 10.03', or '8' then '10.03', for 810.03."""
    out: list[tuple[int, str]] = []
    for page, line in lines:
        if out and re.fullmatch(r"\d", out[-1][1]) and re.match(r"\d{2,3}\.\d{2}\b", line):
            digit = out.pop()[1]
            line = digit + line
        out.append((page, re.sub(r"^(\d) (\d{2,3}\.\d{2})\b", r"\1\2", line)))
    return out


def _paragraphs(section_id: str, page: int, lines: list[tuple[int, str]]) -> list[Paragraph]:
    """Split at numbered paragraphs of this section ('305.00 …'), in increasing order."""
    numbered = re.compile(rf"^({re.escape(section_id)}\.\d{{2}})(?:\s+|$)(.*)$") if section_id[0].isdigit() else None
    current_id, current = section_id, list[tuple[int, str]]()
    out: list[Paragraph] = []
    last = ""

    def close() -> None:
        if current:
            out.append(Paragraph(current_id, current[0][0], current[-1][0], tuple(current)))

    for p, line in _rejoin_numbers(lines) if numbered else lines:
        match = numbered.match(line) if numbered else None
        if match and match.group(1) > last:
            close()
            current_id, current, last = match.group(1), [], match.group(1)
            rest = match.group(2).strip()
            if rest:
                current.append((p, rest))
            continue
        if line.casefold() in _SUBHEADINGS:
            continue
        current.append((p, line))
    close()
    return out
