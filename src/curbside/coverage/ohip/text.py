"""The Schedule's prose, cut where a billing clerk would cut it: section, heading, then rule blocks.

Each table-of-contents entry (``Hospital and Institutional Consultations and
Assessments``, ``Anaesthesia (01)``) holds headings — the General Preamble's
own table of contents names them (``Subsequent visit by the MRP - day of
discharge (C124)``, GP45); elsewhere an upper-case line or a line introducing
a ``Definition`` is one — and each heading holds blocks, typed by the label
that opens them in the Schedule: ``Payment rules:``, ``Note:``,
``[Commentary: …]`` (which may sit inside payment rules: the rules resume
after it), ``Claims submission instruction:``, ``Medical record
requirements:``, ``Definition…:``. Listing lines (codes, descriptions, fee
columns) are not prose: the listings take their place, read by ``listings``.

Page furniture and the running headers repeated at the top of every page
(``GENERAL PREAMBLE``, ``CONSULTATIONS AND VISITS``) are dropped.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from curbside.coverage.ohip.layout import Layout, Line, TocEntry
from curbside.coverage.ohip.listings import ADDS_TO_SEVERAL, COLUMN_WORDS, Listing

__all__ = ["BlockKind", "Heading", "Section", "TextBlock", "codes_in", "read_sections"]

BlockKind = Literal["text", "definition", "payment_rules", "note", "commentary", "claims", "medical_record", "listings"]

_CODE_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])([A-Z]\d{3})(?![0-9])")
_OPENERS: tuple[tuple[re.Pattern[str], BlockKind], ...] = (
    (re.compile(r"^Payment rules?\b", re.IGNORECASE), "payment_rules"),
    (re.compile(r"^Notes?\s*:|^Note\b", re.IGNORECASE), "note"),
    (re.compile(r"^\[Commentary", re.IGNORECASE), "commentary"),
    (re.compile(r"^Claims? submission instructions?", re.IGNORECASE), "claims"),
    (re.compile(r"^Medical record requirements?", re.IGNORECASE), "medical_record"),
    (re.compile(r"^Definitions?\b", re.IGNORECASE), "definition"),
)
_UPPER_HEADING = re.compile(r"^[A-Z0-9“\"(][A-Z0-9 ,&/()'’“”\"\-–.:]+$")
_LETTERED = re.compile(r"^[A-Z]\.\s+")  # 'B. Subsequent Visit'
_GP_LETTERED = re.compile(r"^[A-H]\.\s+[A-Z][a-z]")  # 'C. Subsequent visit by the Most Responsible Physician (MRP)'
_MAX_HEADING = 120


def codes_in(text: str) -> list[str]:
    """Fee codes named in a text, in order, once each."""
    return list(dict.fromkeys(_CODE_IN_TEXT.findall(text)))


def _norm(text: str) -> str:
    text = text.replace("\u00ad", "").replace("–", "-").replace("—", "-").lower()
    return " ".join(re.sub(r"[^a-z0-9()]+", " ", text).split())


@dataclass(slots=True)
class TextBlock:
    kind: BlockKind
    page: str
    lines: list[str] = field(default_factory=list)
    listings: list[Listing] = field(default_factory=list)

    @property
    def text(self) -> str:
        return _join(self.lines)


@dataclass(slots=True)
class Heading:
    title: str | None  # None: text before the section's first heading
    page: str
    blocks: list[TextBlock] = field(default_factory=list)

    @property
    def codes(self) -> list[str]:
        """Codes the heading names ('… day of discharge (C124)') and lists under it."""
        named = codes_in(self.title or "")
        listed = [x.code for b in self.blocks for x in b.listings]
        return list(dict.fromkeys([*named, *listed]))


@dataclass(slots=True)
class Section:
    entry: TocEntry
    first_page: str
    last_page: str
    headings: list[Heading] = field(default_factory=list)


def _join(lines: list[str]) -> str:
    """Lines of one block as text: a line ending in a hyphenated word joins the next without a space."""
    out = ""
    for line in lines:
        if not out:
            out = line
        elif out.endswith("-") and not out.endswith(" -") and line[:1].islower():
            out = out[:-1] + line
        else:
            out += " " + line
    return out


def _gp_titles(raw_lines: list[str]) -> set[str]:
    """The General Preamble's own table of contents: normalised heading titles."""
    titles: set[str] = set()
    start = next(
        (
            i
            for i in range(1, len(raw_lines))
            if raw_lines[i] == "GENERAL PREAMBLE" and raw_lines[i - 1] == "TABLE OF CONTENTS"
        ),
        None,
    )
    if start is None:
        return titles
    pending = ""
    for text in raw_lines[start + 1 : start + 600]:
        if not text or text in ("TABLE OF CONTENTS", "GENERAL PREAMBLE") or re.fullmatch(r"[ivx]+", text):
            continue
        entry = re.match(r"^(.*?)\s*\.{2,}\s*(\d+)$", text)
        if entry:
            titles.add(_norm(f"{pending} {entry.group(1)}"))
            pending = ""
        elif re.fullmatch(r"\d+", text) and pending:
            titles.add(_norm(pending.rstrip(" .")))
            pending = ""
        elif text in ("NOT ALLOCATED", "INTRODUCTION"):
            break
        else:
            pending = f"{pending} {text}".strip()
    titles.discard("")
    return titles


def _running_headers(layout: Layout, end: int) -> set[str]:
    """Upper-case lines repeated at the top of pages: page headers, not headings."""
    tops: Counter[str] = Counter()
    seen_on_page = 0
    page = None
    for line in layout.lines[layout.body_start : end]:
        if line.page != page:
            page, seen_on_page = line.page, 0
        if not line.text:
            continue
        seen_on_page += 1
        if seen_on_page <= 6 and _UPPER_HEADING.match(line.text) and any(c.isalpha() for c in line.text):
            tops[line.text] += 1
    return {text for text, n in tops.items() if n >= 3}


_TO_CODES = re.compile(r",?\s+to (?:either )?[A-Z]\d{3}\b.*$")  # an add-on's base codes: ', to A233 or A234'


def _defines(title: str | None, listing: Listing) -> bool:
    """Whether the heading is the listing's own service name, word for word (a definition heading)."""
    if not title:
        return False
    wanted = _name(title)
    # an add-on to several codes hangs under the heading over them, which names them all, not the add-on
    # ('Vertebral facet injections' over G910-G912 and 'G913 - each additional site, to G910, G911 or G912', J76);
    # the add-on's own name is still its definition's ('E424 - assessment of paediatric patient with amblyopia, to
    # A233 or A234' under 'Assessment of paediatric patient with amblyopia', A142)
    heading = None if ADDS_TO_SEVERAL.search(listing.description or "") else listing.heading
    own = _TO_CODES.sub("", listing.description or "")
    return any(wanted == _name(text) for text in (listing.description, own, heading) if text)


_DEFINITION_LABEL = re.compile(r"^Definitions?(?:/\s*Required elements of service)?\s*:\s*", re.IGNORECASE)
_DEFINING = re.compile(r"^(?:(?:an?|the)\s+)?(?P<subject>.{1,120}?)\s+(?:is|are)\s+(?:an?|the)\s", re.IGNORECASE)
_ASIDE = re.compile(r"\(([^)]*)\)")
_LINKING = frozenset({"a", "an", "the", "of", "for", "in", "to", "with", "and", "or", "by", "on"})


def _defines_one_service(heading: Heading) -> bool:
    """Whether the prose under ``heading``, before its first listing, opens by defining the heading's own term
    as one service: 'Re-assessment' / 'A re-assessment is an assessment rendered …' (A12), 'Focused practice
    assessment (FPA)' / 'FPA is an assessment …' (A7). Such a heading names that service, not the listings
    printed after its rules (H065 'Consultation in Emergency Medicine' and H105 'In-patient interim admission
    orders' follow the re-assessment's payment rules, A13); 'Psychotherapy' / 'Includes narcoanalysis …' (A19)
    or 'Primary mental health care' / '… is not to be billed …' (A17) govern what they head."""
    prose = next((b for b in heading.blocks if b.kind != "listings" and b.lines), None)
    if heading.title is None or prose is None or any(b.kind == "listings" for b in heading.blocks):
        return False
    match = _DEFINING.match(_DEFINITION_LABEL.sub("", prose.text))
    if match is None:
        return False
    subject = _words(match.group("subject"))
    term = _words(_ASIDE.sub(" ", heading.title))
    abbreviations = {w for aside in _ASIDE.findall(heading.title) for w in _words(aside)}
    return bool(subject) and (set(subject) <= set(term) or set(subject) <= abbreviations)


def _names(title: str, listing: Listing) -> bool:
    """Whether a listing names the service a heading defines: two of the heading's words in a row, its one
    word, or its abbreviation ('Sport medicine FPA' under 'Focused practice assessment (FPA)', A7; A680
    'Initial assessment – substance abuse' under 'Addiction medicine – initial assessment – substance abuse')."""
    term = _words(_ASIDE.sub(" ", title))
    abbreviations = {w for aside in _ASIDE.findall(title) for w in _words(aside)}
    text = f"{listing.heading or ''} {listing.description or ''}"
    words = _words(text)
    if abbreviations & set(words):
        return True
    if len(term) < 2:
        return bool(term) and term[0] in words
    pairs = set(zip(words, words[1:], strict=False))
    return any(pair in pairs for pair in zip(term, term[1:], strict=False))


def _words(text: str) -> list[str]:
    """Content words, lower case: 'A re-assessment of the patient' -> ['re', 'assessment', 'patient']."""
    return [w for w in re.findall(r"[a-z0-9]+", text.casefold()) if w not in _LINKING]


def _name(text: str) -> str:
    return " ".join(text.casefold().split()).rstrip(" .:")


def read_sections(layout: Layout, listings: list[Listing], used_lines: set[int]) -> list[Section]:
    """The body as sections → headings → blocks, listings in place of their listing lines."""
    end = layout.body_end
    headers = _running_headers(layout, end)
    gp_titles = _gp_titles([line.text for line in layout.lines[: layout.body_start]])
    at_line: dict[int, list[Listing]] = {}
    for listing in listings:
        at_line.setdefault(listing.line, []).append(listing)
    sections: list[Section] = []
    by_entry: dict[str, Section] = {}
    current: Section | None = None
    heading: Heading | None = None
    block: TextBlock | None = None
    resume: BlockKind | None = None  # the kind a commentary interrupted
    skip_next = previous_was_heading = False
    defined: set[int] = set()  # headings that turned out to define one listing, so govern no more
    one_service: set[int] = set()  # headings whose prose defines one service: they govern only listings naming it
    lines = layout.lines[layout.body_start : end]
    for n, line in enumerate(lines):
        entry = layout.section_of(line.page)
        if entry is None:
            continue  # front matter
        if current is None or current.entry is not entry:
            current = by_entry.get(entry.section_id)
            if current is None:
                current = Section(entry, line.page, line.page)
                by_entry[entry.section_id] = current
                sections.append(current)
            heading, block, resume = None, None, None
        current.last_page = line.page
        if line.no in at_line:
            if heading is None:
                heading = Heading(None, line.page)
                current.headings.append(heading)
            if block is None or block.kind != "listings":
                if _defines_one_service(heading):
                    one_service.add(id(heading))
                block = TextBlock("listings", line.page)
                heading.blocks.append(block)
            for listing in at_line[line.no]:
                governs = id(heading) not in defined and (
                    id(heading) not in one_service or _names(heading.title or "", listing)
                )
                if governs or (listing.description or "")[:1].islower():
                    listing.topic = heading.title  # a lower-case description continues the heading's phrase
                if _defines(heading.title, listing):
                    # a heading that names one service ("Special palliative care consultation" over A945) is that
                    # code's definition: it stops governing the listings after it (A905, A003, A007 …)
                    defined.add(id(heading))
            block.listings.extend(at_line[line.no])
            continue
        text = line.text
        if not text or line.no in used_lines or text in headers or text == "NOT ALLOCATED" or text in COLUMN_WORDS:
            continue
        if skip_next:
            skip_next = False
            continue
        joined = _two_line_title(text, lines, n, entry, gp_titles)
        if joined is not None or _is_heading(text, lines, n, entry, gp_titles, headers, used_lines):
            title = joined or text
            skip_next = joined is not None
            title = _LETTERED.sub("", title) if entry.part == "GP" else title
            upper = heading is not None and heading.title is not None and heading.title.isupper() and title.isupper()
            if heading is not None and not heading.blocks and upper and previous_was_heading:
                heading.title = f"{heading.title} {title}"  # an upper-case heading printed on two lines
            else:
                heading = Heading(title, line.page)
                current.headings.append(heading)
            block, resume = None, None
            previous_was_heading = True
            continue
        previous_was_heading = False
        if heading is None:
            heading = Heading(None, line.page)
            current.headings.append(heading)
        kind = next((k for pattern, k in _OPENERS if pattern.match(text)), None)
        if kind is not None:
            if kind == "commentary" and block is not None and block.kind not in ("commentary", "listings"):
                resume = block.kind
            block = TextBlock(kind, line.page, [text])
            heading.blocks.append(block)
        elif block is None or block.kind == "listings":
            block = TextBlock(resume or "text", line.page, [text])
            heading.blocks.append(block)
            resume = None
        else:
            block.lines.append(text)
        if block.kind == "commentary" and text.endswith("]"):
            block = None  # what follows the commentary continues the rules it interrupted (see ``resume``)
    return sections


def _two_line_title(text: str, lines: list[Line], n: int, entry: TocEntry, gp_titles: set[str]) -> str | None:
    """A General Preamble heading printed on two lines ('… admission assessment' / '(C123)')."""
    if entry.part != "GP" or n + 1 >= len(lines) or not lines[n + 1].text:
        return None
    both = f"{text} {lines[n + 1].text}"
    return both if _norm(_LETTERED.sub("", both)) in gp_titles else None


def _is_heading(
    text: str,
    lines: list[Line],
    n: int,
    entry: TocEntry,
    gp_titles: set[str],
    headers: set[str],
    used_lines: set[int],
) -> bool:
    if len(text) > _MAX_HEADING or text.endswith((".", ",", ";", "]")) or _CODE_IN_TEXT.match(text):
        return False
    if not (text[0].isupper() or text[0].isdigit() or text[0] in '(“"'):
        return False
    if entry.part == "GP" and (_norm(_LETTERED.sub("", text)) in gp_titles or _GP_LETTERED.match(text)):
        return True
    if _UPPER_HEADING.match(text) and sum(c.isalpha() for c in text) >= 4 and not text.startswith("["):
        return True
    following = next((line.text for line in lines[n + 1 : n + 4] if line.text), "")
    if following.startswith("Definition") and not text.endswith(":"):
        return True
    # a short title-case line after the end of a paragraph or at the top of a page: a sub-heading
    # ('Periodic health visit', 'Psychotherapy')
    previous = next(
        (
            line
            for line in reversed(lines[max(0, n - 8) : n])
            if line.text and line.text not in headers and line.text not in COLUMN_WORDS
        ),
        None,
    )
    new_page = previous is None or previous.page != lines[n].page
    # after a listing's last line (its fee, its leader) too: 'B. Point of care drug testing' after G029's 1.03 (J69)
    after_listing = previous is not None and previous.no in used_lines
    return (
        len(text) <= 70
        and text[0].isupper()
        and not text.endswith(":")
        and (new_page or after_listing or (previous is not None and previous.text.endswith((".", ":", "]"))))
        and len(following) > len(text)
        and not following[:1].islower()
    )
