"""Progress bars for long ingests (drawn on stderr, only on a terminal)."""

from __future__ import annotations

from types import TracebackType
from typing import Self

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn


class RichProgress:
    """A ProgressReporter with two bars: files read, chunks embedded."""

    def __init__(self, *, enabled: bool) -> None:
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=not enabled,
            transient=True,
        )
        self._files = self._progress.add_task("files ", total=0)
        self._chunks = self._progress.add_task("chunks", total=0)

    def __enter__(self) -> Self:
        self._progress.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._progress.stop()

    def files(self, total: int) -> None:
        self._progress.update(self._files, total=total)

    def file_done(self, name: str) -> None:
        self._progress.advance(self._files)

    def chunks_added(self, count: int) -> None:
        task = self._progress.tasks[self._chunks]
        self._progress.update(self._chunks, total=(task.total or 0) + count)

    def chunks_embedded(self, count: int) -> None:
        self._progress.advance(self._chunks, count)

    def waiting(self, reason: str) -> None:
        # printed even without bars (not a terminal): a silent wait looks like a hang
        self._progress.console.print(f"… {reason}", highlight=False)


class EvalProgress(RichProgress):
    """The ingest bars plus one bar for the queries of each mode."""

    def __init__(self, *, enabled: bool) -> None:
        super().__init__(enabled=enabled)
        self._queries: TaskID | None = None

    def queries(self, mode: str, total: int) -> None:
        if self._queries is not None:
            self._progress.remove_task(self._queries)
        self._queries = self._progress.add_task(f"queries ({mode})", total=total)

    def query_done(self) -> None:
        if self._queries is not None:
            self._progress.advance(self._queries)
