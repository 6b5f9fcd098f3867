"""Fixtures for the coverage.answer tests.

``coverage_app`` is a home with every coverage source coverage.answer routes to: a copy of the
session's ODB home (``odb_app``: the formulary subset, tables and embedded passages, copied with
SQLite's backup API rather than loaded and embedded again), into which the ADP manuals and the
schedule.get tests' subset of the Schedule of Benefits (``tests/coverage/ohip/ohip_subset.py``,
whole pages: GP40-GP48, six sections' fee pages) are loaded through ``coverage load``'s own code.
``odb_app`` itself is never changed: other tests read it.
"""

from __future__ import annotations

import importlib.util
import shutil
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import apsw
import pytest
from coverage_helpers import UNHURRIED_BUDGETS

from curbside.app import Curbside
from curbside.coverage.loading import load_directory
from curbside.settings import Settings
from curbside.types import ToolCaller

ADP_FILES = (
    "ontario/adp/moh-adp-policies-and-procedures-manual-assistive-devices-program-2023-07-01.pdf",
    "ontario/adp/moh-adp-policy-and-administration-manual-mobility-devices-2023-07-01.pdf",
)
OHIP_FILE = "ontario/ohip-schedule-of-benefits-2025-03-03.txt"
OHIP_SUBSET = Path(__file__).resolve().parents[1] / "ohip" / "ohip_subset.py"


@pytest.fixture
def caller() -> ToolCaller:
    # per-user limits (odb.get: 60 a minute) are shared with every other test on the session home
    return ToolCaller(user=f"answer-{uuid.uuid4().hex[:8]}", role="clinician")


def _copy_database(source: Path, target: Path) -> None:
    src = apsw.Connection(str(source), flags=apsw.SQLITE_OPEN_READONLY)
    dst = apsw.Connection(str(target))
    try:
        with dst.backup("main", src, "main") as backup:  # a consistent snapshot, WAL included
            while not backup.done:
                backup.step(-1)
    finally:
        dst.close()
        src.close()


def _ohip_subset_writer() -> Callable[[Path, Path], Path]:
    """The schedule.get tests' own subset writer, so both suites load the same pages."""
    spec = importlib.util.spec_from_file_location("answer_ohip_subset", OHIP_SUBSET)
    assert spec is not None and spec.loader is not None, f"missing {OHIP_SUBSET}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    writer: Callable[[Path, Path], Path] = module.write_subset
    return writer


@pytest.fixture(scope="session")
def coverage_app(odb_app: Curbside, shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Curbside]:
    home = tmp_path_factory.mktemp("answer-home")
    _copy_database(odb_app.settings.db_path, home / odb_app.settings.db_path.name)
    # the copy holds the ODB app's audit rows when its tools ran first: the key and anchor that sign them go too
    for name in ("audit.key", "audit.head"):
        source = odb_app.settings.home / name
        if source.exists():
            shutil.copy2(source, home / name)
    data = tmp_path_factory.mktemp("answer-data")
    for relative in (*ADP_FILES, OHIP_FILE):
        assert (shared_data / relative).exists(), f"shared data missing: {shared_data / relative}"
    for relative in ADP_FILES:
        (data / Path(relative).name).symlink_to(shared_data / relative)
    ohip = shared_data / OHIP_FILE
    _ohip_subset_writer()(ohip, data / ohip.name)
    app = Curbside(Settings(home=home, **UNHURRIED_BUDGETS))
    report = load_directory(app.coverage_store, data)
    failed = [s for s in report.sources if s.status not in ("loaded", "unchanged")]
    assert not failed, failed
    yield app
    app.close()
