"""``OdbService`` (``app.odb``): runs the SQL and search paths of ``odb.get`` concurrently.

Each path runs on a worker thread (both block: SQLite, the encoder) under its
own timeout (``odb_sql_timeout_ms``, ``odb_search_timeout_ms``), and both under
``odb_total_timeout_ms``. A path that times out or raises becomes an entry in
the trace and a warning; the other path's evidence still answers, with the
lower confidence the formula gives. A timed-out SQL query is interrupted; a
timed-out search finishes on its thread and is discarded.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Literal, TypeVar

from curbside.coverage.odb.merge import merge
from curbside.coverage.odb.query import plan
from curbside.coverage.odb.search_path import (
    PassageSearch,
    SearchFindings,
    engine_search,
    run_search_path,
)
from curbside.coverage.odb.sql_path import (
    Cancel,
    NameIndexCache,
    SqlFindings,
    run_sql_path,
)
from curbside.coverage.odb.store import OdbReader
from curbside.coverage.odb.tool import OdbGetArgs, OdbGetResult, PathTrace
from curbside.errors import CurbsideError

if TYPE_CHECKING:
    from curbside.app import Curbside

__all__ = ["OdbService"]

T = TypeVar("T")
_WORKERS = 8  # paths of concurrent calls; a timed-out search keeps its worker until it returns


class OdbService:
    def __init__(self, app: Curbside, *, search: PassageSearch | None = None) -> None:
        """``search`` replaces the application's search engine (a fake in tests, another index later)."""
        self.app = app
        self.settings = app.settings
        self.reader = OdbReader(app.settings.db_path)
        self.names = NameIndexCache()
        self._search = search
        self._executor = ThreadPoolExecutor(max_workers=_WORKERS, thread_name_prefix="curbside-odb")

    @property
    def search(self) -> PassageSearch:
        if self._search is None:
            _ = self.app.db  # creates the home and applies migrations before the reader opens the file
            self._search = engine_search(self.app.search_engine)
        return self._search

    def warm_up(self) -> None:
        """Open the store, load the encoder and build the name index, outside any call's timeout."""
        _ = self.app.db
        _ = self.search
        self.app.embedder.warm_up()
        try:
            with self.reader.snapshot():
                self.names.get(self.reader, self.reader.edition())
        except CurbsideError:
            pass  # nothing loaded yet: the first call says so

    def close(self) -> None:
        """Wait for running paths (a timed-out SQL query was interrupted), then close the connections."""
        self._executor.shutdown(wait=True, cancel_futures=True)
        self.reader.close()

    async def get(self, args: OdbGetArgs) -> OdbGetResult:
        request = plan(args)
        _ = self.app.db  # migrations applied before the reader's first query
        search = self.search
        s = self.settings
        cancel = Cancel()
        sql_task = asyncio.ensure_future(
            self._run(
                "sql",
                lambda: run_sql_path(self.reader, self.names, request, cancel),
                s.odb_sql_timeout_ms,
                cancel.interrupt,
            )
        )
        search_task = asyncio.ensure_future(
            self._run("search", lambda: run_search_path(search, request.text, s.odb_search_k), s.odb_search_timeout_ms)
        )
        _, pending = await asyncio.wait({sql_task, search_task}, timeout=s.odb_total_timeout_ms / 1000)
        for task in pending:
            task.cancel()
        if sql_task in pending:
            cancel.interrupt()
        sql, sql_trace = _outcome(sql_task, "sql", s.odb_total_timeout_ms)
        found, search_trace = _outcome(search_task, "search", s.odb_total_timeout_ms)
        if sql is not None:
            sql_trace.detail = f"resolved as {sql.resolved_as}" + (f" ({sql.matched})" if sql.matched else "")
        return merge(request, sql, found, [sql_trace, search_trace])

    async def _run(
        self,
        path: Literal["sql", "search"],
        work: Callable[[], T],
        timeout_ms: int,
        on_timeout: Callable[[], None] | None = None,
    ) -> tuple[T | None, PathTrace]:
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        future = loop.run_in_executor(self._executor, work)
        status: Literal["ok", "timeout", "error"] = "ok"
        error: str | None = None
        value: T | None = None
        try:
            value = await asyncio.wait_for(future, timeout_ms / 1000)
        except TimeoutError:
            status, error = "timeout", f"no answer within {timeout_ms} ms"
            if on_timeout is not None:
                on_timeout()
        except CurbsideError as exc:
            status, error = "error", exc.message
        except Exception as exc:  # noqa: BLE001 - a broken path must give a partial answer, not end the call
            status, error = "error", f"{type(exc).__name__}: {exc}"
        elapsed = (time.perf_counter() - started) * 1000
        records = _count(value)
        return value, PathTrace(path=path, status=status, duration_ms=round(elapsed, 1), records=records, error=error)


def _count(value: object) -> int:
    if isinstance(value, SqlFindings):
        return value.records
    if isinstance(value, SearchFindings):
        return len(value.passages)
    return 0


def _outcome(
    task: asyncio.Future[tuple[T | None, PathTrace]], path: Literal["sql", "search"], total_ms: int
) -> tuple[T | None, PathTrace]:
    if task.cancelled() or not task.done():
        return None, PathTrace(
            path=path,
            status="timeout",
            duration_ms=float(total_ms),
            error=f"the call's {total_ms} ms total ran out first",
        )
    return task.result()
