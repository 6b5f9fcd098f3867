"""The ODB tables: replace an edition in one transaction; read it from any thread.

Writes go through the application's ``Database`` (its lock and transaction).
Reads come from ``OdbReader``: the formulary's queries on the per-thread
read-only connections of ``curbside.coverage.reader.ThreadReader``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from curbside.coverage.odb.parse import ParsedFormulary
from curbside.coverage.odb.passages import NAMESPACE
from curbside.coverage.reader import PassageRow, ThreadReader
from curbside.coverage.source_load import supersede
from curbside.store.database import Database
from curbside.store.documents import now_iso

__all__ = ["DrugRow", "EditionRecord", "LuNoteRow", "OdbReader", "current_edition", "replace_edition"]

_TABLES = ("odb_drugs", "odb_lu_notes", "odb_groups", "odb_generics", "odb_classes", "odb_manufacturers")
NOT_LOADED = (
    "No ODB formulary is loaded; run `curbside coverage load DIR` with the ministry's XML extract "
    "(odb*formulary*.xml) in DIR."
)


@dataclass(frozen=True, slots=True)
class EditionRecord:
    id: int
    edition_code: str
    formulary_date: str
    create_date: str | None
    update_ver: str | None
    source_name: str
    source_sha256: str
    counts: dict[str, int]
    loaded_at: str

    @property
    def edition(self) -> str:
        """The edition number people use: the file name's 'edition-43' when the code starts with it.

        The extract writes edition='4345' for Edition 43; what the remaining digits
        mean is not documented, so without that agreement the code is shown as written.
        """
        match = re.search(r"edition-(\d+)", self.source_name)
        if match and self.edition_code.startswith(match.group(1)):
            return match.group(1)
        return self.edition_code

    @property
    def label(self) -> str:
        return f"ODB Formulary Edition {self.edition} ({self.formulary_date})"


_EDITION_COLUMNS = (
    "id, edition_code, formulary_date, create_date, update_ver, source_name, source_sha256, counts, loaded_at"
)


def _edition(row: Sequence[Any]) -> EditionRecord:
    return EditionRecord(int(row[0]), row[1], row[2], row[3], row[4], row[5], row[6], json.loads(row[7]), row[8])


def current_edition(db: Database) -> EditionRecord | None:
    row = db.one(f"SELECT {_EDITION_COLUMNS} FROM odb_editions WHERE status = 'current'")
    return _edition(row) if row else None


def replace_edition(db: Database, parsed: ParsedFormulary, *, source_name: str, source_sha256: str) -> EditionRecord:
    """Swap the stored formulary for ``parsed`` in one transaction: all of it or none of it."""
    stamp = now_iso()
    ed = parsed.edition
    with db.transaction():
        supersede(db, "odb_editions", _TABLES, stamp)
        db.executemany("INSERT INTO odb_manufacturers(id, name) VALUES (?, ?)", sorted(parsed.manufacturers.items()))
        db.executemany(
            "INSERT INTO odb_classes VALUES (?, ?, ?, ?, ?, ?)",
            [(c.key, c.pcg2_id, c.pcg2_name, c.pcg6_id, c.pcg6_name, c.note) for c in parsed.classes],
        )
        db.executemany(
            "INSERT INTO odb_generics VALUES (?, ?, ?, ?, ?)",
            [(g.key, g.generic_id, g.name, g.class_key, g.note) for g in parsed.generics],
        )
        db.executemany(
            "INSERT INTO odb_groups VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    g.pcg9_id,
                    g.generic_key,
                    g.lu_set,
                    g.lcc_id,
                    g.item_number,
                    g.strength,
                    g.dosage_form,
                    g.note,
                    g.daily_cost,
                    json.dumps(g.attrs, sort_keys=True),
                )
                for g in parsed.groups
            ],
        )
        db.executemany(
            "INSERT INTO odb_lu_notes(lu_set, lcc_id, seq, note_type, reason_for_use_id, text) VALUES (?, ?, ?, ?, ?, ?)",
            [(n.lu_set, n.lcc_id, n.seq, n.note_type, n.reason_for_use_id, n.text) for n in parsed.lu_notes],
        )
        db.executemany(
            "INSERT INTO odb_drugs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    d.din,
                    d.pcg9_id,
                    d.name,
                    d.manufacturer_id,
                    d.individual_price,
                    d.amount_mohltc_pays,
                    d.daily_cost,
                    d.listing_date,
                    d.note,
                    json.dumps(d.flags, sort_keys=True),
                )
                for d in parsed.drugs
            ],
        )
        db.execute(
            "INSERT INTO odb_editions(edition_code, formulary_date, create_date, update_ver, source_name, "
            "source_sha256, counts, status, loaded_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'current', ?)",
            (
                ed.code,
                ed.formulary_date,
                ed.create_date,
                ed.update_ver,
                source_name,
                source_sha256,
                json.dumps(parsed.counts(), sort_keys=True),
                stamp,
            ),
        )
        record = current_edition(db)
    assert record is not None
    return record


@dataclass(frozen=True, slots=True)
class DrugRow:
    """One product with its group, ingredient and class, as stored."""

    din: str
    name: str
    manufacturer: str | None
    manufacturer_id: str | None
    individual_price: float | None
    amount_mohltc_pays: float | None
    daily_cost: float | None
    listing_date: str | None
    note: str | None
    flags: dict[str, str]
    pcg9_id: str
    item_number: str | None
    strength: str | None
    dosage_form: str | None
    group_note: str | None
    group_attrs: dict[str, str]
    lu_set: int
    lcc_id: str | None
    generic_key: int
    generic_name: str
    generic_note: str | None
    class_key: int
    pcg2_id: str
    pcg2_name: str
    pcg6_name: str | None


@dataclass(frozen=True, slots=True)
class LuNoteRow:
    seq: str | None
    note_type: str | None
    reason_for_use_id: str | None
    text: str


_DRUG_SELECT = (
    "SELECT d.din, d.name, m.name, d.manufacturer_id, d.individual_price, d.amount_mohltc_pays, d.daily_cost, "
    "d.listing_date, d.note, d.flags, g.pcg9_id, g.item_number, g.strength, g.dosage_form, g.note, g.attrs, "
    "g.lu_set, g.lcc_id, ge.generic_key, ge.name, ge.note, c.class_key, c.pcg2_id, c.pcg2_name, c.pcg6_name "
    "FROM odb_drugs d JOIN odb_groups g ON g.pcg9_id = d.pcg9_id "
    "JOIN odb_generics ge ON ge.generic_key = g.generic_key JOIN odb_classes c ON c.class_key = ge.class_key "
    "LEFT JOIN odb_manufacturers m ON m.id = d.manufacturer_id "
)
_ORDER = " ORDER BY ge.generic_key, g.item_number, g.pcg9_id, d.din"


def _drug(row: Sequence[Any]) -> DrugRow:
    values = list(row)
    values[9] = json.loads(values[9])
    values[15] = json.loads(values[15])
    return DrugRow(*values)


class OdbReader(ThreadReader):
    """The formulary's read-only queries (call them inside ``snapshot``)."""

    def edition(self) -> EditionRecord:
        return _edition(self.current_rows("odb_editions", _EDITION_COLUMNS, NOT_LOADED)[0])

    def drugs(self, where: str, params: Sequence[Any] = ()) -> list[DrugRow]:
        return [_drug(r) for r in self.connection().execute(_DRUG_SELECT + "WHERE " + where + _ORDER, params)]

    def by_dins(self, dins: Sequence[str]) -> list[DrugRow]:
        if not dins:
            return []
        return self.drugs(f"d.din IN ({','.join('?' * len(dins))})", list(dins))

    def by_generics(self, keys: Sequence[int]) -> list[DrugRow]:
        if not keys:
            return []
        return self.drugs(f"ge.generic_key IN ({','.join('?' * len(keys))})", list(keys))

    def group(self, pcg9_id: str) -> list[DrugRow]:
        return self.drugs("g.pcg9_id = ?", (pcg9_id,))

    def in_class(self, class_key: int) -> list[DrugRow]:
        return self.drugs("c.class_key = ?", (class_key,))

    def lu_notes(self, lu_set: int) -> list[LuNoteRow]:
        rows = self.connection().execute(
            "SELECT seq, note_type, reason_for_use_id, text FROM odb_lu_notes WHERE lu_set = ? ORDER BY seq, id",
            (lu_set,),
        )
        return [LuNoteRow(*r) for r in rows]

    def name_rows(self) -> list[tuple[str, str, int, str]]:
        """(din, product name, generic key, generic name) of every product: the resolver's index."""
        return list(
            self.connection().execute(
                "SELECT d.din, d.name, ge.generic_key, ge.name FROM odb_drugs d "
                "JOIN odb_groups g ON g.pcg9_id = d.pcg9_id JOIN odb_generics ge ON ge.generic_key = g.generic_key"
            )
        )

    def source_chunks(self, needle: str, limit: int = 2) -> list[PassageRow]:
        """Current ODB passages containing ``needle``."""
        return self.passages_containing(NAMESPACE, needle, limit)
