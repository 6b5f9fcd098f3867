"""Upload jobs survive a crashed server, run side by side, stop when cancelled or over time.

Real servers, killed with SIGKILL mid-job; a slow job is a ~20 MB text file (tens of seconds to
chunk and embed here), generated per test.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server import LiveServer

from curbside.app import Curbside
from curbside.kb.background import BackgroundIngest
from curbside.kb.jobs import JobState
from curbside.settings import Settings

pytestmark = pytest.mark.slow

WORDS = "renal hepatic dose sertraline metformin infusion clearance gradual titration monitor".split()


def slow_text(path: Path, megabytes: int = 20) -> Path:
    """A plain-text file that takes many seconds to chunk and embed."""
    rng = random.Random(7)
    paragraphs, size = [], 0
    while size < megabytes * 1_000_000:
        paragraph = " ".join(rng.choice(WORDS) for _ in range(90)) + "."
        paragraphs.append(paragraph)
        size += len(paragraph) + 2
    path.write_text("\n\n".join(paragraphs))
    return path


def admin_home(home: Path) -> str:
    core = Curbside(Settings(home=home))
    try:
        return core.users.add("jobs-admin", "admin").key
    finally:
        core.close()


def upload(live: LiveServer, key: str, path: Path) -> int:
    with path.open("rb") as handle:
        response = httpx.post(
            f"{live.url}/v1/documents",
            files={"file": (path.name, handle, "text/plain")},
            headers={"Authorization": f"Bearer {key}"},
            timeout=120,
        )
    assert response.status_code == 202, response.text
    return int(response.json()["job_id"])


def job(live: LiveServer, key: str, job_id: int) -> dict[str, Any]:
    response = httpx.get(f"{live.url}/v1/jobs/{job_id}", headers={"Authorization": f"Bearer {key}"}, timeout=30)
    assert response.status_code == 200, response.text
    return dict(response.json())


def wait_for(check: Callable[[], bool], what: str, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.3)


def test_a_killed_server_leaves_no_job_running_or_pending_after_restart(tmp_path: Path) -> None:
    home = tmp_path / "home"
    key = admin_home(home)
    big = slow_text(tmp_path / "big-notes.txt")
    small = tmp_path / "small-note.md"
    small.write_text("# Metformin\n\nReduce the dose when eGFR falls below 45 mL/min.\n")

    first = LiveServer(home, env={"CURBSIDE_INGEST_WORKERS": "1"})
    try:
        running_id = upload(first, key, big)
        wait_for(lambda: job(first, key, running_id)["state"] == "running", "the big job to start")
        pending_id = upload(first, key, small)  # one worker, busy: this one waits
        assert job(first, key, pending_id)["state"] == "pending"
    finally:
        first.kill()  # SIGKILL: no shutdown, no cleanup

    with LiveServer(home) as second:
        interrupted = job(second, key, running_id)
        assert interrupted["state"] == "failed" and interrupted["error_code"] == "INTERRUPTED"
        wait_for(lambda: job(second, key, pending_id)["state"] == "completed", "the pending job to run")
        retried = httpx.post(
            f"{second.url}/v1/jobs/{running_id}/retry", headers={"Authorization": f"Bearer {key}"}, timeout=30
        )
        assert retried.status_code == 202 and retried.json()["retry_count"] == 1
        cancel = httpx.post(
            f"{second.url}/v1/jobs/{running_id}/cancel", headers={"Authorization": f"Bearer {key}"}, timeout=30
        )
        assert cancel.status_code == 202
        wait_for(lambda: job(second, key, running_id)["state"] == "failed", "the cancelled job to stop", 60)
        assert job(second, key, running_id)["error_code"] == "CANCELLED"
        states = httpx.get(f"{second.url}/v1/jobs", headers={"Authorization": f"Bearer {key}"}).json()
    assert {j["state"] for j in states["jobs"]} <= {"completed", "failed"} and states["total"] == 2


def test_a_slow_upload_does_not_hold_up_the_next(tmp_path: Path) -> None:
    home = tmp_path / "home"
    key = admin_home(home)
    big = slow_text(tmp_path / "big-notes.txt")
    small = tmp_path / "small-note.md"
    small.write_text("# Sertraline\n\nInitial: 25-50 mg daily.\n")
    with LiveServer(home, env={"CURBSIDE_INGEST_WORKERS": "2"}) as live:
        slow_id = upload(live, key, big)
        wait_for(lambda: job(live, key, slow_id)["state"] == "running", "the slow job to start")
        quick_id = upload(live, key, small)
        wait_for(lambda: job(live, key, quick_id)["state"] == "completed", "the quick job", 60)
        assert job(live, key, slow_id)["state"] == "running"
        assert httpx.post(f"{live.url}/v1/jobs/{slow_id}/cancel", headers={"Authorization": f"Bearer {key}"}).status_code == 202
        wait_for(lambda: job(live, key, slow_id)["state"] == "failed", "the cancel", 60)
        # a job that is not pending or running cannot be cancelled
        again = httpx.post(f"{live.url}/v1/jobs/{quick_id}/cancel", headers={"Authorization": f"Bearer {key}"})
        assert again.status_code == 409 and again.json()["error"]["code"] == "INVALID_TRANSITION"
        huge_id = httpx.get(f"{live.url}/v1/jobs/{2**64}", headers={"Authorization": f"Bearer {key}"})
        assert huge_id.status_code == 422 and huge_id.json()["error"]["code"] == "VALIDATION_ERROR"


def test_a_job_over_its_time_limit_fails_with_job_timeout(tmp_path: Path) -> None:
    core = Curbside(Settings(home=tmp_path / "home"))
    background = BackgroundIngest(core.ingestor, workers=1, job_timeout_s=1.0)
    try:
        data = slow_text(tmp_path / "long-notes.txt", megabytes=8).read_bytes()
        submission = core.ingestor.submit("long-notes.txt", data)
        assert submission.job is not None
        future = background.submit(submission.job.id)
        assert future is not None
        future.result(timeout=120)
        failed = core.jobs.get(submission.job.id)
        assert failed.state is JobState.FAILED and failed.error_code == "JOB_TIMEOUT", failed
        assert "CURBSIDE_INGEST_JOB_TIMEOUT_S" in (failed.error_message or "")
        assert core.documents.current(submission.doc_key) is None  # nothing half-published
    finally:
        background.close()
        core.close()
