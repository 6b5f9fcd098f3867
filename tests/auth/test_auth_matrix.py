"""Every route × every role × no key × a bad key: who gets in, and the 401/403 bodies of those who do not.

The expected roles are written out here from the issue, not read from the code, so a
router that lost (or loosened) its check fails this table.
"""

from __future__ import annotations

from typing import Any

import pytest
from auth_keys import Keys
from fastapi.testclient import TestClient

from curbside.app import Curbside

PUBLIC = {"clinician", "admin", "auditor", "none", "bad"}
CLINICAL = {"clinician", "admin"}
ADMIN = {"admin"}
AUDIT = {"auditor"}

# (method, OpenAPI path, a request that the route answers cheaply once admitted, its status, who may call it)
ROUTES: list[tuple[str, str, dict[str, Any], int, set[str]]] = [
    ("get", "/healthz", {"url": "/healthz"}, 200, PUBLIC),
    ("post", "/v1/ask", {"url": "/v1/ask", "json": {"question": 42}}, 422, CLINICAL),
    ("get", "/v1/search", {"url": "/v1/search"}, 422, CLINICAL),
    ("get", "/v1/passages", {"url": "/v1/passages"}, 422, CLINICAL),
    ("get", "/v1/tools", {"url": "/v1/tools"}, 200, CLINICAL),
    ("post", "/v1/tools/{name}", {"url": "/v1/tools/no.such_tool", "json": {}}, 404, CLINICAL),
    ("get", "/v1/confirmations", {"url": "/v1/confirmations"}, 200, CLINICAL),
    ("post", "/v1/turns", {"url": "/v1/turns", "json": {"message": ""}}, 422, CLINICAL),
    (
        "post",
        "/v1/confirmations/{confirmation_id}",
        {"url": "/v1/confirmations/cf_none", "json": {"decision": "deny"}},
        404,
        CLINICAL,
    ),
    ("post", "/v1/documents", {"url": "/v1/documents"}, 422, ADMIN),
    ("delete", "/v1/documents/{doc_key}", {"url": "/v1/documents/no-such-doc"}, 404, ADMIN),
    ("get", "/v1/jobs", {"url": "/v1/jobs"}, 200, ADMIN),
    ("get", "/v1/jobs/{job_id}", {"url": "/v1/jobs/999999"}, 404, ADMIN),
    ("post", "/v1/jobs/{job_id}/retry", {"url": "/v1/jobs/999999/retry"}, 404, ADMIN),
    ("post", "/v1/jobs/{job_id}/cancel", {"url": "/v1/jobs/999999/cancel"}, 404, ADMIN),
    ("get", "/metrics", {"url": "/metrics"}, 200, ADMIN),
    ("get", "/v1/audit/export", {"url": "/v1/audit/export"}, 422, AUDIT),
    ("get", "/v1/audit/verify", {"url": "/v1/audit/verify"}, 200, AUDIT),
    ("get", "/v1/audit/rows", {"url": "/v1/audit/rows"}, 422, AUDIT),
    # the page's routes (#19): who am I for every key; conversations are clinical; the index's state is admin's
    ("get", "/v1/me", {"url": "/v1/me"}, 200, {"clinician", "admin", "auditor"}),
    ("get", "/v1/sessions", {"url": "/v1/sessions"}, 200, CLINICAL),
    ("get", "/v1/sessions/{session_id}", {"url": "/v1/sessions/no-such-session"}, 404, CLINICAL),
    (
        "put",
        "/v1/sessions/{session_id}/patient",
        {"url": "/v1/sessions/no-such-session/patient", "json": {"patient_id": 42}},
        422,
        CLINICAL,
    ),
    ("delete", "/v1/sessions/{session_id}", {"url": "/v1/sessions/no-such-session"}, 200, CLINICAL),
    ("get", "/v1/status", {"url": "/v1/status"}, 200, ADMIN),
    ("get", "/v1/documents", {"url": "/v1/documents"}, 200, ADMIN),
]
CALLERS = ["clinician", "admin", "auditor", "none", "bad"]


@pytest.mark.parametrize("who", CALLERS)
@pytest.mark.parametrize(
    ("method", "path", "request_args", "admitted_status", "allowed"), ROUTES, ids=[r[1] for r in ROUTES]
)
def test_route_by_caller(
    api: tuple[Curbside, TestClient, Keys],
    method: str,
    path: str,
    request_args: dict[str, Any],
    admitted_status: int,
    allowed: set[str],
    who: str,
) -> None:
    _, client, keys = api
    response = client.request(method, headers=keys.headers(who), **request_args)
    if who in allowed:
        assert response.status_code == admitted_status, response.text
        return
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    if who in ("none", "bad"):
        assert response.status_code == 401 and body["error"]["code"] == "UNAUTHENTICATED"
        assert response.headers["www-authenticate"].startswith('Bearer realm="curbside"')
        if who == "bad":
            assert 'error="invalid_token"' in response.headers["www-authenticate"]
    else:
        assert response.status_code == 403 and body["error"]["code"] == "PERMISSION_DENIED"
        assert f"Role {who!r} may not use {method.upper()}" in body["error"]["message"]


def test_the_table_covers_every_route_the_api_serves(api: tuple[Curbside, TestClient, Keys]) -> None:
    _, client, _ = api
    served = {
        (method, path)
        for path, operations in client.get("/openapi.json").json()["paths"].items()
        for method in operations
    }
    assert served == {(method, path) for method, path, *_ in ROUTES}


@pytest.mark.parametrize(
    "headers",
    [
        {"Authorization": "Bearer "},
        {"Authorization": "Basic dXNlcjpwYXNz"},
        {"Authorization": "Bearer cs_short"},
        {"Authorization": ("Bearer cs_" + "é" * 43).encode("latin-1")},
        {"X-API-Key": "not-a-key"},
    ],
    ids=["empty-bearer", "basic-auth", "short-key", "non-ascii", "bad-x-api-key"],
)
def test_malformed_credentials_are_401(api: tuple[Curbside, TestClient, Keys], headers: dict[str, Any]) -> None:
    _, client, _ = api
    response = client.get("/v1/tools", headers=headers)
    assert response.status_code == 401 and response.json()["error"]["code"] == "UNAUTHENTICATED"


def test_a_revoked_key_is_401(api: tuple[Curbside, TestClient, Keys]) -> None:
    _, client, keys = api
    response = client.get("/v1/tools", headers=keys.headers("revoked"))
    assert response.status_code == 401 and "revoked" in response.json()["error"]["message"]


def test_the_key_works_as_x_api_key_and_with_a_lowercase_scheme(api: tuple[Curbside, TestClient, Keys]) -> None:
    _, client, keys = api
    assert client.get("/v1/tools", headers={"X-API-Key": keys.admin}).status_code == 200
    assert client.get("/v1/tools", headers={"Authorization": f"bearer {keys.clinician}"}).status_code == 200


def test_a_refused_request_is_on_the_audit_trail(api: tuple[Curbside, TestClient, Keys]) -> None:
    core, client, keys = api
    before = core.audit.count()
    assert client.delete("/v1/documents/anything", headers=keys.headers("clinician")).status_code == 403
    last = list(core.audit.export(__import__("datetime").datetime(2000, 1, 1)))[-1]
    assert core.audit.count() == before + 1
    assert (last["action"], last["user"], last["role"], last["outcome"]) == (
        "access.denied",
        "dr-clinician",
        "clinician",
        "PERMISSION_DENIED",
    )
    # the route's template: the requested path is text the client chose
    assert last["details"] == {"method": "DELETE", "path": "/v1/documents/{doc_key}", "needs": ["admin"]}


def test_a_malformed_session_header_is_refused(api: tuple[Curbside, TestClient, Keys]) -> None:
    _, client, keys = api
    bad = client.get("/v1/tools", headers={**keys.headers("clinician"), "X-Session-Id": "has spaces in it"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "VALIDATION_ERROR"
    assert "session id" in bad.json()["error"]["message"]
    good = client.get("/v1/tools", headers={**keys.headers("clinician"), "X-Session-Id": "visit-42:a"})
    assert good.status_code == 200


def test_openapi_declares_the_key_schemes(api: tuple[Curbside, TestClient, Keys]) -> None:
    _, client, _ = api
    spec = client.get("/openapi.json").json()
    assert {"HTTPBearer", "APIKeyHeader"} <= set(spec["components"]["securitySchemes"])
    assert "security" in spec["paths"]["/v1/ask"]["post"] and "security" not in spec["paths"]["/healthz"]["get"]
