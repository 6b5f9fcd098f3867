"""One loaded ADP home for the adp.get tests, from the two real July 2023 manuals.

Parsing both PDFs takes ~4 s and embedding their ~220 passages with MiniLM
~6-10 s on two busy cores, so the home, the parsed manuals and the service are
session-scoped. Tests that change the loaded edition restore it before they end.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from coverage_helpers import loaded_home, shared_path

from curbside.app import Curbside
from curbside.coverage.adp.parse import ParsedManual, parse_manual
from curbside.coverage.adp.service import AdpService
from curbside.coverage.reports import LoadReport

ADP_DIR = "ontario/adp"
CORE_PDF = "moh-adp-policies-and-procedures-manual-assistive-devices-program-2023-07-01.pdf"
MOBILITY_PDF = "moh-adp-policy-and-administration-manual-mobility-devices-2023-07-01.pdf"


@pytest.fixture(scope="session")
def adp_dir(shared_data: Path) -> Path:
    return shared_path(shared_data, ADP_DIR, CORE_PDF, MOBILITY_PDF)


@pytest.fixture(scope="session")
def adp_manuals(adp_dir: Path) -> dict[str, ParsedManual]:
    manuals = [parse_manual(adp_dir / CORE_PDF), parse_manual(adp_dir / MOBILITY_PDF)]
    return {m.key: m for m in manuals}


@pytest.fixture(scope="session")
def adp_loaded(adp_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Curbside, LoadReport]]:
    yield from loaded_home(adp_dir, tmp_path_factory.mktemp("adp-home"))


@pytest.fixture(scope="session")
def adp_app(adp_loaded: tuple[Curbside, LoadReport]) -> Curbside:
    return adp_loaded[0]


@pytest.fixture(scope="session")
def adp(adp_app: Curbside) -> AdpService:
    service = adp_app.coverage_service("adp")
    service.warm_up()
    return service
