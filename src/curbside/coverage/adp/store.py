"""The ADP tables: replace the loaded manuals in one transaction; read them from worker threads.

Writes go through the application's ``Database``. Reads come from ``AdpReader``:
the manuals' queries on the per-thread read-only connections of
``curbside.coverage.reader.ThreadReader``, so the SQL path runs beside the
search engine, and a query that overruns its timeout can be interrupted.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from curbside.coverage.adp.data import Rule, device_vocabulary, funding_rules, listed_categories
from curbside.coverage.adp.parse import CORE_KEY, ParsedManual
from curbside.coverage.adp.passages import doc_key
from curbside.coverage.reader import ThreadReader
from curbside.coverage.source_load import supersede
from curbside.store.database import Database
from curbside.store.documents import now_iso

__all__ = [
    "AdpReader",
    "DeviceRow",
    "ManualEdition",
    "ParagraphRow",
    "current_editions",
    "edition_label",
    "replace_manuals",
]

_TABLES = ("adp_rules", "adp_terms", "adp_not_listed", "adp_devices", "adp_categories", "adp_paragraphs")
NOT_LOADED = "No ADP manuals are loaded; run `curbside coverage load DIR` with the ministry's ADP manuals (PDF) in DIR."


@dataclass(frozen=True, slots=True)
class ManualEdition:
    id: int
    manual: str
    title: str
    edition: str
    edition_date: str
    source_name: str
    source_sha256: str
    data_sha256: str
    page_count: int
    counts: dict[str, int]
    loaded_at: str

    @property
    def label(self) -> str:
        return f"{self.title} ({self.edition})"


def edition_label(editions: Sequence[ManualEdition]) -> str:
    """'ADP manuals, July 2023: <title>; <title>' — said with every answer."""
    dates = sorted({e.edition for e in editions})
    return f"ADP manuals, {' / '.join(dates)}: " + "; ".join(e.title for e in editions)


_EDITION_COLUMNS = (
    "id, manual, title, edition, edition_date, source_name, source_sha256, data_sha256, page_count, counts, loaded_at"
)


def _edition(row: Sequence[Any]) -> ManualEdition:
    values = list(row)
    values[9] = json.loads(values[9])
    return ManualEdition(*values)


def _order(editions: list[ManualEdition]) -> list[ManualEdition]:
    return sorted(editions, key=lambda e: (e.manual != CORE_KEY, e.manual))  # the ADP Manual first


def current_editions(db: Database) -> list[ManualEdition]:
    rows = db.rows(f"SELECT {_EDITION_COLUMNS} FROM adp_editions WHERE status = 'current'")
    return _order([_edition(r) for r in rows])


def replace_manuals(
    db: Database, manuals: Sequence[tuple[ParsedManual, str, str]], data_sha256: str
) -> list[ManualEdition]:
    """Swap every ADP row for these (manual, file name, file SHA-256) in one transaction: all or nothing."""
    stamp = now_iso()
    parsed = {m.key: m for m, _, _ in manuals}
    core = parsed[CORE_KEY]
    vocabulary = device_vocabulary()
    categories = listed_categories(core)
    category_page = core.paragraph("105.05").page  # type: ignore[union-attr]  # verify() checked it
    policy_manual = {m.title.removesuffix(" Policy and Administration Manual"): key for key, m in parsed.items()}
    with db.transaction():
        supersede(db, "adp_editions", _TABLES, stamp)
        for manual, name, digest in manuals:
            db.execute(
                "INSERT INTO adp_editions(manual, title, edition, edition_date, source_name, source_sha256, "
                "data_sha256, page_count, counts, status, loaded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'current', ?)",
                (
                    manual.key,
                    manual.title,
                    manual.edition,
                    manual.edition_date,
                    name,
                    digest,
                    data_sha256,
                    manual.page_count,
                    json.dumps(manual.counts(), sort_keys=True),
                    stamp,
                ),
            )
            db.executemany(
                "INSERT INTO adp_paragraphs VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (manual.key, p.paragraph_id, s.section_id, s.title, s.part, p.page, p.page_end, p.text)
                    for s in manual.sections
                    for p in s.paragraphs
                ],
            )
        db.executemany(
            "INSERT INTO adp_categories VALUES (?, ?, ?, ?)",
            [(name, i, category_page, policy_manual.get(name)) for i, name in enumerate(categories)],
        )
        loaded_devices = [d for d in vocabulary.device if d.manual in parsed]
        db.executemany(
            "INSERT INTO adp_devices VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (d.key, d.name, d.category, d.group, d.manual, d.section, d.page, d.listed_as, d.follow_up)
                for d in loaded_devices
            ],
        )
        db.executemany(
            "INSERT INTO adp_not_listed VALUES (?, ?, ?, ?, ?)",
            [(n.key, n.manual, n.section, n.page, n.quote) for n in vocabulary.not_listed],
        )
        terms = {(t.lower(), "device", d.key) for d in loaded_devices for t in d.terms}
        terms |= {(t.lower(), "category", c.name) for c in vocabulary.category for t in c.terms}
        terms |= {(k.lower(), "category_key", c.name) for c in vocabulary.category for k in c.keys}
        terms |= {
            (k.lower(), "category_key", name) for k, names in vocabulary.category_groups.items() for name in names
        }
        terms |= {(t.lower(), "not_listed", n.key) for n in vocabulary.not_listed for t in n.terms}
        terms |= {(k.lower(), "not_a_category", message) for k, message in vocabulary.not_a_category.items()}
        terms |= {
            (t.lower(), "not_a_category_term", vocabulary.not_a_category[k])
            for k, said in vocabulary.not_a_category_terms.items()
            for t in said
        }
        db.executemany("INSERT INTO adp_terms VALUES (?, ?, ?)", sorted(terms))
        db.executemany(
            "INSERT INTO adp_rules VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [_rule_row(i, r) for i, r in enumerate(funding_rules()) if r.manual in parsed],
        )
        editions = current_editions(db)
    return editions


def _rule_row(ord_: int, r: Rule) -> tuple[Any, ...]:
    return (
        r.id,
        ord_,
        r.kind,
        r.topic,
        json.dumps(list(r.applies_to)),
        r.funding_model,
        r.adp_percent,
        int(r.adp_up_to),
        r.client_percent,
        int(r.client_minimum),
        r.years,
        r.summary,
        r.manual,
        r.section,
        r.page,
        json.dumps(list(r.quotes)),
    )


@dataclass(frozen=True, slots=True)
class DeviceRow:
    key: str
    name: str
    category: str
    group: str
    manual: str
    section: str
    page: int
    listed_as: str
    follow_up: str | None


@dataclass(frozen=True, slots=True)
class ParagraphRow:
    manual: str
    paragraph_id: str
    section_id: str
    section_title: str
    part: str
    page: int
    page_end: int
    text: str


def _rule(row: Sequence[Any]) -> Rule:
    (id_, _, kind, topic, applies_to, model, adp, adp_up_to, client, client_min, years, summary, manual, section, page, quotes) = row  # fmt: skip
    return Rule(
        id=id_,
        kind=kind,
        topic=topic,
        applies_to=tuple(json.loads(applies_to)),
        funding_model=model,
        adp_percent=adp,
        adp_up_to=bool(adp_up_to),
        client_percent=client,
        client_minimum=bool(client_min),
        years=years,
        summary=summary,
        manual=manual,
        section=section,
        page=page,
        quotes=tuple(json.loads(quotes)),
    )


class AdpReader(ThreadReader):
    """The manuals' read-only queries (call them inside ``snapshot``)."""

    def editions(self) -> list[ManualEdition]:
        return _order([_edition(r) for r in self.current_rows("adp_editions", _EDITION_COLUMNS, NOT_LOADED)])

    def terms(self) -> list[tuple[str, str, str]]:
        return list(self.connection().execute("SELECT term, kind, target FROM adp_terms"))

    def categories(self) -> list[tuple[str, int, str | None]]:
        """(name, page, loaded policy manual) in §105.05 order."""
        return list(self.connection().execute("SELECT name, page, policy_manual FROM adp_categories ORDER BY ord"))

    def device(self, key: str) -> DeviceRow | None:
        row = self.connection().execute("SELECT * FROM adp_devices WHERE key = ?", (key,)).fetchone()
        return DeviceRow(*row) if row else None

    def not_listed(self, key: str) -> tuple[str, str, int, str] | None:
        row = (
            self.connection()
            .execute("SELECT manual, section, page, quote FROM adp_not_listed WHERE key = ?", (key,))
            .fetchone()
        )
        return tuple(row) if row else None  # type: ignore[return-value]

    def rules(self) -> list[Rule]:
        return [_rule(r) for r in self.connection().execute("SELECT * FROM adp_rules ORDER BY ord")]

    def all_paragraphs(self) -> list[ParagraphRow]:
        return [ParagraphRow(*r) for r in self.connection().execute("SELECT * FROM adp_paragraphs")]

    def paragraphs(self, manual: str, ids: Sequence[str]) -> list[ParagraphRow]:
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        rows = self.connection().execute(
            f"SELECT * FROM adp_paragraphs WHERE manual = ? AND (paragraph_id IN ({marks}) OR section_id IN ({marks}))",
            (manual, *ids, *ids),
        )
        return [ParagraphRow(*r) for r in rows]

    def source_chunk(self, manual: str, paragraph_id: str) -> tuple[str, str, str, str, str, int, int | None] | None:
        """The current passage that holds a paragraph: (chunk_id, doc_key, title, section_path, text, version, page)."""
        row = (
            self.connection()
            .execute(
                "SELECT c.chunk_id, d.doc_key, v.title, c.section_path, c.text, v.version, c.page FROM chunks c "
                "JOIN documents d ON d.current_version_id = c.version_id JOIN document_versions v ON v.id = c.version_id "
                "WHERE d.namespace = 'adp' AND d.doc_key = ? AND instr(c.text, ?) > 0 ORDER BY c.id LIMIT 1",
                (doc_key(manual), f"\n{paragraph_id} "),
            )
            .fetchone()
        )
        return tuple(row) if row else None  # type: ignore[return-value]
