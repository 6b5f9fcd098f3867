"""Loading the Schedule: the parse report, idempotent reloads, a failed load keeping the previous edition."""

from __future__ import annotations

import asyncio
from pathlib import Path

import apsw
import pytest
from ohip_subset import write_subset

from curbside.app import Curbside
from curbside.coverage.loading import load_directory
from curbside.coverage.ohip.dense_titles import code_texts
from curbside.coverage.ohip.load import OhipLoader, report_counts
from curbside.coverage.ohip.parse import parse_schedule
from curbside.coverage.ohip.status import ohip_status
from curbside.coverage.ohip.store import current_edition
from curbside.coverage.ohip.tool import ScheduleGetArgs
from curbside.coverage.reports import LoadReport
from curbside.settings import Settings
from curbside.store.database import Database
from curbside.store.migrations import MIGRATIONS

LABEL = "OHIP Schedule of Benefits (effective 2025-03-03)"


def test_first_load_report(ohip_loaded: tuple[Curbside, LoadReport], ohip_subset_dir: Path) -> None:
    app, report = ohip_loaded
    (source,) = report.sources
    assert (source.source, source.status, source.edition, source.error_code) == ("ohip", "loaded", LABEL, None)
    parsed = parse_schedule(next(ohip_subset_dir.glob("*.txt")))
    # and the title vectors (dense_titles): one embedding per distinct text
    embedded = len(set(code_texts(app.db).values()))
    assert source.counts == report_counts(parsed) | {"title_vectors_embedded": embedded}
    r = parsed.report
    # the kept pages: 152 codes, 147 with an aligned fee, 5 'fee unknown' (C002/C007/C009, C813/C815 on A10);
    # the second reading (``realign``) aligned the 16 skin codes of M1 (values printed before their codes) and
    # X011's H and P columns (D5): 130 before
    assert (r.codes_found, r.codes_with_fee, r.codes_fee_unknown) == (152, 147, 5)
    assert (r.codes_fee_read, r.codes_no_fee) == (144, 3)  # 3 I.C: the text prints no fee for them
    assert source.message == (
        f"{LABEL}: 152 codes, 147 with an aligned fee (96.7%: 144 read, 3 I.C or no fee of their own), 5 fee unknown"
    )
    assert source.passages["ingested"] == r.sections == 8 and source.passages["failed"] == 0
    assert source.passages["chunks"] == sum(d.chunk_count for d in app.documents.list_current("ohip"))
    edition = current_edition(app.db)
    assert edition is not None and edition.report == r.to_dict()
    status = ohip_status(app)
    assert (status["loaded"], status["effective"], status["parse_report"]["aligned_share"]) == (
        True,
        "2025-03-03",
        0.9671,
    )


def test_same_file_again_is_unchanged(ohip_app: Curbside, ohip_subset_dir: Path) -> None:
    before = current_edition(ohip_app.db)
    (source,) = load_directory(ohip_app.coverage_store, ohip_subset_dir).sources
    assert source.status == "unchanged"
    assert source.message == f"{LABEL} is already loaded; nothing to do"
    assert source.passages | {"chunks": 0} == {"ingested": 0, "unchanged": 8, "failed": 0, "removed": 0, "chunks": 0}
    assert source.counts["title_vectors_embedded"] == 0  # the vectors stored are the edition's
    assert current_edition(ohip_app.db) == before


@pytest.mark.parametrize(
    ("content", "code", "message"),
    [
        ("cut", "PARSE_ERROR", "looks truncated: it has no Numeric Index"),
        ("latin", "PARSE_ERROR", "is not UTF-8 text"),
        ("other", "PARSE_ERROR", "does not name its effective date"),
    ],
)
def test_failed_load_keeps_the_previous_edition(
    ohip_app: Curbside, ohip_text: Path, tmp_path: Path, content: str, code: str, message: str
) -> None:
    before = current_edition(ohip_app.db)
    target = tmp_path / ohip_text.name
    if content == "cut":  # a download or an extraction cut short
        text = ohip_text.read_text(encoding="utf-8")
        target.write_text(text[: len(text) // 2], encoding="utf-8")
    elif content == "latin":
        target.write_bytes(ohip_text.read_bytes()[:2000] + "Café – é".encode("cp1252"))
    else:
        target.write_text("Ontario Drug Benefit Formulary\n" * 100, encoding="utf-8")
    (source,) = load_directory(ohip_app.coverage_store, tmp_path).sources
    assert (source.status, source.error_code) == ("failed", code)
    assert message in source.message
    assert current_edition(ohip_app.db) == before
    answer = asyncio.run(ohip_app.coverage_service("ohip").get(ScheduleGetArgs(codes=["C124"], specialty="00")))
    assert answer.items[0].fee == 61.15


def test_new_edition_replaces_rows_and_removes_stale_passages(ohip_text: Path, tmp_path: Path) -> None:
    """A home of its own (few pages), so the session's edition stays as the other tests expect."""
    app = Curbside(Settings(home=tmp_path / "home"))
    pages = ["GP1", "GP40", "GP41", "GP42", "GP43", "A72", "A73", "A74", "A75", "A76"]
    try:
        write_subset(ohip_text, tmp_path / "a" / ohip_text.name, [*pages, "D5"])
        (first,) = load_directory(app.coverage_store, tmp_path / "a").sources
        assert first.status == "loaded" and first.passages["ingested"] == 5  # D5 is 'Head and Neck'
        write_subset(ohip_text, tmp_path / "b" / ohip_text.name, pages)
        (second,) = load_directory(app.coverage_store, tmp_path / "b").sources
        assert second.status == "loaded" and second.message.endswith(f", replacing {LABEL}")
        assert (second.passages["removed"], second.passages["unchanged"], second.passages["ingested"]) == (1, 4, 0)
        assert [d.doc_key for d in app.documents.list_current("ohip") if "d5" in d.doc_key] == []
        answer = asyncio.run(app.coverage_service("ohip").get(ScheduleGetArgs(codes=["X001"])))
        assert answer.needs_more_info and answer.summary.startswith("X001 is not in the")
    finally:
        app.close()


def test_migration_4_creates_the_tables(ohip_app: Curbside) -> None:
    assert ohip_app.db.one("SELECT name FROM schema_migrations WHERE version = 4") == ("ohip_schedule",)
    tables = {r[0] for r in ohip_app.db.rows("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"ohip_editions", "ohip_sections", "ohip_codes", "ohip_listings", "ohip_rules", "ohip_rule_codes"} <= tables


def test_changed_parsing_code_reads_the_same_file_again(ohip_text: Path, tmp_path: Path) -> None:
    """The file's hash alone would keep tables parsed by an older parser; its version is part of the key."""
    app = Curbside(Settings(home=tmp_path / "home"))
    try:
        write_subset(
            ohip_text,
            tmp_path / "a" / ohip_text.name,
            ["GP1", "GP40", "GP41", "GP42", "GP43", "A72", "A73", "A74", "A75", "A76"],
        )
        assert load_directory(app.coverage_store, tmp_path / "a").sources[0].status == "loaded"
        assert load_directory(app.coverage_store, tmp_path / "a").sources[0].status == "unchanged"
        app.db.set_meta("coverage.ohip.parser_version", "0")  # the file was read by an older parser
        again = load_directory(app.coverage_store, tmp_path / "a").sources[0]
        assert again.status == "loaded" and app.db.get_meta("coverage.ohip.parser_version") == OhipLoader.parser_version
    finally:
        app.close()


def test_a_home_loaded_before_no_fee_keeps_its_listings_and_accepts_the_status(tmp_path: Path) -> None:
    """Migration 7 rebuilds ohip_listings (SQLite cannot alter its CHECK): the rows stay, 'no_fee' is accepted."""

    class Before(Database):
        migrations = MIGRATIONS[:6]

    old = Before(tmp_path / "curbside.db")
    old.execute(
        "INSERT INTO ohip_sections VALUES (1, 'GP', 'General Preamble', 'Delegated Procedure', NULL, 'GP62', 'GP63')"
    )
    old.execute("INSERT INTO ohip_codes VALUES ('G470', 'Ultraviolet light therapy', NULL)")
    row = "INSERT INTO ohip_listings(code, section_key, description, page, line, status, fee_text) VALUES (?, 1, '', ?, ?, ?, ?)"
    old.execute(row, ("G470", "J37", 26000, "aligned", "7.85"))
    with pytest.raises(apsw.ConstraintError):
        old.execute(row, ("G470", "GP63", 3264, "no_fee", "no fee here"))
    old.close()
    new = Database(tmp_path / "curbside.db")
    assert new.schema_version() == MIGRATIONS[-1].version
    new.execute(row, ("G470", "GP63", 3264, "no_fee", "no fee here"))
    assert new.conn.execute("SELECT status, fee_text FROM ohip_listings ORDER BY line").fetchall() == [
        ("no_fee", "no fee here"),
        ("aligned", "7.85"),
    ]
