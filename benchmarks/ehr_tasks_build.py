"""Build the EHR task set (#18, after MedAgentBench, Jiang et al., NEJM AI 2025): benchmarks/data/ehr_tasks.jsonl.

    .venv/bin/python benchmarks/ehr_tasks_build.py [--out PATH]
    .venv/bin/python benchmarks/ehr_tasks_build.py --specs blind     # ehr_tasks_blind_specs.py -> data/ehr_tasks_blind.jsonl

Each task is a clinician's message about one of the 17 Synthea adults in ``../shared/data/fhir/synthea-adults``
(given to the turn by id, except for the lookups, which name the patient), a fixed reference time ("now") and
the expected answer, computed here from the bundle files — never from the EHR tools under test, so a bug in
them cannot make its own answer right. Lab and vital codes are this file's own table for the same reason.

Every "now" is after the patient's last observation (by default the day after it, 09:00 in its offset), so the
chart holds no future data. A window's edge must not be near an observation: the expected set is the same
with the edge as an instant, as a calendar date (how the read tools take it), and moved either way by a
quarter of the window (at most 3 days); a window that fails this stops the build and names the task.

Task fields: id, type, patient (id or null), now (ISO, with offset), split (dev, heldout: paraphrases the
tools-only baseline was never tuned on, or dev2: a second development set, ``DEV2``), message, expected,
basis (the chart entries the answer came from, for checking by hand). The messages and parameters are in ``ehr_tasks_specs.py``. Expected kinds (scored by
``ehr_tasks_score``):

    patient  {patient_id, mrn}                       the lookup's match
    none     {}                                      no patient / no value in the window
    number   {value, unit, tolerance}                a value, an age, an average, a calculator result
    set      {items, absent}                         active medications or allergies; [] = none recorded;
                                                     absent: names that must not be given (stopped orders,
                                                     other patients' allergies)
    writes   {writes: [...]}                         the chart writes, field by field; [] = write nothing
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import ROUND_CEILING, Decimal
from pathlib import Path
from typing import Any

from ehr_tasks_specs import DEV2, HELD_OUT, SPECS, Spec

ROOT = Path(__file__).resolve().parents[1]
ADULTS = ROOT.parent / "shared" / "data" / "fhir" / "synthea-adults"
OUT = ROOT / "benchmarks" / "data" / "ehr_tasks.jsonl"

LOINC = "http://loinc.org"
SNOMED = "http://snomed.info/sct"
RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"

# a lab or vital by name: the LOINC codes it is filed under in these bundles (https://loinc.org/<code>),
# and for a panel's part, the component's code
LABS: dict[str, tuple[tuple[str, ...], str | None]] = {
    "potassium": (("6298-4", "2823-3"), None),  # in Blood; in Serum or Plasma
    "creatinine": (("38483-4", "2160-0"), None),
    "glucose": (("2339-0", "2345-7"), None),
    "sodium": (("2947-0", "2951-2"), None),
    "hba1c": (("4548-4",), None),
    "ldl": (("18262-6", "13457-7"), None),  # direct; calculated
    "egfr": (("33914-3",), None),
    "hemoglobin": (("718-7",), None),
    "weight": (("29463-7",), None),
    "height": (("8302-2",), None),
    "systolic": (("85354-9",), "8480-6"),  # the BP panel's systolic component
}
# vital kind → (LOINC codes a recording may carry, UCUM unit of the value as the clinician gives it)
VITALS: dict[str, tuple[str, ...]] = {
    "heart_rate": ("8867-4",),
    "respiratory_rate": ("9279-1",),
    "temperature": ("8310-5",),
    "spo2": ("2708-6", "59408-5"),  # the R4 profile's code, and the pulse-oximetry one
    "weight": ("29463-7",),
    "height": ("8302-2",),
    "blood_pressure": ("85354-9",),
}
SYSTOLIC, DIASTOLIC = "8480-6", "8462-4"
KCL_RXNORM = "8591"  # potassium chloride (RxNorm ingredient), as the messages give it
ECG_SNOMED = "268400002"  # 12 lead electrocardiogram (procedure)
HBA1C = "4548-4"


class BuildError(Exception):
    """A task whose answer would not be stable: the message says which and why."""


# --- the charts, as the bundles hold them ----------------------------------------------------------------


@dataclass(frozen=True)
class Obs:
    id: str
    code: str
    when: datetime  # effectiveDateTime, with its offset
    value: float | None
    unit: str | None
    components: dict[str, tuple[float, str]] = field(default_factory=dict)

    @property
    def local_date(self) -> date:
        return self.when.date()  # the date as recorded, in its own offset (as the read tools keep it)


@dataclass
class Chart:
    patient: dict[str, Any]
    observations: list[Obs]
    medications: list[dict[str, Any]]
    allergies: list[dict[str, Any]]

    @property
    def id(self) -> str:
        return str(self.patient["id"])

    @property
    def mrn(self) -> str:
        for ident in self.patient.get("identifier", []):
            if any(c.get("code") == "MR" for c in ident.get("type", {}).get("coding", [])):
                return str(ident["value"])
        raise BuildError(f"Patient/{self.id} has no MRN")

    @property
    def last_observed(self) -> datetime:
        return max(o.when for o in self.observations)

    def default_now(self) -> datetime:
        """The day after the last observation, 09:00 in that observation's offset."""
        last = self.last_observed
        return (last + timedelta(days=1)).replace(hour=9, minute=0, second=0, microsecond=0)


def _obs(resource: dict[str, Any]) -> Obs | None:
    when = resource.get("effectiveDateTime")
    if not when:
        return None
    quantity = resource.get("valueQuantity") or {}
    components = {
        c["code"]["coding"][0]["code"]: (float(c["valueQuantity"]["value"]), str(c["valueQuantity"].get("unit")))
        for c in resource.get("component", [])
        if "valueQuantity" in c
    }
    return Obs(
        id=resource["id"],
        code=resource["code"]["coding"][0]["code"],
        when=datetime.fromisoformat(when),
        value=float(quantity["value"]) if "value" in quantity else None,
        unit=quantity.get("unit"),
        components=components,
    )


def load_charts(folder: Path = ADULTS) -> dict[str, Chart]:
    """{patient id: chart} for every bundle in ``folder``."""
    charts: dict[str, Chart] = {}
    for path in sorted(folder.glob("*.json")):
        resources = [e["resource"] for e in json.loads(path.read_text(encoding="utf-8"))["entry"]]
        patient = next(r for r in resources if r["resourceType"] == "Patient")
        observations = [o for r in resources if r["resourceType"] == "Observation" if (o := _obs(r)) is not None]
        chart = Chart(
            patient=patient,
            observations=sorted(observations, key=lambda o: o.when),
            medications=[r for r in resources if r["resourceType"] == "MedicationRequest"],
            allergies=[r for r in resources if r["resourceType"] == "AllergyIntolerance"],
        )
        charts[chart.id] = chart
    return charts


def age_at(birth_date: str, day: date) -> int:
    born = date.fromisoformat(birth_date)
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def decimals(value: float) -> int:
    text = repr(float(value))
    return len(text.split(".")[1].rstrip("0")) if "." in text and "e" not in text else 0


def tolerance(value: float, places: int | None = None) -> float:
    """1 % of the value, or half the last recorded digit when that is wider (a value given to its rounding)."""
    places = decimals(value) if places is None else places
    return round(max(0.01 * abs(value), 0.5 * 10**-places), 6)


def med_name(request: dict[str, Any]) -> str:
    concept = request.get("medicationCodeableConcept") or {}
    coding = (concept.get("coding") or [{}])[0]
    return str(coding.get("display") or concept.get("text"))


def substance(allergy: dict[str, Any]) -> str:
    code = allergy.get("code") or {}
    return str((code.get("coding") or [{}])[0].get("display") or code.get("text"))


def _active(resource: dict[str, Any]) -> bool:
    status = resource.get("clinicalStatus", {}).get("coding", [{}])[0].get("code", "active")
    return status in ("active", "recurrence", "relapse")


# --- what each task asks ---------------------------------------------------------------------------------


def _series(chart: Chart, lab: str) -> list[tuple[Obs, float, str]]:
    codes, component = LABS[lab]
    found = []
    for o in chart.observations:
        if o.code not in codes:
            continue
        if component is not None:
            if component in o.components:
                value, unit = o.components[component]
                found.append((o, value, unit))
        elif o.value is not None:
            found.append((o, o.value, str(o.unit)))
    return found


def _window(spec: Spec, chart: Chart, lab: str, now: datetime) -> list[tuple[Obs, float, str]]:
    """The lab's values in the task's window, after checking that the window's edge is not near one."""
    span = timedelta(**spec.params["window"])
    start = now - span
    margin = min(timedelta(days=3), span / 4)
    series = _series(chart, lab)

    def ids(low: datetime) -> set[str]:
        return {o.id for o, _, _ in series if low <= o.when <= now}

    by_date = {o.id for o, _, _ in series if start.date() <= o.local_date <= now.date()}
    exact = ids(start)
    if not (exact == by_date == ids(start - margin) == ids(start + margin)):
        raise BuildError(f"{spec.id}: an observation of {lab} is near the window's edge {start.isoformat()}")
    return [row for row in series if row[0].id in exact]


def _expect_lookup(spec: Spec, charts: dict[str, Chart]) -> tuple[dict[str, Any], dict[str, Any]]:
    words = spec.params["name"].lower().split()
    born = spec.params["birth_date"]
    matches = []
    for chart in charts.values():
        name = chart.patient["name"][0]
        parts = [p.lower() for p in [*name.get("given", []), name["family"]]]
        if chart.patient["birthDate"] == born and all(any(p.startswith(w) for p in parts) for w in words):
            matches.append(chart)
    if len(matches) > 1:
        raise BuildError(f"{spec.id}: {len(matches)} patients match; a lookup task needs one or none")
    if not matches:
        return {"kind": "none"}, {"searched": spec.params}
    return {"kind": "patient", "patient_id": matches[0].id, "mrn": matches[0].mrn}, {"searched": spec.params}


def _number(value: float, unit: str, tol: float) -> dict[str, Any]:
    return {"kind": "number", "value": value, "unit": unit, "tolerance": tol}


def _expect_latest(spec: Spec, chart: Chart, now: datetime) -> tuple[dict[str, Any], dict[str, Any]]:
    rows = _window(spec, chart, spec.params["lab"], now)
    if not rows:
        earlier = _series(chart, spec.params["lab"])
        last = earlier[-1][0].when.isoformat() if earlier else None
        return {"kind": "none"}, {"window_start": (now - timedelta(**spec.params["window"])).isoformat(), "last": last}
    obs, value, unit = rows[-1]
    return _number(value, unit, tolerance(value)), {"observation": obs.id, "date": obs.when.isoformat()}


def _expect_average(spec: Spec, chart: Chart, now: datetime) -> tuple[dict[str, Any], dict[str, Any]]:
    rows = _window(spec, chart, spec.params["lab"], now)
    if len(rows) < 2:
        raise BuildError(f"{spec.id}: {len(rows)} values in the window; an average needs at least 2")
    units = {unit for _, _, unit in rows}
    if len(units) != 1:
        raise BuildError(f"{spec.id}: values in several units {units}")
    values = [value for _, value, _ in rows]
    mean = sum(values) / len(values)
    basis = {"values": [[o.when.isoformat(), v] for o, v, _ in rows], "n": len(values)}
    return _number(round(mean, 4), units.pop(), tolerance(mean, 2)), basis


def _subject(chart: Chart) -> str:
    return f"Patient/{chart.id}"


def _expect_vital(spec: Spec, chart: Chart) -> tuple[dict[str, Any], dict[str, Any]]:
    p = spec.params
    write: dict[str, Any] = {
        "resourceType": "Observation",
        "subject": _subject(chart),
        "code": {"system": LOINC, "codes": list(VITALS[p["kind"]])},
    }
    if p["kind"] == "blood_pressure":
        write["components"] = [
            {"codes": [SYSTOLIC], "value": p["systolic"], "unit": "mm[Hg]"},
            {"codes": [DIASTOLIC], "value": p["diastolic"], "unit": "mm[Hg]"},
        ]
    else:
        write |= {"value": p["value"], "unit": p["unit"]}
    return {"kind": "writes", "writes": [write]}, {}


def _latest(chart: Chart, lab: str) -> tuple[Obs, float, str]:
    series = _series(chart, lab)
    if not series:
        raise BuildError(f"Patient/{chart.id} has no {lab}")
    return series[-1]


def _expect_conditional(spec: Spec, chart: Chart, now: datetime) -> tuple[dict[str, Any], dict[str, Any]]:
    p = spec.params
    obs, k, _ = _latest(chart, "potassium")
    threshold = Decimal(str(p["threshold"]))
    value = Decimal(str(k))
    basis = {"potassium": k, "date": obs.when.isoformat(), "rule": p["rule"], "threshold": p["threshold"]}
    repeat = {
        "resourceType": "ServiceRequest",
        "subject": _subject(chart),
        "code": {"system": LOINC, "codes": list(LABS["potassium"][0])},
    }
    if p["rule"] == "low":
        if not value < threshold:
            return {"kind": "writes", "writes": []}, basis
        tablets = int(((threshold - value) / Decimal(str(p["per"]))).to_integral_value(rounding=ROUND_CEILING))
        tomorrow = (now + timedelta(days=1)).replace(hour=8, minute=0, second=0, microsecond=0)
        writes = [
            {
                "resourceType": "MedicationRequest",
                "subject": _subject(chart),
                "code": {"system": RXNORM, "codes": [KCL_RXNORM]},
                "value": tablets,
                "unit": "{tablet}",
            },
            repeat | {"occurrence": tomorrow.isoformat()},
        ]
        return {"kind": "writes", "writes": writes}, basis | {"tablets": tablets}
    if not value > threshold:
        return {"kind": "writes", "writes": []}, basis
    ecg = {
        "resourceType": "ServiceRequest",
        "subject": _subject(chart),
        "code": {"system": SNOMED, "codes": [ECG_SNOMED]},
    }
    return {"kind": "writes", "writes": [repeat | {"priority": "stat"}, ecg | {"priority": "stat"}]}, basis


def _expect_referral(spec: Spec, chart: Chart) -> tuple[dict[str, Any], dict[str, Any]]:
    write = {
        "resourceType": "ServiceRequest",
        "subject": _subject(chart),
        "code": {"system": SNOMED, "codes": [spec.params["snomed"]]},
        "reason": spec.params["reason"],
    }
    return {"kind": "writes", "writes": [write]}, {}


def _expect_a1c(spec: Spec, chart: Chart, now: datetime) -> tuple[dict[str, Any], dict[str, Any]]:
    obs, value, _ = _latest(chart, "hba1c")
    days = (now - obs.when).days
    if abs(days - 365) < 30:
        raise BuildError(f"{spec.id}: the last HbA1c is {days} days old: too near a year to be unambiguous")
    basis = {"last_hba1c": obs.when.isoformat(), "value": value, "days_old": days}
    if days <= 365:
        return {"kind": "writes", "writes": []}, basis
    write = {"resourceType": "ServiceRequest", "subject": _subject(chart), "code": {"system": LOINC, "codes": [HBA1C]}}
    return {"kind": "writes", "writes": [write]}, basis


def _distinct(names: Iterable[str]) -> list[str]:
    return sorted(set(names), key=str.lower)


def _expect_medications(chart: Chart) -> tuple[dict[str, Any], dict[str, Any]]:
    active = _distinct(med_name(m) for m in chart.medications if m.get("status") == "active")
    lowered = [a.lower() for a in active]
    stopped = [
        name
        for name in _distinct(med_name(m) for m in chart.medications if m.get("status") != "active")
        if not any(name.lower() in a for a in lowered)
    ]
    return {"kind": "set", "items": active, "absent": stopped}, {}


def _expect_allergies(chart: Chart, charts: dict[str, Chart]) -> tuple[dict[str, Any], dict[str, Any]]:
    mine = _distinct(substance(a) for a in chart.allergies if _active(a))
    others = _distinct(substance(a) for c in charts.values() for a in c.allergies if c is not chart)
    return {"kind": "set", "items": mine, "absent": [o for o in others if o not in mine]}, {}


def _expect_calculator(spec: Spec, chart: Chart, now: datetime) -> tuple[dict[str, Any], dict[str, Any]]:
    from curbside.tools.calculators.catalog import calculators
    from curbside.tools.calculators.kit import evaluate

    calc_id = spec.params["calculator"]
    basis: dict[str, Any] = {}
    if calc_id == "bmi":
        weight, height = _latest(chart, "weight"), _latest(chart, "height")
        inputs: dict[str, Any] = {"weight": weight[1], "height": height[1]}
        basis = {"weight": [weight[0].when.isoformat(), weight[1]], "height": [height[0].when.isoformat(), height[1]]}
    elif calc_id == "ckd_epi_2021":
        creatinine = _latest(chart, "creatinine")
        inputs = {
            "age": age_at(chart.patient["birthDate"], now.date()),
            "sex": chart.patient["gender"],
            "creatinine": {"value": creatinine[1], "unit": creatinine[2]},
        }
        basis = {"creatinine": [creatinine[0].when.isoformat(), creatinine[1], creatinine[2]]}
    else:
        raise BuildError(f"{spec.id}: no inputs rule for calculator {calc_id!r}")
    result = evaluate(calculators()[calc_id], inputs)
    if result.value is None:
        raise BuildError(f"{spec.id}: {calc_id} gave no value: {result.missing}")
    value = float(result.value)
    return _number(value, str(result.unit), tolerance(value)), basis | {"inputs": result.inputs_used}


def expected_for(spec: Spec, charts: dict[str, Chart], now: datetime) -> tuple[dict[str, Any], dict[str, Any]]:
    """(expected, basis) for one task."""
    if spec.type == "lookup":
        return _expect_lookup(spec, charts)
    chart = charts[patient_id(spec, charts)]
    if spec.type == "age":
        return _number(age_at(chart.patient["birthDate"], now.date()), "years", 0), {
            "birth_date": chart.patient["birthDate"]
        }
    rules = {
        "record_vital": lambda: _expect_vital(spec, chart),
        "latest_lab": lambda: _expect_latest(spec, chart, now),
        "average_lab": lambda: _expect_average(spec, chart, now),
        "conditional_order": lambda: _expect_conditional(spec, chart, now),
        "referral": lambda: _expect_referral(spec, chart),
        "hba1c_reorder": lambda: _expect_a1c(spec, chart, now),
        "medication_list": lambda: _expect_medications(chart),
        "allergy_list": lambda: _expect_allergies(chart, charts),
        "calculator": lambda: _expect_calculator(spec, chart, now),
    }
    return rules[spec.type]()


def patient_id(spec: Spec, charts: dict[str, Chart]) -> str:
    found = [pid for pid in charts if spec.patient and pid.startswith(spec.patient)]
    if len(found) != 1:
        raise BuildError(f"{spec.id}: patient {spec.patient!r} names {len(found)} charts")
    return found[0]


LOOKUP_NOW = "2024-03-04T10:00:00+01:00"


def task_now(spec: Spec, charts: dict[str, Chart]) -> datetime:
    if spec.now is not None:
        now = datetime.fromisoformat(spec.now)
    elif spec.patient is None:
        now = datetime.fromisoformat(LOOKUP_NOW)
    else:
        now = charts[patient_id(spec, charts)].default_now()
    if spec.patient is not None and charts[patient_id(spec, charts)].last_observed > now:
        raise BuildError(f"{spec.id}: now {now.isoformat()} is before the chart's last observation")
    return now


def build(specs: Iterable[Spec], charts: dict[str, Chart]) -> list[dict[str, Any]]:
    tasks = []
    for spec in specs:
        now = task_now(spec, charts)
        expected, basis = expected_for(spec, charts, now)
        tasks.append(
            {
                "id": spec.id,
                "type": spec.type,
                "patient": patient_id(spec, charts) if spec.patient else None,
                "now": now.isoformat(),
                "split": spec.split,
                "message": spec.message,
                "expected": expected,
                "basis": basis,
            }
        )
    return tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=None, help=f"where to write (default {OUT.relative_to(ROOT)})")
    parser.add_argument(
        "--specs",
        choices=("main", "blind"),
        default="main",
        help="blind: ehr_tasks_blind_specs.py, to data/ehr_tasks_blind.jsonl",
    )
    args = parser.parse_args()
    if args.specs == "blind":
        from ehr_tasks_blind_specs import BLIND

        specs, args.out = BLIND, args.out or OUT.with_name("ehr_tasks_blind.jsonl")
    else:
        specs, args.out = (*SPECS, *HELD_OUT, *DEV2), args.out or OUT
    tasks = build(specs, load_charts())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in tasks), encoding="utf-8")
    counts: dict[str, int] = {}
    for t in tasks:
        counts[t["type"]] = counts.get(t["type"], 0) + 1
    print(f"{len(tasks)} tasks over {len({t['patient'] for t in tasks if t['patient']})} patients → {args.out}")
    for kind, n in counts.items():
        print(f"  {kind:18} {n}")


if __name__ == "__main__":
    main()
