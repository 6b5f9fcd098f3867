"""The Schedule's tables: replace an edition in one transaction; read it from worker threads.

Writes go through the application's ``Database``. Reads come from
``OhipReader``: the Schedule's queries on the per-thread read-only connections
of ``curbside.coverage.reader.ThreadReader``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from curbside.coverage.ohip.layout import edition_label
from curbside.coverage.ohip.listings import FeeStatus
from curbside.coverage.ohip.parse import ParsedSchedule
from curbside.coverage.ohip.passages import NAMESPACE
from curbside.coverage.reader import PassageRow, ThreadReader
from curbside.coverage.source_load import supersede
from curbside.store.database import Database
from curbside.store.documents import now_iso

__all__ = [
    "EditionRecord",
    "ListingRow",
    "OhipReader",
    "RuleRow",
    "current_edition",
    "replace_edition",
]

_TABLES = ("ohip_rule_codes", "ohip_rules", "ohip_listings", "ohip_codes", "ohip_sections")
NOT_LOADED = (
    "No OHIP Schedule of Benefits is loaded; run `curbside coverage load DIR` with the schedule's text "
    "(ohip-schedule-of-benefits-*.txt) in DIR."
)


@dataclass(frozen=True, slots=True)
class EditionRecord:
    id: int
    published: str
    effective: str
    amendment: str | None
    source_name: str
    source_sha256: str
    report: dict[str, Any]
    loaded_at: str

    @property
    def label(self) -> str:
        return edition_label(self.effective)


_EDITION_COLUMNS = "id, published, effective, amendment, source_name, source_sha256, report, loaded_at"


def _edition(row: Sequence[Any]) -> EditionRecord:
    return EditionRecord(int(row[0]), row[1], row[2], row[3], row[4], row[5], json.loads(row[6]), row[7])


def current_edition(db: Database) -> EditionRecord | None:
    row = db.one(f"SELECT {_EDITION_COLUMNS} FROM ohip_editions WHERE status = 'current'")
    return _edition(row) if row else None


def replace_edition(db: Database, parsed: ParsedSchedule, *, source_name: str, source_sha256: str) -> EditionRecord:
    """Swap the stored schedule for ``parsed`` in one transaction: all of it or none of it."""
    stamp = now_iso()
    ed = parsed.edition
    with db.transaction():
        supersede(db, "ohip_editions", _TABLES, stamp)
        db.executemany(
            "INSERT INTO ohip_sections VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (k, s.entry.part, s.entry.part_title, s.entry.title, s.entry.specialty, s.first_page, s.last_page)
                for k, s in enumerate(parsed.sections, start=1)
            ],
        )
        db.executemany(
            "INSERT INTO ohip_codes VALUES (?, ?, ?)",
            [(c.code, c.title, c.defined_on) for c in parsed.codes.values()],
        )
        db.executemany(
            "INSERT INTO ohip_listings(code, section_key, description, heading, page, line, status, fee, fee_text, "
            "components, unit, percent, prefix, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    x.code,
                    key,
                    x.description,
                    x.heading,
                    x.page,
                    x.line,
                    x.status,
                    x.fee,
                    x.fee_text,
                    json.dumps(x.components, sort_keys=True),
                    x.unit,
                    x.percent,
                    x.prefix,
                    x.reason,
                )
                for key, x in parsed.listings
            ],
        )
        db.executemany(
            "INSERT INTO ohip_rules VALUES (?, ?, ?, ?, ?, ?)",
            [(r.key, r.section_key, r.heading, r.kind, r.page, r.text) for r in parsed.rules],
        )
        db.executemany(
            "INSERT INTO ohip_rule_codes VALUES (?, ?, ?)",
            [(r.key, code, "subject") for r in parsed.rules for code in r.subjects]
            + [(r.key, code, "mention") for r in parsed.rules for code in r.mentions if code not in r.subjects],
        )
        db.execute(
            "INSERT INTO ohip_editions(published, effective, amendment, source_name, source_sha256, report, status, "
            "loaded_at) VALUES (?, ?, ?, ?, ?, ?, 'current', ?)",
            (
                ed.published,
                ed.effective,
                ed.amendment,
                source_name,
                source_sha256,
                json.dumps(parsed.report.to_dict(), sort_keys=True),
                stamp,
            ),
        )
        record = current_edition(db)
    assert record is not None
    return record


@dataclass(frozen=True, slots=True)
class ListingRow:
    """One listing with its section."""

    code: str
    title: str  # the code's title (General Preamble heading, or first listing)
    description: str
    heading: str | None
    page: str
    status: FeeStatus
    fee: float | None
    fee_text: str
    components: dict[str, str]
    unit: str | None
    percent: float | None
    prefix: str | None
    reason: str | None
    section: str  # 'Anaesthesia (01)'
    part: str  # 'A'
    part_title: str
    specialty: str | None
    section_page: str  # the section's first page, 'A72' (its passages' document key holds it)


@dataclass(frozen=True, slots=True)
class RuleRow:
    key: int
    heading: str
    kind: str
    page: str
    text: str
    section: str
    part: str
    relation: Literal["subject", "mention"]
    code: str


# lines after a code's listing its block's add-ons may be printed in (E542 is 19 lines under Z081's two-ulcer
# listing, after Z082 … Z084 of the same block)
ADD_ON_REACH = 25

_LISTING_COLUMNS = (
    "l.code, c.title, l.description, l.heading, l.page, l.status, l.fee, l.fee_text, l.components, l.unit, "
    "l.percent, l.prefix, l.reason, s.title, s.part, s.part_title, s.specialty, s.first_page"
)
_LISTING_FROM = (
    "FROM ohip_listings l JOIN ohip_codes c ON c.code = l.code JOIN ohip_sections s ON s.section_key = l.section_key "
)
_LISTING_SELECT = f"SELECT {_LISTING_COLUMNS} {_LISTING_FROM}"


def _listing(row: Sequence[Any]) -> ListingRow:
    values = list(row)
    values[8] = json.loads(values[8])
    return ListingRow(*values)


class OhipReader(ThreadReader):
    """The Schedule's read-only queries (call them inside ``snapshot``)."""

    def edition(self) -> EditionRecord:
        return _edition(self.current_rows("ohip_editions", _EDITION_COLUMNS, NOT_LOADED)[0])

    def listings(self, codes: Sequence[str]) -> list[ListingRow]:
        if not codes:
            return []
        marks = ",".join("?" * len(codes))
        rows = self.connection().execute(
            _LISTING_SELECT + f"WHERE l.code IN ({marks}) ORDER BY l.section_key, l.line", list(codes)
        )
        return [_listing(r) for r in rows]

    def premiums_naming(self, codes: Sequence[str]) -> list[ListingRow]:
        """Premium listings ('add 30%', or a premium with its own fee) whose description names one of ``codes``."""
        if not codes:
            return []
        named = " OR ".join("instr(l.description, ?) > 0" for _ in codes)
        rows = self.connection().execute(
            _LISTING_SELECT + f"WHERE (l.percent IS NOT NULL OR l.unit = 'add') AND ({named}) "
            "ORDER BY l.section_key, l.line",
            list(codes),
        )
        return [_listing(r) for r in rows]

    def add_ons_after(
        self, codes: Sequence[str], reach: int = ADD_ON_REACH
    ) -> list[tuple[tuple[str, ...], ListingRow]]:
        """(the codes it is printed under, the add-on listing) for each add-on ('add', a percentage) printed under one of ``codes`` in its
        block, in Schedule order: after the code's own listing in its section, within ``reach`` lines, before a
        listing under another heading. "Z714 Abscess of vulva, Bartholin … gland - incision and drainage - local
        anaesthetic" is followed by "E542 - when performed outside hospital … add 11.55"; each listing is this
        block's (its description and fee as printed here)."""
        if not codes:
            return []
        marks = ",".join("?" * len(codes))
        rows = (
            self.connection()
            .execute(
                "SELECT p.code, p.section_key, p.line, p.heading, l.id, l.code, l.heading, "
                "(l.percent IS NOT NULL OR l.unit = 'add') FROM ohip_listings p JOIN ohip_listings l "
                "ON l.section_key = p.section_key AND l.line > p.line AND l.line <= p.line + ? "
                f"WHERE p.code IN ({marks}) ORDER BY p.section_key, p.line, l.line",
                [reach, *codes],
            )
            .fetchall()
        )
        found: dict[object, list[str]] = {}  # the add-on listing's id -> the codes it is printed under
        ended: set[tuple[object, ...]] = set()
        for code, section, line, heading, listing, other, other_heading, add_on in rows:
            block = (code, section, line)
            if block in ended or other in codes:
                continue
            if add_on:
                found.setdefault(listing, []).append(str(code))
            elif other_heading and other_heading != heading:
                ended.add(block)  # a listing under another heading: the block has ended
        if not found:
            return []
        ids = ",".join("?" * len(found))
        listed = self.connection().execute(
            f"SELECT {_LISTING_COLUMNS}, l.id {_LISTING_FROM} WHERE l.id IN ({ids}) ORDER BY l.line", list(found)
        )
        return [(tuple(found[r[-1]]), _listing(r[:-1])) for r in listed]

    def rules(self, codes: Sequence[str]) -> list[RuleRow]:
        """Rule blocks whose subject (then whose text) is one of ``codes``, in Schedule order."""
        if not codes:
            return []
        marks = ",".join("?" * len(codes))
        rows = self.connection().execute(
            "SELECT r.rule_key, r.heading, r.kind, r.page, r.text, s.title, s.part, rc.relation, rc.code "
            "FROM ohip_rule_codes rc JOIN ohip_rules r ON r.rule_key = rc.rule_key "
            f"JOIN ohip_sections s ON s.section_key = r.section_key WHERE rc.code IN ({marks}) "
            "ORDER BY rc.relation DESC, r.rule_key",
            list(codes),
        )
        return [RuleRow(*r) for r in rows]

    def preamble_rules(self) -> list[RuleRow]:
        """The General Preamble's payment rules and notes, each under its heading (its code field empty):
        'GENERAL RE-ASSESSMENT' governs A004 without naming it."""
        rows = self.connection().execute(
            "SELECT r.rule_key, r.heading, r.kind, r.page, r.text, s.title, s.part, 'subject', '' "
            "FROM ohip_rules r JOIN ohip_sections s ON s.section_key = r.section_key "
            "WHERE r.page LIKE 'GP%' AND r.kind IN ('payment_rules', 'note') ORDER BY r.rule_key"
        )
        return [RuleRow(*r) for r in rows]

    def subjects(self, rule_keys: Sequence[int]) -> dict[int, list[str]]:
        """The subject codes of each rule block."""
        if not rule_keys:
            return {}
        marks = ",".join("?" * len(rule_keys))
        out: dict[int, list[str]] = {}
        rows = self.connection().execute(
            f"SELECT rule_key, code FROM ohip_rule_codes WHERE relation = 'subject' AND rule_key IN ({marks}) "
            "ORDER BY rule_key, rowid",
            list(rule_keys),
        )
        for key, code in rows:
            out.setdefault(key, []).append(code)
        return out

    def premium_codes(self, *, special_visits: bool = False) -> set[str]:
        """Codes listed as premiums anywhere ('add 30%', or a premium with its own fee: C101 'add' $9.10,
        E406 "After hours premium: Urgent CT/MRI Services" $60.00); with ``special_visits``, the special visit
        premium tables' cells too (K963 $36.40)."""
        special = " OR description LIKE 'Special visit premium%'" if special_visits else ""
        rows = self.connection().execute(
            "SELECT DISTINCT code FROM ohip_listings WHERE percent IS NOT NULL OR unit = 'add' "
            f"OR (description LIKE '%premium%' AND description NOT LIKE 'Special visit premium%'){special}"
        )
        return {r[0] for r in rows}

    def codes_listed_in(self, specialty: str | None, part: str | None) -> set[str]:
        """Codes listed in a specialty's sections (or, without one, in a part of the Schedule)."""
        if specialty is not None:
            rows = self.connection().execute(
                "SELECT DISTINCT l.code FROM ohip_listings l JOIN ohip_sections s ON s.section_key = l.section_key "
                "WHERE s.specialty = ?",
                (specialty,),
            )
        else:
            rows = self.connection().execute(
                "SELECT DISTINCT l.code FROM ohip_listings l JOIN ohip_sections s ON s.section_key = l.section_key "
                "WHERE s.part = ?",
                (part,),
            )
        return {r[0] for r in rows}

    def known(self, codes: Sequence[str]) -> set[str]:
        if not codes:
            return set()
        marks = ",".join("?" * len(codes))
        return {
            r[0] for r in self.connection().execute(f"SELECT code FROM ohip_codes WHERE code IN ({marks})", list(codes))
        }

    def title_rows(self) -> list[tuple[str, str, str]]:
        """(code, title, every listing's description and heading) of every code: the word index's input."""
        rows = self.connection().execute(
            "SELECT c.code, c.title, group_concat(coalesce(l.heading, '') || ' ' || l.description, ' | ') "
            "FROM ohip_codes c LEFT JOIN ohip_listings l ON l.code = c.code GROUP BY c.code"
        )
        return [(r[0], r[1], r[2] or "") for r in rows]

    def sections(self) -> list[tuple[int, str, str, str | None]]:
        """(key, part, title, specialty) of every section."""
        return list(self.connection().execute("SELECT section_key, part, title, specialty FROM ohip_sections"))

    def passage_texts(self) -> list[tuple[str, str, str]]:
        """(doc_key, section_path, text) of every current Schedule passage, in stored order."""
        return list(
            self.connection().execute(
                "SELECT d.doc_key, c.section_path, c.text FROM chunks c "
                "JOIN documents d ON d.current_version_id = c.version_id WHERE d.namespace = ? ORDER BY c.id",
                (NAMESPACE,),
            )
        )

    def source_chunks(self, needle: str, limit: int = 2) -> list[PassageRow]:
        """Current Schedule passages containing ``needle``."""
        return self.passages_containing(NAMESPACE, needle, limit)
