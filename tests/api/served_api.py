"""A real `curbside serve` on a loopback port, for tests that talk HTTP to it (fuzzing, regressions).

The server runs as a subprocess over a home given by the caller; its stderr goes to a
file, so a test can show the server's own traceback next to the request that caused it.
"""

from __future__ import annotations

import json
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

from curbside.app import Curbside
from curbside.cli.demo import sample_paths
from curbside.settings import Settings

__all__ = ["ROLES", "ServedApi", "prepare_home", "serve"]

ROLES = ("clinician", "admin", "auditor")


@dataclass(frozen=True)
class ServedApi:
    base_url: str
    keys: dict[str, str]  # role -> API key
    log: Path

    def headers(self, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.keys[role]}"}

    def log_size(self) -> int:
        return self.log.stat().st_size

    def log_since(self, offset: int) -> str:
        """What the server logged after ``offset``, its JSON lines shown as message and traceback.

        Uvicorn logs an exception after the 500 has been sent: give it a moment.
        """
        time.sleep(0.5)
        with self.log.open("rb") as handle:
            handle.seek(offset)
            lines = handle.read().decode("utf-8", "replace").splitlines()
        return "\n".join(_readable(line) for line in lines)


def _readable(line: str) -> str:
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        return line
    if not isinstance(record, dict):
        return line
    head = f"{record.get('level', '?')} {record.get('logger', '?')}: {str(record.get('message', '')).strip()}"
    return f"{head}\n{record['error']}" if record.get("error") else head


def prepare_home(home: Path) -> dict[str, str]:
    """Ingest the bundled samples (4 small real documents) into ``home`` and add a user per role; their keys."""
    core = Curbside(Settings(home=home))
    try:
        assert not core.ingestor.ingest(sample_paths()).failed
        return {role: core.users.add(f"fuzz-{role}", role).key for role in ROLES}
    finally:
        core.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve(home: Path, keys: dict[str, str], log: Path, **env: str) -> Iterator[ServedApi]:
    """`curbside serve` over ``home`` with extra ``env`` (e.g. CURBSIDE_RATE_LIMIT), until the block ends.

    The server's stdout and stderr (its JSON log lines, tracebacks included) go to ``log``.
    """
    port = _free_port()
    environ = {**os.environ, "CURBSIDE_HOME": str(home), "PYTHONUNBUFFERED": "1", **env}
    command = [sys.executable, "-m", "curbside.cli", "serve", "--port", str(port), "--log-level", "warning"]
    with log.open("wb") as output:
        proc = subprocess.Popen(command, env=environ, stdout=output, stderr=subprocess.STDOUT)
    api = ServedApi(base_url=f"http://127.0.0.1:{port}", keys=keys, log=log)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                httpx.get(f"{api.base_url}/healthz", timeout=1.0).raise_for_status()
                break
            except httpx.TransportError:
                assert proc.poll() is None, f"the server exited:\n{api.log_since(0)}"
                assert time.monotonic() < deadline, f"the server did not start:\n{api.log_since(0)}"
                time.sleep(0.2)
        yield api
    finally:
        proc.terminate()
        proc.wait(timeout=30)
