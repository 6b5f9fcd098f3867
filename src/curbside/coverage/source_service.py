"""What the coverage sources' services (``OdbService`` …) share: a reader, a search, the path runner, their lifetime.

Each source's service subclasses ``SourceService`` and keeps only its domain:
how to plan a request, which SQL and search work to run (through ``run_paths``),
and how to merge what they found. Setting up, warming up and closing are the
same for every source, so they live here once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from curbside.coverage.paths import (
    PassageSearch,
    PathResults,
    PathRunner,
    PathTimeouts,
    SearchFound,
    SqlFound,
    namespace_search,
)
from curbside.coverage.reader import Cancel, ThreadReader
from curbside.errors import CurbsideError, NotLoadedError

if TYPE_CHECKING:
    from curbside.search.engine import SearchEngine
    from curbside.settings import Settings

__all__ = ["SourceParts", "SourceService"]


@dataclass(frozen=True)
class SourceParts:
    """What a coverage source's service needs from the application, each resolved when first needed."""

    settings: Settings
    open_store: Callable[[], object]  # the home exists and migrations are applied (before a reader's first query)
    search_engine: Callable[[], SearchEngine]


R = TypeVar("R", bound=ThreadReader)
S = TypeVar("S", bound=SqlFound)
F = TypeVar("F", bound=SearchFound)


class SourceService(ABC, Generic[R]):
    name: ClassVar[str]  # 'odb': names the worker threads
    namespace: ClassVar[str]  # the search namespace of the source's passages
    title: ClassVar[str]  # 'the ODB formulary': what a person calls the source
    editions_table: ClassVar[str]  # 'odb_editions': its loaded edition has status 'current'
    not_loaded: ClassVar[str]  # says that nothing is loaded and how to load it
    workers: ClassVar[int] = 8  # paths of concurrent calls; a timed-out search keeps its worker until it returns

    def __init__(self, parts: SourceParts, reader: R, search: PassageSearch | None = None) -> None:
        """``search`` replaces the application's search engine (a fake in tests, another index later)."""
        self.parts = parts
        self.settings = parts.settings
        self.reader = reader
        self._search = search
        self.paths = PathRunner(self.name, self.workers)

    @property
    def search(self) -> PassageSearch:
        if self._search is None:
            self.parts.open_store()  # the home and its migrations, before the reader opens the file
            self._search = namespace_search(self.parts.search_engine(), self.namespace)
        return self._search

    def warm_up(self) -> None:
        """Open the store and build the source's indexes (and load their models), outside any call's timeout."""
        self.parts.open_store()
        _ = self.search
        try:
            with self.reader.snapshot():
                self.build_indexes()
        except CurbsideError:
            pass  # nothing loaded yet: the first call says so

    def is_loaded(self) -> bool:
        """Whether an edition is loaded (one small query on this thread's read connection)."""
        self.parts.open_store()  # migrations applied before the reader's first query
        return self.reader.has_current(self.editions_table)

    def require_loaded(self) -> None:
        """Raise NotLoadedError (NOT_LOADED, saying how to load it) when no edition is loaded."""
        if not self.is_loaded():
            raise NotLoadedError(self.not_loaded)

    @abstractmethod
    def build_indexes(self) -> None:
        """Build the loaded edition's in-memory indexes (called inside a snapshot), so calls find them ready."""

    def close(self) -> None:
        """Wait for running paths (a timed-out SQL query was interrupted), then close the connections."""
        self.paths.close()
        self.reader.close()

    async def run_paths(
        self,
        sql: Callable[[Cancel], S],
        search: Callable[[PassageSearch], F] | None,
        timeouts: PathTimeouts,
        wait_for_sql: Callable[[F | None], bool] | None = None,
    ) -> PathResults[S, F]:
        """Run ``sql`` and ``search`` (given the search to use) as the call's two paths; ``search=None``: SQL only.
        ``wait_for_sql``: whether the SQL path past its own timeout is worth waiting for (``PathRunner.run``).

        With no edition loaded, raise NotLoadedError instead: passages without their tables
        (or no passages at all) would answer with nothing, and waiting would not change that.
        """
        self.require_loaded()
        engine = self.search
        return await self.paths.run(
            sql, (lambda: search(engine)) if search is not None else None, timeouts, wait_for_sql
        )
