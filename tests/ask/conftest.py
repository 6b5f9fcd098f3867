"""A knowledge base of real documents (one per test session) for the answer tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from curbside.app import Curbside
from curbside.cli.demo import sample_paths
from curbside.settings import Settings


def real_documents(shared_data: Path) -> list[Path]:
    html = shared_data / "guidelines/html/cep-anxiety-and-depression.html"
    nxml = sorted((shared_data / "guidelines/pmc-nxml").glob("*.nxml"))
    return [html, *nxml, *sample_paths()]


@pytest.fixture(scope="session")
def kb_home(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    home = tmp_path_factory.mktemp("ask-kb")
    core = Curbside(Settings(home=home))
    try:
        report = core.ingestor.ingest(real_documents(shared_data))
        assert not report.failed, [o.message for o in report.failed]
    finally:
        core.close()
    return home


@pytest.fixture
def make_core(kb_home: Path) -> Iterator[object]:
    """Build a Curbside over the shared KB with extra settings; closed after the test."""
    made: list[Curbside] = []

    def build(**overrides: object) -> Curbside:
        core = Curbside(Settings(home=kb_home, **overrides))  # type: ignore[arg-type]
        made.append(core)
        return core

    yield build
    for core in made:
        core.close()
