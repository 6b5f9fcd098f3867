"""Run queued ingest jobs off the request path (HTTP uploads) on a small pool of threads.

``CURBSIDE_INGEST_WORKERS`` jobs run at once, so one slow upload does not hold up the
others; each stops at its next step once it passes ``CURBSIDE_INGEST_JOB_TIMEOUT_S`` or an
administrator cancels it. Every thread reads and writes through its own SQLite connection
(``store/database.py``), and readers keep seeing the last committed state until a new
version is published in one transaction. At start-up ``recover()`` fails the jobs that a
stopped process left running (they can be retried) and queues the pending ones again.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curbside.kb.ingest import DocumentOutcome, Ingestor
    from curbside.kb.jobs import Job

__all__ = ["BackgroundIngest"]

log = logging.getLogger(__name__)


class BackgroundIngest:
    def __init__(self, ingestor: Ingestor, *, workers: int = 2, job_timeout_s: float | None = None) -> None:
        self._ingestor = ingestor
        self._timeout_s = job_timeout_s
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="curbside-ingest")
        self._queued: set[int] = set()
        self._lock = threading.Lock()
        self._shutdown = threading.Event()

    def submit(self, job_id: int) -> Future[DocumentOutcome | None] | None:
        """Queue a pending job; None when this process has already queued it."""
        with self._lock:
            if job_id in self._queued:
                return None
            self._queued.add(job_id)
        return self._pool.submit(self._run, job_id)

    def recover(self) -> tuple[list[int], list[int]]:
        """Fail the jobs a stopped process left running, and queue every pending job; (failed, queued)."""
        interrupted, pending = self._ingestor.recover()
        for job_id in pending:
            self.submit(job_id)
        if interrupted or pending:
            log.warning(
                "recovered ingest jobs: %d interrupted (now failed, retryable), %d pending queued",
                len(interrupted),
                len(pending),
                extra={"event": "jobs.recover", "interrupted": interrupted, "queued": pending},
            )
        return interrupted, pending

    def cancel(self, job_id: int) -> Job:
        """Cancel a pending job now, or ask a running one to stop at its next step."""
        return self._ingestor.jobs.cancel(job_id)

    def _run(self, job_id: int) -> DocumentOutcome | None:
        from curbside.errors import ValidationError

        try:
            return self._ingestor.run_job(job_id, timeout_s=self._timeout_s, shutdown=self._shutdown)
        except ValidationError as exc:  # no longer pending (cancelled while it waited): nothing to run
            log.info("ingest job %s not run: %s", job_id, exc.message)
            return None
        except Exception:  # the job row records the failure; a worker crash must not go unseen either
            log.exception("background ingest of job %s failed", job_id)
            return None
        finally:
            with self._lock:
                self._queued.discard(job_id)

    def close(self, wait: bool = True) -> None:
        """Stop: running jobs stop at their next step (failed, INTERRUPTED: retry them); queued ones stay
        pending and run at the next start."""
        self._shutdown.set()
        self._pool.shutdown(wait=wait, cancel_futures=True)
