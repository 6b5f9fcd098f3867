"""Fee codes and their fees, read from the listing pages of the Schedule of Benefits text.

No fee sits on its code's line. The PDF extraction writes a page's text boxes
one after the other, so a listing looks like this (Anaesthesia (01), A74)::

    C012 - first five weeks...................................... per visit
    C017 - sixth to thirteenth week inclusive (maximum 3 per patient
    per week)..................................................... per visit
    C019 - after thirteenth week ............................... per visit
    Subsequent visits by the Most Responsible Physician (MRP)
    See General Preamble GP44 to GP45 for terms and conditions.
    C122 - day following the hospital admission assessment..............
    C123 - second day following the hospital assessment ..................
    C124 - day of discharge .................................................

    31.00
    31.00
    31.00

    61.15
    61.15
    61.15

A *run* is the codes written before a column of values and that column (or
columns: H/P components, surgeon fee then assistant and anaesthetist units).
Its codes take its values in order only when the counts agree; a run whose
counts disagree (a fee the extractor moved to another page, codes written in
a box apart from their descriptions) leaves every one of its codes "fee
unknown" — the parser never guesses which code lost its fee. Column values are
typed: dollars (``61.15``), ``I.C`` (independent consideration), ``nil``, and
basic units (``6``, surgical pages); a premium's percentage sits on its own
line (``…… add 30%``) and needs no column. Premium tables (special visit,
after hours) write ``$36.40`` right above their code, one cell per time period;
a code's cells give its fee when they agree. Only a page that prints the
table's title, or the page after it, is read so: elsewhere a ``$`` amount over
a code is the last cell of the row above (A70's virtual care premiums print
E080's ``$25.25`` right before ``E088``).

After this first reading, ``realign`` reads the codes left 'fee unknown' page by
page (fee boxes printed before their codes, or after the page marker, or in the
order of codes further down), first where the page's structure alone decides,
then where the Schedule's cross-references bear a pairing out. On pages with H
(or T) and P columns, codes each followed by one value and then a box of as many
values have H inline and P in the box (``_two_column_pages``); one value per code
with values left over around it may be H or P and is left 'fee unknown'.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from curbside.coverage.ohip.layout import Layout, Line
from curbside.coverage.ohip.numeric_index import Stated, anchored_fees, leading_fees, read_index
from curbside.coverage.ohip.realign import Token, realign, realign_verified

__all__ = ["ADDS_TO_SEVERAL", "FeeStatus", "Listing", "ListingPages", "ListingReport", "read_listings"]

# no_fee: the text lists the code here with no fee of its own to read (a table naming codes, basic units only)
FeeStatus = Literal["aligned", "independent_consideration", "percent", "no_fee", "unknown"]
ValueKind = Literal["money", "ic", "nil", "units", "percent"]

# A role or modality letter is part of the code where a description follows it on its line: 'E401B Nights …
# increase the total assistant's fee by' (GP87), 'K300A – identifies Video technology …' (A65). Alone on its
# line ('E021C', a unit table's row, GP93) it stays text: such rows carry no fee of their own.
CODE = re.compile(
    r"^(?P<hash>[#+]\s*)?(?P<code>[A-Z]\d{3}|[A-Z]\d{3}[A-C](?=\s+[^\s.…]))(?![\w,])(?P<rest>.*)$"
)
_PROSE_AFTER_CODE = re.compile(
    r"^\s*(?:,|/|and\b|or\b|is\b|are\b|may\b|must\b|should\b|does\b|do\b|has\b|have\b|can\b|cannot\b|shall\b|"
    r"will\b|was\b|were\b|appl\w*\b|includ\w*\b|when\b|not\b|to\b|only\b|in\b|with\b|for\b|payable\b|paid\b|"
    r"claimed\b|billed\b|rendered\b|plus\b|also\b|which\b|codes?\b|service\b|premium\b|\(see\b|"
    r"\.(?:\s|$)|\)|\([a-z][^)]*\)(?:,|\s+(?:or|and|is|are)\b))(?!-)",
)
# Prose words are matched in lower case only: 'C101 For each patient seen on a visit to ICU …… ' (GP103) is a
# listing. A word joined by a hyphen starts a description: '# P058 In-utero ligation …' (K11). A sentence goes
# on after a code: 'W121. When acute …' (GP49), 'A252.' (A146), '(X152/' / 'X153) or normal …' (D17), 'S120
# (gastric bypass or partition), S189 …' (SP7), 'G811 (keratometry) or G810 …' (J93).
# a leader of dots before its tail; two dots before 'add' (E077 'major eye examination.. add', A8)
_LEADER = re.compile(
    r"(?:\.{3,}|…|\.\.(?=\s*(?:add|per)\b))\s*(?P<tail>(?:add|per\s+\w+(?:\s+\w+)?|each)?\s*(?:(?P<pct>\d+(?:\.\d+)?)\s*%)?\.?)\s*$",
    re.IGNORECASE,
)
_PERCENT_TAIL = re.compile(r"\badd\s+(?P<pct>\d+(?:\.\d+)?)\s*%\.?$", re.IGNORECASE)
_MONEY = re.compile(r"^\d{1,4}(?:,\d{3})*\.\d{2}$")
_PREMIUM_TABLE = re.compile(r"^(?P<kind>SPECIAL VISIT PREMIUM|AFTER HOURS PREMIUM) TABLE\b", re.IGNORECASE)
_UNFINISHED = re.compile(r"\s(?:and|or|of|for|with|to|the|a|an|in|by|on|including)$")  # a line ending mid-phrase
_CELL = re.compile(r"^\$(\d{1,4}(?:,\d{3})*\.\d{2})$")
_CELL_CODE = re.compile(r"^(?P<code>[A-Z]\d{3})[A-C]?(?:\s|$)")
_IC = re.compile(r"^I\.?\s?C\.?$")
_UNITS = re.compile(r"^\d{1,3}$")
_PERCENT = re.compile(r"^(?P<pct>\d{1,3}(?:\.\d+)?)%$")  # a premium's column: E412 … by …… / E413 … / 20% / 40%
_COLUMN_HEADS = {"H", "P", "T", "Surg", "Asst", "Anae"}
# a column's head that also ends a run of codes ('Fee' over Z459's 10.20 after J333 J335's box, H5): not a heading
COLUMN_WORDS = frozenset({"Fee", "Spec", "Code", "Description", "Premium", "Page"})
_MAX_CONTINUATION = 6  # description lines after the code line
_ADD_END = re.compile(r"\s(?:add|per\s+\w+)$", re.IGNORECASE)  # a leader's tail without its dots
_COMPONENT = re.compile(r"\b(technical|professional)\s+component\b", re.IGNORECASE)
_CUT_LEADER = re.compile(r"\w\s*\.\.$")  # a leader cut to two dots ('… 13 days recording ..', J16)
_CODES_ONLY = re.compile(r"(?:[A-Z]\d{3}[\s,\-–]*)+")  # 'Z198' 'Z209, Z211, Z213,' (a range in a table, GP63)
_AMOUNT_IN_TEXT = re.compile(r"\d%|\$\s?\d")  # '25% of fee for virtual service', '$13.20 for phone' (A70)
_SEE_GP12 = re.compile(r"\(see General Preamble GP12\)")  # GP12: Independent Consideration (IC)
_PAGE_LABEL = re.compile(r"^(?:GP|SP|[A-Z]{1,2})\d{1,3}$")
_DASHES = ("-", "–")
_NOT_HEADINGS = ("See ", "Note", "[", "Payment rules", "Claims submission")
_LIST_ITEM = re.compile(r"^(?:\d{1,2}|[a-z]|[ivx]{1,4})\s?[.)]")  # '4.R150, R151 … are not eligible', 'b. the surgical'
_SENTENCE_END = (".", ";", ",", "]", ":", ")]")
_TWO_SENTENCES = re.compile(r"[.;:]\s+[A-Z]")  # prose: a sentence ends inside the line
# prose, not a heading: a rule's verb or a code named in the line ('Subsequent G869 services are only eligible …', J52)
_PROSE = re.compile(r"\b(?:is|are|be|must|may|will|shall|only|[A-Z]\d{3})\b")


def _amounts(texts: Iterable[str]) -> list[float]:
    return [float(t.replace(",", "")) for t in texts if _MONEY.match(t)]


# an add-on to several codes: 'to G246, G117, G119 or G918', 'to G910, G911 or G912'
ADDS_TO_SEVERAL = re.compile(
    r"\bto (?:[A-Z]\d{3}, )+(?:or |and )?[A-Z]\d{3}\b|\bto [A-Z]\d{3},? (?:or|and) [A-Z]\d{3}\b"
    r"|(?:[A-Z]\d{3}, )+[A-Z]\d{3},? (?:or|and) [A-Z]\d{3}\b"  # 'E833 - with insertion of subcutaneous port, G117, G119, G246 or G918'
)


def _heading_like(text: str, following: str) -> bool:
    """A line that can introduce the dash descriptions under it ('Subsequent visits', 'Level 1', 'Mastectomy -
    male'): short, capitalised, no leader, no list item, not the end of a sentence nor a line the next one
    carries on. The tail of a paragraph ('following specialties: General and Family Practice (00) and Emergency
    Medicine (12).', R150-R154's note, M22), a paragraph's first line ('Radiotelemetry or portable recordings
    to monitor spontaneous EEG from a freely moving' / 'patient, …', J84) or a dash description's second line
    ('to G246, G117, G119 or G918 …… add') is not one; nor is a column's head ('Fee', J53)."""
    if len(text) >= 120 or text.startswith(_NOT_HEADINGS) or text.startswith(_DASHES) or text in COLUMN_WORDS:
        return False
    if len(text) >= 90 and (_TWO_SENTENCES.search(text) or _PROSE.search(text)):
        return False  # a long line is a heading only as a noun phrase ('Physician in hyperbaric unit but … per session', J35)
    if not (text[0].isupper() or text[0].isdigit()) or _LIST_ITEM.match(text) or _CONNECTOR.search(text):
        return False
    if following[:1].islower():
        return False
    return not text.endswith(_SENTENCE_END) and not _leader(text)[0] and "..." not in text


def _upper(text: str) -> bool:
    """An upper-case group heading ('EXCISION', 'LUNGS AND PLEURA'): it names no service of its own."""
    return text.isupper() and sum(c.isalpha() for c in text) >= 3


@dataclass(slots=True)
class _Headings:
    """What a dash description continues, as the listing pages are read.

    A dash line hangs under the line above it that is not one: a sub-heading ('Subsequent visits' over 'C002 -
    first five weeks ……', A10), refined by a dash line with no leader ('Ankle' / '- open reduction' / 'F076 -
    one malleolus ……', N52), or a code's own description ('# Z132 Insertion of tissue expander ……' / '# E527 -
    additional expander, same incision …… add', M22). A note, a commentary or a paragraph ends a code's reach
    (Z327 '- flexible or rigid …' after Z360's note is under 'Bronchoscopy', P8), not a sub-heading's; an
    upper-case group heading ('EXCISION') ends both.
    """

    base: str | None = None  # the last sub-heading
    sub: str | None = None  # ... refined by a dash line with no leader
    parent: str | None = None  # the description of the code just listed, when not a dash description
    commentary: bool = False  # inside '[Commentary: … ]'
    pending: str | None = None  # a sub-heading's first line, which the next line carries on
    under: set[str] = field(default_factory=set)  # the codes listed since the last sub-heading
    parent_code: str | None = None  # the code whose description ``parent`` is

    @property
    def current(self) -> str | None:
        return self.parent or self.sub or self.base

    def governing(self, entry: _Entry) -> None:
        """A dash description that adds to several codes ('E440 - with injection of contrast using fluoroscopy, to
        G246, G117, G119 or G918 …… add' under '# G918 Caudal', J76) hangs under the heading over them all
        ('Percutaneous epidural injections'), not under the last of them; with none over them all ('E738 - with
        continent ileostomy, to either S168, S169, S170, S173 or S174', S20), under no heading."""
        if entry.dash and self.parent and entry.heading == self.parent and ADDS_TO_SEVERAL.search(entry.description):
            named = set(re.findall(r"\b[A-Z]\d{3}\b", entry.description))
            if named <= self.under and (self.sub or self.base):
                entry.heading = self.sub or self.base
            elif self.parent_code not in named:
                entry.heading, entry.ungoverned = None, True
            # else the last code is one of those named, the rest listed elsewhere ('E393 - kyphoplasty, each
            # additional level, to N583 or E392' under 'N583 Kyphoplasty …', Z10): its name stays the add-on's

    def code(self, entry: _Entry) -> None:
        self.under.add(entry.code)
        if not entry.dash and entry.description[:1].isupper() and not entry.detached:
            self.parent, self.parent_code = entry.description, entry.code

    def text(self, text: str, following: str) -> None:
        pending, self.pending = self.pending, None
        if pending is not None and _heading_continued(text, following):
            # 'Debridement of wound(s) … extending into any of the following structures: tendon,' / 'ligament, bursa
            # and/or bone' over 'Z084 - one' (M9): the sub-heading is both lines; a reference carried on is not
            # ('Periodic oculo-visual assessment' / 'see General Preamble GP28 …' over A110, A9)
            self.base = pending if text.startswith("see ") else f"{pending} {text}"
            self.sub = self.parent = None
            self.under = set()
            return
        if self.commentary or text.startswith("["):
            self.commentary = not text.endswith("]")
            self.parent = None
        elif _leader(text)[0]:
            return  # a description whose code was printed elsewhere: no heading, no prose
        elif _upper(text):
            self.base = self.sub = self.parent = None
            self.under = set()
        elif text.startswith(_DASHES):
            if not following[:1].islower() and not re.search(r"\.\.|…", text) and self.base:
                self.sub, self.parent = f"{self.base} {text}", None
        elif _heading_like(text, following):
            self.base, self.sub, self.parent = text, None, None
            self.under = set()
        elif _introduces_codes(text, following):
            self.base = self.sub = self.parent = None
            self.under = set()
        else:
            self.parent = None
            # a heading's first line, not what qualifies the heading above ('Ulcer cautery' / 'Including laser …', Y2)
            if (
                following[:1].islower()
                and _heading_like(text.removesuffix(","), "")
                and not text.startswith("Including")
            ):
                self.pending = text


def _heading_continued(text: str, following: str) -> bool:
    """Whether ``text`` ends a sub-heading begun on the line before: a short lower-case line, no sentence's end,
    right above a code or a dash description."""
    return (
        text[:1].islower()
        and len(text) < 60
        and not text.endswith(_SENTENCE_END)
        and not _leader(text)[0]
        and (CODE.match(following) is not None or following.startswith(_DASHES))
    )


def _introduces_codes(text: str, following: str) -> bool:
    """A sentence that ends in a colon right above a code introduces it: 'Claims submitted for … must include
    the modality indicator' / 'that identifies the technology used to deliver the service:' / 'K300A –
    identifies Video technology …' (A65). The code's dash line is the sentence's, not a heading's above it."""
    return text.endswith(":") and not text.startswith(_RULES) and CODE.match(following) is not None


@dataclass(slots=True)
class Listing:
    """One place a code is listed with its fee (the same code is listed in many sections)."""

    code: str
    description: str
    page: str  # 'A11'
    line: int  # in the text file, for the parse report
    heading: str | None  # the line introducing a dash-description: 'Subsequent visits by the MRP …'
    status: FeeStatus
    fee: float | None  # dollars: the only column, the P (professional) column, or the surgeon's fee
    fee_text: str  # as printed: '61.15', 'I.C', 'nil', 'add 30%', 'fee unknown'
    components: dict[str, str] = field(default_factory=dict)  # column -> value as printed: {'H': '29.90', 'P': '13.25'}
    unit: str | None = None  # 'per visit', 'per unit', 'add' …
    percent: float | None = None  # premiums: 'add 30%' -> 30.0
    prefix: str | None = None  # '#': premises, equipment, supplies and personnel are not in the insured fee (GP13)
    reason: str | None = None  # why the fee is unknown
    # how the fee was aligned, where not by the page's structure alone: 'cross-references' (taken because the
    # Numeric Index or another listing of the code bears the pairing out, ``realign_verified``)
    basis: str | None = None
    topic: str | None = None  # the Schedule heading the listing sits under ('Psychotherapy'), set by ``text``
    ungoverned: bool = False  # an add-on to several codes under no heading over them all: titled by its own words


@dataclass(slots=True)
class ListingReport:
    runs: int = 0
    aligned_runs: int = 0
    mismatched_runs: int = 0
    unassigned_values: int = 0  # fee values (not units) no code took: printed apart from their codes
    realigned: int = 0  # listings the second reading (``realign``) gave a fee
    realigned_verified: int = 0  # ... by runs the Numeric Index or another listing bears out
    two_column_pairs: int = 0  # listings given H inline and P from a box after (``_two_column_pages``)
    two_column_doubts: int = 0  # single values on H/P pages left 'fee unknown': H or P? (``_two_column_pages``)
    component_pairs: int = 0  # technical / professional component codes given their T or P value (``_component_pages``)
    independent_by_description: int = 0  # no value aligned, I.C by the listing's own '(see General Preamble GP12)'
    no_fee_tables: int = 0  # codes named in a table of codes that prints no fee ('no_fee')
    no_fee_units: int = 0  # codes followed by basic units only, on a page whose every fee another code took ('no_fee')
    no_fee_roles: int = 0  # codes printed with their role or modality letter and no fee after them ('no_fee')
    mismatches: list[str] = field(default_factory=list)  # each run still 'fee unknown': why, where, codes | values


@dataclass(slots=True)
class _Entry:
    code: str
    description: str
    line: Line
    prefix: str | None  # '#' or '+', as printed before the code
    tail: str | None  # leader tail: 'add', 'per visit', …; None without a leader
    percent: float | None
    heading: str | None
    detached: bool = False
    dash: bool = False  # a dash description: it continues the line above it
    ungoverned: bool = False  # an add-on to several codes that no heading over them all names (``governing``)


@dataclass(frozen=True, slots=True)
class _Value:
    kind: ValueKind
    text: str
    box: int
    page: str
    no: int = 0  # line number in the text file
    orphan: bool = False  # printed between a code and its own description: no run of the first reading takes it


def _value(text: str) -> ValueKind | None:
    if _MONEY.match(text):
        return "money"
    if _IC.match(text):
        return "ic"
    if text == "nil":
        return "nil"
    if _UNITS.match(text):
        return "units"
    if _PERCENT.match(text):
        return "percent"
    return None


def _leader(text: str) -> tuple[bool, str | None, float | None]:
    """(has a leader, its tail, a percentage) of one line."""
    match = _LEADER.search(text)
    if match:
        tail = " ".join(match.group("tail").lower().rstrip(".").split()) or None
        pct = float(match.group("pct")) if match.group("pct") else None
        return True, tail, pct
    pct_match = _PERCENT_TAIL.search(text)
    if pct_match:
        return True, "add", float(pct_match.group("pct"))
    if re.search(r"\badd$", text, re.IGNORECASE) and "..." in text:
        return True, "add", None
    return False, None, None


def _describe(parts: list[str]) -> str:
    text = " ".join(parts)
    text = re.sub(r"\s*(?:\.{3,}|…|\.\.(?=\s*(?:add|per)\b)).*$", "", text)
    return " ".join(text.split()).strip(" -–")


class _Reader:
    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.lines = layout.lines[layout.body_start : layout.body_end]
        self.layout_pages = {label: n for n, label in reversed(list(enumerate(layout.pages)))}  # label -> order
        self.listings: list[Listing] = []
        self.report = ListingReport()
        self.heads: dict[str, set[str]] = {}  # page -> column heads printed on it
        self._fees_seen = self._fees_used = 0
        self.consumed: set[int] = set()  # indices of description lines already read with their code
        self.orphans: set[int] = set()  # indices of values printed between a code and its description
        self.used: set[int] = set()  # line numbers that belong to listings (codes, descriptions, values, heads)
        self.cells: dict[tuple[str, str], list[tuple[Line, str]]] = {}  # (code, page) -> premium table cells
        self.cell_tables: dict[tuple[str, str], str] = {}  # (code, page) -> the table's title
        self.table = ""  # the premium table being read: 'Special visit premium: Emergency Department'
        self.table_page = ""  # the page its title is printed on
        self.stream: list[_Entry | _Value | Line | None] = []  # the item stream, as read
        self.taken: set[int] = set()  # line numbers of the values an aligned run took
        self.pairs: dict[int, _Value] = {}  # id of an aligned entry -> its value
        self.listing_at: dict[int, int] = {}  # id of an entry -> index of its listing
        self.doubts: set[int] = set()  # ids of entries whose one value may be H or P: not for ``realign``
        self._two_column_cache: dict[str, bool] = {}

    # --- the item stream ----------------------------------------------------------------------
    def items(self) -> Iterator[_Entry | _Value | Line | None]:
        """Entries, values, text lines and box breaks (None), in file order."""
        box = 0
        headings = _Headings()
        previous = ""  # the last text line: a code after 'to N539 or' continues its sentence
        lines = self.lines
        i = 0
        while i < len(lines):
            line = lines[i]
            text = line.text
            if i in self.consumed:
                i += 1
                continue
            if not text:
                box += 1
                yield None
                i += 1
                continue
            if text in _COLUMN_HEADS:
                self.heads.setdefault(line.page, set()).add(text)
                self.used.add(line.no)
                i += 1
                continue
            premium_table = _PREMIUM_TABLE.match(text)
            if premium_table:
                kind = premium_table.group("kind").capitalize()
                self.table, self.table_page = f"{kind}: {self._table_title(i)}", line.page
            cell = _CELL.match(text)
            if cell and self._in_table(line.page):
                i = self._cell(i, cell.group(1))
                continue
            kind = _value(text)
            if kind is not None:
                self._fees_seen += kind != "units"
                self.used.add(line.no)
                yield _Value(kind, text, box, line.page, line.no, orphan=i in self.orphans)
                i += 1
                continue
            match = CODE.match(text)
            if match and not _PROSE_AFTER_CODE.match(match.group("rest")) and not _continues(previous, match):
                stack = self._stack(i)
                heading = headings.current
                if len(stack) > 1:
                    for entry in self._paired(stack, heading):
                        headings.governing(entry)
                        headings.code(entry)
                        yield entry
                    self.used.update(self.lines[k].no for k in stack)
                    i = stack[-1] + 1
                    while i < len(lines) and not lines[i].text and i + 1 in self.consumed:
                        i += 1  # the blank between the codes and their descriptions: the rows go on (E4)
                else:
                    entry, end = self._entry(i, match, heading)
                    self.used.update(self.lines[k].no for k in range(i, end))
                    i = end
                    headings.governing(entry)
                    headings.code(entry)
                    yield entry
                previous = ""
                continue
            headings.text(text, lines[i + 1].text if i + 1 < len(lines) else "")
            previous = text
            yield line
            i += 1

    def _consume(self, indices: Iterable[int]) -> None:
        for k in indices:
            self.consumed.add(k)
            self.used.add(self.lines[k].no)

    def _next_text(self, j: int, *, over_values: bool = False) -> int:
        """Index of the next non-blank line from ``j`` (past value lines too when asked), or len(lines)."""
        while j < len(self.lines) and (
            not self.lines[j].text or (over_values and _value(self.lines[j].text) is not None) or j in self.consumed
        ):
            j += 1
        return j

    def _entry(self, i: int, match: re.Match[str], heading: str | None) -> tuple[_Entry, int]:
        """The code line and its description lines, up to the leader ('……… per visit')."""
        first = self.lines[i]
        rest = match.group("rest").strip()
        parts = [rest]
        has, tail, pct = _leader(first.text)
        j = i + 1
        detached = False
        if not rest:  # a code alone: its '- description' follows, sometimes after blank lines or a box of fees
            k = self._next_text(j)
            if k < len(self.lines) and (self.lines[k].text.startswith(_DASHES) or self._described(k)):
                j = k  # 'H261' / 'Newborn care in hospital or home ……' (A160): its own line, leader and all
            else:
                k = self._next_text(j, over_values=True)
                if k < len(self.lines) and self.lines[k].text.startswith(_DASHES):
                    description, end, tail, pct = self._description(k)
                    self._consume(range(k, end))
                    # a premium's percentage needs no column value; a fee printed between code and
                    # description could be this code's or the previous one's: unknown -- unless the description
                    # ends in its leader and a fee follows it as it follows every listing: then that fee is the
                    # code's and the one printed in between is no run's ('K041' · 70.10 · '- additional units ……
                    # per unit' · 50.20, A17; the index: K041 50.20, K013 70.10)
                    after = self._next_text(end)
                    ended = tail is not None or bool(_ADD_END.search(self.lines[end - 1].text))  # '… . per unit'
                    if ended and pct is None and after < len(self.lines) and _value(self.lines[after].text):
                        self.orphans.update(n for n in range(j, k) if _value(self.lines[n].text) is not None)
                        return self._make(match, first, description, tail, pct, heading, detached=False), j
                    return self._make(match, first, description, tail, pct, heading, detached=pct is None), j
                detached = True  # codes in one box, descriptions in another: which fee is whose is unknown
        while not has and not detached and j < len(self.lines) and j - i <= _MAX_CONTINUATION:
            nxt = self.lines[j].text
            if not nxt or _value(nxt) is not None or nxt in _COLUMN_HEADS or _CELL.match(nxt):
                break
            code = CODE.match(nxt)
            if code and not _continues(parts[-1], code):
                break
            parts.append(nxt)
            has, tail, pct = _leader(nxt)
            j += 1
        if not has and not detached:  # no leader: the code line (and a '- …' line) describe it; the rest is text
            # ... and a line the code line's last word leaves unfinished: 'K058 Medical Form Part B including both
            # Health Status Report and' / 'Activities of Daily Living Index for Medical Review process' (AF1)
            unfinished = _UNFINISHED.search(parts[0]) is not None
            keep = 1 + (len(parts) > 1 and (parts[1].startswith(_DASHES) or unfinished))
            j -= len(parts) - keep
            parts = parts[:keep]
        dash = (
            rest.startswith(_DASHES) or rest[:1].islower() if rest else len(parts) > 1 and parts[1].startswith(_DASHES)
        )
        return self._make(match, first, _describe(parts), tail, pct, heading, detached=detached, dash=dash), j

    def _described(self, k: int) -> bool:
        """Whether lines from ``k`` are one description ending in a leader (no code, value or blank before it)."""
        for j in range(k, min(len(self.lines), k + _MAX_CONTINUATION)):
            text = self.lines[j].text
            if not text or CODE.match(text) or _value(text) is not None or j in self.consumed:
                return False
            if _leader(text)[0]:
                return True
        return False

    def _description(self, k: int) -> tuple[str, int, str | None, float | None]:
        """A '- description' from line ``k`` to its leader: (text, end index, leader tail, percentage)."""
        parts: list[str] = []
        has, tail, pct = False, None, None
        j = k
        while j < len(self.lines) and self.lines[j].text and not has and j - k <= _MAX_CONTINUATION:
            parts.append(self.lines[j].text)
            has, tail, pct = _leader(self.lines[j].text)
            j += 1
        return _describe(parts), j, tail, pct

    def _make(
        self,
        match: re.Match[str],
        line: Line,
        description: str,
        tail: str | None,
        pct: float | None,
        heading: str | None,
        *,
        detached: bool,
        dash: bool | None = None,
    ) -> _Entry:
        rest = match.group("rest").strip()
        # a dash description continues the line before it; a code printed apart has no line of its own to trust
        if dash is None:  # a lower-case description carries on the line above too ('Greater than 10 cm' / 'R017 face
            dash = not rest or rest.startswith(_DASHES) or rest[:1].islower()  # or neck ……', M21)
        prefix = (match.group("hash") or "").strip() or None
        dash = dash and bool(description)
        return _Entry(
            match.group("code"), description, line, prefix, tail, pct, heading if dash else None, detached, dash
        )

    def _stack(self, i: int) -> list[int]:
        """Consecutive lines holding a code alone, from ``i`` (the codes of a two-box listing), across blank lines
        between two such lines ('# E632' … '# E636', blank, '# E637' … '# E677', P9)."""
        out = []
        j = i
        while j < len(self.lines):
            match = CODE.match(self.lines[j].text)
            if not match or match.group("rest").strip():
                break
            out.append(j)
            j += 1
            if j < len(self.lines) and not self.lines[j].text:
                k = self._next_text(j)
                following = CODE.match(self.lines[k].text) if k < len(self.lines) else None
                if following and not following.group("rest").strip():
                    j = k
        return out

    def _paired(self, stack: list[int], heading: str | None) -> Iterator[_Entry]:
        """Codes stacked in one box and their descriptions in the next, paired in order.

        Only when the next box holds exactly one description per code, each ending in its leader
        ('- nights ……', or 'Consultation ……' under W445 W765 W845 W446, A127); otherwise every code of
        the stack is detached. A code line right after the last description starts the next listing
        ('# J009 Laryngogram ……' after the four descriptions of J036 J068 J008 J004, E4), and the box's end
        ends the last description when its leader lost its dots ('… Z498, Z499 or Z555 add', E630, S18; '-
        professional component - 60 hours to 13 days recording ..', J16). The codes' fees may be printed between
        the two boxes (J045 J055 J061 J062 J063 · 140.55 257.60 257.60 257.60 298.80 · 6 · 'Percutaneous
        antegrade pyelogram ……' …, E5): the descriptions are the box of text after them, the fees stay in the
        stream after the codes.
        """
        k = self._next_text(stack[-1] + 1)
        box, descriptions = self._descriptions(k, len(stack))
        if len(descriptions) != len(stack) + 1:  # the codes' fees first, then their descriptions (E5)?
            fees, k = self._fee_boxes(k)
            if fees:
                box, descriptions = self._descriptions(k, len(stack))
                priced = [d for d in descriptions[:-1] if _leader(self.lines[d[-1]].text)[2] is None]
                if fees != len(priced):  # not one fee per priced code (E640 · E601 E602 · 179.55, P11)
                    box, descriptions = [], []
        fits = len(descriptions) == len(stack) + 1 and not descriptions[-1]
        for n, index in enumerate(stack):
            match = CODE.match(self.lines[index].text)
            assert match is not None
            if fits:
                lines = [self.lines[b].text for b in descriptions[n]]
                has, tail, pct = _leader(lines[-1])
                tail = tail if has else "add" if _ADD_END.search(lines[-1]) else None
                dash = lines[0].startswith(_DASHES)  # 'Sialogram ……' after 'Z597 J039 J018 J007' (E5) is no dash
                yield self._make(
                    match, self.lines[index], _describe(lines), tail, pct, heading, detached=False, dash=dash
                )
            else:
                yield self._make(match, self.lines[index], "", None, None, heading, detached=True)
        if fits:
            self._consume(box)

    def _fee_boxes(self, k: int) -> tuple[int, int]:
        """(fees in them, index of the next text line) of the boxes of values from ``k`` (0 where there are none,
        or where a box mixes values and text)."""
        fees = 0
        while k < len(self.lines) and _value(self.lines[k].text) is not None:
            end = k
            while end < len(self.lines) and self.lines[end].text and _value(self.lines[end].text) is not None:
                fees += _value(self.lines[end].text) != "units"
                end += 1
            if end < len(self.lines) and self.lines[end].text:
                return 0, k
            k = self._next_text(end)
        return fees, k

    def _descriptions(self, k: int, codes: int) -> tuple[list[int], list[list[int]]]:
        """The box of text from ``k`` and its lines cut after each leader (for ``codes`` stacked codes)."""
        box: list[int] = []
        while k < len(self.lines) and self.lines[k].text:
            box.append(k)
            k += 1
        while box and _PAGE_LABEL.match(self.lines[box[-1]].text):
            box.pop()  # a page label the extraction left without its furniture ('P8')
        descriptions: list[list[int]] = [[]]  # the box's lines, cut after each leader
        for n, b in enumerate(box):
            text = self.lines[b].text
            code = CODE.match(text)
            previous = self.lines[descriptions[-1][-1]].text if descriptions[-1] else ""
            if code and not descriptions[-1] and len(descriptions) == codes + 1:
                box = box[:n]  # every code has its description: this code line is a listing of its own
                break
            if (
                (code and not _continues(previous, code))  # 'specimens labeled as to site, to' / 'Z327 …… add'
                or _value(text) is not None
                or len(descriptions[-1]) >= _MAX_CONTINUATION
            ):
                return box, []
            descriptions[-1].append(b)
            if _leader(text)[0]:
                descriptions.append([])
        last = self.lines[box[-1]].text if box else ""
        if len(descriptions) == codes and descriptions[-1] and (_ADD_END.search(last) or _CUT_LEADER.search(last)):
            descriptions.append([])  # the box's end ends the last description ('… or Z555 add', '… recording ..')
        return box, descriptions

    def _table_title(self, i: int) -> str:
        """'Special Visits to Patient's Home (other than …)': the line naming a premium table, else its heading."""
        k = self._next_text(i + 1)
        following = self.lines[k].text if k < len(self.lines) else ""
        if following and not following.isupper() and not _CELL.match(following) and len(following) < 100:
            return following
        return self.lines[i].text.title()

    def _in_table(self, page: str) -> bool:
        """Whether ``page`` prints a premium table's cells: the page of its title or the next."""
        if not self.table_page:
            return False
        pages = self.layout_pages
        at = pages.get(self.table_page)
        return page == self.table_page or (at is not None and pages.get(page) == at + 1)

    def _cell(self, i: int, amount: str) -> int:
        """A premium table cell: '$36.40' over its code ('B960', 'C988B'); other '$' lines are skipped."""
        k = self._next_text(i + 1)
        match = _CELL_CODE.match(self.lines[k].text) if k < len(self.lines) else None
        if match is None:
            return i + 1
        key = (match.group("code"), self.lines[k].page)
        self.cells.setdefault(key, []).append((self.lines[k], amount))
        self.cell_tables.setdefault(key, self.table)
        self.used.update((self.lines[i].no, self.lines[k].no))
        return k + 1

    # --- runs -------------------------------------------------------------------------------------
    def read(self) -> None:
        codes: list[_Entry] = []
        values: list[_Value] = []
        carry: list[_Value] = []  # values printed before their codes (surgical pages), or left over by a run
        for item in self.items():
            self.stream.append(item)
            if item is None:
                continue
            if isinstance(item, _Entry):
                if values:
                    carry = self._close(codes, values, [])
                    codes, values = [], []
                if item.percent is not None:
                    self._add(item, "percent", None, f"add {item.percent:g}%", percent=item.percent)
                    continue
                codes.append(item)
            elif isinstance(item, _Value):
                if item.orphan:
                    continue  # left to the second reading
                if not codes:
                    carry = [*carry, item] if carry and carry[-1].page == item.page else [item]
                    continue
                values.append(item)
            elif values or (codes and _starts_rules(item.text)):
                carry = self._close(codes, values, carry)
                codes, values = [], []
        if codes:
            self._close(codes, values, carry)
        self._two_column_pages()
        self._component_pages()
        self._realign()
        self._two_column_neighbours()
        self._independent_by_description()
        self._no_fee()
        left = {x.reason for x in self.listings if x.status == "unknown"}
        self.report.mismatches = [m for m in self.report.mismatches if m.split(": ", 1)[0] in left]
        self.report.unassigned_values = self._fees_seen - self._fees_used
        self._cells()

    def _no_fee(self) -> None:
        """Listings the text gives no fee of their own, told apart from 'fee unknown' ('no_fee'):

        * a table naming codes, on a page that prints no fee at all (no value, no '%' or '$' amount): the
          Delegated Procedure table (GP63: 'Ultraviolet light therapy · G470 · J37'), the periodic health visit
          codes (GP22: 'K017 · child'), the management fees by telephone or video (A71: 'K045 · Endocrinology …');
          each code's fee is in its own listing;
        * a code followed by basic units and no fee, on a page where every fee printed went to another code:
          the burn care codes 'for anaesthetists' and assistants' services' (M10: '# R030 Minor burns ……' · 6 · 6)
          and the like carry the assistant's and anaesthetist's units only;
        * a code printed with its role or modality letter and no dollar value after it: an assistant's or
          anaesthetist's service paid in units ('E030C Procedural sedation …… 4 basic units', GP99) or a claim
          indicator ('K300A – identifies Video technology …', A66). Where such a code has a fee (the special
          visit premiums 'C998B', GP88) it is printed after it.
        """
        page_of = self._pages()
        priced: dict[int, bool] = {}  # page -> it prints a fee value or amount
        free: dict[int, bool] = {}  # page -> a fee value no code took
        units: dict[int, bool] = {}  # page -> basic units printed
        for k, item in enumerate(self.stream):
            page = page_of[k]
            if isinstance(item, _Value) and item.kind == "units":
                units[page] = True
            elif isinstance(item, _Value):
                priced[page] = True
                if item.kind in ("money", "ic") and item.no not in self.taken:
                    free[page] = True
            elif isinstance(item, Line) and _AMOUNT_IN_TEXT.search(item.text):
                priced[page] = True
        for k, item in enumerate(self.stream):
            if not isinstance(item, _Entry) or id(item) not in self.listing_at:
                continue
            listing = self.listings[self.listing_at[id(item)]]
            if listing.status != "unknown":
                continue
            page = page_of[k]
            after: list[_Value] = []
            for following in self.stream[k + 1 :]:
                if isinstance(following, _Entry):
                    break
                if isinstance(following, _Value):
                    after.append(following)
            listed_only = (item.detached and not item.description) or bool(_CODES_ONLY.fullmatch(item.description))
            if listed_only and not priced.get(page) and not units.get(page):
                listing.fee_text = "no fee here: the page names the code in a table, without a fee"
                self.report.no_fee_tables += 1
            elif (
                after
                and all(v.kind == "units" for v in after)
                and not free.get(page)
                and self.heads.get(listing.page, set()) & {"Asst", "Anae"}
            ):
                listing.fee_text = "no fee of its own here: basic units for the assistant and anaesthetist only"
                self.report.no_fee_units += 1
            elif len(listing.code) == 5 and not any(v.kind in ("money", "ic") for v in after):
                listing.fee_text = "no fee of its own here: a role's units or a claim indicator"
                self.report.no_fee_roles += 1
            else:
                continue
            listing.status, listing.fee = "no_fee", None
            listing.reason = f"{listing.fee_text} ({listing.page} line {listing.line}); was: {listing.reason}"

    def _pages(self) -> list[int]:
        """Each stream item's page, as ``realign`` reads pages: values printed after a page marker, before the next
        page's first code or text line, are still the page's."""
        out: list[int] = []
        page, label, waiting = 0, None, False
        for item in self.stream:
            if item is not None:
                here = item.line.page if isinstance(item, _Entry) else item.page
                if here != label:
                    label, waiting = here, True
                if waiting and not isinstance(item, _Value):
                    page, waiting = page + 1, False
            out.append(page)
        return out

    def _independent_by_description(self) -> None:
        """A listing that sends the reader to General Preamble GP12 ('Independent Consideration (IC)': 'services
        listed in the Schedule without specified fees') has no fee to read: where no value was aligned to it,
        it is I.C by its own words ('# R007 Other - (see General Preamble GP12)', M18), not 'fee unknown'.
        On the 2025-03-03 file every such listing that was aligned was aligned to I.C."""
        for x in self.listings:
            if x.status == "unknown" and _SEE_GP12.search(x.description):
                x.status, x.fee, x.fee_text = "independent_consideration", None, "I.C"
                x.reason = f"no fee printed: the listing refers to General Preamble GP12 ({x.reason})"
                self.report.independent_by_description += 1

    def _box_kinds(self) -> dict[int, set[str]]:
        """Box -> the kinds of value in it (an I.C among dollars is a fee, among units a unit)."""
        boxes: dict[int, set[str]] = {}
        for item in self.stream:
            if isinstance(item, _Value):
                boxes.setdefault(item.box, set()).add(item.kind)
        return boxes

    def _two_columns(self, page: str) -> bool:
        """A page with H (or T) and P columns; the heads the extractor wrote after the page marker count (J95's
        'T', then the marker, then 'P')."""
        if page not in self._two_column_cache:
            labels = self.layout.pages
            at = labels.index(page) if page in labels else -1
            following = labels[at + 1] if 0 <= at < len(labels) - 1 else None
            own = self.heads.get(page, set())
            # the following page's heads complete a page that prints one of the two (J96: 'T' here, 'P' after the
            # marker); a page printing neither has one column, whatever the next page has (J84: 'Fee')
            heads = own | (self.heads.get(following, set()) if following and own & {"H", "T", "P"} else set())
            self._two_column_cache[page] = bool(heads & {"H", "T"}) and "P" in heads
        return self._two_column_cache[page]

    def _two_column_pages(self) -> None:
        """H (or T) and P columns printed apart: a code's H value on its line, the P values in a box after.

        On a page with both columns, codes each followed by one value and then, past any text, a box of as
        many free values, have H inline and P in the box (X090 14.90 / X091 21.90 / X092 28.15 … then
        6.35 10.70 12.40, D10; the index gives X179 T 29.60, P 15.85). A box of another size leaves them
        'fee unknown' (the one value may be H); no box leaves them as read (a P-only listing: CT, D18).
        """
        stream = self.stream
        k = 0
        while k < len(stream):
            run: list[tuple[_Entry, _Value]] = []
            while (
                k + 1 < len(stream)
                and isinstance(stream[k], _Entry)
                and isinstance(stream[k + 1], _Value)
                and self._two_columns(stream[k + 1].page)  # type: ignore[union-attr]
                and stream[k + 1].kind == "money"  # type: ignore[union-attr]
            ):
                entry, value = stream[k], stream[k + 1]
                assert isinstance(entry, _Entry) and isinstance(value, _Value)
                mine = self.pairs.get(id(entry)) is value or (
                    value.no not in self.taken and id(entry) in self.listing_at
                )
                if not mine or entry.percent is not None:
                    break
                run.append((entry, value))
                k += 2
            if not run:
                k += 1
                continue
            j = k
            while j < len(stream) and (stream[j] is None or isinstance(stream[j], Line)):
                j += 1
            box: list[_Value] = []
            while j < len(stream):
                item = stream[j]
                if not isinstance(item, _Value) or (box and item.box != box[0].box):
                    break
                box.append(item)
                j += 1
            free = bool(box) and all(v.kind == "money" and v.no not in self.taken for v in box)
            if not free:
                continue
            for n, (entry, value) in enumerate(run):
                listing = self.listings[self.listing_at[id(entry)]]
                if len(box) == len(run):
                    p = box[n]
                    listing.status, listing.fee, listing.fee_text = "aligned", float(p.text.replace(",", "")), p.text
                    listing.components = {"H" if "H" in self.heads.get(p.page, set()) else "T": value.text, "P": p.text}
                    listing.reason = None
                    self._fees_used += (value.no not in self.taken) + (p.no not in self.taken)
                    self.taken.update((value.no, p.no))
                    self.pairs[id(entry)] = p
                    self.report.two_column_pairs += 1
                else:
                    self.doubts.add(id(entry))
                    if listing.status == "unknown":
                        continue
                    listing.status, listing.fee, listing.fee_text = "unknown", None, "fee unknown"
                    listing.components = {}
                    listing.reason = (
                        f"one value on a page of H and P columns, then {len(box)} value(s) for "
                        f"{len(run)} code(s) ({listing.page} line {listing.line})"
                    )
                    self.report.two_column_doubts += 1
                    self._fees_used -= 1

    def _two_column_neighbours(self) -> None:
        """On a page of H and P columns, one value per code is doubtful where values no code took sit between
        the codes before and after: J830 J878 then 87.00 143.20 (B5) are the H values, their P values printed
        in the box of the codes above (56.70 40.15 / 40.30 40.30 40.30 40.30)."""
        stream = self.stream
        entries = [k for k, item in enumerate(stream) if isinstance(item, _Entry)]
        groups: list[list[int]] = []
        for k in entries:
            if groups and all(stream[j] is None for j in range(groups[-1][-1] + 1, k)):
                groups[-1].append(k)
            else:
                groups.append([k])
        for n, group in enumerate(groups):
            start = groups[n - 1][-1] if n else -1
            end = groups[n + 1][0] if n + 1 < len(groups) else len(stream)
            doubtful = []
            for k in group:
                entry = stream[k]
                assert isinstance(entry, _Entry)
                at = self.listing_at.get(id(entry))
                x = self.listings[at] if at is not None else None
                if (
                    x
                    and x.status == "aligned"
                    and not x.components
                    and x.unit != "table"
                    and self._two_columns(x.page)
                    and not _COMPONENT.search(x.description)  # one component ('G414 … - technical component'): one value
                ):
                    doubtful.append(x)
            if not doubtful:
                continue
            free = any(
                isinstance(v, _Value) and v.kind == "money" and v.no not in self.taken for v in stream[start + 1 : end]
            )
            for x in doubtful if free else ():
                x.status, x.fee, x.fee_text = "unknown", None, "fee unknown"
                x.reason = (
                    f"one value on a page of H and P columns, values left over around it ({x.page} line {x.line})"
                )
                self.report.two_column_doubts += 1
                self._fees_used -= 1

    def _component_pages(self) -> None:
        """Codes that are one component each ('G682 - technical component …', 'G658 - professional component …'),
        on a page of T and P columns: a technical component's fee is in the T column, a professional component's
        in the P column (GP10: 'The technical component may be listed as either "technical component" or in a
        column headed "H" or "T"'), and the extraction prints the two columns apart.

        Groups of such codes are read in order, each followed by its values: as many as the group has codes (the
        T values of its technical codes, then the P values of its professional codes: G851 G437 G852 G439 G524 ·
        32.30 · 35.00 · 22.90 · 75.00 75.00, J91), or only its T values, its professional codes then waiting
        for theirs; the P values of the waiting codes and of the group come after a later group's T values, in
        order (J16: G682 G683 G658 · 50.50 69.05, G684 G685 G659 · 75.70 103.60, G647 G648 G649 · 119.00
        173.20 · 75.45 · 95.85 · 122.25; the index: G658 75.45, G659 95.85). Any other count, a value that is
        not dollars, or a waiting code never reached leaves the whole chain 'fee unknown'.
        """
        stream = self.stream
        groups: list[list[int]] = []  # positions of entries with no value between them
        for k, item in enumerate(stream):
            if isinstance(item, _Entry):
                if groups and not any(isinstance(stream[j], _Value) for j in range(groups[-1][-1] + 1, k)):
                    groups[-1].append(k)
                else:
                    groups.append([k])
        tentative: list[tuple[_Entry, _Value]] = []
        waiting: list[_Entry] = []

        def give(pairs: list[tuple[_Entry, _Value]]) -> None:
            for entry, value in pairs:
                listing = self.listings[self.listing_at[id(entry)]]
                listing.status, listing.fee, listing.fee_text = (
                    "aligned",
                    float(value.text.replace(",", "")),
                    value.text,
                )
                listing.reason, listing.components = None, {}
                self.taken.add(value.no)
                self.pairs[id(entry)] = value
                self._fees_used += 1
                self.report.component_pairs += 1

        for n, group in enumerate(groups):
            entries = [e for e in (stream[k] for k in group) if isinstance(e, _Entry)]
            kinds = [self._component(e) for e in entries]
            if not all(kinds):
                tentative, waiting = [], []
                continue
            end = groups[n + 1][0] if n + 1 < len(groups) else len(stream)
            values = [v for v in stream[group[-1] + 1 : end] if isinstance(v, _Value)]
            technical = [e for e, kind in zip(entries, kinds, strict=True) if kind == "T"]
            professional = [e for e, kind in zip(entries, kinds, strict=True) if kind == "P"]
            usable = all(v.kind == "money" and v.no not in self.taken for v in values)
            if usable and len(values) == len(technical) + len(waiting) + len(professional):
                give(tentative + list(zip(technical, values, strict=False)))
                give(list(zip(waiting + professional, values[len(technical) :], strict=True)))
                tentative, waiting = [], []
            elif usable and values and len(values) == len(technical):
                tentative += list(zip(technical, values, strict=True))
                waiting += professional
                if not waiting:
                    give(tentative)
                    tentative = []
            else:
                tentative, waiting = [], []

    def _component(self, entry: _Entry) -> str | None:
        """'T' or 'P': an open code on a page of T and P columns that is one component ('… - technical component
        ……', 'G439 Full field electro-retinography - professional component ……')."""
        at = self.listing_at.get(id(entry))
        if at is None or self.listings[at].status != "unknown" or entry.percent is not None:
            return None
        if not self._two_columns(entry.line.page):
            return None
        match = _COMPONENT.search(entry.description)
        return None if match is None else "T" if match.group(1).lower() == "technical" else "P"

    def _realign(self) -> None:
        """The second reading (``realign``): unknown codes and free fees paired page by page, first where the
        page's structure alone decides, then where the Schedule's cross-references bear a pairing out."""
        found = realign(self._tokens())
        self._take(found.pairs, found.first_column)
        self.report.realigned = len(found.pairs)
        verified = realign_verified(self._tokens(), self._verdict())
        self._take(verified.pairs, basis="cross-references")
        self.report.realigned_verified = len(verified.pairs)

    def _tokens(self) -> list[Token]:
        """The item stream as ``realign`` reads it, with what is aligned so far."""
        tokens: list[Token] = []
        boxes = self._box_kinds()
        page = ""
        for k, item in enumerate(self.stream):
            if item is None:
                tokens.append(Token("blank", page, k))
            elif isinstance(item, _Entry):
                page = item.line.page
                at = self.listing_at.get(id(item))
                unknown = at is not None and self.listings[at].status == "unknown"
                tokens.append(
                    Token(
                        "code",
                        page,
                        k,
                        open=unknown and not item.detached and item.percent is None and id(item) not in self.doubts,
                        held=id(item) in self.pairs,
                        premium=item.percent is not None,
                        two_columns=self._two_columns(page),
                    )
                )
            elif isinstance(item, _Value):
                page = item.page
                if item.kind == "money" or (item.kind == "ic" and "money" in boxes[item.box]):
                    tokens.append(Token("fee", page, k, box=item.box, open=item.no not in self.taken, text=item.text))
                elif item.kind == "ic" and boxes[item.box] == {"ic"}:
                    # an I.C alone: the surgeon's, or a units column's
                    tokens.append(Token("maybe", page, k, box=item.box, open=item.no not in self.taken, text=item.text))
                else:
                    tokens.append(Token("units", page, k))
            else:
                page = item.page
                tokens.append(Token("text", page, k))
        return tokens

    def _verdict(self) -> Callable[[int, int], int]:
        """Whether the Schedule states a code's fee elsewhere: the Numeric Index, or another listing of it."""
        listed: dict[str, set[float]] = {}
        components: dict[str, set[float]] = {}
        no_fee: set[str] = set()
        for x in self.listings:
            if x.status == "aligned" and not x.components and x.unit != "table" and x.fee is not None:
                listed.setdefault(x.code, set()).add(x.fee)
            elif x.components:
                components.setdefault(x.code, set()).update(_amounts(x.components.values()))
            elif x.status in ("independent_consideration", "percent"):
                no_fee.add(x.code)
        pages = read_index(self.layout)
        index = leading_fees(pages)
        stated = Stated(
            {c: next(iter(f)) for c, f in listed.items() if len(f) == 1},
            {c: frozenset(v) for c, v in components.items() if c not in listed},
            frozenset(no_fee - listed.keys() - components.keys()),
        )
        for code, fee in anchored_fees(pages, stated).items():
            if index.setdefault(code, fee) != fee:
                index.pop(code)  # the first box and a later box disagree: the index says nothing of it

        def verdict(code_at: int, fee_at: int) -> int:
            entry, value = self.stream[code_at], self.stream[fee_at]
            assert isinstance(entry, _Entry) and isinstance(value, _Value)
            stated = set(listed.get(entry.code, set()))
            if entry.code in index:
                stated.add(index[entry.code])
            if not stated:
                return 0
            if value.kind != "money":
                return -1
            return 1 if stated == {float(value.text.replace(",", ""))} else -1

        return verdict

    def _take(
        self, pairs: dict[int, int], first_column: dict[int, int] | None = None, *, basis: str | None = None
    ) -> None:
        """Give each code its fee from the stream (and its H or T value, on a page of two columns)."""
        for code_at, fee_at in pairs.items():
            entry, value = self.stream[code_at], self.stream[fee_at]
            assert isinstance(entry, _Entry) and isinstance(value, _Value)
            listing = self.listings[self.listing_at[id(entry)]]
            listing.reason, listing.basis = None, basis
            listing.components = {}
            if value.kind == "money":
                listing.status, listing.fee, listing.fee_text = (
                    "aligned",
                    float(value.text.replace(",", "")),
                    value.text,
                )
            else:
                listing.status, listing.fee, listing.fee_text = "independent_consideration", None, "I.C"
            first = (first_column or {}).get(code_at)
            if first is not None:
                h = self.stream[first]
                assert isinstance(h, _Value)
                name = "H" if "H" in self.heads.get(h.page, set()) | self.heads.get(value.page, set()) else "T"
                listing.components = {name: h.text, "P": value.text}
                self.taken.add(h.no)
                self._fees_used += 1
            self.taken.add(value.no)
            self.pairs[id(entry)] = value
            self._fees_used += 1

    def _close(self, codes: list[_Entry], values: list[_Value], carry: list[_Value]) -> list[_Value]:
        """Align one run; returns the values it leaves for the next run on the page."""
        self.report.runs += 1
        page = codes[0].line.page
        heads = self.heads.get(page, set()) | self.heads.get(values[-1].page if values else page, set())
        detached = [c.code for c in codes if c.detached]
        leftover: list[_Value] = []
        if detached:
            columns: list[tuple[str, list[_Value]]] | str = (
                f"{len(codes)} code(s) printed apart from their descriptions ({', '.join(detached)})"
            )
        elif values:
            columns = _columns(codes, values, heads)
        elif carry and carry[0].page == page:
            columns = _columns(codes, carry, heads)  # the values printed above the codes
        else:
            columns = f"{len(codes)} code(s), no fee printed after them"
        if isinstance(columns, list):
            self.report.aligned_runs += 1
            self._fees_used += sum(len(column) for _, column in columns)
            self.taken.update(v.no for _, column in columns for v in column)
            for k, entry in enumerate(codes):
                self._value_listing(entry, {name: col[k] for name, col in columns})
                self.pairs[id(entry)] = columns[-1][1][k]
            return leftover
        self.report.mismatched_runs += 1
        reason = f"{columns} ({page} line {codes[0].line.no})"
        self.report.mismatches.append(
            f"{reason}: {' '.join(c.code for c in codes)} | {' '.join(v.text for v in values)}"
        )
        for entry in codes:
            self._add(entry, "unknown", None, "fee unknown", reason=reason)
        return []

    def _cells(self) -> None:
        """A premium table's code takes its cells' amount when every cell on the page agrees."""
        for (code, _page), cells in self.cells.items():
            line = cells[0][0]
            amounts = sorted({amount for _, amount in cells})
            title = self.cell_tables.get((code, _page)) or "Special visit premium table"
            entry = _Entry(code, title, line, None, None, None, None)
            if len(amounts) == 1:
                self._add(entry, "aligned", float(amounts[0].replace(",", "")), amounts[0], unit="table")
            else:
                self._add(entry, "unknown", None, "fee unknown", reason=f"table cells disagree: {', '.join(amounts)}")

    def _value_listing(self, entry: _Entry, columns: dict[str, _Value]) -> None:
        main = columns.get("fee") or columns.get("P") or columns.get("Surg")
        printed = {name: v.text for name, v in columns.items() if name != "fee"}
        if main is None:
            self._add(entry, "unknown", None, "fee unknown", reason="no main column", components=printed)
        elif main.kind == "money":
            self._add(entry, "aligned", float(main.text.replace(",", "")), main.text, components=printed)
        elif main.kind == "ic":
            self._add(entry, "independent_consideration", None, "I.C", components=printed)
        elif main.kind == "percent":
            pct = float(main.text.rstrip("%"))
            self._add(entry, "percent", None, f"add {pct:g}%", percent=pct, components=printed)
        else:  # 'nil': listed, payable at nil
            self._add(entry, "aligned", 0.0, main.text, components=printed)

    def _add(
        self,
        entry: _Entry,
        status: FeeStatus,
        fee: float | None,
        fee_text: str,
        *,
        percent: float | None = None,
        reason: str | None = None,
        components: dict[str, str] | None = None,
        unit: str | None = None,
    ) -> None:
        self.listing_at[id(entry)] = len(self.listings)
        self.listings.append(
            Listing(
                code=entry.code,
                description=entry.description,
                page=entry.line.page,
                line=entry.line.no,
                heading=entry.heading,
                status=status,
                fee=fee,
                fee_text=fee_text,
                components=components or {},
                unit=unit or entry.tail,
                percent=percent,
                prefix=entry.prefix,
                ungoverned=entry.ungoverned,
                reason=reason,
            )
        )


def _columns(codes: list[_Entry], values: list[_Value], heads: set[str]) -> list[tuple[str, list[_Value]]] | str:
    """The run's value columns (name, one value per code), or why they cannot be aligned.

    Basic units (surgical pages) are not fees and are set aside. ``I.C`` is
    printed in fee and unit columns alike: among units it is a unit, among
    dollars a fee; in a box of its own it joins the fees only when the counts
    agree with it and disagree without it.
    """
    n = len(codes)
    boxes: dict[int, set[str]] = {}
    for v in values:
        boxes.setdefault(v.box, set()).add(v.kind)
    # an I.C printed among units is a units column's; among dollars, a fee; alone, either
    fees = [v for v in values if v.kind != "units" and not (v.kind == "ic" and "units" in boxes[v.box])]
    if not fees:
        return f"{n} code(s), no fee printed after them"
    surgical = bool(heads & {"Surg", "Asst", "Anae"})
    if surgical:
        fees = [v for v in fees if v.kind != "nil"]  # 'nil' is the assistant column's word
    without_ic = [v for v in fees if not (v.kind == "ic" and boxes[v.box] == {"ic"})]
    # a lone I.C before a dollar fee may be the surgeon's (S293: 8 / I.C / 12 / 314.20 / 6 is S293 I.C, then
    # Z596's 314.20): leaving it out is safe only when it comes after the dollars (an anaesthetist's I.C)
    lone_first = any(
        v.kind == "ic" and boxes[v.box] == {"ic"} and any(w.kind == "money" for w in fees[k + 1 :])
        for k, v in enumerate(fees)
    )
    for candidate in (without_ic, fees) if len(without_ic) != len(fees) else (fees,):
        if candidate is without_ic and lone_first:
            continue
        if len(candidate) == n:
            return [("fee", candidate)]
        two = (heads & {"H", "T"}) and "P" in heads and not surgical
        column_wise = n == 1 or any(
            a.box == b.box for a, b in zip(candidate, candidate[1:], strict=False)
        )  # not row by row
        if two and len(candidate) == 2 * n and (n == 1 or (candidate[n - 1].box != candidate[n].box and column_wise)):
            return [("H" if "H" in heads else "T", candidate[:n]), ("P", candidate[n:])]
    return f"{n} code(s) before {len(fees)} fee value(s)"


_CONNECTOR = re.compile(r"(?:\b(?:and|or|to|of|under|codes?|with|than|per|the|by|in|for|from|see)|,)$", re.IGNORECASE)


def _continues(previous: str, match: re.Match[str]) -> bool:
    """A code that carries on the sentence before it ('… to N539 or' / 'N540 …… add') is not a listing; a code
    and its '- description ……' are one ('Tongue tie, release of' / 'Z111 - simple ……', S1)."""
    if match.group("hash"):
        return False
    rest = match.group("rest").strip()
    if rest.startswith(_DASHES) and _leader(rest)[0]:
        return False
    return bool(previous and _CONNECTOR.search(previous)) or bool(
        re.fullmatch(r"\s*(?:\.{3,}|…).*", match.group("rest"))
    )


_RULES = ("Note", "Payment rule", "[Commentary", "Commentary", "Claims submission", "Medical record", "Definition")


def _starts_rules(text: str) -> bool:
    """A paragraph of rules or a full-width line of prose: codes before it whose fee has not come have none."""
    return text.startswith(_RULES) or len(text) >= 80


@dataclass(slots=True)
class ListingPages:
    listings: list[Listing]
    report: ListingReport
    used_lines: set[int]  # line numbers the listings were read from (passages write the listings instead)


def read_listings(layout: Layout) -> ListingPages:
    reader = _Reader(layout)
    reader.read()
    return ListingPages(reader.listings, reader.report, reader.used)
