"""One loaded home for the schedule.get tests, from the real Schedule of Benefits text.

Embedding the whole Schedule's passages (about 2,900 MiniLM chunks) takes minutes
on two cores, over this suite's budget, so the session home is loaded from a
copy of the real text keeping whole pages: the front matter, the General
Preamble's hospital visit pages (GP40-GP48: C122-C124, C142/C143, premiums
E082-E084) and fee pages of six sections (see ``ohip_subset.KEPT_PAGES``).
Nothing in the kept pages is changed. The whole file is parsed in
``test_ohip_parse.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from coverage_helpers import loaded_home, shared_path
from ohip_subset import write_subset

from curbside.app import Curbside
from curbside.coverage.reports import LoadReport

OHIP_FILE = "ontario/ohip-schedule-of-benefits-2025-03-03.txt"


@pytest.fixture(scope="session")
def ohip_text(shared_data: Path) -> Path:
    # through shared_data: skipped (failed under CI) with the missing path named, and marked shared_data
    return shared_path(shared_data, OHIP_FILE)


@pytest.fixture(scope="session")
def ohip_subset_dir(ohip_text: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("ohip-data")
    write_subset(ohip_text, directory / ohip_text.name)
    return directory


@pytest.fixture(scope="session")
def ohip_loaded(
    ohip_subset_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Curbside, LoadReport]]:
    yield from loaded_home(ohip_subset_dir, tmp_path_factory.mktemp("ohip-home"))


@pytest.fixture(scope="session")
def ohip_app(ohip_loaded: tuple[Curbside, LoadReport]) -> Curbside:
    return ohip_loaded[0]
