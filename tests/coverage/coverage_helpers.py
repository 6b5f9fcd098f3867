"""What the coverage tools' tests share: loaded homes, failing searches, slow readers, tuned services.

``odb.get``, ``schedule.get`` and ``adp.get`` run their paths the same way
(``curbside.coverage.paths``), so their path tests drive them the same way:
a service on the session's loaded home with other timeouts, a search that
fails or is slow, and a reader that answers late.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import apsw

from curbside.app import Curbside
from curbside.coverage.loading import load_directory
from curbside.coverage.paths import PassageSearch
from curbside.coverage.reader import ThreadReader
from curbside.coverage.reports import LoadReport
from curbside.coverage.source_service import SourceService
from curbside.errors import UpstreamError
from curbside.settings import Settings
from curbside.types import Passage

__all__ = [
    "SLOW_SQL_SECONDS",
    "SlowSnapshots",
    "broken_search",
    "loaded_home",
    "shared_path",
    "slow_search",
    "tuned_services",
]

SLOW_SQL_SECONDS = 0.3  # far over the 50 ms SQL timeouts under test, far under the searches' 10 s
Service = TypeVar("Service", bound=SourceService)  # type: ignore[type-arg]


# What an answer says, not how fast it comes (speed lives in benchmarks/): tests of answers give every
# coverage path ten times its default budget, so a loaded CI machine cannot turn a slow path into another answer.
UNHURRIED_BUDGETS: dict[str, float] = {
    **{
        f"{source}_{path}_timeout_ms": 10 * ms
        for source in ("odb", "ohip", "adp")
        for path, ms in (("sql", 500), ("search", 1000), ("total", 1500))
    },
    "coverage_answer_timeout_ms": 25_000,
    "tool_coverage_timeout_s": 30.0,
    "tool_odb_timeout_s": 20.0,
    "tool_schedule_timeout_s": 20.0,
    "tool_adp_timeout_s": 20.0,
}


# the SQL and search paths' budgets of each source, ten times their defaults
PATH_BUDGETS = {name: ms for name, ms in UNHURRIED_BUDGETS.items() if name.startswith(("odb_", "ohip_", "adp_"))}


def shared_path(shared_data: Path, relative: str, *expected: str) -> Path:
    """A file or folder of the shared data; fails naming the first missing path (it or a file expected in it)."""
    path = shared_data / relative
    missing = [p for p in (path, *(path / name for name in expected)) if not p.exists()]
    assert not missing, f"shared data missing: {missing[0]}"
    return path


def loaded_home(directory: Path, home: Path) -> Iterator[tuple[Curbside, LoadReport]]:
    """An application on a new ``home`` with ``directory`` loaded by ``coverage load``'s code, each source's paths
    given their ``UNHURRIED_BUDGETS`` (the tools' own timeouts stay the defaults); closed after."""
    app = Curbside(Settings(home=home, **PATH_BUDGETS))  # type: ignore[arg-type]
    report = load_directory(app.coverage_store, directory)
    yield app, report
    app.close()


def broken_search(text: str, k: int) -> list[Passage]:
    raise UpstreamError("the search index is unavailable")


def slow_search(text: str, k: int) -> list[Passage]:
    time.sleep(0.4)
    return []


class SlowSnapshots(ThreadReader):
    """Mixed in before a source's reader: the real reader on the real tables, after a pause.

    Each SQL path takes a few milliseconds once warm, too fast to time out
    reliably on its own: this is the SQL path of a loaded, slow machine.
    """

    delay = 0.0

    @contextmanager
    def snapshot(self) -> Iterator[apsw.Connection]:
        time.sleep(self.delay)
        with super().snapshot() as conn:
            yield conn


def tuned_services(
    base: Curbside,
    service: Callable[..., Service],
    slow_reader: Callable[[Path], SlowSnapshots],
) -> Iterator[Callable[..., Service]]:
    """Make services on ``base``'s home with other settings (``make(search, slow_sql=…, **settings)``); close after.

    ``search`` replaces the search engine; ``slow_sql`` gives the service a
    ``slow_reader`` that pauses ``SLOW_SQL_SECONDS`` once the indexes are built.
    """
    made: list[tuple[Curbside, Service]] = []

    def make(search: PassageSearch | None = None, *, slow_sql: bool = False, **settings: int) -> Service:
        app = Curbside(base.settings.model_copy(update=settings))
        reader = slow_reader(app.settings.db_path) if slow_sql else None
        built = service(app.source_parts, search=search, reader=reader)
        made.append((app, built))
        built.warm_up()  # the indexes are built outside the timeouts under test, as a server does
        if reader is not None:
            reader.delay = SLOW_SQL_SECONDS
        return built

    yield make
    for app, built in made:
        built.close()
        app.close()
