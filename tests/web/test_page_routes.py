"""The routes the clinician's page needs (who am I, sessions, index status, documents) and the files it
is made of, through the HTTP API in process (the browser tests drive a real server: test_page.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from curbside.api import create_app
from curbside.app import Curbside
from curbside.cli.demo import sample_paths
from curbside.settings import Settings
from curbside.web import ASSETS


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, dict[str, str]]]:
    home = tmp_path_factory.mktemp("page-routes") / "home"
    core = Curbside(Settings(home=home))
    assert not core.ingestor.ingest(sample_paths()).failed
    keys = {role: core.users.add(f"page-{role}", role).key for role in ("clinician", "admin", "auditor")}
    with TestClient(create_app(core, warm_up=False)) as client:
        yield client, keys


def auth(keys: dict[str, str], role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {keys[role]}"}


@pytest.mark.parametrize(
    ("role", "views"),
    [
        ("clinician", ["consult", "sessions", "patient"]),
        ("admin", ["consult", "sessions", "patient", "admin"]),
        ("auditor", ["audit"]),
    ],
)
def test_me_names_the_user_role_and_views(
    served: tuple[TestClient, dict[str, str]], role: str, views: list[str]
) -> None:
    client, keys = served
    me = client.get("/v1/me", headers=auth(keys, role)).json()
    assert me["user"] == f"page-{role}" and me["role"] == role and me["views"] == views
    assert me["ehr"]["configured"] is False and "CURBSIDE_FHIR_URL" in me["ehr"]["message"]


def test_me_without_a_key_is_401(served: tuple[TestClient, dict[str, str]]) -> None:
    client, _ = served
    assert client.get("/v1/me").status_code == 401


def test_a_session_is_read_back_set_a_patient_and_purged(served: tuple[TestClient, dict[str, str]]) -> None:
    client, keys = served
    clinician = auth(keys, "clinician")
    turn = client.post(
        "/v1/turns", json={"message": "BMI for weight 80 kg height 180 cm", "session_id": "s_page1"}, headers=clinician
    ).json()
    assert turn["session_id"] == "s_page1"
    session = client.get("/v1/sessions/s_page1", headers=clinician).json()
    assert [m["role"] for m in session["messages"]] == ["user", "assistant"]
    assert session["messages"][1]["payload"]["sources"][0]["tool"] == "calc.bmi"
    assert [s["session_id"] for s in client.get("/v1/sessions", headers=clinician).json()["sessions"]] == ["s_page1"]
    # another user's id is simply not found
    assert client.get("/v1/sessions/s_page1", headers=auth(keys, "admin")).status_code == 404
    patient = client.put("/v1/sessions/s_page1/patient", json={"patient_id": "p-123"}, headers=clinician).json()
    assert patient["patient_id"] == "p-123"
    cleared = client.put("/v1/sessions/s_page1/patient", json={"patient_id": None}, headers=clinician).json()
    assert cleared["patient_id"] is None
    assert client.delete("/v1/sessions/s_page1", headers=clinician).json() == {"session_id": "s_page1", "purged": True}
    assert client.get("/v1/sessions/s_page1", headers=clinician).status_code == 404
    assert client.delete("/v1/sessions/s_page1", headers=clinician).json()["purged"] is False
    assert client.get("/v1/sessions/bad id!", headers=clinician).status_code in (404, 422)


def test_status_and_documents_are_for_admins(served: tuple[TestClient, dict[str, str]]) -> None:
    client, keys = served
    status = client.get("/v1/status", headers=auth(keys, "admin")).json()
    assert status["documents"] == 4 and status["jobs"]["completed"] == 4
    assert [c["source"] for c in status["coverage"]] == ["odb", "ohip", "adp"]
    documents = client.get("/v1/documents", headers=auth(keys, "admin")).json()["documents"]
    assert "sample-hypertension" in {d["doc_key"] for d in documents}
    for role in ("clinician", "auditor"):
        assert client.get("/v1/status", headers=auth(keys, role)).status_code == 403


def test_the_page_and_its_files_are_served_from_the_package_with_a_self_only_policy(
    served: tuple[TestClient, dict[str, str]],
) -> None:
    client, _ = served
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ASSETS():
        response = client.get(f"/static/{name}")
        assert response.status_code == 200, name
        again = client.get(f"/static/{name}", headers={"If-None-Match": response.headers["etag"]})
        assert again.status_code == 304
    assert client.get("/static/../pyproject.toml").status_code == 404
    assert client.get("/static/nothing.js").status_code == 404
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/static/docs.js" in docs.text
    assert client.get("/redoc").status_code == 404


def test_no_asset_names_an_outside_address() -> None:
    """Nothing the page ships loads from outside the server (no CDN, no font service)."""
    for name, asset in ASSETS().items():
        text = asset.body.decode()
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, name
        assert "@import" not in text and "fonts.g" not in text, name


def test_the_wheel_carries_the_page() -> None:
    import tomllib

    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert "web/static/*" in pyproject["tool"]["setuptools"]["package-data"]["curbside"]
    assert {"index.html", "app.js", "app.css", "docs.html", "docs.js"} <= set(ASSETS())


def test_the_trail_is_browsed_a_page_at_a_time(served: tuple[TestClient, dict[str, str]]) -> None:
    client, keys = served
    for _ in range(3):  # rows of our own: each verify is recorded
        assert client.get("/v1/audit/verify", headers=auth(keys, "auditor")).status_code == 200
    whole = client.get("/v1/audit/export", params={"since": "2000-01-01"}, headers=auth(keys, "auditor")).text
    every = [line for line in whole.splitlines() if line]
    first = client.get(
        "/v1/audit/rows", params={"since": "2000-01-01", "limit": 2}, headers=auth(keys, "auditor")
    ).json()
    second = client.get(
        "/v1/audit/rows", params={"since": "2000-01-01", "limit": 2, "offset": 2}, headers=auth(keys, "auditor")
    ).json()
    assert first["more"] and first["verified"] and len(first["rows"]) == 2
    # the pages are the export's rows, in order, without gaps or repeats
    import json

    assert [r["seq"] for r in first["rows"] + second["rows"]] == [json.loads(line)["seq"] for line in every[:4]]
    beyond = client.get(
        "/v1/audit/rows", params={"since": "2000-01-01", "offset": 10_000}, headers=auth(keys, "auditor")
    ).json()
    assert beyond["rows"] == [] and not beyond["more"]
    assert client.get("/v1/audit/rows", params={"since": "x"}, headers=auth(keys, "auditor")).status_code in (400, 422)
