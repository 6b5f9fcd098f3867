"""The Schedule as searchable, citable passages, and the facts read back from them.

One document per table-of-contents entry (232 in the 2025 edition: the
General Preamble's chapters, each specialty's consultations and visits, each
procedure chapter), one section per heading, its title ending in its page
(``Subsequent visit by the MRP - day of discharge (C124) [GP45]``), so every
citation names section and page. Rule blocks keep the Schedule's words
(``Payment rules: 1.C124 is only payable …``); listing lines are written
clean, one per code, from the parsed listings::

    C124 Subsequent visits by the MRP - day of discharge: $61.15

so the conflict detector can read a passage's fees back (``facts_in``). A
listing whose fee could not be aligned says so and states no fee. The edition's
effective date is in every document title.
"""

from __future__ import annotations

import re

from curbside.coverage.ohip.listings import Listing
from curbside.coverage.ohip.parse import ParsedSchedule, listing_title
from curbside.coverage.passages import prepared_document, slug
from curbside.coverage.reader import PassageRow
from curbside.kb.document import Block, LoadedDocument, Section
from curbside.kb.ingest import PreparedDocument
from curbside.types import Passage

__all__ = [
    "section_named",
    "DOC_PREFIX",
    "NAMESPACE",
    "SOURCE_TYPE",
    "build_documents",
    "doc_key",
    "effective_from_title",
    "facts_in",
    "fee_words",
    "page_of",
    "short_label",
    "stored_passage",
]

NAMESPACE = "ohip"
SOURCE_TYPE = "fee_schedule"
DOC_PREFIX = "ohip-"


def stored_passage(row: PassageRow) -> Passage:
    """A stored Schedule passage (``OhipReader.source_chunks`` / ``passages_containing``) as a citable passage."""
    chunk_id, doc_key, title, section_path, text, version = row
    return Passage(
        chunk_id=chunk_id,
        doc_key=doc_key,
        title=title,
        section_path=section_path,
        text=text,
        version=version,
        score=0.0,
        namespace=NAMESPACE,
    )

_FACT = re.compile(r"(?m)^(?P<code>[A-Z]\d{3}) [^\n]*?: \$(?P<fee>\d+(?:\.\d{2}))(?: |$)")
_TITLE = re.compile(r"^OHIP Schedule (\d{4}-\d{2}-\d{2})")
_PAGE = re.compile(r"\[((?:GP|SP|A[A-Z]|[A-Z])\d{1,3})\]\s*$")


def doc_key(first_page: str, title: str) -> str:
    """'ohip-a72-anaesthesia-01': the section's first page keeps keys unique (several parts have a 'Preamble')."""
    return f"{DOC_PREFIX}{first_page.lower()}-{slug(title, 50)}"


def fee_words(listing: Listing) -> str:
    """The fee as a passage states it: '$61.15', 'H $29.90, P $13.25', 'add 30%', 'I.C. …'."""
    if listing.status == "percent" and listing.percent is not None:
        return f"add {listing.percent:g}%"
    if listing.status == "independent_consideration":
        return "I.C. (independent consideration)"
    if listing.status == "unknown":
        return "fee not aligned in the text extraction (see the printed page)"
    if listing.status == "no_fee":
        return listing.fee_text  # 'no fee of its own here: basic units for the assistant and anaesthetist only'
    if listing.components:
        return ", ".join(
            f"{name} ${value}" if re.match(r"^\d", value) else f"{name} {value}"
            for name, value in listing.components.items()
        )
    unit = f" {listing.unit}" if listing.unit and listing.unit.startswith("per") else ""
    return f"${listing.fee_text}{unit}" if re.match(r"^\d", listing.fee_text) else listing.fee_text


def listing_line(listing: Listing) -> str:
    prefix = f"{listing.prefix} " if listing.prefix == "#" else ""
    title = listing_title(listing)
    named = listing.code if title == listing.code else f"{listing.code} {title}"  # no description: the code once
    return f"{prefix}{named}: {fee_words(listing)}"


_SECTION_HEAD = re.compile(r"^OHIP Schedule \d{4}-\d{2}-\d{2}\s*—\s*[A-Z]{1,2}:\s*(?P<section>[^>\n]+?)\s*(?:>|$)")


def section_named(title_line: str) -> str | None:
    """The Schedule section a passage's title line names ('OHIP Schedule 2025-03-03 — A: Psychiatry (19) > …' ->
    'Psychiatry (19)'); None for a passage outside the sections (preamble, index)."""
    opened = _SECTION_HEAD.match(title_line)
    return opened["section"] if opened else None


def short_label(effective: str) -> str:
    """'OHIP Schedule 2025-03-03': the edition in every passage title, short (it prefixes every chunk)."""
    return f"OHIP Schedule {effective}"


def build_documents(parsed: ParsedSchedule) -> list[PreparedDocument]:
    docs: list[PreparedDocument] = []
    for section in parsed.sections:
        entry = section.entry
        root = Section(title=None)
        for heading in section.headings:
            blocks: list[Block] = []
            for block in heading.blocks:
                if block.kind == "listings":
                    blocks.append(Block("\n".join(listing_line(x) for x in block.listings)))
                elif block.text:
                    blocks.append(Block(block.text))
            if blocks:
                title = f"{heading.title or entry.title} [{heading.page}]"
                root.children.append(Section(title=title, blocks=blocks))
        if root.is_empty():
            continue
        title = f"{short_label(parsed.edition.effective)} — {entry.part}: {entry.title}"
        loaded = LoadedDocument(title=title, root=root, format="markdown")
        key = doc_key(section.first_page, entry.title)
        docs.append(prepared_document(key, loaded))
    return docs


def facts_in(text: str) -> dict[str, float]:
    """Code -> fee of every clean listing line of a passage that states a dollar fee."""
    return {m.group("code"): float(m.group("fee")) for m in _FACT.finditer(text)}


def effective_from_title(title: str) -> str | None:
    match = _TITLE.search(title)
    return match.group(1) if match else None


def page_of(section_path: str) -> str | None:
    """'GP45' from a section path ending in '… (C124) [GP45]'."""
    match = _PAGE.search(section_path)
    return match.group(1) if match else None
