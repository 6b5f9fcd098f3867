"""Schemathesis over the API's OpenAPI document, with a key of each role (#11).

Every operation is fuzzed three times, as a clinician, an admin and an auditor, against a
real ``curbside serve`` (uvicorn, one worker) on a loopback port whose home holds the
bundled sample documents; the checks are ``fuzzing.CHECKS`` (no 5xx, documented status,
body, content type and headers, keys enforced). A real server rather than schemathesis'
in-process ASGI transport: requests go through uvicorn's HTTP parsing and the start-up
`curbside serve` does, and an exception in the app comes back as the 500 a client would
get, reported with a curl line, while the test shows the server's own log (its traceback).

The document is built at collection from ``create_app`` (nothing is served or stored for
that), so pytest lists one test per operation and role; ``test_the_served_document_is_the_one_fuzzed``
pins it to what the server serves. Schemathesis' ``from_fixture`` loader would fetch it from
the server instead, but it reads ``Node._nodeid``, which pytest 9.2 no longer has.

Bounded for CI (about a minute on 2 cores): a fixed seed, derandomized generation, no
example database, MAX_EXAMPLES per operation and role in the fuzzing phase (the coverage
phase adds its boundary cases). The rate limits are raised so 429s do not hide the routes;
429 stays documented. Each failure found becomes a test in ``test_fuzz_regressions.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from fuzzing import CHECKS, install
from served_api import ROLES, ServedApi, prepare_home, serve

from curbside.api import create_app
from curbside.app import Curbside
from curbside.settings import Settings

pytestmark = pytest.mark.slow

SEED = 11
MAX_EXAMPLES = 25  # per operation and role in the fuzzing phase


def _document() -> dict[str, Any]:
    """The OpenAPI document of ``create_app``; the app is never started, so the home is never created."""
    unused_home = Path("/nonexistent/curbside-openapi-only")
    return create_app(Curbside(Settings(home=unused_home)), warm_up=False).openapi()


DOCUMENT = _document()
schema = schemathesis.openapi.from_dict(
    DOCUMENT,
    config=schemathesis.Config.from_dict(
        {
            "seed": SEED,
            "generation": {
                "mode": "all",  # valid and invalid requests: invalid ones must get a documented 4xx
                "max-examples": MAX_EXAMPLES,
                "deterministic": True,
                "database": "none",
                "with-security-parameters": False,  # each role's real key, never generated credentials
            },
        }
    ),
)
install(schema)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedApi]:
    root = tmp_path_factory.mktemp("fuzz")
    home = root / "home"
    keys = prepare_home(home)
    # raised so 429s do not hide the routes: the per-user limit, and the per-address one for wrong keys
    # (ignored_auth sends those on purpose)
    limits = {"CURBSIDE_RATE_LIMIT": "1000000/minute", "CURBSIDE_AUTH_FAILURE_LIMIT": "1000000/minute"}
    with serve(home, keys, root / "server.log", **limits) as api:
        yield api


def test_the_served_document_is_the_one_fuzzed(served: ServedApi) -> None:
    assert httpx.get(f"{served.base_url}/openapi.json", timeout=30).json() == DOCUMENT


@pytest.mark.parametrize("role", ROLES)
@schema.parametrize()
def test_api_conforms_to_its_openapi_document(case: schemathesis.Case, role: str, served: ServedApi) -> None:
    offset = served.log_size()
    try:
        case.call_and_validate(base_url=served.base_url, headers=served.headers(role), checks=CHECKS, timeout=60)
    except BaseException as exc:
        exc.add_note(f"server log for this case:\n{served.log_since(offset) or '(nothing)'}")
        raise
