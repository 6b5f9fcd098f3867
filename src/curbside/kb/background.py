"""Run queued ingest jobs off the request path (HTTP uploads).

One worker thread, with its own SQLite connection: a job's write transaction
then never mixes with the readers' connection, and readers (WAL) keep seeing the
last committed state until the new version is published atomically. The
embedder and chunker are shared — both are safe to call from two threads.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curbside.app import Curbside
    from curbside.kb.ingest import DocumentOutcome, Ingestor
    from curbside.store.database import Database

__all__ = ["BackgroundIngest"]

log = logging.getLogger(__name__)


class BackgroundIngest:
    def __init__(self, core: Curbside) -> None:
        self._core = core
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="curbside-ingest")
        self._ingestor: Ingestor | None = None
        self._db: Database | None = None

    def submit(self, job_id: int) -> Future[DocumentOutcome | None]:
        return self._pool.submit(self._run, job_id)

    def _run(self, job_id: int) -> DocumentOutcome | None:
        try:
            return self._worker_ingestor().run_job(job_id)
        except Exception:  # the job row records the failure; a worker crash must not go unseen either
            log.exception("background ingest of job %s failed", job_id)
            return None

    def _worker_ingestor(self) -> Ingestor:
        if self._ingestor is None:
            from curbside.kb.ingest import Ingestor
            from curbside.kb.jobs import JobStore
            from curbside.store.database import Database
            from curbside.store.documents import DocumentStore
            from curbside.store.sqlite_indexes import Fts5Index, SqliteVecIndex

            core = self._core
            db = self._db = Database(core.settings.db_path)
            documents = DocumentStore(db, SqliteVecIndex(db), Fts5Index(db))
            self._ingestor = Ingestor(
                db=db,
                documents=documents,
                jobs=JobStore(db, max_retries=core.settings.job_max_retries),
                embedder=core.embedder,
                chunker=core.chunker,
                originals_dir=core.settings.originals_dir,
                max_file_bytes=core.settings.max_file_bytes,
            )
        return self._ingestor

    def close(self, wait: bool = True) -> None:
        self._pool.shutdown(wait=wait)
        if self._db is not None:
            self._db.close()
        self._db = None
        self._ingestor = None
