"""Indexing jobs: one per ingest of one document, with a checked state machine.

    pending ──► running ──► completed ──► superseded
       │           │
       └──────►  failed  ──► pending (retry, at most ``max_retries``)
                   └──────► superseded

(the transitions of semantic-search-and-tools.md, "Indexing Job State Machine").
"""

from __future__ import annotations

import builtins
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Any

import apsw

from curbside.errors import CurbsideError, InvalidTransitionError, NotFoundError, RetryLimitError
from curbside.store.database import Database
from curbside.store.documents import now_iso

__all__ = ["Job", "JobState", "JobStore", "TRANSITIONS"]


class JobState(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    SUPERSEDED = "superseded"


TRANSITIONS: dict[JobState, frozenset[JobState]] = {
    JobState.PENDING: frozenset({JobState.RUNNING, JobState.FAILED}),
    JobState.RUNNING: frozenset({JobState.COMPLETED, JobState.FAILED}),
    JobState.COMPLETED: frozenset({JobState.SUPERSEDED}),
    JobState.FAILED: frozenset({JobState.PENDING, JobState.SUPERSEDED}),
    JobState.SUPERSEDED: frozenset(),
}


@dataclass(frozen=True, slots=True)
class Job:
    id: int
    doc_key: str
    state: JobState
    original_name: str
    original_path: str
    options: dict[str, Any]
    version_id: int | None
    retry_count: int
    max_retries: int
    total_chunks: int | None
    processed_chunks: int
    error_code: str | None
    error_message: str | None
    superseded_by: int | None
    created_at: str
    started_at: str | None
    completed_at: str | None
    failed_at: str | None
    updated_at: str
    runner: str | None = None  # the process running it (kb/runners.py); kept after it ends
    cancel_requested: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


_COLUMNS = ", ".join(Job.__slots__)


MAX_JOB_ID = 2**63 - 1  # SQLite's largest rowid: a larger id names no job


def _job(row: tuple[Any, ...]) -> Job:
    values = dict(zip(Job.__slots__, row, strict=True))
    values["state"] = JobState(values["state"])
    values["options"] = json.loads(values["options"])
    values["cancel_requested"] = bool(values["cancel_requested"])
    return Job(**values)


def _with_busy_retry(action: Callable[[], Job], attempts: int = 4) -> Job:
    """A job's final state must land: retry a write that met a long-held write lock (SQLITE_BUSY)."""
    for attempt in range(attempts):
        try:
            return action()
        except apsw.BusyError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.5 * (attempt + 1))
    raise AssertionError("unreachable")


class JobStore:
    def __init__(self, db: Database, *, max_retries: int = 3) -> None:
        self.db = db
        self.max_retries = max_retries

    def create(self, doc_key: str, original_name: str, original_path: str, options: dict[str, Any]) -> Job:
        stamp = now_iso()
        self.db.execute(
            "INSERT INTO jobs(doc_key, state, original_name, original_path, options, max_retries, created_at, "
            "updated_at) VALUES (?, 'pending', ?, ?, ?, ?, ?, ?)",
            (doc_key, original_name, original_path, json.dumps(options), self.max_retries, stamp, stamp),
        )
        return self.get(self.db.last_rowid())

    def get(self, job_id: int) -> Job:
        row = self.db.one(f"SELECT {_COLUMNS} FROM jobs WHERE id = ?", (job_id,))
        if row is None:
            raise NotFoundError(f"No job with id {job_id}; `curbside jobs list` shows the jobs.")
        return _job(row)

    def count(self, *, state: JobState | None = None, doc_key: str | None = None) -> int:
        """How many jobs match (``list`` shows at most ``limit`` of them)."""
        where, params = _where(state, doc_key)
        return int(self.db.scalar(f"SELECT COUNT(*) FROM jobs {where}", params))

    def list(self, *, state: JobState | None = None, doc_key: str | None = None, limit: int = 100) -> builtins.list[Job]:
        where, params = _where(state, doc_key)
        rows = self.db.rows(f"SELECT {_COLUMNS} FROM jobs {where} ORDER BY id DESC LIMIT ?", [*params, limit])
        return [_job(r) for r in rows]

    def transition(
        self, job_id: int, new_state: JobState, *, error: BaseException | None = None, runner: str | None = None
    ) -> Job:
        """Move a job to ``new_state``; anything outside ``TRANSITIONS`` is refused.

        A move to FAILED is retried when the database stays locked, so a job never stays
        'running' because its failure could not be written. ``runner`` stamps a job that starts.
        """
        if new_state is JobState.FAILED:
            return _with_busy_retry(lambda: self._transition(job_id, new_state, error, runner))
        return self._transition(job_id, new_state, error, runner)

    def _transition(
        self, job_id: int, new_state: JobState, error: BaseException | None, runner: str | None
    ) -> Job:
        with self.db.transaction():
            job = self.get(job_id)
            if new_state not in TRANSITIONS[job.state]:
                allowed = ", ".join(sorted(TRANSITIONS[job.state])) or "none (terminal)"
                raise InvalidTransitionError(
                    f"Job {job_id} is {job.state.value}; it cannot become {new_state.value} (allowed: {allowed})."
                )
            stamp = now_iso()
            sets = ["state = ?", "updated_at = ?"]
            params: builtins.list[Any] = [new_state.value, stamp]
            if new_state is JobState.RUNNING:
                sets += ["started_at = ?", "processed_chunks = 0", "error_code = NULL", "error_message = NULL",
                         "runner = ?"]
                params += [stamp, runner]
            elif new_state is JobState.COMPLETED:
                sets.append("completed_at = ?")
                params.append(stamp)
            elif new_state is JobState.FAILED:
                code = error.code if isinstance(error, CurbsideError) else "INTERNAL_ERROR"
                sets += ["failed_at = ?", "error_code = ?", "error_message = ?"]
                params += [stamp, code, _readable(error)]
            self.db.execute(f"UPDATE jobs SET {', '.join(sets)} WHERE id = ?", [*params, job_id])
            return self.get(job_id)

    def progress(self, job_id: int, processed: int, total: int | None = None) -> None:
        self.db.execute(
            "UPDATE jobs SET processed_chunks = ?, total_chunks = COALESCE(?, total_chunks), updated_at = ? "
            "WHERE id = ?",
            (processed, total, now_iso(), job_id),
        )

    def complete(self, job_id: int, version_id: int) -> None:
        """running → completed, and supersede the document's earlier finished jobs.

        Called inside the publish transaction for every document, so it is one guarded
        UPDATE rather than a read-check-write.
        """
        with self.db.transaction():
            stamp = now_iso()
            self.db.execute(
                "UPDATE jobs SET state = 'completed', completed_at = ?, updated_at = ?, version_id = ? "
                "WHERE id = ? AND state = 'running'",
                (stamp, stamp, version_id, job_id),
            )
            if self.db.changes() != 1:
                state = self.get(job_id).state.value
                raise InvalidTransitionError(f"Job {job_id} is {state}; it cannot become completed (allowed: from running).")
            doc_key = self.db.scalar("SELECT doc_key FROM jobs WHERE id = ?", (job_id,))
            self.supersede_earlier(doc_key, job_id)

    def supersede_earlier(self, doc_key: str, newer_job_id: int) -> None:
        stamp = now_iso()
        self.db.execute(
            "UPDATE jobs SET state = 'superseded', superseded_by = ?, updated_at = ? "
            "WHERE doc_key = ? AND id < ? AND state IN ('completed', 'failed')",
            (newer_job_id, stamp, doc_key, newer_job_id),
        )

    def claim(self, job_id: int, runner: str) -> Job | None:
        """pending → running for ``runner``, or None when another runner took it (or it was cancelled) first."""
        with self.db.transaction():
            stamp = now_iso()
            self.db.execute(
                "UPDATE jobs SET state = 'running', started_at = ?, updated_at = ?, processed_chunks = 0, "
                "error_code = NULL, error_message = NULL, runner = ? WHERE id = ? AND state = 'pending'",
                (stamp, stamp, runner, job_id),
            )
            return self.get(job_id) if self.db.changes() == 1 else None

    def fail_interrupted(self, alive: Callable[[str | None], bool]) -> builtins.list[int]:
        """Fail the 'running' jobs whose runner process has ended (``alive`` says); their ids."""
        dead: builtins.list[int] = [
            job_id
            for job_id, runner in self.db.rows("SELECT id, runner FROM jobs WHERE state = 'running'")
            if not alive(runner)
        ]
        for job_id in dead:
            stamp = now_iso()
            _with_busy_retry(partial(self._fail_if_running, job_id, stamp))
        return dead

    def _fail_if_running(self, job_id: int, stamp: str) -> Job:
        with self.db.transaction():
            self.db.execute(
                "UPDATE jobs SET state = 'failed', failed_at = ?, updated_at = ?, error_code = 'INTERRUPTED', "
                "error_message = 'The ingest stopped before this document was indexed (the process running it "
                "ended); retry the job.' WHERE id = ? AND state = 'running'",
                (stamp, stamp, job_id),
            )
            return self.get(job_id)

    def pending_ids(self) -> builtins.list[int]:
        return [int(r[0]) for r in self.db.rows("SELECT id FROM jobs WHERE state = 'pending' ORDER BY id")]

    def cancel(self, job_id: int) -> Job:
        """A pending job fails at once (CANCELLED); a running one is asked to stop at its next step."""
        from curbside.errors import JobStoppedError

        with self.db.transaction():
            job = self.get(job_id)
            if job.state is JobState.PENDING:
                return self._transition(job_id, JobState.FAILED, JobStoppedError.cancelled(job_id), None)
            if job.state is not JobState.RUNNING:
                raise InvalidTransitionError(
                    f"Job {job_id} is {job.state.value}; only pending or running jobs can be cancelled."
                )
            self.db.execute(
                "UPDATE jobs SET cancel_requested = 1, updated_at = ? WHERE id = ?", (now_iso(), job_id)
            )
            return self.get(job_id)

    def cancel_requested(self, job_id: int) -> bool:
        return bool(self.db.scalar("SELECT cancel_requested FROM jobs WHERE id = ?", (job_id,)))

    def retry(self, job_id: int) -> Job:
        """failed → pending, counting retries; the caller then runs it again."""
        with self.db.transaction():
            job = self.get(job_id)
            if job.state is not JobState.FAILED:
                raise InvalidTransitionError(f"Only failed jobs can be retried; job {job_id} is {job.state.value}.")
            if job.retry_count >= job.max_retries:
                raise RetryLimitError(
                    f"Job {job_id} has been retried {job.retry_count} times (the limit is {job.max_retries}); "
                    "fix the file and ingest it again."
                )
            self.transition(job_id, JobState.PENDING)
            self.db.execute(
                "UPDATE jobs SET retry_count = retry_count + 1, cancel_requested = 0 WHERE id = ?", (job_id,)
            )
            return self.get(job_id)


def _where(state: JobState | None, doc_key: str | None) -> tuple[str, list[Any]]:
    clauses, params = [], []
    if state is not None:
        clauses.append("state = ?")
        params.append(state.value)
    if doc_key is not None:
        clauses.append("doc_key = ?")
        params.append(doc_key)
    return (f"WHERE {' AND '.join(clauses)}" if clauses else ""), params


def _readable(error: BaseException | None) -> str | None:
    if error is None:
        return None
    text = str(error) or type(error).__name__
    return text if isinstance(error, CurbsideError) else f"{type(error).__name__}: {text}"
