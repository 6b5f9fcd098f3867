"""Run a coverage tool's two evidence paths side by side: SQL on its tables, search on its passages.

Both paths block (SQLite, the encoder), so each runs on a worker thread under
its own timeout, and both under the call's total timeout. A path that times out
or raises becomes a ``PathTrace`` entry (and, through ``path_warnings``, a
warning); the other path's evidence still answers, with the lower confidence
the shared formula gives. A timed-out SQL query is interrupted through its
``Cancel``; a timed-out search finishes on its thread and is discarded.
``odb.get``, ``schedule.get`` and ``adp.get`` all answer this way.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel, Field

from curbside.coverage.reader import Cancel
from curbside.errors import CurbsideError
from curbside.types import Passage, SearchFilters

if TYPE_CHECKING:
    from curbside.search.engine import SearchEngine

__all__ = [
    "PassageSearch",
    "PathResults",
    "PathRunner",
    "PathTimeouts",
    "PathTrace",
    "SearchFound",
    "SqlFound",
    "namespace_search",
    "path_warnings",
]

PathName = Literal["sql", "search"]
PassageSearch = Callable[[str, int], list[Passage]]  # (query text, k) -> passages, best first


class PathTrace(BaseModel):
    path: PathName
    status: Literal["ok", "timeout", "error"]
    duration_ms: float
    records: int = Field(0, description="Rows (sql) or passages (search) the path returned.")
    error: str | None = None
    detail: str = ""


class SqlFound(Protocol):
    """What the SQL path returns: its trace counts ``records`` (rows the answer rests on)."""

    @property
    def records(self) -> int: ...


class SearchFound(Protocol):
    """What the search path returns: its trace counts ``passages``."""

    passages: list[Passage]


S = TypeVar("S", bound=SqlFound)
F = TypeVar("F", bound=SearchFound)
T = TypeVar("T")


def namespace_search(engine: SearchEngine, namespace: str) -> PassageSearch:
    """The application's keyword search in one source's namespace, without the relevance threshold.

    Keywords, not meaning: the tools find their codes, drugs and rules by meaning elsewhere (the OHIP title
    vectors, the ADP sentence vectors), and the passages found here only corroborate and quote. Ranked by
    keywords alone, every coverage benchmark set gets the same answers as with the hybrid search, with no
    encoder in the call and nothing to embed at load time. Which passages count as evidence is decided
    afterwards, by whether they name what the answer is about.
    """

    def search(text: str, k: int) -> list[Passage]:
        filters = SearchFilters(namespace=namespace)
        return engine.search(text, k=k, mode="bm25", filters=filters, min_similarity=None).hits

    return search


def path_warnings(trace: list[PathTrace]) -> list[str]:
    """One warning per path that did not answer: the answer says what it is missing."""
    return [f"The {t.path} path failed ({t.status}): {t.error}" for t in trace if t.status != "ok"]


@dataclass(frozen=True, slots=True)
class PathTimeouts:
    sql_ms: int
    search_ms: int
    total_ms: int


@dataclass(slots=True)
class PathResults(Generic[S, F]):
    """What each path found (None: it failed or was not run) and the trace: SQL first, then search when run."""

    sql: S | None
    search: F | None
    trace: list[PathTrace]


class PathRunner:
    """The worker threads of one tool's paths; ``run`` answers one call."""

    def __init__(self, name: str, workers: int) -> None:
        # a timed-out search keeps its worker until it returns, so size for concurrent calls
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=f"curbside-{name}")

    def close(self) -> None:
        """Wait for running paths (a timed-out SQL query was interrupted)."""
        self._executor.shutdown(wait=True, cancel_futures=True)

    async def run(
        self,
        sql: Callable[[Cancel], S],
        search: Callable[[], F] | None,
        timeouts: PathTimeouts,
        wait_for_sql: Callable[[F | None], bool] | None = None,
    ) -> PathResults[S, F]:
        """Both paths at once (``search=None``: the SQL path alone, with no search entry in the trace).

        ``wait_for_sql``: given what the search path found (None: it failed or was not run), whether the SQL
        path, past its own timeout, is still worth waiting for: then it is not interrupted there but runs on
        until the call's total timeout. Its own timeout is wall-clock time, and on a loaded machine a path that
        needs 100 ms of work can take 500 ms: the answer should not change to a worse one for that.
        """
        cancel = Cancel()
        search_task: asyncio.Future[tuple[F | None, PathTrace]] | None = None
        if search is not None:
            search_task = asyncio.ensure_future(self._timed("search", search, _passages, timeouts.search_ms))

        async def patience() -> bool:
            if wait_for_sql is None:
                return False
            found = (await asyncio.shield(search_task))[0] if search_task is not None else None
            return wait_for_sql(found)

        sql_task = asyncio.ensure_future(
            self._timed("sql", lambda: sql(cancel), _records, timeouts.sql_ms, cancel.interrupt, patience)
        )
        tasks: set[asyncio.Future[Any]] = {sql_task}
        if search_task is not None:
            tasks.add(search_task)
        _, pending = await asyncio.wait(tasks, timeout=timeouts.total_ms / 1000)
        for task in pending:
            task.cancel()
        if sql_task in pending:
            cancel.interrupt()
        found_sql, sql_trace = _outcome(sql_task, "sql", timeouts.total_ms)
        if search_task is None:
            return PathResults(found_sql, None, [sql_trace])
        found, search_trace = _outcome(search_task, "search", timeouts.total_ms)
        return PathResults(found_sql, found, [sql_trace, search_trace])

    async def _timed(
        self,
        path: PathName,
        work: Callable[[], T],
        count: Callable[[Any], int],
        timeout_ms: int,
        on_timeout: Callable[[], None] | None = None,
        patience: Callable[[], Awaitable[bool]] | None = None,
    ) -> tuple[T | None, PathTrace]:
        """``work`` on a worker thread under ``timeout_ms``; past it, ``patience`` (when given and it says so)
        lets it run on (the caller's total timeout still cancels this task)."""
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        future = loop.run_in_executor(self._executor, work)
        status: Literal["ok", "timeout", "error"] = "ok"
        error: str | None = None
        value: T | None = None
        try:
            try:
                value = await asyncio.wait_for(asyncio.shield(future), timeout_ms / 1000)
            except TimeoutError:
                if patience is None or not await patience():
                    raise
                value = await future
        except TimeoutError:
            status, error = "timeout", f"no answer within {timeout_ms} ms"
            if on_timeout is not None:
                on_timeout()
        except CurbsideError as exc:
            status, error = "error", exc.message
        except Exception as exc:  # noqa: BLE001 - a broken path must give a partial answer, not end the call
            status, error = "error", f"{type(exc).__name__}: {exc}"
        elapsed = (time.perf_counter() - started) * 1000
        records = count(value) if value is not None else 0
        return value, PathTrace(path=path, status=status, duration_ms=round(elapsed, 1), records=records, error=error)


def _records(found: SqlFound) -> int:
    return found.records


def _passages(found: SearchFound) -> int:
    return len(found.passages)


def _outcome(
    task: asyncio.Future[tuple[T | None, PathTrace]], path: PathName, total_ms: int
) -> tuple[T | None, PathTrace]:
    if task.cancelled() or not task.done():
        return None, PathTrace(
            path=path,
            status="timeout",
            duration_ms=float(total_ms),
            error=f"the call's {total_ms} ms total ran out first",
        )
    return task.result()
