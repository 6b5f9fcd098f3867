"""PDF via pypdf's text layer: pages are 1-based and every block carries its page.

Sections come from the PDF outline (bookmarks) when there is one: each page's text goes
to the outline entry covering it, and a page is split where an entry's title appears as
a line; an entry titled References or Bibliography is not indexed. Running headers/footers
and page-number lines are dropped, wrapped lines are re-flowed into paragraphs (bullet and
numbered lines are list items, "Label: value" lines labels, citation lines left out), and
pages without a text layer are reported (OCR'd only when tesseract and pdftoppm are
installed). What streams may inflate to is capped
(``_pdf_budget``): a page over the cap for one stream is skipped with a warning, a file
over the budget for all its pages is refused.
"""

from __future__ import annotations

import io
import logging
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pypdf import PdfReader
from pypdf.errors import LimitReachedError

from curbside.errors import EmptyDocumentError, FileTooLargeError
from curbside.kb.document import Block, BlockKind, LoadedDocument, Section
from curbside.kb.loaders import clean, clean_title, join_units, parse_error, readable_stem
from curbside.kb.loaders._limits import InflateLimits, size_text
from curbside.kb.loaders._pdf_budget import PageBudget, pypdf_limits
from curbside.kb.loaders._units import is_navigation_title, is_reference_title

_EDGE = 3  # lines at the top and bottom of a page that may be running headers/footers
_PAGE_NUMBER = re.compile(r"^(?:page\s*)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$|^[-–—]\s*\d{1,4}\s*[-–—]$", re.I)
_LEADER = re.compile(r"(?:\. ?){4,}")
_CLAUSE = re.compile(r"^\d{1,4}(?:\.\d{1,3})+\s+[A-Z]")
_SENTENCE_END = re.compile(r"[.!?:;]$")
_LETTER_ITEM = re.compile(r"^[a-z]{1,4}[.)]\s")  # "a. when an applicant …", "iv) …": a list item starts anew
# a point that ends an abbreviation within a sentence, not the sentence
_OPEN_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|vs|approx|incl|cf)\.|\(e\.g\.|\(i\.e\.)$", re.I)
_JUNK_TITLES = {"untitled", "title", "document", "microsoft word", "slide 1"}
_OCR_TIMEOUT = 120


def load(path: Path, data: bytes, limits: InflateLimits) -> LoadedDocument:
    with _quiet_pypdf(), pypdf_limits(limits):
        reader = _open(path, data, limits)
        texts, warnings = _page_texts(path, reader, PageBudget(path.name, limits, len(data)))
        outline = _outline(reader, len(texts))
        meta_title = _metadata_title(reader)
    pages = _strip_running_lines([_lines(t) for t in texts])
    width = _typical_width(pages)
    root = Section(title=None)
    for section, page, lines in _assign(root, outline, pages):
        section.blocks.extend(Block(text=t, page=page, kind=k) for t, k in _paragraphs(lines, width))
    _drop_reference_sections(root)
    title = meta_title or _first_line(pages) or readable_stem(path)
    return LoadedDocument(title=title, root=root, format="pdf", warnings=warnings, page_count=len(texts))


# ---------------------------------------------------------------- reading


@contextmanager
def _quiet_pypdf() -> Iterator[None]:
    """pypdf logs every repaired xref at WARNING; the user gets our message instead."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def _open(path: Path, data: bytes, limits: InflateLimits) -> PdfReader:
    try:
        reader = PdfReader(io.BytesIO(data))
    except LimitReachedError as exc:
        raise _too_large(path, exc, limits) from exc
    except Exception as exc:
        raise parse_error(path, f"is corrupt or truncated and cannot be read as a PDF ({_short(exc)})") from exc
    if reader.is_encrypted and not _opens_without_password(reader):
        raise parse_error(path, "is encrypted; remove the password and ingest again")
    try:
        count = len(reader.pages)
    except LimitReachedError as exc:
        raise _too_large(path, exc, limits) from exc
    except Exception as exc:
        raise parse_error(path, f"is corrupt or truncated: its page tree cannot be read ({_short(exc)})") from exc
    if count == 0:
        raise parse_error(path, "has no pages (corrupt or truncated?)")
    return reader


def _opens_without_password(reader: PdfReader) -> bool:
    """Many PDFs are 'encrypted' only against editing and open with an empty password."""
    try:
        return bool(reader.decrypt(""))
    except Exception:  # e.g. AES without the optional crypto package: treat as locked
        return False


def _page_texts(path: Path, reader: PdfReader, budget: PageBudget) -> tuple[list[str], list[str]]:
    texts: list[str] = []
    warnings: list[str] = []
    failures: list[tuple[bool, str]] = []  # (inflated past the cap?, why); no exceptions: their frames hold data
    over_limit: set[int] = set()  # pages not to OCR either: the renderer would inflate them too
    for number, page in enumerate(reader.pages, start=1):
        try:
            budget.before(page, number)
            text = page.extract_text() or ""
        except FileTooLargeError:
            raise
        except Exception as exc:
            failures.append((_inflates(exc), _page_failure(exc, budget)))
            if isinstance(exc, LimitReachedError):
                over_limit.add(number)
            text = ""
            warnings.append(f"page {number} could not be read ({failures[-1][1]}); its text is not indexed")
        budget.after(number)
        texts.append(text)
    if len(failures) == len(texts):
        if all(inflated for inflated, _ in failures):
            raise FileTooLargeError(
                f"{path.name}: every page's content inflates beyond the {size_text(budget.stream_limit)} limit "
                "for one stream; refused as a likely decompression bomb"
            )
        raise parse_error(path, f"is corrupt: no page could be read (page 1: {failures[0][1]})")
    blank = [n for n, text in enumerate(texts, start=1) if not text.strip() and n not in over_limit]
    ocr_ready = bool(blank) and bool(shutil.which("tesseract") and shutil.which("pdftoppm"))
    warnings.extend(_fill_blank_pages(path, texts, blank, ocr_ready))
    if not any(text.strip() for text in texts):
        fix = "OCR found no text either" if ocr_ready else "OCR it first (needs tesseract and pdftoppm)"
        raise EmptyDocumentError(
            f"{path.name} has no text layer on any of its {len(texts)} pages (a scanned PDF?); "
            f"{fix} or ingest a text version"
        )
    return texts, warnings


def _fill_blank_pages(path: Path, texts: list[str], blank: list[int], ocr_ready: bool) -> list[str]:
    """OCR pages without a text layer when the tools exist; otherwise say what is missing."""
    if not blank:
        return []
    missing = []
    for number in blank:
        text = _ocr_page(path, number) if ocr_ready else None
        if text and text.strip():
            texts[number - 1] = text
        else:
            missing.append(number)
    warnings = []
    recovered = sorted(set(blank) - set(missing))
    if recovered:
        warnings.append(
            f"{_pages_phrase(recovered)} had no text layer; text comes from OCR (tesseract) and may hold errors"
        )
    if missing:
        one = len(missing) == 1
        hint = "OCR needs tesseract and pdftoppm on PATH"
        if ocr_ready:
            hint = f"OCR found no text on {'it' if one else 'them'}"
        warnings.append(
            f"{_pages_phrase(missing)} {'has' if one else 'have'} no text layer "
            f"(scanned image{'' if one else 's'}?); {'its' if one else 'their'} text is not indexed ({hint})"
        )
    return warnings


def _ocr_page(path: Path, number: int) -> str | None:
    try:
        image = subprocess.run(
            ["pdftoppm", "-f", str(number), "-l", str(number), "-r", "300", "-png", str(path)],
            capture_output=True, check=True, timeout=_OCR_TIMEOUT,
        ).stdout  # fmt: skip
        result = subprocess.run(
            ["tesseract", "stdin", "stdout"], input=image, capture_output=True, check=True, timeout=_OCR_TIMEOUT
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.decode("utf-8", errors="replace")


def _outline(reader: PdfReader, page_count: int) -> list[tuple[int, str, int]]:
    """Outline entries as (depth, title, 0-based page) in outline order; [] if none or broken."""
    entries: list[tuple[int, str, int]] = []

    def walk(items: Sequence[Any], depth: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
                continue
            try:
                page = reader.get_destination_page_number(item)
            except Exception:
                continue
            title = clean_title(getattr(item, "title", None))
            if title and page is not None and 0 <= page < page_count:
                entries.append((depth, title, page))

    try:
        walk(reader.outline, 0)
    except Exception:
        return []
    return entries


def _metadata_title(reader: PdfReader) -> str | None:
    try:
        title = clean(reader.metadata.title if reader.metadata else None)
    except Exception:
        return None
    title = re.sub(r"^microsoft (word|powerpoint) - ", "", title, flags=re.I)
    if len(title) < 3 or title.casefold() in _JUNK_TITLES:
        return None
    if re.search(r"\.(docx?|pdf|rtf|txt|indd|pptx?|qxd)$", title, re.I):
        return None  # a file name, not a title
    return title


# ---------------------------------------------------------------- lines and paragraphs


def _lines(text: str) -> list[str]:
    # Dot leaders ("Scope ........ 12") carry nothing but noise for search.
    return [line for line in (clean(_LEADER.sub(" ", raw)) for raw in text.splitlines()) if line]


def _shape(line: str) -> str:
    """A line with its numbers masked, so 'Manual 7' and 'Manual 8' count as one header."""
    return re.sub(r"\d+", "#", line.casefold())


def _strip_running_lines(pages: list[list[str]]) -> list[list[str]]:
    """Drop headers/footers repeated on most pages, and bare page numbers at page edges."""
    counts: Counter[str] = Counter()
    for lines in pages:
        counts.update({_shape(line) for line in lines[:_EDGE] + lines[-_EDGE:]})
    with_text = sum(1 for lines in pages if lines)
    running = {s for s, c in counts.items() if with_text >= 4 and c >= max(3, with_text // 2)}
    out = []
    for lines in pages:
        kept = []
        for i, line in enumerate(lines):
            at_edge = i < _EDGE or i >= len(lines) - _EDGE
            if at_edge and (_shape(line) in running or _PAGE_NUMBER.match(line)):
                continue
            kept.append(line)
        out.append(kept)
    return out


def _typical_width(pages: list[list[str]]) -> int:
    """Length of a full line of body text (90th percentile), to tell wrapped lines from ends."""
    lengths = sorted(len(line) for lines in pages for line in lines)
    return lengths[int(0.9 * (len(lengths) - 1))] if lengths else 0


def _paragraphs(lines: list[str], width: int) -> list[tuple[str, BlockKind]]:
    """A line well short of the full width ends its paragraph (or is a heading by itself); a line ending in an
    abbreviation's point ("objective data (e.g.") or a full stop the next line continues in lower case does not."""
    groups: list[list[str]] = [[]]
    for n, line in enumerate(lines):
        if groups[-1] and _CLAUSE.match(line):
            groups.append([])  # "100.01 Intended audience": a numbered clause starts anew
        groups[-1].append(line)
        following = lines[n + 1] if n + 1 < len(lines) else ""
        if _OPEN_ABBREVIATION.search(line) or (
            line.endswith(".") and following[:1].islower() and not _LETTER_ITEM.match(following)
        ):
            continue
        short = len(line) < 0.7 * width
        if short or (_SENTENCE_END.search(line) and len(line) < 0.9 * width):
            groups.append([])
    return [block for group in groups for block in join_units(group)]


def _first_line(pages: list[list[str]]) -> str | None:
    for lines in pages:
        for line in lines:
            if sum(ch.isalpha() for ch in line) >= 3:
                return line
    return None


# ---------------------------------------------------------------- sections


def _assign(
    root: Section, outline: list[tuple[int, str, int]], pages: list[list[str]]
) -> Iterator[tuple[Section, int, list[str]]]:
    """Yield (section, page number, lines) runs: each run belongs to the outline entry open there."""
    starts: dict[int, list[tuple[Section, str]]] = {}
    stack: list[tuple[int, Section]] = [(-1, root)]
    for depth, title, page in outline:
        while stack[-1][0] >= depth:
            stack.pop()
        section = Section(title=title)
        stack[-1][1].children.append(section)
        stack.append((depth, section))
        starts.setdefault(page, []).append((section, _key(title)))

    current = root
    for index, lines in enumerate(pages):
        start = 0
        for section, key in starts.get(index, []):
            # Not found as a line: the entry starts where we are.
            found = _find_heading(lines, key, start) or (start, start)
            yield current, index + 1, lines[start : found[0]]
            current, start = section, found[1]
        yield current, index + 1, lines[start:]


def _drop_reference_sections(section: Section) -> None:
    """An outline entry titled References or Bibliography holds citations only, one titled Table of Contents
    section titles and page numbers only: neither is indexed."""
    section.children = [
        c for c in section.children if not (is_reference_title(c.title) or is_navigation_title(c.title))
    ]
    for child in section.children:
        _drop_reference_sections(child)


def _key(text: str) -> str:
    """Case- and space-blind (pypdf often splits or joins words), but punctuation counts."""
    return re.sub(r"\s+", "", text.casefold()).rstrip(":")


def _find_heading(lines: list[str], key: str, start: int) -> tuple[int, int] | None:
    """Where the outline title appears as whole line(s) (a title may wrap over up to 3)."""
    if not key:
        return None
    for i in range(start, len(lines)):
        acc = ""
        for j in range(i, min(i + 3, len(lines))):
            acc += _key(lines[j])
            if acc.rstrip(":") == key:
                return i, j + 1
            if not acc or not key.startswith(acc):
                break
    return None


def _pages_phrase(numbers: list[int]) -> str:
    """[3] -> 'page 3'; [2, 3, 4, 9] -> 'pages 2-4, 9'."""
    if len(numbers) == 1:
        return f"page {numbers[0]}"
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return "pages " + ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _inflates(exc: Exception) -> bool:
    return isinstance(exc, LimitReachedError) and "decompress" in str(exc).lower()


def _page_failure(exc: Exception, budget: PageBudget) -> str:
    if _inflates(exc):
        return f"a stream on it inflates beyond the {size_text(budget.stream_limit)} limit; a decompression bomb?"
    if isinstance(exc, LimitReachedError):
        return f"it is beyond a safety limit of the PDF reader: {_short(exc)}"
    return _short(exc)


def _too_large(path: Path, exc: LimitReachedError, limits: InflateLimits) -> FileTooLargeError:
    what = f"inflates beyond the {size_text(limits.pdf_max_stream_bytes)} limit for one stream"
    return FileTooLargeError(
        f"{path.name}: part of its structure {what if _inflates(exc) else 'exceeds a reader safety limit'} "
        f"({_short(exc)}); refused as a likely decompression bomb or a damaged file"
    )


def _short(exc: Exception) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__
