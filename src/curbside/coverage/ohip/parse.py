"""Parse the Schedule of Benefits text file into editions, sections, codes, listings and rule blocks.

``layout`` finds the pages and the table of contents, ``listings`` reads the
fee codes with their fees (never guessing a fee it cannot align), ``text``
cuts the prose into headings and rule blocks. Everything is parsed before
anything is stored: a file that is not the Schedule, or is cut short, raises
``DocumentParseError`` and the caller keeps the edition it has.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from curbside.coverage.ohip.crossref import CrossCheck, check_fees
from curbside.coverage.ohip.layout import Edition, Layout, TocEntry, read_layout
from curbside.coverage.ohip.listings import Listing, ListingReport, read_listings
from curbside.coverage.ohip.numeric_index import read_index
from curbside.coverage.ohip.svp_tables import SvpCell, special_visit_cells
from curbside.coverage.ohip.text import BlockKind, Section, codes_in, read_sections
from curbside.errors import DocumentParseError

__all__ = [
    "CodeInfo",
    "ParseReport",
    "ParsedSchedule",
    "RuleBlock",
    "SectionShare",
    "parse_schedule",
    "parse_schedule_text",
]

_MIN_LISTINGS = 20  # a Schedule text with fewer fee listings is not one (the 2025 file has about 6,000)
RULE_KINDS: tuple[BlockKind, ...] = ("definition", "payment_rules", "note", "commentary", "claims", "medical_record")


@dataclass(frozen=True, slots=True)
class CodeInfo:
    code: str
    title: str  # 'Subsequent visit by the MRP - day of discharge'
    defined_on: str | None  # the General Preamble page whose heading names it ('GP45')


@dataclass(frozen=True, slots=True)
class RuleBlock:
    """A block of rules under a heading: what ``schedule.get`` reports as requirements, limits and commentary."""

    key: int
    section_key: int
    heading: str  # 'Subsequent visit by the MRP - day of discharge (C124)'
    kind: BlockKind
    page: str
    text: str
    subjects: tuple[str, ...]  # codes the heading names or lists before the block
    mentions: tuple[str, ...]  # codes the text names


@dataclass(frozen=True, slots=True)
class SectionShare:
    """One section's codes and how many of them have a fee there (each code counted once per section)."""

    section: str  # 'S. Digestive System — Oesophagus'
    codes: int
    codes_with_fee: int  # a fee read there, or none to read (I.C)
    codes_no_fee: int = 0  # ... of them I.C there: the text prints no fee (GP12)

    @property
    def share(self) -> float:
        return round(self.codes_with_fee / self.codes, 4) if self.codes else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "section": self.section,
            "codes": self.codes,
            "codes_with_fee": self.codes_with_fee,
            "codes_no_fee": self.codes_no_fee,
            "share": self.share,
        }


@dataclass(slots=True)
class ParseReport:
    """What the parse found; ``coverage load`` prints it."""

    pages: int
    sections: int
    codes_found: int  # distinct fee codes listed anywhere
    codes_with_fee: int  # ... with at least one listing whose fee (or I.C, premium %, no fee of its own) was read
    codes_fee_unknown: int  # ... whose every listing is 'fee unknown'
    listings: int  # code x section listings
    listings_with_fee: int
    listings_fee_unknown: int
    runs: int
    mismatched_runs: int  # runs the first reading left 'fee unknown' (the second reading may align them)
    unassigned_values: int
    rule_blocks: int
    realigned: int = 0  # listings the second reading (page by page, ``realign``) gave a fee
    runs_left_unknown: int = 0  # runs with a code still 'fee unknown' after both readings
    fees_cross_checked: int = 0  # listings whose fee the Schedule states again (Numeric Index) and that agree
    fee_disagreements: int = 0  # aligned fees the Schedule contradicts elsewhere (``crossref``): must be 0
    sections_by_share: list[SectionShare] = field(default_factory=list)  # lowest share first
    codes_fee_read: int = 0  # codes_with_fee with a fee read (dollars, nil, H/P, a premium's %) in some listing
    codes_no_fee: int = 0  # ... and those whose only reading is I.C or 'no_fee' (basic units only): the text truly
    # prints no fee for them
    # listings aligned only because the Schedule's cross-references (the Numeric Index, another listing of the
    # code) bear the pairing out: the cross-check of these is not independent of their reading
    listings_on_cross_references: int = 0
    codes_on_cross_references: int = 0  # codes with a fee only from such listings
    component_pairs: int = 0  # technical / professional component codes given their T or P column's value
    fees_checked_later_boxes: int = 0  # ... of fees_cross_checked: by the index's boxes after its first
    fees_withheld: int = 0  # readings the index contradicted, left 'fee unknown' (``ParsedSchedule.withheld``)

    @property
    def read_share(self) -> float:
        """Share of listed codes with a fee read (not I.C) in at least one section."""
        return round(self.codes_fee_read / self.codes_found, 4) if self.codes_found else 0.0

    @property
    def aligned_share(self) -> float:
        """Share of listed codes with an aligned fee in at least one section."""
        return round(self.codes_with_fee / self.codes_found, 4) if self.codes_found else 0.0

    @property
    def listing_share(self) -> float:
        return round(self.listings_with_fee / self.listings, 4) if self.listings else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "pages": self.pages,
            "sections": self.sections,
            "codes_found": self.codes_found,
            "codes_with_fee": self.codes_with_fee,
            "codes_fee_unknown": self.codes_fee_unknown,
            "codes_fee_read": self.codes_fee_read,
            "codes_no_fee": self.codes_no_fee,
            "aligned_share": self.aligned_share,
            "read_share": self.read_share,
            "listings": self.listings,
            "listings_with_fee": self.listings_with_fee,
            "listings_fee_unknown": self.listings_fee_unknown,
            "listing_share": self.listing_share,
            "runs": self.runs,
            "mismatched_runs": self.mismatched_runs,
            "unassigned_values": self.unassigned_values,
            "rule_blocks": self.rule_blocks,
            "realigned": self.realigned,
            "runs_left_unknown": self.runs_left_unknown,
            "fees_cross_checked": self.fees_cross_checked,
            "fee_disagreements": self.fee_disagreements,
            "listings_on_cross_references": self.listings_on_cross_references,
            "codes_on_cross_references": self.codes_on_cross_references,
            "component_pairs": self.component_pairs,
            "fees_checked_later_boxes": self.fees_checked_later_boxes,
            "fees_withheld": self.fees_withheld,
            "section_shares": [x.to_dict() for x in self.sections_by_share],
        }


@dataclass(slots=True)
class ParsedSchedule:
    edition: Edition
    sections: list[Section]
    listings: list[tuple[int, Listing]]  # (section key, listing)
    codes: dict[str, CodeInfo]
    rules: list[RuleBlock]
    report: ParseReport
    mismatches: list[str] = field(default_factory=list)  # runs the first reading could not align: why, where
    disagreements: list[str] = field(default_factory=list)  # fees the Schedule's cross-references contradict
    withheld: list[str] = field(default_factory=list)  # readings the index contradicted, left 'fee unknown'

    def counts(self) -> dict[str, int]:
        return {
            "codes": self.report.codes_found,
            "codes_with_fee": self.report.codes_with_fee,
            "codes_fee_unknown": self.report.codes_fee_unknown,
            "listings": self.report.listings,
            "sections": self.report.sections,
            "rule_blocks": self.report.rule_blocks,
        }


def parse_schedule(path: Path, *, on_bytes: Callable[[int], None] | None = None) -> ParsedSchedule:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentParseError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    if on_bytes is not None:
        on_bytes(len(data))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DocumentParseError(
            f"{path.name} is not UTF-8 text (byte {exc.start}): load the text extracted from the ministry's PDF."
        ) from exc
    return parse_schedule_text(text, path.name)


def parse_schedule_text(text: str, name: str = "the schedule") -> ParsedSchedule:
    if not text.strip():
        raise DocumentParseError(f"{name} is empty.")
    layout = read_layout(text, name)
    pages = read_listings(layout)
    if len(pages.listings) < _MIN_LISTINGS:
        raise DocumentParseError(
            f"{name} lists {len(pages.listings)} fee codes; the Schedule of Benefits lists thousands. "
            "Is it the text of the ministry's PDF?"
        )
    sections = read_sections(layout, pages.listings, pages.used_lines)
    keys = {id(s.entry): k for k, s in enumerate(sections, start=1)}
    listings: list[tuple[int, Listing]] = []
    for key, section in enumerate(sections, start=1):
        for heading in section.headings:
            for block in heading.blocks:
                listings.extend((key, x) for x in block.listings)
    listings = _label_special_visits(listings, special_visit_cells(text.split("\n")))
    rules = _rules(sections, keys)
    codes = _codes(sections, [x for _, x in listings])
    index = read_index(layout)
    cross = check_fees([x for _, x in listings], index)
    withheld = _withhold(listings, cross)
    if withheld:
        cross = check_fees([x for _, x in listings], index)
    return ParsedSchedule(
        layout.edition,
        sections,
        listings,
        codes,
        rules,
        _report(layout, sections, listings, pages.report, len(rules), cross, withheld),
        pages.report.mismatches,
        cross.disagreements,
        withheld,
    )


def _withhold(listings: list[tuple[int, Listing]], cross: CrossCheck) -> list[str]:
    """Readings the Schedule's Numeric Index contradicts become 'fee unknown': a fee the Schedule states
    otherwise is not given (V10: '8 · 1081.80 · 8' printed before '# S727 Ovarian debulking ……' '# E853 - with
    resection of diaphragm …… add' · 260.80 · 145.00 read S727 260.80, E090's fee; the index: S727 1081.80).
    Returns what was withheld, for the parse report."""
    out: list[str] = []
    for _, x in listings:
        fee = cross.contradicted.get(x.code)
        if fee is None or x.status != "aligned" or x.components or x.unit == "table" or x.fee == fee:
            continue
        out.append(f"{x.code} {x.fee_text} ({x.page} line {x.line}) | index: {fee:.2f}")
        x.reason = (
            f"withheld: read {x.fee_text}, but the Schedule's Numeric Index gives {fee:.2f} ({x.page} line {x.line})"
        )
        x.status, x.fee, x.fee_text, x.basis = "unknown", None, "fee unknown", None
    return out


def _label_special_visits(
    listings: list[tuple[int, Listing]], cells: dict[str, tuple[SvpCell, ...]]
) -> list[tuple[int, Listing]]:
    """A special visit premium's row and column in its table, added to its title: K960 to K964 are all
    'Special visit premium: Emergency Department' until 'Travel premium, Saturdays, Sundays and holidays
    (07:00-24:00)' tells K963 from the others (``svp_tables``)."""
    out: list[tuple[int, Listing]] = []
    for key, listing in listings:
        own = [c for c in cells.get(listing.code, ()) if c.page == listing.page]
        if own and listing.description.startswith("Special visit premium"):
            row = own[0].row
            columns = "; ".join(dict.fromkeys(c.column for c in own))
            where = f"{row}, {columns}" if row else columns
            # the table's own title: the listing reading can take the heading before a table whose body the
            # extraction printed ahead of its title (B986-B988 under "Other" instead of "Geriatric Home Visit")
            listing = replace(listing, description=f"Special visit premium: {own[0].table} — {where}")
        out.append((key, listing))
    return out


def _rules(sections: list[Section], keys: dict[int, int]) -> list[RuleBlock]:
    out: list[RuleBlock] = []
    for section in sections:
        for heading in section.headings:
            named = codes_in(heading.title or "")
            listed: list[str] = []  # the listings just before the block: the rules under them are theirs
            for block in heading.blocks:
                if block.kind == "listings":
                    listed = [x.code for x in block.listings]
                    continue
                if block.kind not in RULE_KINDS and not codes_in(block.text):
                    continue
                title = heading.title or section.entry.title
                out.append(
                    RuleBlock(
                        key=len(out) + 1,
                        section_key=keys[id(section.entry)],
                        heading=title,
                        kind=block.kind,
                        page=block.page,
                        text=block.text,
                        subjects=tuple(dict.fromkeys([*named, *listed, *ruled_codes(block.text)])),
                        mentions=tuple(codes_in(block.text)),
                    )
                )
    return out


_RULED = re.compile(
    r"(?:^|[:.]\s*|\d\.\s*)(?P<codes>[A-Z]\d{3}(?:(?:,\s*|\s+or\s+|\s+and\s+)[A-Z]\d{3})*)\s+(?:is|are)\b"
)


def ruled_codes(text: str) -> list[str]:
    """Codes a rule is about: the subject of its sentences ('2. C122, C123 are not eligible …' -> C122, C123)."""
    return list(dict.fromkeys(c for m in _RULED.finditer(text) for c in codes_in(m.group("codes"))))


_NAMED = re.compile(r"^(?P<title>.+?)\s*\((?P<code>[A-Z]\d{3})\)$")


def _codes(sections: list[Section], listings: list[Listing]) -> dict[str, CodeInfo]:
    """Each code's title: its General Preamble heading when one names it, else its first listing."""
    codes: dict[str, CodeInfo] = {}
    for section in sections:
        if section.entry.part != "GP":
            continue
        for heading in section.headings:
            match = _NAMED.match(heading.title or "")
            if match and match.group("code") not in codes:
                title = " ".join(match.group("title").replace("–", "-").split())
                codes[match.group("code")] = CodeInfo(match.group("code"), title, heading.page)
    # codes printed apart from a description come last, and so do descriptions that open with an aside: a
    # table's 'K189 (video' / 'only)' (A70) is not the code's name, its listing 'Urgent community psychiatric
    # follow-up …' (A174) is
    named = [x for x in listings if x.description and not x.description.startswith("(")]
    for listing in named + [x for x in listings if not x.description or x.description.startswith("(")]:
        if listing.code not in codes:
            codes[listing.code] = CodeInfo(listing.code, code_title(listing), None)
    return codes


def listing_title(listing: Listing) -> str:
    """'Subsequent visits by the MRP - day of discharge': the introducing line joined to a dash description
    ('Group psychotherapy, in-patients - per member - first 12 units per day - 6 to 12 people', K202)."""
    if listing.heading and listing.description.lower() != listing.heading.lower():
        return f"{listing.heading} - {listing.description}".strip(" -")
    # a dash description repeating its heading word for word ('Identification of patient for a major eye
    # examination' / 'E077 - identification of patient for a major eye examination …… add', A8) is said once
    return listing.heading or listing.description or listing.code


def code_title(listing: Listing) -> str:
    """A code's title from its listing, led by the sub-heading it sits under when that names the service.

    'Psychotherapy: Individual care' (K007, A20). A dash description's own introducing line is the heading
    that governs it: the sub-heading further up is then left out (K040 'Group counselling - 2 or more persons'
    is not 'Individual care', the sub-heading before it; C002 'Subsequent visits' not 'MAMRA', A9-A10). An
    upper-case section heading ('GENERAL LISTINGS') names a group of services, not this one, and is left out, as is
    any over an add-on to several codes that no heading governs ('E738 - with continent ileostomy, to either S168,
    S169, S170, S173 or S174' after 'Two-surgeon team' over S173 and S174, S20).
    """
    title = listing_title(listing)
    topic = listing.topic
    if (
        topic
        and listing.heading is None
        and not topic.isupper()
        and topic.lower() not in title.lower()
        and len(topic) <= 60
        and _governs(topic)
        and not listing.ungoverned
    ):
        return f"{topic}: {title}"
    return title


def _governs(topic: str) -> bool:
    """A sub-heading, not a fragment of a line ('Cerrobend)', C1) or a table's time column ('Monday to Friday -
    Daytime (08:00h to 17:00h)', the Emergency Department table over H101-H104, A12)."""
    if topic.count("(") != topic.count(")") or not topic[:1].isupper():
        return False
    return not re.search(r"\d{2}:\d{2}h", topic)


def _report(
    layout: Layout,
    sections: list[Section],
    keyed: list[tuple[int, Listing]],
    runs: ListingReport,
    rule_blocks: int,
    cross: CrossCheck,
    withheld: list[str],
) -> ParseReport:
    listings = [x for _, x in keyed]
    known = {x.code for x in listings if x.status != "unknown"}
    read = {x.code for x in listings if x.status in ("aligned", "percent")}
    found = {x.code for x in listings}
    with_fee = sum(x.status != "unknown" for x in listings)
    structural = {x.code for x in listings if x.status != "unknown" and x.basis is None}
    return ParseReport(
        pages=len([p for p in layout.pages if not p.startswith("NI")]),
        sections=len(sections),
        codes_found=len(found),
        codes_with_fee=len(known),
        codes_fee_unknown=len(found - known),
        listings=len(listings),
        listings_with_fee=with_fee,
        listings_fee_unknown=len(listings) - with_fee,
        runs=runs.runs,
        mismatched_runs=runs.mismatched_runs,
        unassigned_values=runs.unassigned_values,
        rule_blocks=rule_blocks,
        realigned=runs.realigned + runs.realigned_verified + runs.two_column_pairs,
        runs_left_unknown=len(runs.mismatches),
        fees_cross_checked=cross.checked,
        fee_disagreements=cross.disagreement_count,
        sections_by_share=_section_shares(sections, keyed),
        codes_fee_read=len(read),
        codes_no_fee=len(known - read),
        listings_on_cross_references=sum(x.status != "unknown" and x.basis is not None for x in listings),
        codes_on_cross_references=len(known - structural),
        component_pairs=runs.component_pairs,
        fees_checked_later_boxes=cross.checked_later_boxes,
        fees_withheld=len(withheld),
    )


def _section_shares(sections: list[Section], keyed: list[tuple[int, Listing]]) -> list[SectionShare]:
    """Each section's share of codes with a fee there, lowest first (sections listing no code left out)."""
    listed: dict[int, set[str]] = {}
    priced: dict[int, set[str]] = {}
    read: dict[int, set[str]] = {}
    for key, x in keyed:
        listed.setdefault(key, set()).add(x.code)
        if x.status != "unknown":
            priced.setdefault(key, set()).add(x.code)
        if x.status in ("aligned", "percent"):
            read.setdefault(key, set()).add(x.code)
    shares = [
        SectionShare(
            section_label(sections[key - 1].entry),
            len(codes),
            len(priced.get(key, set())),
            len(priced.get(key, set()) - read.get(key, set())),
        )
        for key, codes in listed.items()
    ]
    return sorted(shares, key=lambda x: (x.share, -x.codes, x.section))


def section_label(entry: TocEntry) -> str:
    """'A. Consultations and Visits — Anaesthesia (01)'."""
    return f"{entry.part}. {entry.part_title} — {entry.title}"
