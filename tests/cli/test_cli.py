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


def test_search_json_shape(runner: CliRunner, ingested: Path) -> None:
    code, out, _ = run(runner, "search", "anticoagulation in AF", "-k", "2", "--json")
    assert code == 0
    hits = json.loads(out)
    assert hits and set(hits[0]) >= {"chunk_id", "doc_key", "title", "section_path", "page", "score", "text"}
    assert hits[0]["doc_key"] == "af" and hits[0]["section_path"] == "Stroke prevention"
    assert hits[0]["text"].startswith("Atrial fibrillation > Stroke prevention")


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
    jobs = json.loads(out)
    assert jobs[0]["state"] == "failed" and jobs[0]["error_code"] == "PARSE_ERROR" or jobs[0]["error_code"] == "EMPTY_DOCUMENT"
    job_id = str(jobs[0]["id"])
    code, out, _ = run(runner, "jobs", "show", job_id)
    assert code == 0 and "failed" in out
    code, out, err = run(runner, "jobs", "retry", job_id)
    assert code == 1  # the stored original is still broken
    code, out, _ = run(runner, "jobs", "show", job_id, "--json")
    assert json.loads(out)["retry_count"] == 1
    code, out, _ = run(runner, "jobs")
    assert code == 0 and "broken" in out


def test_remove_status_and_reindex(runner: CliRunner, ingested: Path) -> None:
    code, out, _ = run(runner, "status", "--json")
    status = json.loads(out)
    assert status["documents"] == 1 and status["indexed_model"] == "sentence-transformers/all-MiniLM-L6-v2"
    code, out, _ = run(runner, "reindex")
    assert code == 0 and "re-embedded" in out and "of 1 documents" in out
    code, out, _ = run(runner, "remove", "af")
    assert code == 0 and "removed af (version 1)" in out
    code, out, _ = run(runner, "search", "anticoagulation", "--json")
    assert json.loads(out) == []


def test_invalid_settings_are_reported(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURBSIDE_EMBEDDER", "word2vec")
    code, out, err = run(runner, "status")
    assert code == 4 and "Invalid CURBSIDE_* settings" in err and "embedder" in err


def test_demo_runs_on_the_bundled_samples(runner: CliRunner, home: Path) -> None:
    code, out, _ = run(runner, "demo")
    assert code == 0, out
    assert out.count("ingested") >= 4 and "SAMPLE" in out
    assert "Q: can I start metformin if eGFR is 35?" in out and "Q: malaria + pregnant + first trimester" in out
    assert "artemether-lumefantrine" in out and "[1]" in out and "Sources:" in out
    assert out.count("(answered;") == 2
    assert "curbside ingest PATH" in out
    assert (home / "demo" / "curbside.sqlite3").exists()
