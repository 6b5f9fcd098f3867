"""Shared fixtures for the EHR tool tests: the sandbox EHR loaded with the 17 shared Synthea adults.

``adult_sandbox`` is module-scoped: each test module gets its own server (about 10 s to start and load), so
writes made by one module never show up in another. ``adult_bundles`` parses the bundle files once per session
so tests can compare what a tool reads back with the exact values in the source JSON; treat it as read-only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from curbside.tools.ehr.sandbox import EhrSandbox, LoadReport


def sandbox_install_dir() -> Path:
    """Where the sandbox's Node packages are cached (the same place test_sandbox.py uses)."""
    configured = os.environ.get("CURBSIDE_EHR_SANDBOX_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "curbside-ehr-sandbox"


@dataclass(frozen=True)
class LoadedSandbox:
    """A running sandbox EHR and what was loaded into it."""

    url: str  # the FHIR base URL, e.g. http://127.0.0.1:41234
    sandbox: EhrSandbox
    report: LoadReport
    bundles_dir: Path


@pytest.fixture(scope="session")
def adult_bundles_dir(shared_data: Path) -> Path:
    return shared_data / "fhir" / "synthea-adults"


@pytest.fixture(scope="session")
def adult_bundles(adult_bundles_dir: Path) -> dict[str, dict[str, Any]]:
    """{patient id: the parsed transaction bundle} for the 17 adults (read-only: shared by every test)."""
    bundles: dict[str, dict[str, Any]] = {}
    for path in sorted(adult_bundles_dir.glob("*.json")):
        bundle = json.loads(path.read_text(encoding="utf-8"))
        patient = next(e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == "Patient")
        bundles[patient["id"]] = bundle
    return bundles


@pytest.fixture(scope="module")
def adult_sandbox(adult_bundles_dir: Path) -> Iterator[LoadedSandbox]:
    """The sandbox EHR on loopback with every adult bundle loaded; stopped when the module's tests end."""
    with EhrSandbox(install_dir=sandbox_install_dir()) as sandbox:
        report = sandbox.load(adult_bundles_dir)
        assert report.failures == [], report.failures
        yield LoadedSandbox(url=sandbox.base_url, sandbox=sandbox, report=report, bundles_dir=adult_bundles_dir)
