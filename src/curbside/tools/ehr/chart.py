"""``ehr.get_patient_chart``: the chart at a glance — demographics, active problems and medications,
allergies, latest vitals and labs with their previous value, recent encounters.

Every part is fetched at once (``asyncio.gather``, at most ``_PARALLEL`` requests in flight); each lab
and vital is its own newest-first search of two, so a test done years ago still shows. A part the
server fails on becomes "could not be read" with a warning; only an unreadable Patient fails the call.
The result is then trimmed to ``settings.ehr_chart_bytes`` (``chart_trim``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ConfigDict

from curbside.errors import CurbsideError
from curbside.tools.ehr.chart_lists import ACTIVE_CONDITION, condition_reasons
from curbside.tools.ehr.chart_models import (
    NONE_RECORDED,
    SOFT_TAGS,
    UNREADABLE,
    ChartAllergy,
    ChartEncounter,
    ChartMedication,
    ChartPatient,
    ChartProblem,
    ChartSummary,
    ChartValue,
)
from curbside.tools.ehr.chart_trim import trim_to
from curbside.tools.ehr.fhir_read import (
    age_on,
    allergy_row,
    condition_row,
    encounter_row,
    local_date,
    medication_row,
    observation_date,
    observation_value,
    patient_row,
)
from curbside.tools.ehr.lab_codes import CHART_LABS, CHART_VITALS, DIASTOLIC, SYSTOLIC, Concept
from curbside.tools.ehr.read_common import PAGE_SIZE, PatientId, read_patient

if TYPE_CHECKING:
    from curbside.tools.base import ToolContext
    from curbside.tools.ehr.deps import EhrDeps

__all__ = ["GetChartArgs", "get_patient_chart"]

Resource = dict[str, Any]
T = TypeVar("T")
Dated = tuple[Resource, str | None]  # an element holding value[x], and the date it was observed

_PARALLEL = 8  # requests in flight at once: quick on a local server, polite to a clinic's
_ENCOUNTERS = 5
_SKIPPED_ALLERGY = {"refuted", "entered-in-error", "inactive", "resolved"}


class GetChartArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    patient_id: PatientId


@dataclass
class _Part:
    """One fetched part: its resources, or the reason it could not be read."""

    resources: list[Resource]
    error: str | None = None
    truncated: bool = False  # more on the server than the page limit let us read


def _day(value: str | None) -> str | None:
    day = local_date(value)
    return day.isoformat() if day else None


async def get_patient_chart(ctx: ToolContext[EhrDeps], args: GetChartArgs) -> ChartSummary:
    client = ctx.deps.fhir()
    gate = asyncio.Semaphore(_PARALLEL)

    async def gated(fetch: Callable[[], Awaitable[T]]) -> T:
        async with gate:
            return await fetch()

    async def part(
        resource_type: str, params: list[tuple[str, str]], sort: str | None, count: int, most: int | None = None
    ) -> _Part:
        """``count`` per page; ``most`` in all (None: as many as the page limit allows)."""
        query = [("patient", f"Patient/{args.patient_id}"), *params]
        try:
            found = await gated(lambda: client.search(resource_type, query, count=count, sort=sort, max_results=most))
        except CurbsideError as exc:  # one part failing leaves the rest of the chart useful
            return _Part([], f"[{exc.code}] {exc.message}")
        return _Part(found.matches, truncated=found.truncated)

    def values(concept: Concept) -> Awaitable[_Part]:
        return part("Observation", [("code", concept.search_code())], "-date", 2, 2)

    # the Patient first in line: when the server is down, its error is the one reported
    patient_read = asyncio.ensure_future(gated(lambda: read_patient(client, args.patient_id)))
    fetching = asyncio.gather(
        part("Condition", [], None, PAGE_SIZE),  # all of them: an order's reason may be a resolved problem
        part("MedicationRequest", [("status", "active")], "-authoredon", PAGE_SIZE),
        part("AllergyIntolerance", [], "-date", PAGE_SIZE),
        part("Encounter", [], "-date", _ENCOUNTERS, _ENCOUNTERS),
        *(values(c) for c in (*CHART_VITALS, *CHART_LABS)),
    )
    try:
        patient = await patient_read
    except BaseException:
        fetching.cancel()  # no chart without its patient: stop asking for the rest
        with contextlib.suppress(asyncio.CancelledError):
            await fetching
        raise
    parts = await fetching
    conditions, medications, allergies, encounters, *observations = parts
    return _assemble(ctx.deps, patient, conditions, medications, allergies, encounters, observations)


def _assemble(
    deps: EhrDeps,
    patient: Resource,
    conditions: _Part,
    medications: _Part,
    allergies: _Part,
    encounters: _Part,
    observations: list[_Part],
) -> ChartSummary:
    as_of = deps.reference_time().date()
    row = patient_row(patient)
    died = local_date(row.deceased)
    warnings: list[str] = []

    def section(name: str, got: _Part, items: list[Any]) -> Any:
        if got.error:
            warnings.append(f"{name} could not be read: {got.error}")
            return UNREADABLE
        if got.truncated and name != "Encounters":
            warnings.append(f"{name}: only the first {len(got.resources)} entries the EHR returned were read.")
        return items or NONE_RECORDED

    active = [c for c in conditions.resources if condition_row(c).clinical_status in ACTIVE_CONDITION.split(",")]
    active = [c for c in active if condition_row(c).verification_status not in ("refuted", "entered-in-error")]
    problems = sorted((condition_row(c) for c in active), key=lambda c: c.onset or "", reverse=True)
    problems.sort(key=lambda c: (c.code.display or "").endswith(SOFT_TAGS))  # stable: disorders first
    reasons = condition_reasons(conditions.resources)
    kept_allergies = [
        a
        for a in (allergy_row(r) for r in allergies.resources)
        if a.clinical_status not in _SKIPPED_ALLERGY and a.verification_status not in _SKIPPED_ALLERGY
    ]
    if len(kept_allergies) < len(allergies.resources):
        skipped = len(allergies.resources) - len(kept_allergies)
        warnings.append(f"{skipped} allergy entries marked inactive, resolved or refuted are not shown.")
    vitals = _values(CHART_VITALS, observations[: len(CHART_VITALS)], warnings)
    labs = _values(CHART_LABS, observations[len(CHART_VITALS) :], warnings)
    summary = ChartSummary(
        patient=ChartPatient(**row.model_dump(), age=age_on(row.birth_date, died or as_of)),
        as_of=as_of.isoformat(),
        problems=section("Problems", conditions, [ChartProblem(problem=c.code, onset=_day(c.onset)) for c in problems]),
        medications=section(
            "Medications",
            medications,
            [
                ChartMedication(medication=m.medication, dose=m.dose, since=_day(m.authored_on), reason=m.reason)
                for m in (medication_row(r, reasons) for r in medications.resources)
            ],
        ),
        allergies=section(
            "Allergies",
            allergies,
            [
                ChartAllergy(substance=a.substance, criticality=a.criticality, reactions=a.reactions)
                for a in kept_allergies
            ],
        ),
        vitals=vitals,
        labs=labs,
        encounters=section(
            "Encounters",
            encounters,
            [
                ChartEncounter(date=_day(e.date), type=e.type, encounter_class=e.encounter_class, reason=e.reason)
                for e in (encounter_row(r) for r in encounters.resources)
            ],
        ),
        warnings=warnings,
    )
    return trim_to(summary, deps.settings.ehr_chart_bytes)


def _values(concepts: tuple[Concept, ...], parts: list[_Part], warnings: list[str]) -> list[ChartValue] | str:
    """The latest and previous value of each concept that has any, blood pressure as two rows; "none
    recorded" when none has any, "could not be read" when those that failed leave nothing to show."""
    rows: list[ChartValue] = []
    failed = []
    for concept, got in zip(concepts, parts, strict=True):
        if got.error:
            failed.append(concept.label)
            continue
        if not got.resources:
            continue
        latest, previous = got.resources[0], (got.resources[1] if len(got.resources) > 1 else None)
        if concept.name == "bp":
            for code, name in ((SYSTOLIC, "BP systolic"), (DIASTOLIC, "BP diastolic")):
                part = _component(latest, code)
                if part is not None:
                    rows.append(_value_row(name, code, part, _component(previous, code)))
        else:
            rows.append(_value_row(concept.label, _loinc(latest), (latest, observation_date(latest)), _whole(previous)))
    if failed:
        warnings.append(f"Could not be read: {', '.join(failed)} (the EHR failed for them; try ehr.get_observations).")
    if not rows:
        return UNREADABLE if failed else NONE_RECORDED
    return rows


def _value_row(name: str, code: str | None, latest: Dated, previous: Dated | None) -> ChartValue:
    value, unit = observation_value(latest[0])
    row = ChartValue(name=name, value=value, unit=unit, date=_day(latest[1]), loinc=code)
    if previous is not None:
        row.previous, _ = observation_value(previous[0])
        row.previous_date = _day(previous[1])
    return row


def _whole(observation: Resource | None) -> Dated | None:
    return (observation, observation_date(observation)) if observation is not None else None


def _component(observation: Resource | None, code: str) -> Dated | None:
    """The component with LOINC ``code`` of a panel (systolic of a BP panel), dated by its panel."""
    if observation is None:
        return None
    for component in observation.get("component") or ():
        if any(c.get("code") == code for c in (component.get("code") or {}).get("coding") or ()):
            return component, observation_date(observation)
    return None


def _loinc(observation: Resource) -> str | None:
    for coding in (observation.get("code") or {}).get("coding") or ():
        if coding.get("system") == "http://loinc.org":
            return str(coding.get("code"))
    return None
