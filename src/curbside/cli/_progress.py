"""Progress bars for long ingests and model installs (drawn on stderr, only on a terminal)."""

from __future__ import annotations

from types import TracebackType
from typing import Self

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text


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


class _AmountColumn(ProgressColumn):
    """'3/22' for parts, '512.0/1,117.3 MB' for bytes: a task's ``unit`` field picks."""

    def __init__(self) -> None:
        super().__init__()
        self._count, self._bytes = MofNCompleteColumn(), DownloadColumn()

    def render(self, task: Task) -> Text:
        return (self._bytes if task.fields.get("unit") == "bytes" else self._count).render(task)


class StageProgress:
    """An InstallProgress (``curbside models install``): one bar per stage — parts fetched, bytes
    assembled, bytes verified. Without a terminal each stage is one line, so a long wait is not silent."""

    def __init__(self, *, enabled: bool, quiet: bool = False) -> None:
        self._enabled, self._quiet = enabled, quiet
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            _AmountColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=not enabled,
            transient=True,
        )
        self._task: TaskID | None = None

    def __enter__(self) -> Self:
        self._progress.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._progress.stop()

    def stage(self, description: str, total: int, *, unit: str) -> None:
        if self._task is not None:
            self._progress.remove_task(self._task)
        self._task = self._progress.add_task(description, total=total, unit=unit)
        if not self._enabled and not self._quiet:
            amount = f"{total:,} bytes" if unit == "bytes" else f"{total} {unit}"
            self._progress.console.print(f"… {description}: {amount}", highlight=False)

    def advance(self, amount: int) -> None:
        if self._task is not None:
            self._progress.advance(self._task, amount)

    def note(self, message: str) -> None:
        if not self._quiet:
            self._progress.console.print(message, highlight=False)
