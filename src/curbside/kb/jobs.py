"""Indexing jobs: one per ingest of one document, with a checked state machine.

    pending ──► running ──► completed ──► superseded
       │           │
       └──────►  failed  ──► pending (retry, at most ``max_retries``)
                   └──────► superseded

(the transitions of semantic-search-and-tools.md, "Indexing Job State Machine").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

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

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


_COLUMNS = ", ".join(Job.__slots__)


def _job(row: tuple[Any, ...]) -> Job:
    values = dict(zip(Job.__slots__, row, strict=True))
    values["state"] = JobState(values["state"])
    values["options"] = json.loads(values["options"])
    return Job(**values)


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
        return self.get(int(self.db.conn.last_insert_rowid()))

    def get(self, job_id: int) -> Job:
        row = self.db.one(f"SELECT {_COLUMNS} FROM jobs WHERE id = ?", (job_id,))
        if row is None:
            raise NotFoundError(f"No job with id {job_id}; `curbside jobs list` shows the jobs.")
        return _job(row)

    def list(self, *, state: JobState | None = None, doc_key: str | None = None, limit: int = 100) -> list[Job]:
        clauses, params = [], []
        if state is not None:
            clauses.append("state = ?")
            params.append(state.value)
        if doc_key is not None:
            clauses.append("doc_key = ?")
            params.append(doc_key)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        rows = self.db.rows(f"SELECT {_COLUMNS} FROM jobs {where} ORDER BY id DESC LIMIT ?", [*params, limit])
        return [_job(r) for r in rows]

    def transition(self, job_id: int, new_state: JobState, *, error: BaseException | None = None) -> Job:
        """Move a job to ``new_state``; anything outside ``TRANSITIONS`` is refused."""
        with self.db.transaction():
            job = self.get(job_id)
            if new_state not in TRANSITIONS[job.state]:
                allowed = ", ".join(sorted(TRANSITIONS[job.state])) or "none (terminal)"
                raise InvalidTransitionError(
                    f"Job {job_id} is {job.state.value}; it cannot become {new_state.value} (allowed: {allowed})."
                )
            stamp = now_iso()
            sets = ["state = ?", "updated_at = ?"]
            params: list[Any] = [new_state.value, stamp]
            if new_state is JobState.RUNNING:
                sets += ["started_at = ?", "processed_chunks = 0", "error_code = NULL", "error_message = NULL"]
                params.append(stamp)
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
            if self.db.conn.changes() != 1:
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

    def fail_interrupted(self) -> int:
        """Fail jobs left 'running' by a process that stopped; call only while holding the ingest lock."""
        stamp = now_iso()
        self.db.execute(
            "UPDATE jobs SET state = 'failed', failed_at = ?, updated_at = ?, error_code = 'INTERRUPTED', "
            "error_message = 'The ingest stopped before this document was indexed; retry the job.' "
            "WHERE state = 'running'",
            (stamp, stamp),
        )
        return self.db.conn.changes()

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
            self.db.execute("UPDATE jobs SET retry_count = retry_count + 1 WHERE id = ?", (job_id,))
            return self.get(job_id)


def _readable(error: BaseException | None) -> str | None:
    if error is None:
        return None
    text = str(error) or type(error).__name__
    return text if isinstance(error, CurbsideError) else f"{type(error).__name__}: {text}"
