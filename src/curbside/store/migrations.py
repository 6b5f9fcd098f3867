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

_AUDIT_AND_ACCESS = """
-- the keyed audit trail (#4): each row's mac is an HMAC-SHA256 over the row and the previous
-- row's mac, with a key kept outside this database (curbside.audit); seq runs 1, 2, 3 … with no gaps
CREATE TABLE audit_log (
    seq        INTEGER PRIMARY KEY,
    at         TEXT NOT NULL,               -- UTC, ISO 8601 with microseconds: sorts as text
    action     TEXT NOT NULL,               -- ask, search, passages, tool, user.add, access.denied …
    user       TEXT NOT NULL,
    role       TEXT NOT NULL,
    channel    TEXT,                        -- http, mcp-http, cli, mcp-stdio
    session    TEXT,
    question   TEXT,                        -- always through the PHI redactor, never raw
    intent     TEXT,
    sources    TEXT NOT NULL DEFAULT '[]',  -- JSON list
    tools      TEXT NOT NULL DEFAULT '[]',  -- JSON list
    model_used TEXT,
    phi        INTEGER,                     -- PHI detected (ask) or handled (tool); NULL: unknown
    outcome    TEXT NOT NULL,               -- answer status, ok, or an error code
    details    TEXT NOT NULL DEFAULT '{}',  -- JSON object
    prev_mac   TEXT NOT NULL,
    mac        TEXT NOT NULL
);
CREATE INDEX audit_log_at ON audit_log(at);
-- append-only for ordinary SQL; a hand editor can drop these, which the MAC chain then catches
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

-- API keys: only a SHA-256 of each key is stored; mac (same key as the trail) stops a hand-made user
CREATE TABLE api_users (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    role       TEXT NOT NULL CHECK (role IN ('clinician', 'admin', 'auditor')),
    key_prefix TEXT NOT NULL,               -- the key's first characters, to tell keys apart in listings
    key_sha256 TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    mac        TEXT NOT NULL
);
CREATE UNIQUE INDEX api_users_active_name ON api_users(name) WHERE revoked_at IS NULL;
CREATE INDEX api_users_prefix ON api_users(key_prefix);
"""

_ADP_MANUALS = """
-- Assistive Devices Program manuals (#6): one edition row per manual; a load replaces every ADP row
-- in one transaction, so a failed load leaves the previous edition whole
CREATE TABLE adp_editions (
    id            INTEGER PRIMARY KEY,
    manual        TEXT NOT NULL,            -- 'core' (the ADP Manual), 'mobility-devices', ...
    title         TEXT NOT NULL,
    edition       TEXT NOT NULL,            -- as printed on every page, e.g. 'July 2023'
    edition_date  TEXT NOT NULL,            -- '2023-07'
    source_name   TEXT NOT NULL,
    source_sha256 TEXT NOT NULL,
    data_sha256   TEXT NOT NULL,            -- the project's rule files the load was checked against
    page_count    INTEGER NOT NULL,
    counts        TEXT NOT NULL DEFAULT '{}',
    status        TEXT NOT NULL CHECK (status IN ('current', 'superseded')),
    loaded_at     TEXT NOT NULL,
    superseded_at TEXT
);
CREATE TABLE adp_paragraphs (             -- numbered paragraphs ('305.01'), or a section's unnumbered text
    manual        TEXT NOT NULL,
    paragraph_id  TEXT NOT NULL,
    section_id    TEXT NOT NULL,
    section_title TEXT NOT NULL,
    part          TEXT NOT NULL,
    page          INTEGER NOT NULL,
    page_end      INTEGER NOT NULL,
    text          TEXT NOT NULL,
    PRIMARY KEY (manual, paragraph_id)
);
CREATE TABLE adp_categories (             -- the Categories of Devices of the ADP Manual, §105.05
    name          TEXT PRIMARY KEY,
    ord           INTEGER NOT NULL,
    page          INTEGER NOT NULL,
    policy_manual TEXT                      -- the loaded Policy and Administration Manual for it, if any
);
CREATE TABLE adp_devices (                -- device types a loaded Policy and Administration Manual lists
    key          TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    category     TEXT NOT NULL REFERENCES adp_categories(name),
    device_group TEXT NOT NULL,
    manual       TEXT NOT NULL,
    section      TEXT NOT NULL,
    page         INTEGER NOT NULL,
    listed_as    TEXT NOT NULL,
    follow_up    TEXT
);
CREATE TABLE adp_not_listed (             -- kinds of products §205.01 says ADP will not list
    key     TEXT PRIMARY KEY,
    manual  TEXT NOT NULL,
    section TEXT NOT NULL,
    page    INTEGER NOT NULL,
    quote   TEXT NOT NULL
);
CREATE TABLE adp_terms (                  -- words that name a device, a category or a not-listed kind
    term   TEXT NOT NULL,
    kind   TEXT NOT NULL CHECK (kind IN ('device', 'category', 'category_key', 'not_listed', 'not_a_category')),
    target TEXT NOT NULL,                   -- device key, category name, not-listed key, or the message
    PRIMARY KEY (term, kind, target)
);
CREATE TABLE adp_rules (                  -- funding_rules.toml, verified against the manuals at load
    id              TEXT PRIMARY KEY,
    ord             INTEGER NOT NULL,
    kind            TEXT NOT NULL,
    topic           TEXT NOT NULL,
    applies_to      TEXT NOT NULL,          -- JSON list: 'all', categories, device groups, device keys
    funding_model   TEXT,
    adp_percent     REAL,
    adp_up_to       INTEGER NOT NULL DEFAULT 0,
    client_percent  REAL,
    client_minimum  INTEGER NOT NULL DEFAULT 0,
    years           INTEGER,
    summary         TEXT NOT NULL,
    manual          TEXT NOT NULL,
    section         TEXT NOT NULL,
    page            INTEGER NOT NULL,
    quotes          TEXT NOT NULL           -- JSON list of the manual's words
);
"""

_OHIP_SCHEDULE = """
-- OHIP Schedule of Benefits (#6): rows of the current edition only, replaced in one transaction
CREATE TABLE ohip_editions (
    id            INTEGER PRIMARY KEY,
    published     TEXT NOT NULL,             -- YYYY-MM-DD
    effective     TEXT NOT NULL,             -- YYYY-MM-DD
    amendment     TEXT,                      -- 'Amd 12 Draft 1'
    source_name   TEXT NOT NULL,
    source_sha256 TEXT NOT NULL,
    report        TEXT NOT NULL DEFAULT '{}', -- the parse report (codes found, with a fee, fee unknown ...)
    status        TEXT NOT NULL CHECK (status IN ('current', 'superseded')),
    loaded_at     TEXT NOT NULL,
    superseded_at TEXT
);
CREATE TABLE ohip_sections (              -- one table-of-contents entry: 'Anaesthesia (01)', first page 'A72'
    section_key INTEGER PRIMARY KEY,
    part        TEXT NOT NULL,             -- 'A'
    part_title  TEXT NOT NULL,             -- 'Consultations and Visits'
    title       TEXT NOT NULL,
    specialty   TEXT,                      -- '01'
    first_page  TEXT NOT NULL,
    last_page   TEXT NOT NULL
);
CREATE TABLE ohip_codes (
    code       TEXT PRIMARY KEY,
    title      TEXT NOT NULL,
    defined_on TEXT                        -- the General Preamble page whose heading names the code
);
CREATE TABLE ohip_listings (              -- a code as listed in one section, with its fee there
    id          INTEGER PRIMARY KEY,
    code        TEXT NOT NULL REFERENCES ohip_codes(code),
    section_key INTEGER NOT NULL REFERENCES ohip_sections(section_key),
    description TEXT NOT NULL,
    heading     TEXT,
    page        TEXT NOT NULL,
    line        INTEGER NOT NULL,          -- in the source text file
    status      TEXT NOT NULL CHECK (status IN ('aligned', 'independent_consideration', 'percent', 'unknown')),
    fee         REAL,
    fee_text    TEXT NOT NULL,
    components  TEXT NOT NULL DEFAULT '{}',
    unit        TEXT,
    percent     REAL,
    prefix      TEXT,
    reason      TEXT
);
CREATE TABLE ohip_rules (                 -- payment rules, notes, commentary ... under a heading
    rule_key    INTEGER PRIMARY KEY,
    section_key INTEGER NOT NULL REFERENCES ohip_sections(section_key),
    heading     TEXT NOT NULL,
    kind        TEXT NOT NULL,
    page        TEXT NOT NULL,
    text        TEXT NOT NULL
);
CREATE TABLE ohip_rule_codes (
    rule_key INTEGER NOT NULL REFERENCES ohip_rules(rule_key),
    code     TEXT NOT NULL,
    relation TEXT NOT NULL CHECK (relation IN ('subject', 'mention')),
    PRIMARY KEY (rule_key, code, relation)
);
CREATE INDEX ohip_listings_code ON ohip_listings(code);
CREATE INDEX ohip_rule_codes_code ON ohip_rule_codes(code, relation);
"""

_JOB_RUNNERS = """
-- #11: which process runs a job (its runner lock tells whether it is alive), and a cancel request
ALTER TABLE jobs ADD COLUMN runner TEXT;
ALTER TABLE jobs ADD COLUMN cancel_requested INTEGER NOT NULL DEFAULT 0;
"""

_OHIP_NO_FEE = """
-- #14: a listing the text gives no fee of its own ('no_fee': a table naming codes, basic units only); SQLite
-- cannot alter a CHECK constraint, so the table is rebuilt with its rows
CREATE TABLE ohip_listings_new (              -- a code as listed in one section, with its fee there
    id          INTEGER PRIMARY KEY,
    code        TEXT NOT NULL REFERENCES ohip_codes(code),
    section_key INTEGER NOT NULL REFERENCES ohip_sections(section_key),
    description TEXT NOT NULL,
    heading     TEXT,
    page        TEXT NOT NULL,
    line        INTEGER NOT NULL,          -- in the source text file
    status      TEXT NOT NULL CHECK (status IN ('aligned', 'independent_consideration', 'percent', 'no_fee', 'unknown')),
    fee         REAL,
    fee_text    TEXT NOT NULL,
    components  TEXT NOT NULL DEFAULT '{}',
    unit        TEXT,
    percent     REAL,
    prefix      TEXT,
    reason      TEXT
);
INSERT INTO ohip_listings_new SELECT * FROM ohip_listings;
DROP TABLE ohip_listings;
ALTER TABLE ohip_listings_new RENAME TO ohip_listings;
CREATE INDEX ohip_listings_code ON ohip_listings(code);
"""

_OHIP_TITLE_VECTORS = """
-- #14: each code's title (with its section) as an embedding, to find a code by what people call it ('flu
-- shot' -> G590 'Influenza agent'); the current edition's rows, written after its tables by `coverage load`
CREATE TABLE ohip_title_vectors (
    edition_id INTEGER NOT NULL REFERENCES ohip_editions(id),
    code       TEXT NOT NULL,
    model_id   TEXT NOT NULL,              -- the embedding model: vectors of another model are not comparable
    text_hash  TEXT NOT NULL,              -- sha256 of the text embedded: a reload reuses an unchanged text's
    vector     BLOB NOT NULL,              -- float32, L2-normalised
    PRIMARY KEY (edition_id, code)
);
"""

_UNIT_VECTORS = """
-- #13: each answer unit's embedding (a sentence, list item or "Label: value" line of a chunk), written at ingest,
-- so the extractive answer can weigh what a unit means beside the words it shares with the question ('brain
-- zaps' / 'electric shock sensations') without embedding candidates at question time. Keyed by the unit's text:
-- a unit repeated across chunks, versions or a neighbour-joined passage is one row, found whatever chunk holds it
CREATE TABLE unit_vectors (
    model_id  TEXT NOT NULL,               -- the embedding model: vectors of another model are not comparable
    text_hash TEXT NOT NULL,               -- sha256 of the unit's text
    vector    BLOB NOT NULL,               -- float16, L2-normalised (half the size; cosines move < 0.001)
    PRIMARY KEY (model_id, text_hash)
) WITHOUT ROWID;
"""

_ADP_SUBJECT_TERMS = """
-- #14: the words a question uses for a subject that is no device category ('a CGM': §105.05 lists no glucose
-- monitoring category, §800.00 an rtCGM application form); the table is rebuilt with its rows for the CHECK
CREATE TABLE adp_terms_new (
    term   TEXT NOT NULL,
    kind   TEXT NOT NULL CHECK (kind IN ('device', 'category', 'category_key', 'not_listed', 'not_a_category',
                                         'not_a_category_term')),
    target TEXT NOT NULL,                   -- device key, category name, not-listed key, or the message
    PRIMARY KEY (term, kind, target)
);
INSERT INTO adp_terms_new SELECT * FROM adp_terms;
DROP TABLE adp_terms;
ALTER TABLE adp_terms_new RENAME TO adp_terms;
"""

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial", _INITIAL),
    Migration(2, "odb_formulary", _ODB_FORMULARY),
    Migration(3, "audit_and_access", _AUDIT_AND_ACCESS),
    Migration(4, "ohip_schedule", _OHIP_SCHEDULE),
    Migration(5, "adp_manuals", _ADP_MANUALS),
    Migration(6, "job_runners", _JOB_RUNNERS),
    Migration(7, "ohip_no_fee_status", _OHIP_NO_FEE),
    Migration(8, "ohip_title_vectors", _OHIP_TITLE_VECTORS),
    Migration(9, "unit_vectors", _UNIT_VECTORS),
    Migration(10, "adp_subject_terms", _ADP_SUBJECT_TERMS),
)
