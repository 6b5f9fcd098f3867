"""The sandbox EHR (Medplum's FHIR router in Node) loaded with the shared Synthea bundles, read back exactly.

The Node packages install once into ``CURBSIDE_EHR_SANDBOX_CACHE`` (default ``~/.cache/curbside-ehr-sandbox``),
so a fresh machine pays the ``npm install`` (about 5 s) once and later runs reuse it.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from curbside.tools.ehr.sandbox import EhrSandbox, SandboxUnavailableError, launcher

pytestmark = pytest.mark.timeout(180)


def _install_dir() -> Path:
    configured = os.environ.get("CURBSIDE_EHR_SANDBOX_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "curbside-ehr-sandbox"


def _resources(path: Path) -> list[dict[str, Any]]:
    return [entry["resource"] for entry in json.loads(path.read_text(encoding="utf-8"))["entry"]]


@pytest.fixture(scope="module")
def adults_dir(shared_data: Path) -> Path:
    return shared_data / "fhir" / "synthea-adults"


@pytest.fixture(scope="module")
def ehr(adults_dir: Path) -> Iterator[EhrSandbox]:
    with EhrSandbox(install_dir=_install_dir()) as sandbox:
        report = sandbox.load(adults_dir)
        assert report.failures == []
        assert report.bundles == 17
        assert report.entries == sum(len(_resources(p)) for p in adults_dir.glob("*.json"))
        yield sandbox


@pytest.fixture(scope="module")
def client(ehr: EhrSandbox) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=ehr.base_url, timeout=30) as c:
        yield c


@pytest.fixture(scope="module")
def first_patient(adults_dir: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The Patient of the first adult bundle and every resource of that bundle."""
    resources = _resources(sorted(adults_dir.glob("*.json"))[0])
    patient = next(r for r in resources if r["resourceType"] == "Patient")
    return patient, resources


def _without_meta(resource: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in resource.items() if k != "meta"}


def test_patient_reads_back_by_id_exactly(client: httpx.Client, first_patient: Any) -> None:
    patient, _ = first_patient
    response = client.get(f"/Patient/{patient['id']}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/fhir+json")
    assert _without_meta(response.json()) == patient


def test_patient_found_by_name_and_birth_date(client: httpx.Client, first_patient: Any) -> None:
    patient, _ = first_patient
    name = patient["name"][0]
    found = client.get(
        "/Patient", params={"family": name["family"], "given": name["given"][0], "birthdate": patient["birthDate"]}
    ).json()
    assert found["total"] == 1
    assert found["entry"][0]["resource"]["id"] == patient["id"]
    mrn = next(
        i["value"] for i in patient["identifier"] if i.get("type", {}).get("coding", [{}])[0].get("code") == "MR"
    )
    by_mrn = client.get("/Patient", params={"identifier": mrn}).json()
    assert [e["resource"]["id"] for e in by_mrn["entry"]] == [patient["id"]]
    assert client.get("/Patient", params={"family": "Nobody-Such"}).json()["total"] == 0


def test_observation_by_id_has_exact_values_and_resolved_references(client: httpx.Client, first_patient: Any) -> None:
    patient, resources = first_patient
    observation = next(r for r in resources if r["resourceType"] == "Observation" and "valueQuantity" in r)
    served = client.get(f"/Observation/{observation['id']}").json()
    assert served["valueQuantity"] == observation["valueQuantity"]
    assert served["code"] == observation["code"]
    assert served["effectiveDateTime"] == observation["effectiveDateTime"]
    assert served["subject"] == {"reference": f"Patient/{patient['id']}"}
    encounter_id = observation["encounter"]["reference"].removeprefix("urn:uuid:")
    assert served["encounter"] == {"reference": f"Encounter/{encounter_id}"}
    assert client.get(f"/Encounter/{encounter_id}").status_code == 200


def test_observation_search_by_patient_and_code_matches_the_bundle(client: httpx.Client, first_patient: Any) -> None:
    patient, resources = first_patient
    observation = next(r for r in resources if r["resourceType"] == "Observation" and "valueQuantity" in r)
    coding = observation["code"]["coding"][0]
    expected = [
        r for r in resources if r["resourceType"] == "Observation" and r["code"]["coding"][0]["code"] == coding["code"]
    ]
    found = client.get(
        "/Observation",
        params={
            "patient": f"Patient/{patient['id']}",
            "code": f"{coding['system']}|{coding['code']}",
            "_sort": "-date",
            "_count": 1000,
        },
    ).json()
    assert found["total"] == len(expected)
    by_id = {e["resource"]["id"]: e["resource"] for e in found["entry"]}
    assert set(by_id) == {r["id"] for r in expected}
    for r in expected:
        assert by_id[r["id"]]["valueQuantity"] == r["valueQuantity"]
    dates = [e["resource"]["effectiveDateTime"] for e in found["entry"]]
    assert dates[0] == max(r["effectiveDateTime"] for r in expected)


def test_paging_follows_link_next_through_every_observation(client: httpx.Client, first_patient: Any) -> None:
    patient, resources = first_patient
    expected = {r["id"] for r in resources if r["resourceType"] == "Observation"}
    url: str | None = f"{client.base_url}/Observation?patient=Patient/{patient['id']}&_count=100"
    seen: list[str] = []
    pages = 0
    while url:
        page = client.get(url).json()
        pages += 1
        assert page["total"] == len(expected)
        assert len(page.get("entry", [])) <= 100
        seen += [e["resource"]["id"] for e in page.get("entry", [])]
        url = next((link["url"] for link in page["link"] if link["relation"] == "next"), None)
    assert pages == -(-len(expected) // 100)
    assert len(seen) == len(set(seen)) == len(expected)
    assert set(seen) == expected


def test_searches_page_by_default(client: httpx.Client) -> None:
    page = client.get("/Observation").json()
    assert len(page["entry"]) == 20
    assert page["total"] > 10_000
    assert any(link["relation"] == "next" for link in page["link"])


def test_create_update_delete_round_trip(client: httpx.Client, first_patient: Any) -> None:
    patient, _ = first_patient
    observation = {
        "resourceType": "Observation",
        "status": "final",
        "code": {"coding": [{"system": "http://loinc.org", "code": "8867-4", "display": "Heart rate"}]},
        "subject": {"reference": f"Patient/{patient['id']}"},
        "effectiveDateTime": "2026-11-01T09:00:00Z",
        "valueQuantity": {"value": 72, "unit": "/min", "system": "http://unitsofmeasure.org", "code": "/min"},
    }
    created = client.post("/Observation", json=observation)
    assert created.status_code == 201
    new_id = created.json()["id"]
    assert created.headers["location"].endswith(f"/Observation/{new_id}/_history/{created.json()['meta']['versionId']}")
    updated = {**created.json(), "valueQuantity": {**observation["valueQuantity"], "value": 75}}
    assert client.put(f"/Observation/{new_id}", json=updated).status_code == 200
    assert client.get(f"/Observation/{new_id}").json()["valueQuantity"]["value"] == 75
    assert client.delete(f"/Observation/{new_id}").status_code == 200
    gone = client.get(f"/Observation/{new_id}")
    assert gone.status_code == 404
    assert gone.json()["resourceType"] == "OperationOutcome"


def test_transaction_resolves_urn_uuid_with_and_without_ids(client: httpx.Client) -> None:
    kept_id = str(uuid.uuid4())
    bundle = {
        "resourceType": "Bundle",
        "type": "transaction",
        "entry": [
            {
                "fullUrl": f"urn:uuid:{kept_id}",
                "resource": {"resourceType": "Patient", "id": kept_id, "name": [{"family": "Keptid"}]},
                "request": {"method": "POST", "url": "Patient"},
            },
            {
                "fullUrl": "urn:uuid:7a1d1c5e-0000-4000-8000-000000000001",
                "resource": {"resourceType": "Patient", "name": [{"family": "Serverid"}]},
                "request": {"method": "POST", "url": "Patient"},
            },
            {
                "resource": {
                    "resourceType": "AllergyIntolerance",
                    "patient": {"reference": "urn:uuid:7a1d1c5e-0000-4000-8000-000000000001"},
                    "recorder": {"reference": f"urn:uuid:{kept_id}"},
                    "code": {"text": "penicillin"},
                },
                "request": {"method": "POST", "url": "AllergyIntolerance"},
            },
        ],
    }
    answer = client.post("/", json=bundle).json()
    assert answer["type"] == "transaction-response"
    statuses = [e["response"]["status"] for e in answer["entry"]]
    assert all(s.startswith("201") for s in statuses), statuses
    assert answer["entry"][0]["response"]["location"].startswith(f"Patient/{kept_id}/")
    server_id = answer["entry"][1]["resource"]["id"]
    allergy = answer["entry"][2]["resource"]
    assert allergy["patient"]["reference"] == f"Patient/{server_id}"
    assert allergy["recorder"]["reference"] == f"Patient/{kept_id}"
    assert client.get(f"/Patient/{kept_id}").json()["name"] == [{"family": "Keptid"}]


def test_batch_bundles_load_with_their_ids(ehr: EhrSandbox, client: httpx.Client, shared_data: Path) -> None:
    children = shared_data / "fhir" / "synthea"
    path = sorted(children.glob("*.json"))[0]
    resources = _resources(path)
    assert json.loads(path.read_text(encoding="utf-8"))["type"] == "batch"
    assert ehr.load_bundle(path) == len(resources)
    patient = next(r for r in resources if r["resourceType"] == "Patient")
    assert _without_meta(client.get(f"/Patient/{patient['id']}").json()) == patient
    encounters = client.get("/Encounter", params={"patient": patient["id"], "_count": 1000}).json()
    assert encounters["total"] == sum(r["resourceType"] == "Encounter" for r in resources)


def test_an_unknown_resource_is_an_operation_outcome(client: httpx.Client) -> None:
    response = client.get("/Patient/does-not-exist")
    assert response.status_code == 404
    assert response.json()["issue"][0]["code"] == "not-found"


# -- record-writes -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def recording(shared_data: Path) -> Iterator[EhrSandbox]:
    with EhrSandbox(install_dir=_install_dir(), record_writes=True) as sandbox:
        path = sorted((shared_data / "fhir" / "synthea").glob("*.json"))[0]
        sandbox.load_bundle(path)  # loading applies even in record-writes mode
        yield sandbox


def test_record_writes_accepts_but_does_not_apply(recording: EhrSandbox, shared_data: Path) -> None:
    path = sorted((shared_data / "fhir" / "synthea").glob("*.json"))[0]
    patient = next(r for r in _resources(path) if r["resourceType"] == "Patient")
    allergy = {
        "resourceType": "AllergyIntolerance",
        "patient": {"reference": f"Patient/{patient['id']}"},
        "code": {"coding": [{"system": "http://snomed.info/sct", "code": "91936005", "display": "Penicillin allergy"}]},
    }
    with httpx.Client(base_url=recording.base_url, timeout=30) as c:
        assert recording.clear_recorded_writes() == 0
        created = c.post("/AllergyIntolerance", json=allergy)
        assert created.status_code == 201
        assert created.headers["x-curbside-sandbox"] == "recorded-not-applied"
        new_id = created.json()["id"]
        assert c.get(f"/AllergyIntolerance/{new_id}").status_code == 404
        assert c.get("/AllergyIntolerance", params={"patient": patient["id"]}).json()["total"] == 0

        renamed = {**patient, "name": [{"family": "Changed"}]}
        assert c.put(f"/Patient/{patient['id']}", json=renamed).status_code == 200
        assert _without_meta(c.get(f"/Patient/{patient['id']}").json()) == patient
        assert c.delete(f"/Patient/{patient['id']}").status_code == 200
        assert c.get(f"/Patient/{patient['id']}").status_code == 200

        writes = recording.recorded_writes()
    assert [(w["method"], w["url"]) for w in writes] == [
        ("POST", "/AllergyIntolerance"),
        ("PUT", f"/Patient/{patient['id']}"),
        ("DELETE", f"/Patient/{patient['id']}"),
    ]
    assert writes[0]["body"] == allergy
    assert writes[0]["assignedId"] == new_id
    assert writes[1]["body"]["name"] == [{"family": "Changed"}]


def test_record_writes_records_a_transaction(recording: EhrSandbox) -> None:
    bundle = {
        "resourceType": "Bundle",
        "type": "transaction",
        "entry": [
            {
                "resource": {"resourceType": "Patient", "name": [{"family": "Neverstored"}]},
                "request": {"method": "POST", "url": "Patient"},
            }
        ],
    }
    recording.clear_recorded_writes()
    with httpx.Client(base_url=recording.base_url, timeout=30) as c:
        answer = c.post("/", json=bundle).json()
        assert answer["type"] == "transaction-response"
        assert answer["entry"][0]["response"]["status"].startswith("201")
        assert c.get("/Patient", params={"family": "Neverstored"}).json()["total"] == 0
    writes = recording.recorded_writes()
    assert len(writes) == 1 and writes[0]["body"] == bundle


# -- launcher ------------------------------------------------------------------------------------------------


def test_missing_npm_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(launcher.shutil, "which", lambda name: None)
    with pytest.raises(SandboxUnavailableError, match="npm") as caught:
        EhrSandbox(install_dir=tmp_path / "empty").start()
    assert "apt-get install nodejs npm" in str(caught.value)
