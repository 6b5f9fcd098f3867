"""Loading the ADP manuals: one transaction, idempotent, all or nothing, the previous edition kept on failure."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from curbside.app import Curbside
from curbside.coverage.adp.status import adp_status
from curbside.coverage.adp.store import current_editions
from curbside.coverage.adp.tool import AdpGetArgs
from curbside.coverage.loading import load_directory
from curbside.coverage.reports import LoadReport
from curbside.settings import Settings
from curbside.types import SearchFilters
from tests.coverage.adp.conftest import CORE_PDF, MOBILITY_PDF

CORE = "Policies and Procedures Manual for the Assistive Devices Program (July 2023)"
MOBILITY = "Mobility Devices Policy and Administration Manual (July 2023)"


def test_first_load_report(adp_loaded: tuple[Curbside, LoadReport], adp_dir: Path) -> None:
    app, report = adp_loaded
    core, mobility = report.sources
    assert [(s.source, s.path, s.status, s.edition) for s in report.sources] == [
        ("adp", str(adp_dir / CORE_PDF), "loaded", CORE),
        ("adp", str(adp_dir / MOBILITY_PDF), "loaded", MOBILITY),
    ]
    stored = dict(app.db.rows("SELECT manual, COUNT(*) FROM adp_paragraphs GROUP BY manual"))
    assert core.counts == {
        "pages": 132,
        "sections": 66,
        "paragraphs": stored["core"],
        "categories": 19,
        "rules": 44,
        "devices": 11,
    }
    # 47 policies and appendices, and Part 4's own introduction
    assert mobility.counts == {"pages": 54, "sections": 48, "paragraphs": stored["mobility-devices"]}
    assert core.message == f"{CORE}: 66 sections, {stored['core']} paragraphs"
    docs = {d.doc_key: d.chunk_count for d in app.documents.list_current("adp")}
    assert set(docs) == {"adp-core", "adp-mobility-devices"}
    assert (core.passages["ingested"], core.passages["chunks"]) == (1, docs["adp-core"])
    assert (mobility.passages["ingested"], mobility.passages["chunks"]) == (1, docs["adp-mobility-devices"])
    assert app.db.scalar("SELECT name FROM schema_migrations WHERE version = 5") == "adp_manuals"
    assert app.db.scalar("SELECT COUNT(*) FROM adp_rules") == 44
    assert app.db.scalar("SELECT COUNT(*) FROM adp_categories") == 19
    assert app.db.one(
        "SELECT page, page_end FROM adp_paragraphs WHERE manual = 'core' AND paragraph_id = '305.01'"
    ) == (
        35,
        36,
    )


def test_passages_stay_in_their_namespace_with_pages(adp_app: Curbside) -> None:
    engine = adp_app.search_engine
    general = engine.search("ADP batteries for a Device", k=5, min_similarity=None).hits
    assert all(p.namespace != "adp" for p in general)
    hits = engine.search("batteries", k=5, filters=SearchFilters(namespace="adp"), min_similarity=None).hits
    assert hits and all(p.title in (CORE, MOBILITY) and p.page is not None for p in hits)


def test_same_files_again_are_unchanged(adp_app: Curbside, adp_dir: Path) -> None:
    before = current_editions(adp_app.db)
    sources = load_directory(adp_app.coverage_store, adp_dir).sources
    assert [(s.status, s.message) for s in sources] == [
        ("unchanged", f"{CORE} is already loaded; nothing to do"),
        ("unchanged", f"{MOBILITY} is already loaded; nothing to do"),
    ]
    assert [s.passages["unchanged"] for s in sources] == [1, 1]
    assert current_editions(adp_app.db) == before


def test_truncated_manual_fails_the_load_and_keeps_the_previous_edition(
    adp_app: Curbside, adp_dir: Path, tmp_path: Path
) -> None:
    before = current_editions(adp_app.db)
    data = (adp_dir / CORE_PDF).read_bytes()
    (tmp_path / CORE_PDF).write_bytes(data[: int(len(data) * 0.9)])  # a download cut short
    shutil.copy(adp_dir / MOBILITY_PDF, tmp_path / MOBILITY_PDF)
    core, mobility = load_directory(adp_app.coverage_store, tmp_path).sources
    assert (core.path, core.status, core.error_code) == (str(tmp_path / CORE_PDF), "failed", "PARSE_ERROR")
    assert core.message.startswith(f"{CORE_PDF} looks truncated")
    assert (mobility.status, mobility.message) == (
        "failed",
        f"not loaded: the ADP manuals load together and {CORE_PDF} failed; nothing was changed",
    )
    assert current_editions(adp_app.db) == before
    r = asyncio.run(adp_app.coverage_service("adp").get(AdpGetArgs(q="what does ADP pay for a walker?")))
    assert r.funding is not None and r.funding.adp_contribution == 75.0


def test_a_manual_the_rules_cite_is_missing(adp_app: Curbside, adp_dir: Path, tmp_path: Path) -> None:
    before = current_editions(adp_app.db)
    shutil.copy(adp_dir / MOBILITY_PDF, tmp_path / MOBILITY_PDF)
    (source,) = load_directory(adp_app.coverage_store, tmp_path).sources
    assert (source.status, source.error_code) == ("failed", "VALIDATION_ERROR")
    assert source.message == (
        "not loaded: the project's ADP rules cite manuals that are not in the folder (core); put every ADP manual "
        "(PDF) in the folder and load again. Nothing was changed"
    )
    assert current_editions(adp_app.db) == before


def test_status(adp_app: Curbside, tmp_path: Path) -> None:
    status = adp_status(adp_app)
    assert (status["source"], status["namespace"], status["loaded"]) == ("adp", "adp", True)
    assert (
        status["edition"]
        == f"ADP manuals, July 2023: {CORE.removesuffix(' (July 2023)')}; {MOBILITY.removesuffix(' (July 2023)')}"
    )
    assert status["file"] == f"{CORE_PDF}; {MOBILITY_PDF}"
    assert {k: status["counts"][k] for k in ("manuals", "rules", "categories", "devices")} == {
        "manuals": 2,
        "rules": 44,
        "categories": 19,
        "devices": 11,
    }
    assert status["passages"]["documents"] == 2
    empty = Curbside(Settings(home=tmp_path / "empty"))
    try:
        assert adp_status(empty) == {
            "source": "adp",
            "namespace": "adp",
            "loaded": False,
            "hint": "run `curbside coverage load DIR` with the ADP manuals (*adp*manual*.pdf) in DIR",
            "passages": {"documents": 0, "chunks": 0},
        }
    finally:
        empty.close()


def test_sentence_vectors_are_built_at_load(adp_app: Curbside) -> None:
    """The manuals' sentence and category vectors are embedded by the load and cached in the home, so a
    fresh process's warm-up reads them back instead of embedding a thousand sentences before its first call."""
    from curbside.coverage.adp.meaning import AdpMeaning
    from curbside.coverage.adp.sql_path import ManualsCache
    from curbside.coverage.adp.store import AdpReader

    cached = sorted((adp_app.settings.home / "cache").glob("adp-meaning-*.npy"))
    assert len(cached) == 2  # the sentences, the categories

    class NoEmbedding:  # the process's MiniLM, refusing to embed a passage
        def __init__(self) -> None:
            from curbside.coverage.ohip.dense_titles import title_embedder

            self.inner = title_embedder()
            self.model_id = self.inner.model_id

        def warm_up(self) -> None:
            self.inner.warm_up()

        def embed_passages(self, texts: list[str]) -> None:
            raise AssertionError(f"embedded {len(texts)} texts that the load had cached")

        def embed_query(self, text: str) -> object:
            return self.inner.embed_query(text)

    cache = ManualsCache(AdpMeaning(NoEmbedding(), cache_dir=adp_app.settings.home / "cache"))  # type: ignore[arg-type]
    reader = AdpReader(adp_app.settings.db_path)
    try:
        with reader.snapshot():
            editions = reader.editions()
            cache.build_meaning(reader, editions)
            meaning = cache.meaning.question(cache.key(reader, editions), "replacement walker after misuse")
    finally:
        reader.close()
    assert meaning is not None and len(meaning.sentence_cosines) > 1000
