"""Schema migrations, applied in order by ``Database.migrate``.

Append new migrations; never edit one that has shipped. The vector table is
not here: its dimension comes from the embedding model (``SqliteVecIndex.reset``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MIGRATIONS", "Migration"]


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


_INITIAL = """
CREATE TABLE schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
);
CREATE TABLE index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- one row per doc_key; current_version_id points at the searchable version
CREATE TABLE documents (
    id                 INTEGER PRIMARY KEY,
    doc_key            TEXT NOT NULL UNIQUE,
    namespace          TEXT NOT NULL DEFAULT 'kb',
    current_version_id INTEGER REFERENCES document_versions(id),
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
);

-- a version row exists only once its chunks are indexed (written in the same transaction)
CREATE TABLE document_versions (
    id             INTEGER PRIMARY KEY,
    document_id    INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    version        INTEGER NOT NULL,
    content_hash   TEXT NOT NULL,
    title          TEXT NOT NULL,
    format         TEXT NOT NULL,
    source_type    TEXT,
    specialty      TEXT,
    original_name  TEXT NOT NULL,
    original_path  TEXT NOT NULL,
    size_bytes     INTEGER NOT NULL,
    page_count     INTEGER,
    chunk_count    INTEGER NOT NULL,
    warnings       TEXT NOT NULL DEFAULT '[]',
    status         TEXT NOT NULL CHECK (status IN ('current', 'superseded', 'removed')),
    created_at     TEXT NOT NULL,
    superseded_at  TEXT,
    UNIQUE (document_id, version)
);

-- chunks of superseded versions stay for audit but leave both indexes
CREATE TABLE chunks (
    id           INTEGER PRIMARY KEY,
    chunk_id     TEXT NOT NULL UNIQUE,
    version_id   INTEGER NOT NULL REFERENCES document_versions(id) ON DELETE CASCADE,
    ordinal      INTEGER NOT NULL,
    section_path TEXT NOT NULL,
    page         INTEGER,
    page_end     INTEGER,
    token_count  INTEGER NOT NULL,
    text         TEXT NOT NULL,
    superseded   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX chunks_version ON chunks(version_id, ordinal);

-- BM25 over chunk text; contentless (text lives in chunks), deletable
CREATE VIRTUAL TABLE chunks_fts USING fts5(
    text, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TABLE chunks_fts_meta (
    rowid       INTEGER PRIMARY KEY,
    namespace   TEXT NOT NULL,
    doc_key     TEXT NOT NULL,
    source_type TEXT,
    specialty   TEXT
);

-- one job per ingest of one document: pending -> running -> completed | failed ...
CREATE TABLE jobs (
    id               INTEGER PRIMARY KEY,
    doc_key          TEXT NOT NULL,
    state            TEXT NOT NULL,
    original_name    TEXT NOT NULL,
    original_path    TEXT NOT NULL,
    options          TEXT NOT NULL DEFAULT '{}',
    version_id       INTEGER REFERENCES document_versions(id) ON DELETE SET NULL,
    retry_count      INTEGER NOT NULL DEFAULT 0,
    max_retries      INTEGER NOT NULL DEFAULT 3,
    total_chunks     INTEGER,
    processed_chunks INTEGER NOT NULL DEFAULT 0,
    error_code       TEXT,
    error_message    TEXT,
    superseded_by    INTEGER REFERENCES jobs(id),
    created_at       TEXT NOT NULL,
    started_at       TEXT,
    completed_at     TEXT,
    failed_at        TEXT,
    updated_at       TEXT NOT NULL
);
CREATE INDEX jobs_doc_key ON jobs(doc_key, id);
CREATE INDEX jobs_state ON jobs(state);
"""

_ODB_FORMULARY = """
-- Ontario Drug Benefit formulary (#5): rows of the current edition only; a load replaces
-- them in one transaction, so a failed load leaves the previous edition whole
CREATE TABLE odb_editions (
    id             INTEGER PRIMARY KEY,
    edition_code   TEXT NOT NULL,           -- the extract's edition attribute as written
    formulary_date TEXT NOT NULL,
    create_date    TEXT,
    update_ver     TEXT,
    source_name    TEXT NOT NULL,
    source_sha256  TEXT NOT NULL,
    counts         TEXT NOT NULL DEFAULT '{}',
    status         TEXT NOT NULL CHECK (status IN ('current', 'superseded')),
    loaded_at      TEXT NOT NULL,
    superseded_at  TEXT
);
CREATE TABLE odb_manufacturers (id TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE odb_classes (               -- pcg2 class with its pcg6 subclass (which may be unnamed)
    class_key INTEGER PRIMARY KEY,
    pcg2_id   TEXT NOT NULL,
    pcg2_name TEXT NOT NULL,
    pcg6_id   TEXT,
    pcg6_name TEXT,
    note      TEXT
);
CREATE TABLE odb_generics (              -- one ingredient (set) within one class
    generic_key INTEGER PRIMARY KEY,
    generic_id  TEXT NOT NULL,
    name        TEXT NOT NULL,
    class_key   INTEGER NOT NULL REFERENCES odb_classes(class_key),
    note        TEXT
);
CREATE TABLE odb_groups (                -- pcg9: one interchangeable group
    pcg9_id     TEXT PRIMARY KEY,
    generic_key INTEGER NOT NULL REFERENCES odb_generics(generic_key),
    lu_set      INTEGER NOT NULL,        -- its pcgGroup: that set's LU notes apply to it
    lcc_id      TEXT,
    item_number TEXT,
    strength    TEXT,
    dosage_form TEXT,
    note        TEXT,
    daily_cost  REAL,
    attrs       TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE odb_lu_notes (
    id                INTEGER PRIMARY KEY,
    lu_set            INTEGER NOT NULL,
    lcc_id            TEXT,
    seq               TEXT,
    note_type         TEXT,
    reason_for_use_id TEXT,
    text              TEXT NOT NULL
);
CREATE TABLE odb_drugs (
    din                TEXT PRIMARY KEY,
    pcg9_id            TEXT NOT NULL REFERENCES odb_groups(pcg9_id),
    name               TEXT NOT NULL,
    manufacturer_id    TEXT,
    individual_price   REAL,
    amount_mohltc_pays REAL,
    daily_cost         REAL,
    listing_date       TEXT,
    note               TEXT,
    flags              TEXT NOT NULL DEFAULT '{}'   -- every attribute but id, as written
);
CREATE INDEX odb_drugs_group ON odb_drugs(pcg9_id);
CREATE INDEX odb_groups_generic ON odb_groups(generic_key);
CREATE INDEX odb_generics_class ON odb_generics(class_key);
CREATE INDEX odb_lu_notes_set ON odb_lu_notes(lu_set);
"""

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial", _INITIAL),
    Migration(2, "odb_formulary", _ODB_FORMULARY),
)
