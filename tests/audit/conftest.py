"""Fixtures for the audit tests: a fresh trail per test, and a home with the sample documents."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from audit_helpers import fake_redact

from curbside.audit import AuditTrail
from curbside.settings import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(home=tmp_path / "home")


@pytest.fixture
def trail(settings: Settings) -> Iterator[AuditTrail]:
    opened = AuditTrail.from_settings(settings, redact=fake_redact)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def kb_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home with the bundled sample documents ingested (no audit rows yet)."""
    from curbside.app import Curbside
    from curbside.cli.demo import sample_paths

    home = tmp_path_factory.mktemp("audit-kb")
    core = Curbside(Settings(home=home))
    try:
        assert not core.ingestor.ingest(sample_paths()).failed
    finally:
        core.close()
    return home
