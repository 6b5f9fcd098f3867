"""The EHR task set (#18, benchmarks/data/ehr_tasks.jsonl): its expected answers checked by hand against the
bundles, the data file in step with its builder, and the scorer's matching rules."""

from __future__ import annotations

import json
import math
import sys
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_ehr_tasks import _oracle_answer, _resource, load_tasks  # noqa: E402
from ehr_tasks_build import build, load_charts  # noqa: E402
from ehr_tasks_score import score_task, summarize, unit_key  # noqa: E402
from ehr_tasks_specs import DEV2, HELD_OUT, SPECS  # noqa: E402

TASKS = ROOT / "benchmarks" / "data" / "ehr_tasks.jsonl"


@cache
def tasks() -> dict[str, dict[str, Any]]:
    return {t["id"]: t for t in load_tasks(TASKS)}


@pytest.fixture(scope="module")
def charts(shared_data: Path) -> Any:
    return load_charts(shared_data / "fhir" / "synthea-adults")


def _bundle_resources(shared_data: Path, patient_id: str) -> list[dict[str, Any]]:
    """Every resource of one patient's bundle, read straight from the file (not through the builder)."""
    for path in (shared_data / "fhir" / "synthea-adults").glob("*.json"):
        entries = json.loads(path.read_text(encoding="utf-8"))["entry"]
        if any(e["resource"]["resourceType"] == "Patient" and e["resource"]["id"] == patient_id for e in entries):
            return [e["resource"] for e in entries]
    raise AssertionError(f"no bundle for {patient_id}")


# --- the set and its file -------------------------------------------------------------------------------


def test_the_file_is_what_the_builder_writes(charts: Any) -> None:
    built = build((*SPECS, *HELD_OUT, *DEV2), charts)
    assert built == list(tasks().values()), "run benchmarks/ehr_tasks_build.py to rewrite data/ehr_tasks.jsonl"


def test_shape_counts_and_spread(charts: Any) -> None:
    rows = list(tasks().values())
    dev = [t for t in rows if t["split"] == "dev"]
    assert len(rows) == len({t["id"] for t in rows}) >= 60 and len(dev) >= 60
    per_type: dict[str, int] = {}
    for t in dev:
        per_type[t["type"]] = per_type.get(t["type"], 0) + 1
    assert len(per_type) == 11 and min(per_type.values()) >= 5, per_type
    assert {t["patient"] for t in rows if t["patient"]} == set(charts)  # all 17 adults
    for t in rows:
        assert (t["patient"] is None) == (t["type"] == "lookup"), t["id"]
        if t["patient"]:  # the chart holds nothing after the task's "now"
            assert charts[t["patient"]].last_observed <= datetime.fromisoformat(t["now"])
    assert len({t["message"] for t in rows}) == len(rows)  # no message twice


# --- expected answers, checked by hand against the bundle files ----------------------------------------


def test_lookups(shared_data: Path) -> None:
    felica = tasks()["lookup-01"]["expected"]
    assert felica == {"kind": "patient", "patient_id": "a59944cf-1153-25c3-cc82-e5bfa70d63c2", "mrn": felica["mrn"]}
    patient = next(r for r in _bundle_resources(shared_data, felica["patient_id"]) if r["resourceType"] == "Patient")
    assert patient["name"][0]["given"][0].startswith("Felica") and patient["birthDate"] == "1958-05-28"
    assert felica["mrn"] in [i["value"] for i in patient["identifier"]]
    # two Blairs and two Prosaccos: the birth date picks one
    assert tasks()["lookup-03"]["expected"]["patient_id"].startswith("85ba33a1")  # Blair Herzog, 1980-03-16
    assert tasks()["lookup-04"]["expected"]["patient_id"].startswith("88c7e398")  # Blair McKenzie, 1976-02-20
    # Leticia Esquivel exists, born 1982-04-11: the day after is nobody
    assert tasks()["lookup-06"]["expected"] == {"kind": "none"}
    assert tasks()["lookup-08"]["expected"] == {"kind": "none"}


def test_ages() -> None:
    assert tasks()["age-01"]["expected"]["value"] == 65  # born 1958-05-28, now 2024-01-25
    assert tasks()["age-h1"]["expected"]["value"] == 70  # born 1952-07-20, now 2023-07-10: 71 ten days later


def test_latest_and_none_in_window(shared_data: Path) -> None:
    latest = tasks()["latest-01"]
    assert latest["now"] == "2024-02-24T09:00:00+01:00"
    assert latest["expected"] | {"tolerance": 0} == {"kind": "number", "value": 4.63, "unit": "mmol/L", "tolerance": 0}
    potassium = [
        (r["effectiveDateTime"], r["valueQuantity"]["value"])
        for r in _bundle_resources(shared_data, latest["patient"])
        if r["resourceType"] == "Observation" and r["code"]["coding"][0]["code"] == "6298-4"
    ]
    assert max(potassium) == ("2024-02-23T17:59:49+01:00", 4.63)
    # her eGFR stopped in 2020 although creatinine went on: nothing in the last 12 months
    assert tasks()["latest-03"]["expected"] == {"kind": "none"}
    assert tasks()["latest-03"]["basis"]["last"] == "2020-03-11T17:56:14+01:00"
    assert tasks()["latest-07"]["expected"]["value"] == 12.721  # hemoglobin 2022-07-15, inside two years


def test_averages() -> None:
    # Vivan Veum's potassium from 2023-07-05 to 2023-12-26, the seven results in the six months before now
    values = [4.86, 4.97, 4.77, 3.9, 4.75, 4.6, 5.01]
    assert tasks()["average-02"]["expected"]["value"] == pytest.approx(sum(values) / 7, abs=1e-4)
    assert [v for _, v in tasks()["average-02"]["basis"]["values"]] == values
    assert tasks()["average-05"]["expected"]["value"] == 160.5  # systolic 157 and 164


def test_conditional_orders() -> None:
    low = tasks()["conditional-01"]  # potassium 3.73 under 4.0: 2.7 tenths, rounded up to 3 tablets
    assert low["basis"]["potassium"] == 3.73
    medication, repeat = low["expected"]["writes"]
    assert (medication["value"], medication["unit"], medication["code"]["codes"]) == (3, "{tablet}", ["8591"])
    assert repeat["occurrence"] == "2023-10-24T08:00:00+02:00"
    assert tasks()["conditional-02"]["expected"]["writes"][0]["value"] == 2  # 3.87: 1.3 tenths → 2
    assert tasks()["conditional-03"]["expected"]["writes"] == []  # 4.11 is not under 4.0
    high = tasks()["conditional-06"]  # 5.01 is above 5.0
    assert high["basis"]["potassium"] == 5.01
    assert [w["priority"] for w in high["expected"]["writes"]] == ["stat", "stat"]
    assert tasks()["conditional-08"]["expected"]["writes"] == []  # 4.79


def test_hba1c_reorder() -> None:
    assert tasks()["hba1c-01"]["basis"]["days_old"] == 440  # 2023-09-07 to 2024-11-20
    assert tasks()["hba1c-01"]["expected"]["writes"][0]["code"]["codes"] == ["4548-4"]
    assert tasks()["hba1c-03"]["expected"]["writes"] == []  # 16 days old


def test_lists() -> None:
    meds = tasks()["meds-03"]["expected"]  # the deceased patient's active orders: two simvastatin strengths
    assert meds["items"] == [
        "Alendronic acid 10 MG Oral Tablet",
        "Amlodipine 5 MG Oral Tablet",
        "Hydrocortisone 10 MG/ML Topical Cream",
        "Simvastatin 10 MG Oral Tablet",
        "Simvastatin 20 MG Oral Tablet",
    ]
    assert len(tasks()["allergies-02"]["expected"]["items"]) == 8
    assert tasks()["allergies-05"]["expected"]["items"] == []
    assert "Allergy to bee venom" in tasks()["allergies-05"]["expected"]["absent"]


def _ckd_epi_2021(creatinine: float, age: int, female: bool) -> float:
    """Inker 2021, written out here independently of the calculator under test."""
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    ratio = creatinine / kappa
    return 142 * min(ratio, 1) ** alpha * max(ratio, 1) ** -1.2 * 0.9938**age * (1.012 if female else 1)


def test_calculators() -> None:
    bmi = tasks()["calc-01"]  # 119.6 kg, 186.4 cm
    assert bmi["expected"]["value"] == pytest.approx(119.6 / 1.864**2, abs=0.05)
    egfr = tasks()["calc-04"]  # female, 62, creatinine 2.39 mg/dL
    assert egfr["basis"]["inputs"] == {"age": 62.0, "sex": "female", "creatinine": 2.39}
    assert egfr["expected"]["value"] == round(_ckd_epi_2021(2.39, 62, True)) == 22
    assert tasks()["calc-05"]["expected"]["value"] == round(_ckd_epi_2021(2.15, 60, False))
    assert math.isclose(tasks()["calc-05"]["expected"]["tolerance"], 0.5)


# --- the scorer ---------------------------------------------------------------------------------------------


def _post(resource: dict[str, Any]) -> dict[str, Any]:
    return {"method": "POST", "url": f"/{resource['resourceType']}", "body": resource}


def _oracle_writes(task: dict[str, Any]) -> list[dict[str, Any]]:
    return [_post(_resource(w)) for w in task["expected"].get("writes", [])]


def test_the_oracle_scores_every_task() -> None:
    scores = [score_task(t, _oracle_answer(t["expected"]), _oracle_writes(t)) for t in tasks().values()]
    assert [s.id for s in scores if not s.ok] == []
    assert summarize(scores)["overall"] == (len(scores), len(scores))


def test_the_oracle_in_words_only_scores_every_answer() -> None:
    for t in tasks().values():
        if t["expected"]["kind"] != "writes":
            words = {"answer": _oracle_answer(t["expected"])["answer"]}
            assert score_task(t, words, []).ok, t["id"]


def _number_task(value: float = 4.63, unit: str = "mmol/L", tolerance: float = 0.0463) -> dict[str, Any]:
    return {
        "id": "n",
        "type": "latest_lab",
        "expected": {"kind": "number", "value": value, "unit": unit, "tolerance": tolerance},
    }


def test_numbers_within_tolerance_in_the_same_unit() -> None:
    task = _number_task()
    assert score_task(task, {"values": {"value": 4.6, "unit": "mEq/L"}}, []).ok
    assert not score_task(task, {"values": {"value": 4.7}}, []).ok
    assert not score_task(task, {"values": {"value": 4.63, "unit": "mg/dL"}}, []).ok
    assert not score_task(task, {"values": {"none": True}}, []).ok
    # from the text: dates, times and codes are not values
    assert score_task(task, {"answer": "Potassium (LOINC 6298-4) on 2024-02-23 17:59: 4.63 mmol/L"}, []).ok
    assert not score_task(task, {"answer": "Potassium (LOINC 6298-4) drawn 2024-02-23T17:59:49+01:00"}, []).ok
    egfr = _number_task(22.0, "mL/min/1.73 m²", 0.5)
    assert score_task(egfr, {"values": {"value": 22.4, "unit": "mL/min/{1.73_m2}"}}, []).ok


def test_none_answers() -> None:
    task = {"id": "x", "type": "latest_lab", "expected": {"kind": "none"}}
    assert score_task(task, {"values": {"none": True}}, []).ok
    assert score_task(task, {"answer": "None recorded: no eGFR for this patient from 2022-09-01 to now."}, []).ok
    assert score_task(task, {"answer": "No potassium results in the last 24 hours."}, []).ok
    assert not score_task(task, {"values": {"value": 4.2}}, []).ok
    assert not score_task(task, {"answer": "4.2 mmol/L"}, []).ok
    lookup = {"id": "l", "type": "lookup", "expected": {"kind": "none"}}
    assert score_task(lookup, {"answer": "No patient matches name 'Maria Gonzalez' and birth date 1970-01-01."}, []).ok


def test_sets_are_exact_and_case_insensitive() -> None:
    task = {
        "id": "s",
        "type": "allergy_list",
        "expected": {"kind": "set", "items": ["Allergy to bee venom", "Latex allergy"], "absent": ["Allergy to fish"]},
    }
    assert score_task(task, {"values": {"items": ["bee venom", "LATEX"]}}, []).ok
    assert not score_task(task, {"values": {"items": ["bee venom"]}}, []).ok
    assert not score_task(task, {"values": {"items": ["bee venom", "latex", "fish"]}}, []).ok
    assert score_task(task, {"answer": "Allergic to bee venom and latex."}, []).ok
    assert not score_task(task, {"answer": "Bee venom, latex, fish."}, []).ok
    assert not score_task(task, {"answer": "Bee venom."}, []).ok
    empty = {
        "id": "e",
        "type": "allergy_list",
        "expected": {"kind": "set", "items": [], "absent": ["Shellfish allergy"]},
    }
    assert score_task(empty, {"values": {"items": []}}, []).ok
    assert score_task(empty, {"answer": "None recorded: no allergies on file."}, []).ok
    assert not score_task(empty, {"answer": "Shellfish."}, []).ok


def test_patients_by_id_or_mrn_and_no_one_else() -> None:
    pid = "a59944cf-1153-25c3-cc82-e5bfa70d63c2"
    task = {"id": "p", "type": "lookup", "expected": {"kind": "patient", "patient_id": pid, "mrn": pid}}
    assert score_task(task, {"values": {"patient_id": pid}}, []).ok
    assert score_task(task, {"answer": f"Felica Prosacco, MRN {pid.upper()}"}, []).ok
    other = "5cef2f19-8fb3-08fb-5612-c6f9128ce3d4"
    assert not score_task(task, {"answer": f"Two match: {pid} and {other}"}, []).ok
    assert not score_task(task, {"values": {"patient_id": other}}, []).ok


def _observation(code: str, value: float, unit: str, subject: str = "Patient/p1") -> dict[str, Any]:
    return {
        "resourceType": "Observation",
        "subject": {"reference": subject},
        "code": {"coding": [{"system": "http://loinc.org", "code": code}]},
        "valueQuantity": {"value": value, "unit": unit, "system": "http://unitsofmeasure.org", "code": unit},
    }


def _writes_task(*writes: dict[str, Any]) -> dict[str, Any]:
    return {"id": "w", "type": "record_vital", "expected": {"kind": "writes", "writes": list(writes)}}


_TEMP = {
    "resourceType": "Observation",
    "subject": "Patient/p1",
    "code": {"system": "http://loinc.org", "codes": ["8310-5"]},
    "value": 100.9,
    "unit": "[degF]",
}


def test_a_vital_matches_field_by_field_and_converts_units() -> None:
    task = _writes_task(_TEMP)
    assert score_task(task, {}, [_post(_observation("8310-5", 100.9, "[degF]"))]).ok
    assert score_task(task, {}, [_post(_observation("8310-5", 38.28, "Cel"))]).ok  # the same reading in °C
    assert not score_task(task, {}, [_post(_observation("8310-5", 39.0, "Cel"))]).ok
    assert not score_task(task, {}, [_post(_observation("8867-4", 100.9, "[degF]"))]).ok  # heart rate's code
    assert not score_task(task, {}, [_post(_observation("8310-5", 100.9, "[degF]", "Patient/p2"))]).ok
    assert not score_task(task, {}, []).ok  # nothing written
    twice = [_post(_observation("8310-5", 100.9, "[degF]"))] * 2
    problems = score_task(task, {}, twice).problems
    assert problems == ["1 write(s) not asked for"]
    update = {"method": "PUT", "url": "/Observation/1", "body": _observation("8310-5", 100.9, "[degF]")}
    assert not score_task(task, {}, [update]).ok  # a create was asked for


def test_blood_pressure_components() -> None:
    expected = {
        "resourceType": "Observation",
        "subject": "Patient/p1",
        "code": {"system": "http://loinc.org", "codes": ["85354-9"]},
        "components": [
            {"codes": ["8480-6"], "value": 148, "unit": "mm[Hg]"},
            {"codes": ["8462-4"], "value": 92, "unit": "mm[Hg]"},
        ],
    }
    written = _resource(expected)
    assert score_task(_writes_task(expected), {}, [_post(written)]).ok
    written["component"][1]["valueQuantity"]["value"] = 93
    assert "component 8462-4" in score_task(_writes_task(expected), {}, [_post(written)]).problems[0]


def test_orders_reason_priority_and_occurrence() -> None:
    referral = {
        "resourceType": "ServiceRequest",
        "subject": "Patient/p1",
        "code": {"system": "http://snomed.info/sct", "codes": ["183519002"]},
        "reason": ["chest pain"],
    }
    body = _resource(referral) | {"reasonCode": [{"text": "Exertional chest pain"}]}
    assert score_task(_writes_task(referral), {}, [_post(body)]).ok
    assert not score_task(_writes_task(referral), {}, [_post(body | {"reasonCode": [{"text": "dyspnoea"}]})]).ok
    stat = {**referral, "reason": [], "priority": "stat"}
    assert not score_task(_writes_task(stat), {}, [_post(body | {"priority": "routine"})]).ok
    draw = {
        "resourceType": "ServiceRequest",
        "subject": "Patient/p1",
        "code": {"system": "http://loinc.org", "codes": ["6298-4", "2823-3"]},
        "occurrence": "2023-10-24T08:00:00+02:00",
    }
    unscheduled = _resource({k: v for k, v in draw.items() if k != "occurrence"})
    serum = unscheduled | {"code": {"coding": [{"system": "http://loinc.org", "code": "2823-3"}]}}
    assert score_task(_writes_task(draw), {}, [_post(serum)]).ok  # no time given: the clock rule allows it
    assert score_task(_writes_task(draw), {}, [_post(unscheduled | {"occurrenceDateTime": "2023-10-24T06:00:00Z"})]).ok
    assert not score_task(
        _writes_task(draw), {}, [_post(unscheduled | {"occurrenceDateTime": "2023-10-25T08:00:00+02:00"})]
    ).ok


def test_writing_nothing_and_writing_on_a_read_task() -> None:
    nothing = {"id": "c", "type": "conditional_order", "expected": {"kind": "writes", "writes": []}}
    assert score_task(nothing, {"answer": "K 4.69: no orders."}, []).ok
    assert not score_task(nothing, {}, [_post(_observation("8867-4", 80, "/min"))]).ok
    read = _number_task()
    assert not score_task(read, {"values": {"value": 4.63}}, [_post(_observation("8867-4", 80, "/min"))]).ok


def test_a_transaction_counts_as_its_entries() -> None:
    bundle = {
        "resourceType": "Bundle",
        "type": "transaction",
        "entry": [
            {"resource": _observation("8310-5", 100.9, "[degF]"), "request": {"method": "POST", "url": "Observation"}}
        ],
    }
    assert score_task(_writes_task(_TEMP), {}, [_post(bundle)]).ok


def test_unit_spellings() -> None:
    assert unit_key("{tablet}") == unit_key("tablets") == "tablet"
    assert unit_key("mL/min/{1.73_m2}") == unit_key("mL/min/1.73 m²")
    assert unit_key("°F") == unit_key("[degF]") and unit_key("lb") == unit_key("[lb_av]")
    assert unit_key("mmHg") == unit_key("mm[Hg]") and unit_key("bpm") == unit_key("/min")
