"""``coverage load``: idempotent, one transaction, the previous edition kept on failure, stale passages removed."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from coverage_helpers import UNHURRIED_BUDGETS
from lxml import etree
from odb_subset import KEPT_CLASSES, write_subset

from curbside.app import Curbside
from curbside.coverage.loading import load_directory
from curbside.coverage.odb.parse import parse_formulary
from curbside.coverage.odb.service import OdbService
from curbside.coverage.odb.store import current_edition, replace_edition
from curbside.coverage.odb.tool import OdbGetArgs, OdbGetResult
from curbside.coverage.reports import LoadReport
from curbside.errors import NotFoundError, ValidationError
from curbside.settings import Settings

LABEL = "ODB Formulary Edition 43 (2025-08-29)"


def ask(app: Curbside, **args: object) -> OdbGetResult:
    return asyncio.run(app.coverage_service("odb").get(OdbGetArgs(**args)))


def _counted_in_xml(path: Path) -> dict[str, int]:
    root = etree.parse(str(path)).getroot()
    return {
        "drugs": len(root.findall(".//drug")),
        "groups": len(root.findall(".//pcg9")),
        "lu_notes": len(root.findall(".//lccNote")),
    }


def test_first_load_report(loaded: tuple[Curbside, LoadReport], subset_dir: Path) -> None:
    app, report = loaded
    (source,) = report.sources
    assert (source.source, source.status, source.edition) == ("odb", "loaded", LABEL)
    expected = _counted_in_xml(next(subset_dir.glob("*.xml")))
    assert {k: source.counts[k] for k in expected} == expected
    assert source.passages["ingested"] == len(KEPT_CLASSES) and source.passages["failed"] == 0
    assert source.passages["chunks"] == sum(d.chunk_count for d in app.documents.list_current("odb"))
    assert source.message == f"{LABEL}: {expected['drugs']} drugs"


def test_same_file_again_is_unchanged(odb_app: Curbside, subset_dir: Path) -> None:
    before = current_edition(odb_app.db)
    (source,) = load_directory(odb_app.coverage_store, subset_dir).sources
    assert source.status == "unchanged"
    assert source.message == f"{LABEL} is already loaded; nothing to do"
    assert source.passages | {"chunks": 0} == {"ingested": 0, "unchanged": 5, "failed": 0, "removed": 0, "chunks": 0}
    assert current_edition(odb_app.db) == before


def test_failed_load_keeps_the_previous_edition(odb_app: Curbside, odb_xml: Path, tmp_path: Path) -> None:
    before = current_edition(odb_app.db)
    data = odb_xml.read_bytes()
    (tmp_path / odb_xml.name).write_bytes(data[: int(len(data) * 0.9)])  # a download cut short
    (source,) = load_directory(odb_app.coverage_store, tmp_path).sources
    assert (source.status, source.error_code) == ("failed", "PARSE_ERROR")
    assert source.message.startswith(f"{odb_xml.name} looks truncated")
    assert current_edition(odb_app.db) == before
    assert ask(odb_app, din="02388839").coverage.unit_price == 3.2787  # type: ignore[union-attr]


def test_new_edition_replaces_rows_and_removes_stale_passages(
    odb_app: Curbside, odb_xml: Path, subset_dir: Path, tmp_path: Path
) -> None:
    before = current_edition(odb_app.db)
    assert before is not None
    without_antihistamines = tuple(c for c in KEPT_CLASSES if c != "040000000")
    write_subset(odb_xml, tmp_path / odb_xml.name, without_antihistamines)
    try:
        (source,) = load_directory(odb_app.coverage_store, tmp_path).sources
        assert source.status == "loaded"
        assert source.message == f"{LABEL}: {source.counts['drugs']} drugs, replacing {LABEL}"
        assert (source.passages["removed"], source.passages["unchanged"], source.passages["ingested"]) == (1, 4, 0)
        after = current_edition(odb_app.db)
        assert after is not None and after.id != before.id and after.source_sha256 != before.source_sha256
        assert odb_app.db.scalar("SELECT status FROM odb_editions WHERE id = ?", (before.id,)) == "superseded"
        gone = ask(odb_app, drug="Blexten")
        assert gone.needs_more_info and gone.summary.startswith(f"Blexten is not listed in the {LABEL}")
        assert "odb-040000000-antihistamines" not in {d.doc_key for d in odb_app.documents.list_current("odb")}
    finally:  # the session home goes back to the full subset for the other tests
        (source,) = load_directory(odb_app.coverage_store, subset_dir).sources
    assert (source.status, source.passages["ingested"]) == ("loaded", 1)
    assert ask(odb_app, drug="Blexten").coverage.din == "02454130"  # type: ignore[union-attr]


def test_older_extract_in_the_same_folder_is_skipped(odb_app: Curbside, subset_dir: Path, tmp_path: Path) -> None:
    current = next(subset_dir.glob("*.xml"))
    shutil.copy(current, tmp_path / current.name)
    older = tmp_path / "odb-formulary-edition-43-2025-07-31.xml"
    older.write_bytes(current.read_bytes().replace(b'formularyDate="2025-08-29"', b'formularyDate="2025-07-31"', 1))
    sources = load_directory(odb_app.coverage_store, tmp_path).sources
    assert [(s.path, s.status) for s in sources] == [
        (str(older), "skipped"),
        (str(tmp_path / current.name), "unchanged"),
    ]
    assert sources[0].message == f"an older edition than {current.name}"


def test_folder_without_coverage_files(odb_app: Curbside, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("nothing here")
    with pytest.raises(ValidationError) as err:
        load_directory(odb_app.coverage_store, tmp_path)
    assert err.value.message == (
        f"No coverage source files in {tmp_path} (expected odb: odb*formulary*.xml; "
        "ohip: ohip*schedule*benefits*.txt; adp: *adp*manual*.pdf)."
    )
    with pytest.raises(NotFoundError):
        load_directory(odb_app.coverage_store, tmp_path / "missing")


def test_whole_extract_into_sql(odb_xml: Path, tmp_path: Path) -> None:
    """The full file's rows, and answers from the SQL path alone (no passages are indexed in this home)."""
    app = Curbside(Settings(home=tmp_path / "full", **UNHURRIED_BUDGETS))
    record = replace_edition(app.db, parse_formulary(odb_xml), source_name=odb_xml.name, source_sha256="x")
    assert record.label == LABEL and record.counts["drugs"] == 8401
    assert app.db.scalar("SELECT COUNT(*) FROM odb_drugs") == 8401
    assert app.db.scalar("SELECT COUNT(*) FROM odb_lu_notes") == 1638
    service = OdbService(app.source_parts, search=lambda text, k: [])
    try:
        r = asyncio.run(service.get(OdbGetArgs(q="What are the LU criteria for celecoxib for osteoarthritis?")))
        celebrex = asyncio.run(service.get(OdbGetArgs(din="02239941")))
    finally:
        service.close()
        app.close()
    assert r.provenance == ["sql"] and r.citations == []
    assert [(c.reason_for_use_code, c.indication, c.matches_condition) for c in r.lu_criteria] == [
        ("316", "Osteoarthritis", True),
        ("317", "Rheumatoid arthritis", False),
    ]
    assert r.lu_criteria[0].authorization_period == "1 year"
    assert (
        "The maximum daily dose of celecoxib which will be reimbursed for the treatment of osteoarthritis is 200mg."
        in (r.lu_criteria[0].text)
    )
    c = celebrex.coverage
    assert c is not None and (c.brand_name, c.status, c.unit_price, c.amount_mohltc_pays) == (
        "Celebrex",
        "limited_use",
        0.8299,
        0.1279,
    )
    assert celebrex.lowest_cost is not None and celebrex.lowest_cost.savings == 0.702  # 0.8299 - 0.1279
    assert celebrex.confidence == 0.9
