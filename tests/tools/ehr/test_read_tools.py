"""The EHR read tools through a real tool executor, against the sandbox EHR loaded with the 17 shared
Synthea adults: every value read back is compared with the bundle file it came from."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from curbside.settings import Settings
from curbside.tools import ToolExecutor, ToolRegistry
from curbside.tools.base import ToolResult
from curbside.tools.ehr.chart_trim import trim_to
from curbside.tools.ehr.deps import NO_EHR, EhrDeps
from curbside.tools.ehr.fhir_client import HttpFhirClient
from curbside.tools.ehr.fhir_config import FhirConfig
from curbside.tools.ehr.read_tools import READ_TOOLS, register_read_tools
from curbside.types import ToolCaller
from tests.tools.ehr.conftest import LoadedSandbox

pytestmark = pytest.mark.timeout(180)

Resource = dict[str, Any]
Bundles = dict[str, dict[str, Any]]
NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


# --- the bundles: what the answers must be ------------------------------------------------------------------


def of_type(bundle: dict[str, Any], resource_type: str) -> list[Resource]:
    return [e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == resource_type]


def patient_of(bundle: dict[str, Any]) -> Resource:
    return of_type(bundle, "Patient")[0]


def with_code(bundle: dict[str, Any], code: str) -> list[Resource]:
    """Observations coded ``code``, newest first."""
    found = [o for o in of_type(bundle, "Observation") if any(c["code"] == code for c in o["code"]["coding"])]
    return sorted(found, key=lambda o: datetime.fromisoformat(o["effectiveDateTime"]), reverse=True)


def mrn_of(patient: Resource) -> str:
    return next(
        i["value"] for i in patient["identifier"] if i.get("type", {}).get("coding", [{}])[0].get("code") == "MR"
    )


# --- an executor over the read tools, on one event loop for the module ------------------------------------


class Caller:
    def __init__(self, settings: Settings) -> None:
        self.loop = asyncio.new_event_loop()
        self.client = HttpFhirClient.from_settings(settings)
        registry = ToolRegistry()
        register_read_tools(registry, EhrDeps(settings, client=lambda: self.client, now=lambda: NOW))
        self.executor = ToolExecutor(registry, default_caller=ToolCaller(user="dr-a", role="clinician"))

    def __call__(self, name: str, args: dict[str, Any]) -> ToolResult:
        return self.loop.run_until_complete(self.executor.call(name, args))

    def ok(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        result = self(name, args)
        assert result.ok, result.error
        assert result.result is not None
        return result.result

    def close(self) -> None:
        self.loop.run_until_complete(self.client.aclose())
        self.loop.close()


def settings_for(url: str, tmp: Path, **extra: Any) -> Settings:
    return Settings(home=tmp, fhir_url=url, **extra)


@pytest.fixture(scope="module")
def call(adult_sandbox: LoadedSandbox, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Caller]:
    caller = Caller(settings_for(adult_sandbox.url, tmp_path_factory.mktemp("read")))
    yield caller
    caller.close()


@pytest.fixture(scope="module")
def diabetic(adult_bundles: Bundles) -> dict[str, Any]:
    """The bundle with the most HbA1c results."""
    return max(adult_bundles.values(), key=lambda b: len(with_code(b, "4548-4")))


# --- registration -------------------------------------------------------------------------------------------


def test_six_read_tools_are_registered_as_phi_ehr_tools(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, tool_ehr_timeout_s=7.0, tool_ehr_rate_limit=33)
    registry = ToolRegistry()
    register_read_tools(registry, EhrDeps(settings, client=lambda: None))
    specs = {spec.name: spec for spec in registry}
    assert (
        set(specs)
        == {name for name, *_ in READ_TOOLS}
        == {
            "ehr.search_patient",
            "ehr.get_patient_chart",
            "ehr.get_observations",
            "ehr.get_medications",
            "ehr.get_conditions",
            "ehr.get_allergies",
        }
    )
    for spec in specs.values():
        assert spec.requires_phi and spec.category == "ehr" and not spec.requires_confirmation
        assert (spec.timeout_s, spec.rate_limit) == (7.0, 33)
        assert spec.input_schema()["additionalProperties"] is False


def test_without_an_ehr_the_tools_say_how_to_configure_one(tmp_path: Path) -> None:
    registry = ToolRegistry()
    register_read_tools(registry, EhrDeps(Settings(home=tmp_path), client=lambda: None))
    executor = ToolExecutor(registry, default_caller=ToolCaller(user="dr-a", role="clinician"))
    result = asyncio.run(executor.call("ehr.get_patient_chart", {"patient_id": "abc"}))
    assert result.status == "error" and result.error is not None
    assert (result.error.code, result.error.message) == ("CONFIG_ERROR", NO_EHR)


# --- search_patient -----------------------------------------------------------------------------------------


def test_several_patients_match_a_family_name(call: Caller, adult_bundles: Bundles) -> None:
    expected = {pid for pid, b in adult_bundles.items() if patient_of(b)["name"][0]["family"].startswith("Prosacco")}
    assert len(expected) == 2
    found = call.ok("ehr.search_patient", {"name": "prosacco"})
    assert {m["id"] for m in found["matches"]} == expected
    assert found["count"] == found["total"] == 2
    assert "2 patients match" in found["message"] and "birth date" in found["message"]


def test_a_given_name_alone_matches_patients_of_either_sex(call: Caller, adult_bundles: Bundles) -> None:
    expected = {pid for pid, b in adult_bundles.items() if patient_of(b)["name"][0]["given"][0].startswith("Blair")}
    found = call.ok("ehr.search_patient", {"name": "Blair"})
    assert {m["id"] for m in found["matches"]} == expected and len(expected) == 2


def test_birth_date_narrows_to_one_with_exact_demographics(call: Caller, adult_bundles: Bundles) -> None:
    patient = next(patient_of(b) for b in adult_bundles.values() if patient_of(b)["name"][0]["given"][0] == "Felica690")
    found = call.ok("ehr.search_patient", {"name": "Prosacco", "birth_date": patient["birthDate"]})
    assert found["matches"] == [
        {
            "id": patient["id"],
            "name": "Felica690 Prosacco716",
            "birth_date": patient["birthDate"],
            "sex": patient["gender"],
            "mrn": mrn_of(patient),
            "deceased": None,
        }
    ]
    assert found["message"].startswith("One patient matches")


def test_search_by_mrn(call: Caller, diabetic: dict[str, Any]) -> None:
    patient = patient_of(diabetic)
    found = call.ok("ehr.search_patient", {"identifier": mrn_of(patient)})
    assert [m["id"] for m in found["matches"]] == [patient["id"]]


def test_no_match_is_an_empty_list_with_what_to_try(call: Caller) -> None:
    found = call.ok("ehr.search_patient", {"name": "Nobody-Such", "birth_date": "1900-01-01"})
    assert found["matches"] == [] and found["count"] == 0
    assert found["message"].startswith("No patient matches name 'Nobody-Such' and birth date 1900-01-01")


def test_search_needs_something_to_search_for(call: Caller) -> None:
    result = call("ehr.search_patient", {})
    assert result.error is not None and result.error.code == "VALIDATION_ERROR"
    assert "at least one of name, birth_date or identifier" in result.error.message


# --- get_observations ---------------------------------------------------------------------------------------


def test_latest_hba1c_is_the_bundles_newest(call: Caller, diabetic: dict[str, Any]) -> None:
    newest = with_code(diabetic, "4548-4")[0]
    for code in ("hba1c", "A1C", "4548-4", "http://loinc.org|4548-4"):
        found = call.ok(
            "ehr.get_observations", {"patient_id": patient_of(diabetic)["id"], "code": code, "latest": True}
        )
        (row,) = found["observations"]
        assert row["id"] == newest["id"]
        assert row["value"] == newest["valueQuantity"]["value"]
        assert row["unit"] == newest["valueQuantity"]["unit"] == "%"
        assert row["date"] == newest["effectiveDateTime"]
        assert row["code"] == {"system": "LOINC", "code": "4548-4", "display": newest["code"]["coding"][0]["display"]}
        assert found["truncated"] is False


def test_all_values_of_a_lab_newest_first_with_units(call: Caller, diabetic: dict[str, Any]) -> None:
    expected = with_code(diabetic, "38483-4") + with_code(diabetic, "2160-0")  # creatinine in blood, in serum
    expected.sort(key=lambda o: datetime.fromisoformat(o["effectiveDateTime"]), reverse=True)
    found = call.ok("ehr.get_observations", {"patient_id": patient_of(diabetic)["id"], "code": "creatinine"})
    assert [o["id"] for o in found["observations"]] == [o["id"] for o in expected]
    assert [(o["value"], o["unit"]) for o in found["observations"]] == [
        (o["valueQuantity"]["value"], o["valueQuantity"]["unit"]) for o in expected
    ]
    assert found["total"] == found["count"] == len(expected) and not found["truncated"]


def test_blood_pressure_has_its_components(call: Caller, diabetic: dict[str, Any]) -> None:
    newest = with_code(diabetic, "85354-9")[0]
    found = call.ok("ehr.get_observations", {"patient_id": patient_of(diabetic)["id"], "code": "bp", "latest": True})
    row = found["observations"][0]
    assert row["value"] is None
    parts = {c["code"]["code"]: (c["value"], c["unit"]) for c in row["components"]}
    assert parts == {
        c["code"]["coding"][0]["code"]: (c["valueQuantity"]["value"], "mm[Hg]") for c in newest["component"]
    }
    assert set(parts) == {"8480-6", "8462-4"}


def test_window_edges_are_included(call: Caller, diabetic: dict[str, Any]) -> None:
    values = with_code(diabetic, "4548-4")
    middle = values[len(values) // 2]
    day = date.fromisoformat(middle["effectiveDateTime"][:10])
    pid = patient_of(diabetic)["id"]

    def window(since: date | None, until: date | None) -> list[str]:
        args: dict[str, Any] = {"patient_id": pid, "code": "hba1c"}
        if since:
            args["since"] = since.isoformat()
        if until:
            args["until"] = until.isoformat()
        return [o["id"] for o in call.ok("ehr.get_observations", args)["observations"]]

    assert window(day, None)[-1] == middle["id"]  # exactly on `since`: the oldest kept
    assert middle["id"] not in window(day + timedelta(days=1), None)
    assert window(None, day)[0] == middle["id"]  # exactly on `until`: the newest kept
    assert middle["id"] not in window(None, day - timedelta(days=1))
    assert window(day, day) == [o["id"] for o in values if o["effectiveDateTime"][:10] == day.isoformat()]
    expected = [
        o["id"] for o in values if day - timedelta(days=400) <= date.fromisoformat(o["effectiveDateTime"][:10]) <= day
    ]
    assert window(day - timedelta(days=400), day) == expected


def test_window_uses_the_date_as_recorded_not_utc(call: Caller, adult_bundles: Bundles) -> None:
    # an observation whose recorded date differs from its UTC date: it belongs to the recorded day
    for bundle in adult_bundles.values():
        odd = next(
            (
                o
                for o in of_type(bundle, "Observation")
                if "valueQuantity" in o
                and datetime.fromisoformat(o["effectiveDateTime"]).astimezone(UTC).date().isoformat()
                != o["effectiveDateTime"][:10]
            ),
            None,
        )
        if odd is not None:
            break
    assert odd is not None
    day = odd["effectiveDateTime"][:10]
    found = call.ok(
        "ehr.get_observations",
        {"patient_id": patient_of(bundle)["id"], "code": odd["code"]["coding"][0]["code"], "since": day, "until": day},
    )
    assert odd["id"] in [o["id"] for o in found["observations"]]
    assert all(o["date"][:10] == day for o in found["observations"])


def test_an_empty_window_says_none_recorded(call: Caller, diabetic: dict[str, Any]) -> None:
    found = call.ok(
        "ehr.get_observations",
        {"patient_id": patient_of(diabetic)["id"], "code": "hba1c", "since": "1900-01-01", "until": "1900-12-31"},
    )
    assert found["observations"] == []
    assert found["message"] == "None recorded: no HbA1c for this patient from 1900-01-01 to 1900-12-31."


def test_bad_names_and_windows_are_refused(call: Caller, diabetic: dict[str, Any]) -> None:
    pid = patient_of(diabetic)["id"]
    unknown = call("ehr.get_observations", {"patient_id": pid, "code": "zinc"})
    assert unknown.error is not None and unknown.error.code == "VALIDATION_ERROR"
    assert "'zinc' is neither a LOINC code" in unknown.error.message
    for name in ("hba1c", "creatinine", "egfr", "potassium", "glucose", "ldl", "bp", "weight", "bmi"):
        assert name in unknown.error.message
    backwards = call("ehr.get_observations", {"patient_id": pid, "since": "2020-01-02", "until": "2020-01-01"})
    assert backwards.error is not None and "since (2020-01-02) is after until (2020-01-01)" in backwards.error.message


def test_every_observation_of_a_patient_across_pages(call: Caller, adult_bundles: Bundles) -> None:
    bundle = min(
        (b for b in adult_bundles.values() if len(of_type(b, "Observation")) > 250),
        key=lambda b: len(of_type(b, "Observation")),
    )
    expected = {o["id"] for o in of_type(bundle, "Observation")}
    found = call.ok("ehr.get_observations", {"patient_id": patient_of(bundle)["id"], "max_results": 1000})
    ids = [o["id"] for o in found["observations"]]
    assert len(ids) == len(set(ids)) == len(expected) > 250  # three pages of 100
    assert set(ids) == expected
    assert not found["truncated"] and found["total"] == len(expected)
    dates = [datetime.fromisoformat(o["date"]) for o in found["observations"]]
    assert dates == sorted(dates, reverse=True)


def test_more_than_max_results_is_said(call: Caller, adult_bundles: Bundles) -> None:
    bundle = max(adult_bundles.values(), key=lambda b: len(of_type(b, "Observation")))
    total = len(of_type(bundle, "Observation"))
    found = call.ok("ehr.get_observations", {"patient_id": patient_of(bundle)["id"], "max_results": 150})
    assert found["count"] == 150 and found["truncated"] and found["total"] == total
    assert found["warnings"] == [
        f"Only 150 of {total} observations (newest first) are listed; narrow the request or raise max_results."
    ]


# --- medications, conditions, allergies ---------------------------------------------------------------------


def test_medications_by_status_and_all_across_pages(call: Caller, adult_bundles: Bundles) -> None:
    bundle = max(adult_bundles.values(), key=lambda b: len(of_type(b, "MedicationRequest")))
    orders = of_type(bundle, "MedicationRequest")
    pid = patient_of(bundle)["id"]
    active = call.ok("ehr.get_medications", {"patient_id": pid})
    assert {m["id"] for m in active["medications"]} == {o["id"] for o in orders if o["status"] == "active"}
    assert all(m["medication"]["system"] == "RxNorm" for m in active["medications"])
    every = call.ok("ehr.get_medications", {"patient_id": pid, "status": "all", "max_results": 1000})
    assert every["count"] == len(orders) > 200 and not every["truncated"]
    stopped = call.ok("ehr.get_medications", {"patient_id": pid, "status": "stopped", "max_results": 1000})
    assert stopped["count"] == sum(o["status"] == "stopped" for o in orders)


def test_a_medication_row_reads_the_order_exactly(call: Caller, adult_bundles: Bundles) -> None:
    for bundle in adult_bundles.values():
        order = next(
            (o for o in of_type(bundle, "MedicationRequest") if o["status"] == "active" and o.get("reasonReference")),
            None,
        )
        if order is not None:
            break
    assert order is not None
    condition_id = order["reasonReference"][0]["reference"].removeprefix("urn:uuid:")
    condition = next(c for c in of_type(bundle, "Condition") if c["id"] == condition_id)
    found = call.ok("ehr.get_medications", {"patient_id": patient_of(bundle)["id"]})
    row = next(m for m in found["medications"] if m["id"] == order["id"])
    coding = order["medicationCodeableConcept"]["coding"][0]
    assert row["medication"] == {"system": "RxNorm", "code": coding["code"], "display": coding["display"]}
    assert row["authored_on"] == order["authoredOn"] and row["status"] == "active"
    assert row["reason"] == condition["code"]["coding"][0]["display"]


def test_conditions_active_by_default_and_all(call: Caller, diabetic: dict[str, Any]) -> None:
    conditions = of_type(diabetic, "Condition")
    pid = patient_of(diabetic)["id"]
    active = call.ok("ehr.get_conditions", {"patient_id": pid})
    expected = [c for c in conditions if c["clinicalStatus"]["coding"][0]["code"] == "active"]
    assert {c["id"] for c in active["conditions"]} == {c["id"] for c in expected}
    onsets = [datetime.fromisoformat(c["onset"]) for c in active["conditions"]]
    assert onsets == sorted(onsets, reverse=True)
    resolved = call.ok("ehr.get_conditions", {"patient_id": pid, "clinical_status": "resolved"})
    assert all(c["abatement"] for c in resolved["conditions"])
    assert active["count"] + resolved["count"] == len(conditions)
    assert call.ok("ehr.get_conditions", {"patient_id": pid, "clinical_status": "all"})["count"] == len(conditions)


def test_allergies_exact_and_none_recorded(call: Caller, adult_bundles: Bundles) -> None:
    allergic = max(adult_bundles.values(), key=lambda b: len(of_type(b, "AllergyIntolerance")))
    expected = {a["id"]: a for a in of_type(allergic, "AllergyIntolerance")}
    found = call.ok("ehr.get_allergies", {"patient_id": patient_of(allergic)["id"]})
    assert {a["id"] for a in found["allergies"]} == set(expected) and found["message"] is None
    for row in found["allergies"]:
        source = expected[row["id"]]
        assert row["substance"]["code"] == source["code"]["coding"][0]["code"]
        assert row["substance"]["display"] == source["code"]["coding"][0]["display"]
        assert (row["criticality"], row["category"], row["type"]) == (
            source.get("criticality"),
            source.get("category", []),
            source.get("type"),
        )
        manifestations = [m["coding"][0]["display"] for r in source.get("reaction", []) for m in r["manifestation"]]
        assert [r.split(" (")[0] for r in row["reactions"]] == manifestations

    without = next(b for b in adult_bundles.values() if not of_type(b, "AllergyIntolerance"))
    none = call.ok("ehr.get_allergies", {"patient_id": patient_of(without)["id"]})
    assert none["allergies"] == [] and none["count"] == 0
    assert none["message"].startswith("None recorded: the EHR holds no allergy")


def test_an_unknown_patient_is_not_found_not_none_recorded(call: Caller) -> None:
    for name in ("ehr.get_patient_chart", "ehr.get_allergies", "ehr.get_medications", "ehr.get_observations"):
        result = call(name, {"patient_id": "no-such-patient"})
        assert result.error is not None and result.error.code == "NOT_FOUND", name
        assert "No patient with id 'no-such-patient'" in result.error.message
        assert "ehr.search_patient" in result.error.message


# --- get_patient_chart --------------------------------------------------------------------------------------


def test_chart_matches_the_bundle(call: Caller, diabetic: dict[str, Any]) -> None:
    patient = patient_of(diabetic)
    chart = call.ok("ehr.get_patient_chart", {"patient_id": patient["id"]})
    born = date.fromisoformat(patient["birthDate"])
    age = NOW.year - born.year - ((NOW.month, NOW.day) < (born.month, born.day))
    assert chart["patient"]["age"] == age and chart["as_of"] == "2026-11-27"
    assert chart["patient"]["mrn"] == mrn_of(patient)

    hba1c = next(v for v in chart["labs"] if v["name"] == "HbA1c")
    newest, before = with_code(diabetic, "4548-4")[:2]
    assert (hba1c["value"], hba1c["unit"], hba1c["date"]) == (
        newest["valueQuantity"]["value"],
        newest["valueQuantity"]["unit"],
        newest["effectiveDateTime"][:10],
    )
    assert (hba1c["previous"], hba1c["previous_date"]) == (
        before["valueQuantity"]["value"],
        before["effectiveDateTime"][:10],
    )

    orders = [o for o in of_type(diabetic, "MedicationRequest") if o["status"] == "active"]
    assert len(chart["medications"]) == len(orders)
    assert sorted(m["medication"]["code"] for m in chart["medications"]) == sorted(
        o["medicationCodeableConcept"]["coding"][0]["code"] for o in orders
    )
    problems = [c for c in of_type(diabetic, "Condition") if c["clinicalStatus"]["coding"][0]["code"] == "active"]
    assert sorted(p["problem"]["code"] for p in chart["problems"]) == sorted(
        c["code"]["coding"][0]["code"] for c in problems
    )
    encounters = sorted(
        of_type(diabetic, "Encounter"), key=lambda e: datetime.fromisoformat(e["period"]["start"]), reverse=True
    )[:5]
    assert [e["date"] for e in chart["encounters"]] == [e["period"]["start"][:10] for e in encounters]
    assert len(json.dumps(chart, separators=(",", ":")).encode()) <= 8000


def test_chart_vitals_have_units_and_blood_pressure_in_two_rows(call: Caller, diabetic: dict[str, Any]) -> None:
    chart = call.ok("ehr.get_patient_chart", {"patient_id": patient_of(diabetic)["id"]})
    vitals = {v["name"]: v for v in chart["vitals"]}
    panel = with_code(diabetic, "85354-9")[0]
    systolic = next(c for c in panel["component"] if c["code"]["coding"][0]["code"] == "8480-6")
    assert (vitals["BP systolic"]["value"], vitals["BP systolic"]["unit"]) == (
        systolic["valueQuantity"]["value"],
        "mm[Hg]",
    )
    assert vitals["BP systolic"]["date"] == panel["effectiveDateTime"][:10]
    for name, code in (("Weight", "29463-7"), ("Height", "8302-2"), ("BMI", "39156-5"), ("Heart rate", "8867-4")):
        newest = with_code(diabetic, code)[0]
        assert (vitals[name]["value"], vitals[name]["unit"], vitals[name]["loinc"]) == (
            newest["valueQuantity"]["value"],
            newest["valueQuantity"]["unit"],
            code,
        )
    assert vitals["Weight"]["unit"] == "kg" and vitals["Height"]["unit"] == "cm"


def test_every_adult_chart_fits_and_shows_allergies_or_none_recorded(call: Caller, adult_bundles: Bundles) -> None:
    with_allergies = 0
    for pid, bundle in adult_bundles.items():
        chart = call.ok("ehr.get_patient_chart", {"patient_id": pid})
        assert len(json.dumps(chart, separators=(",", ":"), ensure_ascii=False).encode()) <= 8000, pid
        allergies = of_type(bundle, "AllergyIntolerance")
        if allergies:
            with_allergies += 1
            assert sorted(a["substance"]["code"] for a in chart["allergies"]) == sorted(
                a["code"]["coding"][0]["code"] for a in allergies
            )
        else:
            assert chart["allergies"] == "none recorded"
        assert "could not be read" not in json.dumps(chart)
    assert with_allergies == 8


def test_a_deceased_patient_has_the_age_at_death(call: Caller, adult_bundles: Bundles) -> None:
    patient = next(patient_of(b) for b in adult_bundles.values() if "deceasedDateTime" in patient_of(b))
    chart = call.ok("ehr.get_patient_chart", {"patient_id": patient["id"]})
    born, died = date.fromisoformat(patient["birthDate"]), date.fromisoformat(patient["deceasedDateTime"][:10])
    assert chart["patient"]["deceased"] == patient["deceasedDateTime"]
    assert chart["patient"]["age"] == died.year - born.year - ((died.month, died.day) < (born.month, born.day))


def test_a_small_limit_trims_the_least_useful_first_and_says_so(
    adult_sandbox: LoadedSandbox, adult_bundles: Bundles, tmp_path: Path
) -> None:
    bundle = max(adult_bundles.values(), key=lambda b: len(of_type(b, "AllergyIntolerance")))
    small = Caller(settings_for(adult_sandbox.url, tmp_path, ehr_chart_bytes=3000))
    try:
        chart = small.ok("ehr.get_patient_chart", {"patient_id": patient_of(bundle)["id"]})
    finally:
        small.close()
    assert len(json.dumps(chart, separators=(",", ":"), ensure_ascii=False).encode()) <= 3000
    note = chart["warnings"][-1]
    assert note.startswith("Trimmed to fit 3000 bytes (CURBSIDE_EHR_CHART_BYTES): left out ")
    assert "labs (ask ehr.get_observations)" in note
    assert len(chart["allergies"]) == len(of_type(bundle, "AllergyIntolerance"))  # allergies go last
    assert chart["labs"] == "left out to fit"


def test_trimming_is_exact_at_the_limit(call: Caller, diabetic: dict[str, Any]) -> None:
    from curbside.tools.ehr.chart_models import ChartSummary
    from curbside.tools.ehr.chart_trim import summary_bytes

    full = ChartSummary.model_validate(call.ok("ehr.get_patient_chart", {"patient_id": patient_of(diabetic)["id"]}))
    size = summary_bytes(full)
    assert trim_to(full.model_copy(deep=True), size) == full  # at the limit: untouched
    trimmed = trim_to(full.model_copy(deep=True), size - 1)
    assert summary_bytes(trimmed) <= size - 1 and trimmed.warnings[-1].startswith("Trimmed to fit")


# --- a failing EHR ------------------------------------------------------------------------------------------


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_ehr_is_a_clear_error_not_an_empty_chart(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    for name, args in (
        ("ehr.get_patient_chart", {"patient_id": "abc"}),
        ("ehr.get_allergies", {"patient_id": "abc"}),
        ("ehr.search_patient", {"name": "Smith"}),
    ):
        down = Caller(settings_for(url, tmp_path, outbound_retries=0))  # each its own circuit breaker
        try:
            result = down(name, args)
        finally:
            down.close()
        assert result.status == "error" and result.error is not None, name
        assert result.error.code == "UPSTREAM_UNAVAILABLE"
        assert result.error.message.startswith("Could not reach the FHIR server at 127.0.0.1:")
        assert "is CURBSIDE_FHIR_URL right?" in result.error.message


class _FailFor(httpx.AsyncBaseTransport):
    """The real sandbox, except that searches of one resource type answer 500 with an OperationOutcome."""

    def __init__(self, resource_type: str) -> None:
        self.resource_type = resource_type
        self.inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == f"/{self.resource_type}":
            outcome = {"resourceType": "OperationOutcome", "issue": [{"severity": "error", "code": "exception"}]}
            return httpx.Response(500, json=outcome)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


def test_a_failing_part_leaves_the_rest_of_the_chart(
    adult_sandbox: LoadedSandbox, adult_bundles: Bundles, tmp_path: Path
) -> None:
    bundle = max(adult_bundles.values(), key=lambda b: len(of_type(b, "AllergyIntolerance")))
    settings = settings_for(adult_sandbox.url, tmp_path, outbound_retries=0)
    client = HttpFhirClient(FhirConfig.from_settings(settings), transport=_FailFor("AllergyIntolerance"))
    registry = ToolRegistry()
    register_read_tools(registry, EhrDeps(settings, client=lambda: client, now=lambda: NOW))
    executor = ToolExecutor(registry, default_caller=ToolCaller(user="dr-a", role="clinician"))
    pid = patient_of(bundle)["id"]

    async def run() -> tuple[ToolResult, ToolResult]:
        try:
            return (
                await executor.call("ehr.get_patient_chart", {"patient_id": pid}),
                await executor.call("ehr.get_allergies", {"patient_id": pid}),
            )
        finally:
            await client.aclose()

    chart, allergies = asyncio.run(run())
    assert chart.ok and chart.result is not None
    assert chart.result["allergies"] == "could not be read"
    assert chart.result["warnings"][0].startswith("Allergies could not be read: [UPSTREAM_ERROR]")
    assert chart.result["medications"] and chart.result["labs"]  # the rest is there
    assert allergies.status == "error" and allergies.error is not None
    assert allergies.error.code == "UPSTREAM_ERROR"  # a failed read, never "none recorded"


def test_failing_observations_leave_vitals_and_labs_unread(
    adult_sandbox: LoadedSandbox, diabetic: dict[str, Any], tmp_path: Path
) -> None:
    settings = settings_for(adult_sandbox.url, tmp_path, outbound_retries=0)
    client = HttpFhirClient(FhirConfig.from_settings(settings), transport=_FailFor("Observation"))
    registry = ToolRegistry()
    register_read_tools(registry, EhrDeps(settings, client=lambda: client, now=lambda: NOW))
    executor = ToolExecutor(registry, default_caller=ToolCaller(user="dr-a", role="clinician"))

    async def run() -> ToolResult:
        try:
            return await executor.call("ehr.get_patient_chart", {"patient_id": patient_of(diabetic)["id"]})
        finally:
            await client.aclose()

    chart = asyncio.run(run())
    assert chart.ok and chart.result is not None
    assert (chart.result["vitals"], chart.result["labs"]) == ("could not be read", "could not be read")
    assert any(w.startswith("Could not be read: Blood pressure, Heart rate") for w in chart.result["warnings"])
    assert isinstance(chart.result["problems"], list)
