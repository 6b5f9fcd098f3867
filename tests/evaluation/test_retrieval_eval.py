"""`curbside eval retrieval` and the BEIR reader, on a tiny dataset and on BioASQ."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from curbside.app.scratch import open_scratch
from curbside.cli import cli
from curbside.errors import ValidationError
from curbside.evaluation.beir import doc_key_for, load_beir
from curbside.evaluation.retrieval import evaluate_retrieval
from curbside.settings import Settings

CORPUS = {
    "aspirin": ("Aspirin", "Aspirin irreversibly inhibits platelet cyclooxygenase, reducing platelet aggregation."),
    "metformin": ("", "Metformin is the first-line drug for type 2 diabetes; it lowers hepatic glucose output."),
    "warfarin": ("", "Warfarin anticoagulation is reversed with vitamin K and prothrombin complex concentrate."),
    "asthma": ("Asthma", "Inhaled corticosteroids are the controller therapy for persistent asthma in children."),
    "penicillin": ("", "Most patients labelled penicillin-allergic tolerate penicillin after skin testing."),
    "gout": ("", "Allopurinol lowers serum urate to prevent recurrent gout flares."),
    "migraine": ("", "Triptans abort migraine attacks by agonism at serotonin 5-HT1B/1D receptors."),
    "thyroid": ("", "Levothyroxine replaces thyroid hormone in primary hypothyroidism; titrate to TSH."),
    # not a valid doc key: mapped, and mapped back in the rankings
    "doc 9/x": ("", "Iron deficiency anaemia responds to oral ferrous sulfate taken every other day."),
    "statin": ("", "Statins inhibit HMG-CoA reductase and lower LDL cholesterol."),
    "sepsis": ("", "Early antibiotics and fluid resuscitation reduce mortality in septic shock."),
    "tb": ("", "Tuberculosis treatment combines isoniazid, rifampicin, pyrazinamide and ethambutol."),
}
QUERIES = {
    "q1": "How does aspirin inhibit platelet aggregation?",
    "q2": "How is warfarin anticoagulation reversed?",
    "q3": "Which drugs treat tuberculosis?",
    "q4": "oral iron for iron deficiency anaemia",
    "q5": "a query with no judgements",
}
QRELS = [("q1", "aspirin", 1), ("q2", "warfarin", 2), ("q3", "tb", 1), ("q4", "doc 9/x", 1), ("q1", "statin", 0)]


def write_beir(root: Path, *, header: bool = True) -> Path:
    (root / "qrels").mkdir(parents=True)
    with (root / "corpus.jsonl").open("w") as f:
        for doc_id, (title, text) in CORPUS.items():
            f.write(json.dumps({"_id": doc_id, "title": title, "text": text}) + "\n")
    with (root / "queries.jsonl").open("w") as f:
        for qid, text in QUERIES.items():
            f.write(json.dumps({"_id": qid, "text": text}) + "\n")
    lines = ["query-id\tcorpus-id\tscore"] if header else []
    lines += [f"{q}\t{d}\t{s}" for q, d, s in QRELS]
    (root / "qrels" / "test.tsv").write_text("\n".join(lines) + "\n")
    return root


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, home: Path) -> CliRunner:
    monkeypatch.setenv("CURBSIDE_EMBEDDER", "minilm")
    monkeypatch.delenv("CURBSIDE_RAISE_ERRORS", raising=False)
    return CliRunner()


def test_cli_json_shape_and_easy_queries_are_perfect(runner: CliRunner, tmp_path: Path, home: Path) -> None:
    data = write_beir(tmp_path / "tiny")
    scratch = tmp_path / "scratch"
    result = runner.invoke(cli, ["eval", "retrieval", str(data), "--json", "--home", str(scratch)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["dataset"] == "tiny"
    assert out["docs"] == len(CORPUS)
    assert out["queries"] == 4  # q5 has no relevant document
    assert out["embedder"] == "minilm"
    assert set(out["runs"]) == {"bm25", "dense", "hybrid"}
    for scores in out["runs"].values():
        assert set(scores) == {"ndcg@10", "recall@10", "recall@100", "mrr@10"}
        assert all(0.0 <= v <= 1.0 for v in scores.values())
    assert out["runs"]["hybrid"]["ndcg@10"] == 1.0
    assert out["runs"]["hybrid"]["recall@100"] == 1.0
    assert out["ingest"]["ingested"] == len(CORPUS) and out["ingest"]["failed"] == 0
    assert {"load", "ingest", "bm25", "dense", "hybrid", "total"} <= set(out["seconds"])
    assert not home.exists()  # CURBSIDE_HOME is never touched

    # the same scratch home is reused: nothing re-embedded
    again = runner.invoke(cli, ["eval", "retrieval", str(data), "--json", "--home", str(scratch), "--modes", "hybrid"])
    assert again.exit_code == 0, again.output
    second = json.loads(again.stdout)
    assert second["ingest"]["unchanged"] == len(CORPUS) and second["ingest"]["ingested"] == 0
    assert set(second["runs"]) == {"hybrid"}
    assert second["runs"]["hybrid"] == out["runs"]["hybrid"]


def test_cli_table(runner: CliRunner, tmp_path: Path) -> None:
    data = write_beir(tmp_path / "tiny", header=False)
    result = runner.invoke(cli, ["eval", "retrieval", str(data), "--modes", "bm25", "--limit-queries", "2"])
    assert result.exit_code == 0, result.output
    assert "ndcg@10" in result.stdout and "bm25" in result.stdout
    assert "2 queries" in result.stdout


def test_scratch_home_drops_documents_outside_the_corpus(tmp_path: Path) -> None:
    data = write_beir(tmp_path / "tiny")
    scratch = tmp_path / "scratch"
    settings = Settings(home=tmp_path / "unused", embedder="minilm")
    evaluate_retrieval(data, open_system=open_scratch, settings=settings, home=scratch, modes=("bm25",))
    smaller = evaluate_retrieval(data, open_system=open_scratch, settings=settings, home=scratch, modes=("bm25",), limit_queries=1, limit_docs=3)
    assert smaller["docs"] == 3
    assert smaller["ingest"]["removed_stale"] == len(CORPUS) - 3
    assert smaller["ingest"]["unchanged"] == 3


def test_empty_rows_are_skipped_and_counted(tmp_path: Path) -> None:
    data = write_beir(tmp_path / "tiny")
    with (data / "corpus.jsonl").open("a") as f:
        f.write(json.dumps({"_id": "blank", "title": "", "text": "  "}) + "\n")
    out = evaluate_retrieval(data, open_system=open_scratch, settings=Settings(home=tmp_path / "unused", embedder="minilm"), modes=("bm25",))
    assert out["ingest"]["empty_rows"] == 1 and out["ingest"]["ingested"] == len(CORPUS)


def test_scratch_home_guards(tmp_path: Path) -> None:
    from curbside.app import Curbside
    from curbside.errors import ModelMismatchError

    data = write_beir(tmp_path / "tiny")
    settings = Settings(home=tmp_path / "unused", embedder="minilm")
    real_kb = tmp_path / "kb"
    real_kb.mkdir()
    (real_kb / "curbside.sqlite3").write_bytes(b"")
    with pytest.raises(ValidationError, match="not a scratch home"):
        evaluate_retrieval(data, open_system=open_scratch, settings=settings, home=real_kb, modes=("bm25",))

    scratch = tmp_path / "scratch"
    evaluate_retrieval(data, open_system=open_scratch, settings=settings, home=scratch, modes=("bm25",), limit_docs=4)
    app = Curbside(Settings(home=scratch))
    app.db.set_meta("embedding_model", "some/other-model")
    app.close()
    with pytest.raises(ModelMismatchError, match="scratch home .* another embedder"):
        evaluate_retrieval(data, open_system=open_scratch, settings=settings, home=scratch, modes=("bm25",), limit_docs=4)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing-dir"], "is not a directory"),
        (["no-qrels"], "qrels/test.tsv"),
        (["bad-line"], "corpus.jsonl, line 3: not valid JSON"),
    ],
)
def test_cli_bad_input(runner: CliRunner, tmp_path: Path, args: list[str], message: str) -> None:
    data = write_beir(tmp_path / "no-qrels")
    (data / "qrels" / "test.tsv").unlink()
    bad = write_beir(tmp_path / "bad-line")
    lines = (bad / "corpus.jsonl").read_text().splitlines()
    lines[2] = '{"_id": "broken", "text": '
    (bad / "corpus.jsonl").write_text("\n".join(lines) + "\n")
    result = runner.invoke(cli, ["eval", "retrieval", str(tmp_path / args[0])])
    assert result.exit_code == 2
    assert "VALIDATION_ERROR" in result.stderr and message in result.stderr


def test_cli_bad_mode(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["eval", "retrieval", str(write_beir(tmp_path / "d")), "--modes", "bm25,sparse"])
    assert result.exit_code == 2 and "sparse" in result.stderr


# --- the reader ------------------------------------------------------------------------


def test_reader_qrels_and_limits(tmp_path: Path) -> None:
    data = write_beir(tmp_path / "d", header=False)
    ds = load_beir(data)
    assert list(ds.queries) == ["q1", "q2", "q3", "q4"]
    assert ds.qrels["q1"] == {"aspirin": 1, "statin": 0}
    assert ds.relevant_doc_ids == {"aspirin", "warfarin", "tb", "doc 9/x"}

    ds = load_beir(data, limit_queries=2, limit_docs=1)  # the limit can never drop a relevant document
    assert list(ds.queries) == ["q1", "q2"]
    assert {r.id for r in ds.corpus} == {"aspirin", "warfarin"}
    assert ds.notes

    ds = load_beir(data, limit_queries=1, limit_docs=4)
    assert [r.id for r in ds.corpus] == ["aspirin", "metformin", "warfarin", "asthma"]  # corpus order kept


def test_reader_errors(tmp_path: Path) -> None:
    data = write_beir(tmp_path / "d")
    with (data / "qrels" / "test.tsv").open("a") as f:
        f.write("q2\twarfarin\tyes\n")
    with pytest.raises(ValidationError, match=r"test.tsv, line 7: score 'yes'"):
        load_beir(data)
    (data / "qrels" / "test.tsv").write_text("q1\taspirin\n")
    with pytest.raises(ValidationError, match="line 1: expected 3"):
        load_beir(data)
    (data / "qrels" / "test.tsv").write_text("q1\taspirin\t0\n")
    with pytest.raises(ValidationError, match="No query"):
        load_beir(data)
    (data / "queries.jsonl").write_text('{"text": "no id"}\n')
    with pytest.raises(ValidationError, match=r"queries.jsonl, line 1: .*_id"):
        load_beir(data)
    (data / "corpus.jsonl").unlink()
    with pytest.raises(ValidationError, match="Missing .*corpus.jsonl"):
        load_beir(data)
    with pytest.raises(ValidationError, match="limit-queries"):
        load_beir(write_beir(tmp_path / "e"), limit_queries=0)


def test_doc_key_mapping() -> None:
    assert doc_key_for("S72094f1f6e30") == "S72094f1f6e30"
    key = doc_key_for("doc 9/x")
    assert key.startswith("doc-9-x.") and key != doc_key_for("doc 9-x")
    assert doc_key_for("/") != doc_key_for("//")


# --- real data ---------------------------------------------------------------------------


@pytest.mark.slow
def test_bioasq_subset_is_sane(shared_data: Path, tmp_path: Path) -> None:
    """First 20 queries against their relevant snippets plus distractors (~400 docs): sanity, not the targets."""
    data = shared_data / "retrieval" / "bioasq-snippets-dev"
    settings = Settings(home=tmp_path / "unused", embedder="minilm")
    out = evaluate_retrieval(data, open_system=open_scratch, settings=settings, limit_queries=20, limit_docs=400)
    assert out["queries"] == 20 and out["docs"] == 400
    assert out["ingest"]["failed"] == 0
    runs = out["runs"]
    assert runs["hybrid"]["ndcg@10"] > 0.5
    for scores in runs.values():
        assert scores["ndcg@10"] > 0.4
        assert scores["recall@100"] >= scores["recall@10"]
