"""The command line through click's runner: output, JSON shapes, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from curbside.cli import cli

GUIDE = """# Atrial fibrillation

## Stroke prevention

Oral anticoagulation is recommended for most patients with atrial fibrillation and a raised stroke risk.

## Rate control

Beta blockers or non-dihydropyridine calcium channel blockers control the ventricular rate.
"""


@pytest.fixture
def runner(home: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    # a small cap so the two sections of GUIDE become separate chunks
    monkeypatch.setenv("CURBSIDE_CHUNK_MAX_TOKENS", "48")
    return CliRunner()


def run(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def ingested(runner: CliRunner, tmp_path: Path) -> Path:
    src = tmp_path / "af.md"
    src.write_text(GUIDE, encoding="utf-8")
    code, out, _ = run(runner, "ingest", str(src), "--specialty", "cardiology", "--source-type", "guideline")
    assert code == 0, out
    return src


def test_help_is_fast_and_imports_no_models() -> None:
    probe = "import sys, curbside.cli; print(sorted(m for m in ('torch', 'onnxruntime', 'sentence_transformers', 'numpy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for command in ("ingest", "search", "ask", "serve", "jobs", "remove", "reindex", "eval", "demo", "status"):
        assert command in result.stdout


def test_ingest_prints_outcomes_and_size_table(runner: CliRunner, tmp_path: Path) -> None:
    src = tmp_path / "af.md"
    src.write_text(GUIDE, encoding="utf-8")
    code, out, _ = run(runner, "ingest", str(src))
    assert code == 0
    assert "+ af: version 1" in out and "1 ingested" in out
    assert "over cap (48)" in out and "tokens" in out
    code, out, _ = run(runner, "ingest", str(src))
    assert code == 0 and "= af: unchanged since version 1" in out


def test_ingest_json_and_failure_exit_code(runner: CliRunner, tmp_path: Path) -> None:
    good = tmp_path / "af.md"
    good.write_text(GUIDE, encoding="utf-8")
    bad = tmp_path / "slides.pptx"
    bad.write_bytes(b"PK\x03\x04")
    code, out, _ = run(runner, "ingest", str(good), str(bad), "--json")
    assert code == 1
    data = json.loads(out)
    statuses = {o["doc_key"]: (o["status"], o["error_code"]) for o in data["outcomes"]}
    assert statuses == {"af": ("ingested", None), "slides": ("failed", "UNSUPPORTED_FORMAT")}
    assert data["sizes"]["over_cap"] == 0


def test_search_json_is_the_http_response(runner: CliRunner, ingested: Path) -> None:
    """`search --json` prints what GET /v1/search returns for the same query: one shape on both edges."""
    from fastapi.testclient import TestClient

    from curbside.api import create_app
    from curbside.app import Curbside
    from curbside.settings import Settings
    from curbside.types import SearchResponse

    code, out, _ = run(runner, "search", "anticoagulation in AF", "-k", "2", "--json")
    assert code == 0
    printed = json.loads(out)
    assert set(printed) == set(SearchResponse.model_fields)
    assert printed["query"] == "anticoagulation in AF" and printed["mode"] == "hybrid"
    hit = printed["hits"][0]
    assert hit["doc_key"] == "af" and hit["section_path"] == "Stroke prevention"
    assert hit["text"].startswith("Atrial fibrillation > Stroke prevention") and hit["similarity"] > 0
    core = Curbside(Settings(rate_limit=None))
    try:
        key = core.users.add("dr-shape", "clinician").key
        with TestClient(create_app(core, warm_up=False)) as client:
            served = client.get(
                "/v1/search", params={"q": "anticoagulation in AF", "k": 2}, headers={"X-API-Key": key}
            ).json()
    finally:
        core.close()
    assert set(served) == set(printed)
    assert {k: v for k, v in served.items() if k != "took_ms"} == {k: v for k, v in printed.items() if k != "took_ms"}


@pytest.mark.parametrize(
    ("args", "code", "error_code", "message"),
    [
        (["search", "   ", "--json"], 2, "VALIDATION_ERROR", "Enter a question"),
        (["search", "heart", "-k", "0", "--json"], 2, "VALIDATION_ERROR", "Invalid value for '-k'"),
        (["search", "heart", "--json", "--mode", "vector"], 2, "VALIDATION_ERROR", "Invalid value for '--mode'"),
        (["ask", "--json"], 2, "VALIDATION_ERROR", "The question is empty"),
        (["ask", "--finding", "fever", "--json"], 2, "VALIDATION_ERROR", "need a condition"),
        (["jobs", "show", "12345", "--json"], 2, "NOT_FOUND", "No job with id 12345"),
        (["jobs", "retry", "12345", "--json"], 2, "NOT_FOUND", "No job with id 12345"),
        (["jobs", "list", "--state", "lost", "--json"], 2, "VALIDATION_ERROR", "Invalid value for '--state'"),
        (["ingest", "--json"], 2, "VALIDATION_ERROR", "Missing argument 'PATHS...'"),
        (["coverage", "status", "--json", "--bogus"], 2, "VALIDATION_ERROR", "No such option '--bogus'"),
        (["eval", "retrieval", "/nonexistent", "--json"], 2, "VALIDATION_ERROR", "/nonexistent is not a directory"),
        (["tool", "--args", "{"], 2, "VALIDATION_ERROR", "Name a tool"),
        (["tool", "source.passages", "--args", "[1]"], 2, "VALIDATION_ERROR", "must be a JSON object"),
        (["tool", "source.passages", "chunk_ids"], 2, "VALIDATION_ERROR", "write arguments as KEY=VALUE"),
    ],
)
def test_with_json_errors_are_the_http_error_shape(
    runner: CliRunner, ingested: Path, args: list[str], code: int, error_code: str, message: str
) -> None:
    got, out, err = run(runner, *args)
    assert got == code and err == ""
    body = json.loads(out)
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == error_code and message in body["error"]["message"]


def test_without_json_errors_stay_text(runner: CliRunner, ingested: Path) -> None:
    code, out, err = run(runner, "jobs", "show", "12345")
    assert code == 2 and out == "" and err.startswith("Error [NOT_FOUND]: No job with id 12345")
    code, out, err = run(runner, "search", "heart", "-k", "0")
    assert code == 2 and "search [OPTIONS] QUERY" in err and "Invalid value for '-k'" in err
    code, out, _ = run(runner, "search", "--", "--json")  # after --, --json is the query, not the flag
    assert code == 0 and not out.startswith("{")


def test_search_human_output_and_filters(runner: CliRunner, ingested: Path) -> None:
    code, out, _ = run(runner, "search", "rate control beta blockers", "-k", "1")
    assert code == 0 and "[1] Atrial fibrillation > Rate control" in out and "id: af:v1:" in out
    code, out, _ = run(runner, "search", "rate control beta blockers", "--source-type", "textbook")
    assert code == 0 and "No passage is relevant enough" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["search", "   "], "Enter a question"),
        (["search", "x" * 5000], "limit is 2000 characters"),
        (["search", "heart", "-k", "0"], "Invalid value for '-k'"),
        (["jobs", "show", "12345"], "No job with id 12345"),
        (["remove", "nope"], "No current document 'nope'"),
        (["jobs", "retry", "12345"], "No job with id 12345"),
    ],
)
def test_bad_input_exits_nonzero_with_a_message(runner: CliRunner, ingested: Path, args: list[str], message: str) -> None:
    code, out, err = run(runner, *args)
    assert code != 0
    assert message in out + err


def test_jobs_list_show_and_retry(runner: CliRunner, tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer <<>>\n%%EOF")  # a PDF with no pages
    code, out, err = run(runner, "ingest", str(broken))
    assert code == 1 and "! broken:" in out + err
    code, out, _ = run(runner, "jobs", "list", "--json")
    (job,) = json.loads(out)["jobs"]  # GET /v1/jobs's shape
    assert job["state"] == "failed" and job["error_code"] in ("PARSE_ERROR", "EMPTY_DOCUMENT")
    job_id = str(job["id"])
    code, out, _ = run(runner, "jobs", "show", job_id)
    assert code == 0 and "failed" in out
    code, out, err = run(runner, "jobs", "retry", job_id)
    assert code == 1  # the stored original is still broken
    code, out, _ = run(runner, "jobs", "show", job_id, "--json")
    assert json.loads(out)["retry_count"] == 1
    code, out, _ = run(runner, "jobs")
    assert code == 0 and "broken" in out


def test_jobs_list_filters_and_says_how_many_more(runner: CliRunner, tmp_path: Path) -> None:
    for n in range(4):
        (tmp_path / f"note{n}.md").write_text(f"# Note {n}\n\nWarfarin dosing note number {n}.\n", encoding="utf-8")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer <<>>\n%%EOF")
    assert run(runner, "ingest", *(str(p) for p in sorted(tmp_path.iterdir())))[0] == 1
    code, out, _ = run(runner, "jobs", "list", "--limit", "2")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3
    assert lines[-1] == "… and 3 more; narrow with --state or --doc-key, or raise --limit."
    code, out, _ = run(runner, "jobs", "list", "--state", "failed", "--json")
    assert [(j["doc_key"], j["state"]) for j in json.loads(out)["jobs"]] == [("broken", "failed")]
    code, out, _ = run(runner, "jobs", "list", "--doc-key", "note2")
    assert code == 0 and out.split()[2:] == ["1/1", "note2"] and "more" not in out
    code, out, _ = run(runner, "jobs", "list", "--state", "running")
    assert code == 0 and out == "no jobs match\n"
    code, out, _ = run(runner, "jobs", "list", "--limit", "2", "--json")
    assert len(json.loads(out)["jobs"]) == 2


def test_remove_status_and_reindex(runner: CliRunner, ingested: Path) -> None:
    code, out, _ = run(runner, "status", "--json")
    status = json.loads(out)
    assert status["documents"] == 1 and status["indexed_model"] == "sentence-transformers/all-MiniLM-L6-v2"
    code, out, _ = run(runner, "reindex")
    assert code == 0 and "re-embedded" in out and "of 1 documents" in out
    code, out, _ = run(runner, "remove", "af")
    assert code == 0 and "removed af (version 1)" in out
    code, out, _ = run(runner, "search", "anticoagulation", "--json")
    assert json.loads(out)["hits"] == []


def test_invalid_settings_are_reported(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURBSIDE_EMBEDDER", "word2vec")
    code, out, err = run(runner, "status")
    assert code == 4 and "Invalid CURBSIDE_* settings" in err and "embedder" in err


def test_demo_runs_on_the_bundled_samples(runner: CliRunner, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(runner, "demo")
    assert code == 0, out
    assert out.count("ingested") >= 4 and "SAMPLE" in out
    assert "Q: can I start metformin if eGFR is 35?" in out and "Q: malaria + pregnant + first trimester" in out
    assert "artemether-lumefantrine" in out and "[1]" in out and "Sources:" in out
    assert out.count("(answered;") == 2
    assert "curbside ingest PATH" in out
    assert (home / "demo" / "curbside.sqlite3").exists()
    # its ingest and its two answers are on the demo home's trail, as the operator's
    monkeypatch.setenv("CURBSIDE_HOME", str(home / "demo"))
    code, out, _ = run(runner, "audit", "export", "--since", "2000-01-01")
    found = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [(r["action"], r["user"]) for r in found] == [
        ("documents.ingest", "operator"),
        ("ask", "operator"),
        ("ask", "operator"),
    ]
    assert found[0]["details"]["ingested"] == 4 and len(found[0]["sources"]) == 4


def test_jobs_cancel_fails_a_pending_job_and_is_recorded(runner: CliRunner, home: Path) -> None:
    from datetime import UTC, datetime

    from curbside.app import Curbside
    from curbside.settings import Settings

    core = Curbside(Settings(home=home))
    try:
        job = core.ingestor.submit("waiting.md", b"# Waiting\n\nA queued note about potassium.\n").job
    finally:
        core.close()
    assert job is not None
    code, out, _ = run(runner, "jobs", "cancel", str(job.id))
    assert code == 0 and f"Job {job.id} (waiting) is cancelled." in out
    code, out, _ = run(runner, "jobs", "show", str(job.id), "--json")
    shown = json.loads(out)
    assert (shown["state"], shown["error_code"]) == ("failed", "CANCELLED")
    code, out, _ = run(runner, "jobs", "cancel", str(job.id), "--json")
    assert code == 3 and json.loads(out)["error"]["code"] == "INVALID_TRANSITION"
    core = Curbside(Settings(home=home))
    try:
        rows = [r for r in core.audit.export(datetime(2000, 1, 1, tzinfo=UTC)) if r["action"] == "jobs.cancel"]
    finally:
        core.close()
    assert [(r["outcome"], r["sources"]) for r in rows] == [("ok", ["waiting"]), ("INVALID_TRANSITION", [])]


def test_tool_takes_key_value_arguments_as_json_or_text(runner: CliRunner, ingested: Path) -> None:
    # a JSON value (a list here) is JSON; a pair overrides the same key of --args
    code, out, _ = run(
        runner, "tool", "source.passages", 'chunk_ids=["af:v1:0"]', "--args", '{"chunk_ids": ["nope:v1:0"]}'
    )
    assert code == 0, out
    assert [p["chunk_id"] for p in json.loads(out)["result"]["passages"]] == ["af:v1:0"]
    # anything that is not JSON is text: the tool says what is wrong with it
    code, out, _ = run(runner, "tool", "source.passages", "chunk_ids=af:v1:0")
    assert code == 2 and json.loads(out)["error"]["code"] == "VALIDATION_ERROR"


def test_a_cold_ask_screens_the_question_in_a_child_process(ingested: Path, home: Path) -> None:
    """A fresh `curbside ask` process: its detector loads in a child (it has none of its own), and finds and
    redacts the PHI in the question as the detector in process would."""
    import os

    question = "Maria Gonzalez, MRN 00123456: which drugs control the ventricular rate in atrial fibrillation?"
    env = {**os.environ, "CURBSIDE_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-m", "curbside.cli", "ask", question, "--no-llm", "--json"],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    meta = json.loads(done.stdout)["metadata"]
    assert (meta["phi_detected"], meta["phi_types"], meta.get("phi_screen_error")) == (True, ["ID", "PERSON"], None)
    exported = subprocess.run(
        [sys.executable, "-m", "curbside.cli", "audit", "export", "--since", "2000-01-01"],
        capture_output=True, text=True, env=env, timeout=300, check=True,
    ).stdout  # fmt: skip
    row = [json.loads(line) for line in exported.splitlines() if '"action": "ask"' in line][-1]
    assert row["question"].startswith("[PERSON], MRN [ID]: which drugs")
