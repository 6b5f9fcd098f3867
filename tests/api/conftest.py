from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from api_auth import admin_headers
from fastapi.testclient import TestClient

from curbside.api import create_app
from curbside.app import Curbside
from curbside.settings import Settings


@pytest.fixture(scope="module")
def api_home(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    """A home with the CEP page and two PMC articles ingested (real files)."""
    home = tmp_path_factory.mktemp("api-home")
    core = Curbside(Settings(home=home))
    try:
        files = [
            shared_data / "guidelines/html/cep-anxiety-and-depression.html",
            shared_data / "guidelines/pmc-nxml/pntd.0002065.nxml",
            shared_data / "guidelines/pmc-nxml/6605965a.nxml",
        ]
        assert not core.ingestor.ingest(files).failed
    finally:
        core.close()
    return home


@pytest.fixture
def client(api_home: Path, tmp_path: Path) -> Iterator[TestClient]:
    """A client over a private copy of the module's home, so writes stay in one test; it sends an admin key."""
    home = tmp_path / "home"
    shutil.copytree(api_home, home)
    core = Curbside(Settings(home=home))
    with TestClient(create_app(core, warm_up=False), headers=admin_headers(core)) as test_client:
        yield test_client
