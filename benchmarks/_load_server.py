"""The home and the server ``bench_load.py`` measures: a real corpus, one key per simulated user, `curbside serve`.

The home keeps its corpus between runs (ingest skips what is unchanged); keys are issued
afresh on every run, since a key is shown only when it is made.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
GUIDELINES = (SHARED / "guidelines" / "html", SHARED / "guidelines" / "pmc-nxml")
SNIPPETS = SHARED / "retrieval" / "bioasq-snippets-dev"
# a server for the benchmark answers extractively: no model endpoint reaches it from the environment
_LLM_VARIABLES = ("CURBSIDE_LOCAL_LLM_URL", "CURBSIDE_CLOUD_LLM_URL")

__all__ = ["Server", "build_home", "issue_keys", "questions", "serve"]


def questions(limit: int) -> list[str]:
    """The first ``limit`` BioASQ questions that have a relevant snippet."""
    from curbside.evaluation.beir import load_beir

    return list(load_beir(SNIPPETS, limit_queries=limit).queries.values())


def build_home(home: Path, embedder: str, snippets: int) -> None:
    """Ingest the CEP guideline page, the PMC articles and ``snippets`` BioASQ snippets (relevant ones first)."""
    from curbside.app import Curbside
    from curbside.evaluation.beir import load_beir
    from curbside.evaluation.retrieval import prepared_documents
    from curbside.settings import Settings

    core = Curbside(Settings(home=home, embedder=embedder))
    try:
        files = sorted(path for folder in GUIDELINES for path in folder.iterdir() if path.is_file())
        report = core.ingestor.ingest(files)
        rows = load_beir(SNIPPETS, limit_queries=500, limit_docs=snippets).corpus[:snippets]
        report_rows = core.ingestor.ingest_prepared(prepared_documents(rows), total=len(rows))
        failed = [*report.failed, *report_rows.failed]
        if failed:
            raise SystemExit(f"ingest failed for {len(failed)} documents, e.g. {failed[0]}")
    finally:
        core.close()


def issue_keys(home: Path, embedder: str, count: int) -> list[str]:
    """Fresh clinician keys for users load-000 … (an earlier run's keys are revoked first)."""
    from curbside.app import Curbside
    from curbside.errors import NotFoundError
    from curbside.settings import Settings

    core = Curbside(Settings(home=home, embedder=embedder))
    try:
        keys = []
        for i in range(count):
            name = f"load-{i:03d}"
            try:
                core.users.revoke(name)
            except NotFoundError:
                pass
            keys.append(core.users.add(name, "clinician").key)
        return keys
    finally:
        core.close()


@dataclass(frozen=True)
class Server:
    base_url: str
    log: Path
    process: subprocess.Popen[bytes]

    def exceptions_logged(self) -> int:
        """Tracebacks uvicorn logged so far (each one a request that failed inside the app)."""
        return self.log.read_text(encoding="utf-8", errors="replace").count("Exception in ASGI application")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve(home: Path, embedder: str, log: Path, rate_limit: str | None) -> Iterator[Server]:
    """`curbside serve` (uvicorn, one worker) over ``home`` on a loopback port; output to ``log``."""
    env = {k: v for k, v in os.environ.items() if k not in _LLM_VARIABLES}
    env.update(CURBSIDE_HOME=str(home), CURBSIDE_EMBEDDER=embedder, PYTHONUNBUFFERED="1")
    if rate_limit is not None:
        env["CURBSIDE_RATE_LIMIT"] = rate_limit
    port = _free_port()
    command = [sys.executable, "-m", "curbside.cli", "serve", "--port", str(port), "--log-level", "warning"]
    with log.open("wb") as output:
        process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
    server = Server(f"http://127.0.0.1:{port}", log, process)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                httpx.get(f"{server.base_url}/healthz", timeout=2.0).raise_for_status()
                break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start; its log:\n{log.read_text(errors='replace')}") from None
                time.sleep(0.3)
        yield server
    finally:
        process.terminate()
        process.wait(timeout=30)
