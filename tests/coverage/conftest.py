"""One loaded home for the coverage tests, from the real ODB extract.

Embedding the whole formulary's passages takes about a minute with MiniLM on
two cores, over this suite's budget, so the session home is loaded from a
copy of the real extract keeping five whole therapeutic classes (antihistamines,
cardiovascular, hormones, vitamins, miscellaneous: every coverage status
occurs in them) and the full manufacturer list. Nothing in the kept classes
is changed. The whole file is parsed and loaded into SQL by ``test_load.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from coverage_helpers import loaded_home, shared_path
from odb_subset import write_subset

from curbside.app import Curbside
from curbside.coverage.reports import LoadReport

ODB_FILE = "ontario/odb-formulary-edition-43-2025-08-29.xml"


@pytest.fixture(scope="session")
def odb_xml(shared_data: Path) -> Path:
    # through shared_data: skipped (failed under CI) with the missing path named, and marked shared_data
    return shared_path(shared_data, ODB_FILE)


@pytest.fixture(scope="session")
def subset_dir(odb_xml: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("odb-data")
    write_subset(odb_xml, directory / odb_xml.name)
    return directory


@pytest.fixture(scope="session")
def loaded(subset_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Curbside, LoadReport]]:
    yield from loaded_home(subset_dir, tmp_path_factory.mktemp("odb-home"))


@pytest.fixture(scope="session")
def odb_app(loaded: tuple[Curbside, LoadReport]) -> Curbside:
    return loaded[0]
