"""Fixtures for the tools layer: an application over the bundled sample documents."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from curbside.app import Curbside
from curbside.cli.demo import sample_paths
from curbside.settings import Settings
from curbside.tools import ToolExecutor, ToolHooks, ToolMetrics, ToolRegistry, ToolSpec
from curbside.types import ToolCaller

ExecutorFactory = Callable[..., ToolExecutor]


@pytest.fixture(scope="session")
def sample_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home with the four bundled samples ingested (shared by the whole session)."""
    home = tmp_path_factory.getbasetemp() / "tools-sample-home"
    done = home / ".ingested"
    if not done.exists():
        app = Curbside(Settings(home=home))
        report = app.ingestor.ingest(sample_paths())
        app.close()
        assert not report.failed, report
        done.touch()
    return home


@pytest.fixture(scope="session")
def sample_app(sample_home: Path) -> Iterator[Curbside]:
    app = Curbside(Settings(home=sample_home))
    yield app
    app.close()


@pytest.fixture
def scratch_app(tmp_path: Path) -> Iterator[Curbside]:
    """An application with an empty home: enough for tools that touch no data."""
    app = Curbside(Settings(home=tmp_path / "home"))
    yield app
    app.close()


@pytest.fixture
def make_executor(scratch_app: Curbside) -> ExecutorFactory:
    """An executor over just the given specs, with the real default hooks unless others are given."""

    def build(
        *specs: ToolSpec[Any, Any],
        hooks: ToolHooks | None = None,
        role: str = "clinician",
    ) -> ToolExecutor:
        registry = ToolRegistry()
        for spec in specs:
            registry.register(spec)
        return ToolExecutor(
            registry,
            default_caller=ToolCaller(user="dr-a", role=role),
            hooks=hooks,
            metrics=ToolMetrics(),
        )

    return build
