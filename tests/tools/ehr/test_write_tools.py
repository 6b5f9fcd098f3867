"""The EHR write tools against the sandbox EHR loaded with the 17 shared Synthea adults.

Every write goes through the real executor: it waits for a clinician's approval, and only then lands in
the chart — read back from the server and compared field by field. A denial or an expiry writes nothing
(counted on the server, and on a ``--record-writes`` sandbox, which lists every write it was sent);
implausible values are refused before a confirmation exists; a role that may read may not write unless
listed; the audit trail holds the written resource's type and id, never its content.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from curbside.errors import NotFoundError
from curbside.settings import Settings
from curbside.tools import InMemoryAuditSink, ToolContext, ToolExecutor, ToolHooks, ToolRegistry, ToolResult
from curbside.tools.confirmations import ConfirmationStore
from curbside.tools.ehr.deps import EhrDeps
from curbside.tools.ehr.fhir_build import CALL_IDENTIFIER
from curbside.tools.ehr.fhir_client import HttpFhirClient
from curbside.tools.ehr.sandbox import EhrSandbox
from curbside.tools.ehr.write_codes import LOINC, RXNORM, SNOMED, loinc_problem, rxnorm_problem, snomed_problem
from curbside.tools.ehr.write_tools import register
from curbside.tools.ehr.write_vocab import parse_frequency
from curbside.types import ToolCaller
from tests.tools.ehr.conftest import LoadedSandbox, sandbox_install_dir

pytestmark = pytest.mark.timeout(180)

DR_A = ToolCaller(user="dr-a", role="clinician", channel="http")
ADMIN = ToolCaller(user="admin-1", role="admin", channel="http")
NOW = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)  # the EHR deps' clock: the default time of a write
LETICIA = "b71278db-83e5-38f8-e337-9754621aad7b"  # 2 allergies, 68 medication requests in her bundle
LUCIANO = "320556cd-1f12-d3c5-4e1c-cef244bf868d"  # deceased 2019-04-19
Resource = dict[str, Any]


# --- the rig: a registry with the write tools, an executor with an audit sink and a clock -------------------


@dataclass
class Rig:
    executor: ToolExecutor
    sink: InMemoryAuditSink
    clock: list[float]
    registry: ToolRegistry

    async def approve(self, tool: str, arguments: dict[str, Any], caller: ToolCaller = DR_A) -> ToolResult:
        """Call, check it waits for confirmation, approve it."""
        asked = await self.executor.call(tool, arguments, caller=caller)
        assert asked.status == "needs_confirmation", asked.error
        assert asked.confirmation is not None
        return await self.executor.decide(asked.confirmation.id, approve=True, caller=caller)


@asynccontextmanager
async def rig(url: str | None, *, roles: tuple[str, ...] = ("clinician",), ttl_s: float = 60.0) -> AsyncIterator[Rig]:
    settings = Settings(fhir_url=url, ehr_write_roles=list(roles))
    client = HttpFhirClient.from_settings(settings) if url else None
    registry = ToolRegistry()
    register(registry, EhrDeps(settings=settings, client=lambda: client, now=lambda: NOW))
    sink = InMemoryAuditSink()
    clock = [1_000_000.0]
    executor = ToolExecutor(
        registry,
        default_caller=DR_A,
        hooks=ToolHooks(audit=sink),
        confirmations=ConfirmationStore(ttl_s=ttl_s, clock=lambda: clock[0]),
    )
    try:
        yield Rig(executor, sink, clock, registry)
    finally:
        if client is not None:
            await client.aclose()


def run(url: str | None, scenario: Callable[[Rig], Awaitable[Any]], **options: Any) -> Any:
    async def go() -> Any:
        async with rig(url, **options) as r:
            return await scenario(r)

    return asyncio.run(go())


# --- the server, read directly --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fhir(adult_sandbox: LoadedSandbox) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=adult_sandbox.url, timeout=30) as client:
        yield client


def count(fhir: httpx.Client, resource_type: str, patient_id: str) -> int:
    total: int = fhir.get(f"/{resource_type}", params={"patient": patient_id, "_count": 1}).json()["total"]
    return total


def read(fhir: httpx.Client, result: ToolResult) -> Resource:
    assert result.status == "ok", result.error
    assert result.result is not None
    answer = fhir.get(f"/{result.result['resource_type']}/{result.result['id']}")
    assert answer.status_code == 200
    resource: Resource = answer.json()
    return resource


def bundle_resources(bundles: dict[str, Resource], patient_id: str, resource_type: str) -> list[Resource]:
    return [e["resource"] for e in bundles[patient_id]["entry"] if e["resource"]["resourceType"] == resource_type]


# --- registration ---------------------------------------------------------------------------------------


def test_five_write_tools_each_confirmed_phi_and_for_writers_only() -> None:
    registry = ToolRegistry()
    settings = Settings(ehr_write_roles=["clinician", "nurse"], tool_ehr_timeout_s=12, tool_ehr_rate_limit=30)
    register(registry, EhrDeps(settings=settings, client=lambda: None))
    risks = {spec.name: spec.risk_level for spec in registry}
    assert risks == {
        "ehr.record_vital": "medium",
        "ehr.add_allergy": "medium",
        "ehr.prescribe_medication": "high",
        "ehr.order_service": "high",
        "ehr.save_clinical_note": "medium",
    }
    for spec in registry:
        assert spec.requires_confirmation and spec.requires_phi and spec.category == "ehr"
        assert spec.allowed_roles == frozenset({"clinician", "nurse"})
        assert spec.audit_fields == ("resource_type", "id")
        assert (spec.timeout_s, spec.rate_limit) == (12, 30)
        assert "needs_confirmation" in spec.description
        schema = spec.input_schema()
        assert schema["additionalProperties"] is False
        assert all("description" in field or "$ref" in field for name, field in schema["properties"].items())

    nobody = ToolRegistry()
    register(nobody, EhrDeps(settings=Settings(ehr_write_roles=[]), client=lambda: None))
    assert len(nobody) == 0


# --- each write, after approval, read back --------------------------------------------------------------


def test_blood_pressure_is_written_only_after_approval(
    fhir: httpx.Client, adult_sandbox: LoadedSandbox, adult_bundles: dict[str, Resource]
) -> None:
    before = count(fhir, "Observation", LETICIA)
    seen: dict[str, Any] = {}

    async def scenario(r: Rig) -> ToolResult:
        asked = await r.executor.call(
            "ehr.record_vital", {"patient_id": LETICIA, "kind": "blood_pressure", "systolic": 128, "diastolic": 82}
        )
        assert asked.status == "needs_confirmation"
        assert asked.confirmation is not None
        seen["summary"] = asked.confirmation.summary
        seen["count_waiting"] = await asyncio.to_thread(count, fhir, "Observation", LETICIA)
        return await r.executor.decide(asked.confirmation.id, approve=True, caller=DR_A)

    result = run(adult_sandbox.url, scenario)
    assert seen["summary"] == (
        "Record blood pressure 128/82 mmHg (LOINC 85354-9), taken now, for Leticia253 Esquivel546, born 1982-04-11 "
        f"(Patient/{LETICIA}) — Observation"
    )
    assert seen["count_waiting"] == before
    assert count(fhir, "Observation", LETICIA) == before + 1

    stored = read(fhir, result)
    assert result.result is not None
    assert result.result["version"] == stored["meta"]["versionId"]
    assert result.result["summary"].startswith(
        f"Recorded blood pressure 128/82 mmHg (LOINC 85354-9), taken {NOW.isoformat()}"
    )
    assert stored["status"] == "final"
    assert stored["subject"] == {"reference": f"Patient/{LETICIA}"}
    assert stored["effectiveDateTime"] == NOW.isoformat()
    assert stored["category"][0]["coding"][0]["code"] == "vital-signs"
    assert stored["code"]["coding"][0] == {
        "system": LOINC,
        "code": "85354-9",
        "display": "Blood pressure panel with all children optional",
    }
    assert "valueQuantity" not in stored
    values = {c["code"]["coding"][0]["code"]: c["valueQuantity"] for c in stored["component"]}
    # the same codes and UCUM unit as the Synthea bundle's own blood pressures
    synthea = next(
        o
        for o in bundle_resources(adult_bundles, LETICIA, "Observation")
        if o["code"]["coding"][0]["code"] == "85354-9"
    )
    synthea_units = {c["code"]["coding"][0]["code"]: c["valueQuantity"]["code"] for c in synthea["component"]}
    assert synthea_units == {code: q["code"] for code, q in values.items()} == {"8480-6": "mm[Hg]", "8462-4": "mm[Hg]"}
    assert values["8480-6"]["value"] == 128 and values["8462-4"]["value"] == 82
    assert stored["identifier"][0]["system"] == CALL_IDENTIFIER


@pytest.mark.parametrize(
    ("kind", "value", "unit", "loinc", "ucum"),
    [
        ("heart_rate", 72, None, "8867-4", "/min"),
        ("respiratory_rate", 16, None, "9279-1", "/min"),
        ("temperature", 37.2, None, "8310-5", "Cel"),
        ("temperature", 98.6, "°F", "8310-5", "[degF]"),
        ("spo2", 97, None, "2708-6", "%"),
        ("weight", 81.4, "kg", "29463-7", "kg"),
        ("weight", 180, "lb", "29463-7", "[lb_av]"),
        ("height", 172.5, None, "8302-2", "cm"),
        ("bmi", 27.4, None, "39156-5", "kg/m2"),
    ],
)
def test_each_vital_has_its_loinc_code_and_ucum_unit(
    fhir: httpx.Client,
    adult_sandbox: LoadedSandbox,
    adult_bundles: dict[str, Resource],
    kind: str,
    value: float,
    unit: str | None,
    loinc: str,
    ucum: str,
) -> None:
    arguments = {"patient_id": f"Patient/{LETICIA}", "kind": kind, "value": value, "unit": unit}
    effective = "2026-02-27T08:15:00-05:00"
    arguments["effective"] = effective

    async def scenario(r: Rig) -> ToolResult:
        return await r.executor.call("ehr.record_vital", arguments, confirm=True)  # a scripted, audited --yes

    stored = read(fhir, run(adult_sandbox.url, scenario))
    assert stored["code"]["coding"][0]["code"] == loinc
    assert stored["valueQuantity"]["value"] == value
    assert stored["valueQuantity"]["code"] == ucum
    assert stored["valueQuantity"]["system"] == "http://unitsofmeasure.org"
    assert stored["effectiveDateTime"] == effective
    # where Synthea records the same vital, it uses the same code and (metric) unit
    same = [
        o
        for bundle in adult_bundles.values()
        for o in (e["resource"] for e in bundle["entry"])
        if o["resourceType"] == "Observation" and o["code"]["coding"][0]["code"] == loinc
    ]
    assert same, loinc
    if unit is None or unit == "kg":
        assert {o["valueQuantity"]["code"] for o in same} == {ucum}


def test_add_allergy_reads_back_and_joins_the_bundles_allergies(
    fhir: httpx.Client, adult_sandbox: LoadedSandbox, adult_bundles: dict[str, Resource]
) -> None:
    loaded = bundle_resources(adult_bundles, LETICIA, "AllergyIntolerance")
    assert count(fhir, "AllergyIntolerance", LETICIA) >= len(loaded) == 2
    before = count(fhir, "AllergyIntolerance", LETICIA)
    arguments = {
        "patient_id": LETICIA,
        "substance": "penicillin",
        "code_system": "rxnorm",
        "code": "7980",
        "reaction": "hives",
        "severity": "moderate",
        "criticality": "high",
        "category": "medication",
    }

    async def scenario(r: Rig) -> ToolResult:
        return await r.approve("ehr.add_allergy", arguments)

    stored = read(fhir, run(adult_sandbox.url, scenario))
    assert count(fhir, "AllergyIntolerance", LETICIA) == before + 1
    assert stored["patient"] == {"reference": f"Patient/{LETICIA}"}
    assert stored["code"] == {"coding": [{"system": RXNORM, "code": "7980"}], "text": "penicillin"}
    assert stored["clinicalStatus"]["coding"][0]["code"] == "active"
    assert stored["verificationStatus"]["coding"][0]["code"] == "confirmed"
    # the same systems Synthea uses for these two statuses
    assert stored["clinicalStatus"]["coding"][0]["system"] == loaded[0]["clinicalStatus"]["coding"][0]["system"]
    assert stored["verificationStatus"]["coding"][0]["system"] == loaded[0]["verificationStatus"]["coding"][0]["system"]
    assert stored["reaction"] == [{"manifestation": [{"text": "hives"}], "severity": "moderate"}]
    assert (stored["criticality"], stored["category"]) == ("high", ["medication"])
    assert stored["recordedDate"] == NOW.isoformat()
    assert stored["recorder"] == {"display": "dr-a (via Curbside)"}


def test_prescription_has_rxnorm_structured_dose_route_and_timing(
    fhir: httpx.Client, adult_sandbox: LoadedSandbox, adult_bundles: dict[str, Resource]
) -> None:
    before = count(fhir, "MedicationRequest", LETICIA)
    assert before >= len(bundle_resources(adult_bundles, LETICIA, "MedicationRequest")) == 68
    arguments = {
        "patient_id": LETICIA,
        "medication": "metformin",
        "rxnorm": "860975",
        "dose": 500,
        "dose_unit": "mg",
        "route": "PO",
        "frequency": "BID",
        "duration_days": 90,
        "quantity": 180,
        "quantity_unit": "tablets",
        "refills": 3,
        "reason": "type 2 diabetes",
        "reason_snomed": "44054006",
    }
    asked: dict[str, str] = {}

    async def scenario(r: Rig) -> ToolResult:
        waiting = await r.executor.call("ehr.prescribe_medication", arguments)
        assert waiting.confirmation is not None
        asked["summary"] = waiting.confirmation.summary
        return await r.executor.decide(waiting.confirmation.id, approve=True)

    result = run(adult_sandbox.url, scenario)
    assert asked["summary"] == (
        "Prescribe metformin 500 mg by mouth twice daily for 90 days (RxNorm 860975) "
        f"for Leticia253 Esquivel546, born 1982-04-11 (Patient/{LETICIA}) — MedicationRequest"
    )
    stored = read(fhir, result)
    assert count(fhir, "MedicationRequest", LETICIA) == before + 1
    assert (stored["status"], stored["intent"]) == ("active", "order")
    assert stored["medicationCodeableConcept"] == {
        "coding": [{"system": RXNORM, "code": "860975"}],
        "text": "metformin",
    }
    # the RxNorm system URI is the one the Synthea bundles use
    assert {
        m["medicationCodeableConcept"]["coding"][0]["system"]
        for m in bundle_resources(adult_bundles, LETICIA, "MedicationRequest")
    } == {RXNORM}
    dosage = stored["dosageInstruction"][0]
    assert dosage["text"] == "500 mg by mouth twice daily for 90 days"
    assert dosage["timing"]["repeat"] == {
        "frequency": 2,
        "period": 1,
        "periodUnit": "d",
        "boundsDuration": {"value": 90, "unit": "days", "system": "http://unitsofmeasure.org", "code": "d"},
    }
    assert dosage["route"]["coding"] == [{"system": SNOMED, "code": "26643006", "display": "Oral route"}]
    assert dosage["doseAndRate"][0]["doseQuantity"] == {
        "value": 500,
        "unit": "mg",
        "system": "http://unitsofmeasure.org",
        "code": "mg",
    }
    assert stored["dispenseRequest"]["quantity"]["value"] == 180
    assert stored["dispenseRequest"]["quantity"]["code"] == "{tablet}"
    assert stored["dispenseRequest"]["numberOfRepeatsAllowed"] == 3
    assert stored["reasonCode"] == [{"text": "type 2 diabetes", "coding": [{"system": SNOMED, "code": "44054006"}]}]
    assert stored["authoredOn"] == NOW.isoformat()


def test_prn_prescription_by_inhalation(fhir: httpx.Client, adult_sandbox: LoadedSandbox) -> None:
    arguments = {
        "patient_id": LETICIA,
        "medication": "albuterol inhaler",
        "rxnorm": "245314",
        "dose": 2,
        "dose_unit": "puffs",
        "route": "inhalation",
        "frequency": "every 4 hours",
        "as_needed_for": "wheeze",
    }

    async def scenario(r: Rig) -> ToolResult:
        return await r.approve("ehr.prescribe_medication", arguments)

    dosage = read(fhir, run(adult_sandbox.url, scenario))["dosageInstruction"][0]
    assert dosage["text"] == "2 puffs by inhalation every 4 hours as needed for wheeze"
    assert dosage["timing"]["repeat"] == {"frequency": 1, "period": 4, "periodUnit": "h"}
    assert dosage["asNeededCodeableConcept"] == {"text": "wheeze"}
    assert dosage["route"]["coding"][0]["code"] == "447694001"
    assert dosage["doseAndRate"][0]["doseQuantity"]["code"] == "{puff}"


def test_lab_order_and_referral(fhir: httpx.Client, adult_sandbox: LoadedSandbox) -> None:
    when = (datetime.now(UTC) + timedelta(days=14)).date()
    lab = {
        "patient_id": LETICIA,
        "kind": "lab",
        "code_system": "loinc",
        "code": "4548-4",
        "display": "Hemoglobin A1c/Hemoglobin.total in Blood",
        "when": when.isoformat(),
        "priority": "routine",
        "reason": "diabetes follow-up",
        "note": "fasting not needed",
    }
    referral_time = (datetime.now(UTC) + timedelta(days=30)).replace(microsecond=0)
    referral = {
        "patient_id": LETICIA,
        "kind": "referral",
        "code_system": "snomed",
        "code": "306206005",
        "display": "Referral to service",
        "when": referral_time.isoformat(),
        "priority": "urgent",
    }

    async def scenario(r: Rig) -> tuple[ToolResult, ToolResult]:
        return await r.approve("ehr.order_service", lab), await r.approve("ehr.order_service", referral)

    lab_result, referral_result = run(adult_sandbox.url, scenario)
    stored = read(fhir, lab_result)
    assert (stored["status"], stored["intent"], stored["priority"]) == ("active", "order", "routine")
    assert stored["code"]["coding"] == [
        {"system": LOINC, "code": "4548-4", "display": "Hemoglobin A1c/Hemoglobin.total in Blood"}
    ]
    assert stored["category"][0]["coding"][0]["code"] == "108252007"
    assert stored["occurrenceDateTime"] == when.isoformat()
    assert stored["reasonCode"] == [{"text": "diabetes follow-up"}]
    assert stored["note"] == [{"text": "fasting not needed"}]
    assert stored["subject"] == {"reference": f"Patient/{LETICIA}"}

    sent = read(fhir, referral_result)
    assert sent["code"]["coding"][0] == {"system": SNOMED, "code": "306206005", "display": "Referral to service"}
    assert sent["category"][0]["coding"][0]["code"] == "3457005"
    assert sent["priority"] == "urgent"
    assert datetime.fromisoformat(sent["occurrenceDateTime"]) == referral_time


NOTE = "Température 38.2 °C — reviewed.\nPlan: fluids, recheck in 48 h.\n" * 40


def test_clinical_note_is_base64_text_and_the_audit_trail_holds_only_its_id(
    fhir: httpx.Client, adult_sandbox: LoadedSandbox
) -> None:
    arguments = {"patient_id": LETICIA, "title": "Fever follow-up", "text": NOTE}

    async def scenario(r: Rig) -> tuple[ToolResult, list[Any]]:
        result = await r.approve("ehr.save_clinical_note", arguments)
        return result, list(r.sink.events)

    result, events = run(adult_sandbox.url, scenario)
    stored = read(fhir, result)
    assert result.result is not None
    assert stored["status"] == "current"
    assert stored["type"]["coding"] == [{"system": LOINC, "code": "11506-3", "display": "Progress note"}]
    assert stored["date"] == NOW.isoformat()
    attachment = stored["content"][0]["attachment"]
    data = base64.b64decode(attachment["data"])
    assert data.decode("utf-8") == NOTE.strip()  # arguments are stripped of surrounding whitespace
    assert attachment["contentType"] == "text/plain;charset=utf-8"
    assert attachment["size"] == len(data)
    assert attachment["hash"] == base64.b64encode(hashlib.sha1(data).digest()).decode()
    assert attachment["title"] == stored["description"] == "Fever follow-up"

    waiting, done = events
    assert (waiting.status, waiting.result_refs, waiting.confirmed) == ("needs_confirmation", None, False)
    assert (done.status, done.confirmed, done.confirmation_id) == ("ok", True, waiting.confirmation_id)
    assert done.result_refs == {"resource_type": "DocumentReference", "id": result.result["id"]}
    assert {"patient_id", "text", "title"} <= set(done.argument_names)  # names only: the values are not kept
    trail = repr(events)
    for content in ("Température", "Fever follow-up", "fluids", LETICIA):
        assert content not in trail


def test_a_retried_create_finds_the_first_instead_of_doubling(fhir: httpx.Client, adult_sandbox: LoadedSandbox) -> None:
    from curbside.tools.ehr.write_models import RecordVitalArgs

    args = RecordVitalArgs(patient_id=LETICIA, kind="heart_rate", value=64)

    async def scenario(r: Rig) -> list[Any]:
        spec = r.registry.get("ehr.record_vital")
        ctx = ToolContext(deps=spec.deps, caller=DR_A, call_id="retry-call-1", tool=spec.name)
        return [await spec.handler(ctx, args), await spec.handler(ctx, args)]

    first, second = run(adult_sandbox.url, scenario)
    assert first.id == second.id
    found = fhir.get("/Observation", params={"identifier": f"{CALL_IDENTIFIER}|retry-call-1"}).json()
    assert found["total"] == 1


# --- nothing written: denied, expired, refused, not permitted ---------------------------------------------


def test_a_denied_prescription_writes_nothing(fhir: httpx.Client, adult_sandbox: LoadedSandbox) -> None:
    before = count(fhir, "MedicationRequest", LETICIA)
    arguments = {
        "patient_id": LETICIA,
        "medication": "lisinopril",
        "rxnorm": "314076",
        "dose": 10,
        "dose_unit": "mg",
        "route": "oral",
        "frequency": "once daily",
    }

    async def scenario(r: Rig) -> tuple[ToolResult, list[Any]]:
        asked = await r.executor.call("ehr.prescribe_medication", arguments)
        assert asked.confirmation is not None
        denied = await r.executor.decide(asked.confirmation.id, approve=False)
        return denied, list(r.sink.events)

    denied, events = run(adult_sandbox.url, scenario)
    assert denied.status == "denied"
    assert denied.error is not None and denied.error.code == "CONFIRMATION_DENIED"
    assert count(fhir, "MedicationRequest", LETICIA) == before
    assert [e.status for e in events] == ["needs_confirmation", "denied"]
    assert events[1].result_refs is None


@pytest.fixture(scope="module")
def recording(adult_bundles_dir: Path) -> Iterator[EhrSandbox]:
    """A --record-writes sandbox with Leticia and Luciano loaded: it lists every write it is sent."""
    with EhrSandbox(install_dir=sandbox_install_dir(), record_writes=True) as sandbox:
        for path in sorted(adult_bundles_dir.glob("*.json")):
            if json.loads(path.read_text(encoding="utf-8"))["entry"][0]["resource"]["id"] in (LETICIA, LUCIANO):
                sandbox.load_bundle(path)
        yield sandbox


def test_an_expired_confirmation_sends_nothing_and_an_approved_one_sends_one_post(recording: EhrSandbox) -> None:
    recording.clear_recorded_writes()
    arguments = {"patient_id": LETICIA, "substance": "latex", "reaction": "rash", "severity": "mild"}

    async def scenario(r: Rig) -> tuple[ToolResult, ToolResult, list[Any]]:
        first = await r.executor.call("ehr.add_allergy", arguments)
        second = await r.executor.call("ehr.add_allergy", arguments)
        assert first.confirmation is not None and second.confirmation is not None
        r.clock[0] += 61  # past the 60 s
        late = await r.executor.decide(first.confirmation.id, approve=True)
        with pytest.raises(NotFoundError, match="No confirmation"):  # expired calls are collected with the first
            await r.executor.decide(second.confirmation.id, approve=True)
        fresh = await r.executor.call("ehr.add_allergy", arguments)
        assert fresh.confirmation is not None
        return late, await r.executor.decide(fresh.confirmation.id, approve=True), list(r.sink.events)

    late, approved, events = run(recording.base_url, scenario)
    assert late.status == "denied"
    assert late.error is not None and late.error.code == "CONFIRMATION_EXPIRED"
    expired = [e for e in events if e.error_code == "CONFIRMATION_EXPIRED"]
    assert len(expired) == 2 and all(e.result_refs is None for e in expired)

    writes = recording.recorded_writes()
    assert [(w["method"], w["url"]) for w in writes] == [("POST", "/AllergyIntolerance")]
    assert approved.result is not None and writes[0]["assignedId"] == approved.result["id"]
    body = writes[0]["body"]
    assert body["code"] == {"text": "latex"}
    assert body["reaction"] == [{"manifestation": [{"text": "rash"}], "severity": "mild"}]
    assert body["identifier"] == [{"system": CALL_IDENTIFIER, "value": approved.call_id}]


def test_an_unknown_or_deceased_patient_is_refused_before_any_write(recording: EhrSandbox) -> None:
    recording.clear_recorded_writes()
    prescription = {
        "patient_id": "no-such-patient",
        "medication": "amoxicillin",
        "rxnorm": "308182",
        "dose": 500,
        "dose_unit": "mg",
        "route": "oral",
        "frequency": "three times daily",
    }

    async def scenario(r: Rig) -> tuple[ToolResult, ToolResult, ToolResult]:
        # refused before the clinician is asked: no confirmation is created for a write that cannot happen
        unknown = await r.executor.call("ehr.prescribe_medication", prescription)
        deceased = await r.executor.call("ehr.prescribe_medication", {**prescription, "patient_id": LUCIANO})
        assert r.executor.pending_confirmations(DR_A) == []
        note = await r.approve("ehr.save_clinical_note", {"patient_id": LUCIANO, "title": "Death note", "text": "x"})
        return unknown, deceased, note

    unknown, deceased, note = run(recording.base_url, scenario)
    assert unknown.status == "error" and unknown.error is not None
    assert unknown.error.code == "VALIDATION_ERROR"
    assert unknown.error.message.startswith("There is no Patient/no-such-patient in the EHR, so the prescription")
    assert deceased.error is not None and deceased.error.code == "VALIDATION_ERROR"
    assert "recorded as deceased (2019-04-19T16:28:11+02:00)" in deceased.error.message
    assert note.status == "ok"  # a note may still be written for a patient who died
    assert [w["url"] for w in recording.recorded_writes()] == ["/DocumentReference"]


LATER = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
PRESCRIPTION = {
    "patient_id": LETICIA,
    "medication": "x",
    "rxnorm": "860975",
    "dose": 1,
    "dose_unit": "mg",
    "route": "oral",
    "frequency": "daily",
}


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [
        ("ehr.record_vital", {"kind": "heart_rate", "value": 400}, "Heart rate 400 /min is outside the plausible range 20–300 /min"),
        ("ehr.record_vital", {"kind": "blood_pressure", "systolic": 1200, "diastolic": 80}, "range 50–300 mmHg"),
        ("ehr.record_vital", {"kind": "blood_pressure", "systolic": 80, "diastolic": 120}, "are they swapped?"),
        ("ehr.record_vital", {"kind": "temperature", "value": 120, "unit": "°F"}, "120 °F (48.9 °C) is outside the plausible range 30–45 °C"),
        ("ehr.record_vital", {"kind": "spo2", "value": 101}, "range 50–100 %"),
        ("ehr.record_vital", {"kind": "weight", "value": 80, "unit": "stone"}, "'stone' is not a unit for body weight"),
        ("ehr.record_vital", {"kind": "heart_rate", "value": 70, "effective": LATER}, "is in the future"),
        ("ehr.prescribe_medication", {**PRESCRIPTION, "dose": 50000}, "above 5000 mg per dose; this ceiling is a typo guard"),
        ("ehr.prescribe_medication", {**PRESCRIPTION, "dose": 60, "dose_unit": "g"}, "above 50 g per dose"),
        ("ehr.prescribe_medication", {**PRESCRIPTION, "dose": 20000, "dose_unit": "mcg"}, "above 10000 mcg"),
        ("ehr.prescribe_medication", {**PRESCRIPTION, "dose": 0}, "greater than 0"),
        ("ehr.prescribe_medication", {**PRESCRIPTION, "rxnorm": "86O975"}, "is not an RxNorm code"),
        ("ehr.prescribe_medication", {**PRESCRIPTION, "frequency": "now and then"}, "is not one I can structure"),
        ("ehr.prescribe_medication", {**PRESCRIPTION, "route": "telepathic"}, "route"),
        ("ehr.order_service", {"kind": "lab", "code_system": "loinc", "code": "4548-5", "display": "HbA1c"}, "fails LOINC's check digit (it would be '4548-4')"),
        ("ehr.order_service", {"kind": "referral", "code_system": "snomed", "code": "306206006", "display": "Referral"}, "fails SNOMED CT's check digit"),
        ("ehr.order_service", {"kind": "lab", "code_system": "loinc", "code": "4548-4", "display": "HbA1c", "when": "2020-01-01"}, "is in the past"),
        ("ehr.add_allergy", {"substance": "penicillin", "code": "7980"}, "Give code and code_system together"),
        ("ehr.add_allergy", {"substance": "penicillin", "severity": "severe"}, "give the reaction too"),
        ("ehr.save_clinical_note", {"title": "Long", "text": "x" * 50_001}, "at most 50000 characters"),
        ("ehr.save_clinical_note", {"title": "Odd", "text": "x", "note_type": "99999-5"}, "give note_type_display too"),
    ],
)  # fmt: skip
def test_implausible_or_malformed_calls_are_refused_before_a_confirmation(
    tool: str, arguments: dict[str, Any], said: str
) -> None:
    async def scenario(r: Rig) -> tuple[ToolResult, int]:
        result = await r.executor.call(tool, {"patient_id": LETICIA, **arguments})
        return result, len(r.executor.pending_confirmations(DR_A))

    result, pending = run(None, scenario)  # no EHR at all: nothing may reach one
    assert result.status == "error", result
    assert result.error is not None and result.error.code == "VALIDATION_ERROR"
    assert said in result.error.message
    assert result.confirmation is None and pending == 0


def test_a_role_that_may_read_may_not_write_unless_listed(recording: EhrSandbox) -> None:
    vital = {"patient_id": LETICIA, "kind": "heart_rate", "value": 70}

    async def as_admin(r: Rig) -> tuple[ToolResult, int]:
        result = await r.executor.call("ehr.record_vital", vital, caller=ADMIN, confirm=True)
        return result, len(r.executor.pending_confirmations(ADMIN))

    refused, pending = run(None, as_admin)
    assert refused.status == "denied" and pending == 0
    assert refused.error is not None and refused.error.code == "PERMISSION_DENIED"
    assert "Role 'admin' may not call tool 'ehr.record_vital'; it is open to: clinician" in refused.error.message

    async def admin_listed(r: Rig) -> ToolResult:
        return await r.executor.call("ehr.record_vital", vital, caller=ADMIN)

    asked = run(recording.base_url, admin_listed, roles=("clinician", "admin"))
    assert asked.status == "needs_confirmation"


# --- the vocabulary --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spelled", "words", "repeat"),
    [
        ("once daily", "once daily", {"frequency": 1, "period": 1, "periodUnit": "d"}),
        ("QD", "once daily", {"frequency": 1, "period": 1, "periodUnit": "d"}),
        ("b.i.d.", "twice daily", {"frequency": 2, "period": 1, "periodUnit": "d"}),
        ("TID", "three times daily", {"frequency": 3, "period": 1, "periodUnit": "d"}),
        ("4 times a day", "four times daily", {"frequency": 4, "period": 1, "periodUnit": "d"}),
        ("5 times daily", "5 times daily", {"frequency": 5, "period": 1, "periodUnit": "d"}),
        ("every 8 hours", "every 8 hours", {"frequency": 1, "period": 8, "periodUnit": "h"}),
        ("q6h", "every 6 hours", {"frequency": 1, "period": 6, "periodUnit": "h"}),
        ("every 2 days", "every 2 days", {"frequency": 1, "period": 2, "periodUnit": "d"}),
        ("once weekly", "once weekly", {"frequency": 1, "period": 1, "periodUnit": "wk"}),
        ("every 3 months", "every 3 months", {"frequency": 1, "period": 3, "periodUnit": "mo"}),
        ("at bedtime", "at bedtime", {"frequency": 1, "period": 1, "periodUnit": "d", "when": ["HS"]}),
        ("once", "once (a single dose)", {"count": 1}),
    ],
)
def test_frequencies_become_fhir_timing(spelled: str, words: str, repeat: dict[str, Any]) -> None:
    parsed = parse_frequency(spelled)
    assert parsed is not None
    assert (parsed.words, parsed.repeat) == (words, repeat)


@pytest.mark.parametrize("spelled", ["sometimes", "every 0 hours", "every 100 hours", "30 times daily", ""])
def test_frequencies_not_understood(spelled: str) -> None:
    assert parse_frequency(spelled) is None


def test_every_code_in_the_shared_bundles_passes_the_format_checks(adult_bundles: dict[str, Resource]) -> None:
    checks = {LOINC: loinc_problem, SNOMED: snomed_problem, RXNORM: rxnorm_problem}
    seen = dict.fromkeys(checks, 0)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            check = checks.get(node.get("system", ""))
            if check is not None and "code" in node:
                seen[node["system"]] += 1
                assert check(node["code"]) is None, node
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(list(adult_bundles.values()))
    assert min(seen.values()) > 1000, seen


def test_code_checks_catch_typos() -> None:
    assert loinc_problem("8480-6") is None and loinc_problem("8480-5") is not None
    assert loinc_problem("8480") is not None
    assert snomed_problem("91936005") is None and snomed_problem("91936006") is not None
    assert snomed_problem("91396005") is not None  # two neighbours swapped: Verhoeff catches every such swap
    assert snomed_problem("0123456") is not None
    assert rxnorm_problem("860975") is None and rxnorm_problem("RX860975") is not None
