"""An HTTP API over an empty home with one API user per role (and a revoked one)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from auth_keys import Keys
from fastapi.testclient import TestClient

from curbside.api import create_app
from curbside.app import Curbside
from curbside.settings import Settings


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Curbside, TestClient, Keys]]:
    home: Path = tmp_path_factory.mktemp("auth-home")
    core = Curbside(Settings(home=home, rate_limit=None, auth_failure_limit=None))
    core.audit.redact = lambda text: text.replace("John Smith", "[PERSON]")
    keys = Keys(
        clinician=core.users.add("dr-clinician", "clinician").key,
        admin=core.users.add("it-admin", "admin").key,
        auditor=core.users.add("the-auditor", "auditor").key,
        revoked=core.users.add("former", "clinician").key,
    )
    core.users.revoke("former")
    with TestClient(create_app(core, warm_up=False)) as client:
        yield core, client, keys
