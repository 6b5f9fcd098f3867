"""`curbside ask` and `curbside serve` as a user runs them."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from curbside.cli import cli
from curbside.cli.demo import sample_paths


@pytest.fixture
def samples_home(home: Path) -> Path:
    result = CliRunner().invoke(cli, ["ingest", *map(str, sample_paths())])
    assert result.exit_code == 0, result.output
    return home


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_ask_prints_the_answer_and_its_sources(samples_home: Path) -> None:
    code, out, _ = invoke("ask", "can I start metformin if eGFR is 35?")
    assert code == 0
    assert "eGFR" in out and "[1]" in out and "Sources:" in out
    assert "sample-metformin-renal:v1:" in out and "(answered; extractive;" in out


def test_ask_json_has_the_answer_shape(samples_home: Path) -> None:
    code, out, _ = invoke(
        "ask", "--condition", "malaria", "--finding", "pregnant", "--finding", "first trimester", "--json"
    )
    assert code == 0
    answer = json.loads(out)
    assert set(answer) == {"status", "answer", "citations", "clarifying_question", "warnings", "metadata"}
    assert answer["status"] == "answered" and answer["citations"][0]["doc_key"] == "sample-malaria-guideline"


def test_ask_clarifies_and_reports_no_source(samples_home: Path) -> None:
    code, out, _ = invoke("ask", "heart failure management options")
    assert code == 0 and out.startswith("Before answering:") and "ejection fraction" in out
    code, out, _ = invoke("ask", "how do I change the oil in a diesel car engine?")
    assert code == 0 and out.startswith("No source:")


@pytest.mark.parametrize(
    ("args", "message"), [(["ask"], "question is empty"), (["ask", "--finding", "fever"], "need a condition")]
)
def test_ask_bad_input_exits_2(samples_home: Path, args: list[str], message: str) -> None:
    code, _, err = invoke(*args)
    assert code == 2 and "VALIDATION_ERROR" in err and message in err


def test_serve_starts_a_real_server(samples_home: Path) -> None:
    code, key, _ = invoke("users", "add", "dr-serve", "--role", "clinician")
    assert code == 0 and key.strip().startswith("cs_")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "CURBSIDE_HOME": str(samples_home)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "curbside.cli", "serve", "--port", str(port), "--log-level", "warning"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1.0)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
                assert time.monotonic() < deadline, "server did not start"
                time.sleep(0.2)
        assert health.json()["documents"] == 4
        question = {"question": "can I start metformin if eGFR is 35?"}
        refused = httpx.post(f"http://127.0.0.1:{port}/v1/ask", json=question, timeout=30)
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "UNAUTHENTICATED"
        bearer = {"Authorization": f"Bearer {key.strip()}"}
        answer = httpx.post(f"http://127.0.0.1:{port}/v1/ask", json=question, headers=bearer, timeout=60).json()
        assert answer["status"] == "answered" and answer["citations"]
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_routing_reason_tells_a_missing_model_from_a_forbidden_one(
    samples_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    question = "can I start metformin if eGFR is 35?"
    code, out, _ = invoke("ask", question, "--json")
    meta = json.loads(out)["metadata"]
    assert code == 0 and meta["model_used"] == "extractive"
    assert meta["routing_reason"] == (
        "no LLM endpoint is configured (set CURBSIDE_LOCAL_LLM_URL or CURBSIDE_CLOUD_LLM_URL); extractive answer"
    )
    # a cloud model is configured, but local-only routing forbids it: never called, and said so
    monkeypatch.setenv("CURBSIDE_CLOUD_LLM_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("CURBSIDE_LLM_ROUTING", "local-only")
    code, out, _ = invoke("ask", question, "--json")
    meta = json.loads(out)["metadata"]
    assert code == 0 and meta["model_used"] == "extractive"
    assert meta["routing_reason"] == "routing local-only forbids the cloud model (CURBSIDE_LLM_ROUTING); extractive answer"
