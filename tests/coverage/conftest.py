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
from odb_subset import write_subset

from curbside.app import Curbside
from curbside.coverage.loading import LoadReport, load_directory
from curbside.settings import Settings

ODB_FILE = "ontario/odb-formulary-edition-43-2025-08-29.xml"


@pytest.fixture(scope="session")
def odb_xml(shared_data: Path) -> Path:
    # through shared_data: skipped (failed under CI) with the missing path named, and marked shared_data
    path = shared_data / ODB_FILE
    assert path.exists(), f"shared data missing: {path}"
    return path


@pytest.fixture(scope="session")
def subset_dir(odb_xml: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("odb-data")
    write_subset(odb_xml, directory / odb_xml.name)
    return directory


@pytest.fixture(scope="session")
def loaded(subset_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Curbside, LoadReport]]:
    app = Curbside(Settings(home=tmp_path_factory.mktemp("odb-home")))
    report = load_directory(app, subset_dir)
    yield app, report
    app.odb.close()
    app.close()


@pytest.fixture(scope="session")
def odb_app(loaded: tuple[Curbside, LoadReport]) -> Curbside:
    return loaded[0]
