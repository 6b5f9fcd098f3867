"""The EHR write tools: record a vital sign, add an allergy, prescribe, order a test or referral, save a note.

Each writes one FHIR resource, and only after a clinician approves the call: every one is
``requires_confirmation``, so a call leaves a pending confirmation that says the write in words
(``WriteArgs.describe``) and nothing reaches the chart until it is approved; a denial or expiry writes
nothing. Writing is a permission of its own (``settings.ehr_write_roles``): a role that may read the chart
may not write to it unless listed. The arguments are checked in full before the confirmation is asked
(``write_models``); the patient is read back from the server before the write, since a chart entry for a
patient the server does not know would be lost or, worse, land on someone else. The audit trail keeps the
written resource's type and id (``audit_fields``), never its content.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from curbside.errors import ValidationError
from curbside.tools.base import RiskLevel, ToolContext, ToolSpec
from curbside.tools.ehr.deps import EhrDeps
from curbside.tools.ehr.fhir_build import (
    WriteContext,
    allergy_intolerance,
    document_reference,
    if_none_exist,
    medication_request,
    observation,
    service_request,
)
from curbside.tools.ehr.fhir_errors import FhirNotFoundError
from curbside.tools.ehr.write_models import (
    AddAllergyArgs,
    EhrWriteResult,
    OrderServiceArgs,
    PrescribeMedicationArgs,
    RecordVitalArgs,
    SaveClinicalNoteArgs,
    WriteArgs,
)

if TYPE_CHECKING:
    from curbside.tools.ehr.fhir_client import FhirClient
    from curbside.tools.registry import ToolRegistry

__all__ = ["WRITE_TOOLS", "register"]

log = logging.getLogger("curbside.tools.ehr")

ArgsT = TypeVar("ArgsT", bound=WriteArgs)
Builder = Callable[[ArgsT, WriteContext], dict[str, Any]]

_CONFIRMED = (
    " Nothing is written until a clinician approves: the call returns needs_confirmation with the write in words "
    "and a confirmation id; approved, it returns the new resource's type, id and version."
)


async def _check_patient(client: FhirClient, patient_id: str, *, living: bool, what: str) -> dict[str, Any]:
    """The patient, or a refusal unless the server has them as an active record (and, for orders, living)."""
    try:
        patient = await client.read("Patient", patient_id)
    except FhirNotFoundError:
        raise ValidationError(
            f"There is no Patient/{patient_id} in the EHR, so the {what} was not written: find the patient with "
            "ehr.search_patient and use the id it returns."
        ) from None
    if patient.get("active") is False:
        raise ValidationError(
            f"Patient/{patient_id} is marked inactive in the EHR (a merged or retired record), so the {what} was not "
            "written: find the patient's current record with ehr.search_patient."
        )
    died = patient.get("deceasedDateTime") or (patient.get("deceasedBoolean") is True and "a date not recorded")
    if living and died:
        raise ValidationError(
            f"Patient/{patient_id} is recorded as deceased ({died}), so the {what} was not written: check that this "
            "is the right patient."
        )
    return patient


def _preparer(*, living: bool, what: str) -> Callable[[ToolContext[EhrDeps], WriteArgs], Awaitable[str]]:
    """Before the clinician is asked: the patient must exist, and the question names them, so the
    clinician confirms the right patient, not an id."""

    async def prepare(ctx: ToolContext[EhrDeps], args: WriteArgs) -> str:
        patient = await _check_patient(ctx.deps.fhir(), args.patient_id, living=living, what=what)
        reference = f"Patient/{args.patient_id}"
        who = _patient_words(patient)
        return args.describe().replace(reference, f"{who} ({reference})" if who else reference)

    return prepare


def _patient_words(patient: dict[str, Any]) -> str:
    """'Felica Prosacco, born 1958-05-28' from a Patient resource (empty when it names nobody)."""
    names = patient.get("name") or []
    name = names[0] if names and isinstance(names[0], dict) else {}
    text = name.get("text") or " ".join([*(name.get("given") or []), name.get("family") or ""]).strip()
    born = patient.get("birthDate")
    return ", ".join(part for part in (text, f"born {born}" if born else "") if part)


def _handler(
    build: Builder[ArgsT], *, living: bool, what: str
) -> Callable[[ToolContext[EhrDeps], ArgsT], Awaitable[EhrWriteResult]]:
    async def write(ctx: ToolContext[EhrDeps], args: ArgsT) -> EhrWriteResult:
        client = ctx.deps.fhir()
        await _check_patient(client, args.patient_id, living=living, what=what)
        context = WriteContext(now=ctx.deps.reference_time(), call_id=ctx.call_id, author=ctx.caller.user)
        # conditional on the call's identifier: a create sent again after a lost answer finds the first one
        written = await client.create(build(args, context), if_none_exist=if_none_exist(context))
        return EhrWriteResult(
            resource_type=written.resource_type,
            id=written.id,
            version=written.version_id,
            reference=f"{written.resource_type}/{written.id}",
            patient=f"Patient/{args.patient_id}",
            summary=args.summary(written.id, context.now),
        )

    return write


def _describe(args: WriteArgs) -> str:
    return args.describe()


# name, arguments, builder, risk, for the living only, the write in words, description
WRITE_TOOLS: tuple[tuple[str, type[WriteArgs], Builder[Any], RiskLevel, bool, str, str], ...] = (
    (
        "ehr.record_vital",
        RecordVitalArgs,
        observation,
        "medium",
        False,
        "vital sign",
        "Record a vital sign in the patient's chart as a FHIR Observation (category vital-signs, LOINC code, UCUM "
        "unit): blood_pressure (systolic and diastolic, mmHg), heart_rate and respiratory_rate (/min), temperature "
        "(°C or °F), spo2 (%), weight (kg, lb), height (cm, in), bmi (kg/m2). A value outside its plausible range "
        "is refused as a likely typo.",
    ),
    (
        "ehr.add_allergy",
        AddAllergyArgs,
        allergy_intolerance,
        "medium",
        False,
        "allergy",
        "Add an allergy or intolerance to the patient's chart (FHIR AllergyIntolerance): the substance in words, "
        "optionally its RxNorm or SNOMED CT code, the reaction and its severity, criticality, and verification "
        "(confirmed by default).",
    ),
    (
        "ehr.prescribe_medication",
        PrescribeMedicationArgs,
        medication_request,
        "high",
        True,
        "prescription",
        "Prescribe a medication for the patient (FHIR MedicationRequest, active order): the medication with its "
        "RxNorm code (required), dose and unit, route, frequency in words ('twice daily', 'every 8 hours'), and "
        "optionally as needed, duration, quantity, refills and reason. A dose above a per-unit ceiling (e.g. "
        "5000 mg) is refused as a likely typo; check interactions and allergies before calling.",
    ),
    (
        "ehr.order_service",
        OrderServiceArgs,
        service_request,
        "high",
        True,
        "order",
        "Order a lab test, imaging, a procedure or a referral for the patient (FHIR ServiceRequest, active order): "
        "its LOINC or SNOMED CT code and name, when, priority (routine, urgent, asap, stat), reason and a note.",
    ),
    (
        "ehr.save_clinical_note",
        SaveClinicalNoteArgs,
        document_reference,
        "medium",
        False,
        "note",
        "Save a clinical note to the patient's chart (FHIR DocumentReference, plain text up to 50,000 characters): "
        "its title, text, LOINC note type (11506-3 progress note by default) and date.",
    ),
)


def register(registry: ToolRegistry, deps: EhrDeps) -> None:
    """Put the five EHR write tools in ``registry``, open to ``settings.ehr_write_roles`` only (none listed:
    not offered at all)."""
    roles = frozenset(deps.settings.ehr_write_roles)
    if not roles:
        log.info("CURBSIDE_EHR_WRITE_ROLES is empty: the EHR write tools are not offered")
        return
    for name, args_model, build, risk, living, what, description in WRITE_TOOLS:
        registry.register(
            ToolSpec(
                name=name,
                description=description + _CONFIRMED,
                args_model=args_model,
                result_model=EhrWriteResult,
                handler=_handler(build, living=living, what=what),
                category="ehr",
                requires_phi=True,  # the chart is PHI, and so is what is written to it
                timeout_s=deps.settings.tool_ehr_timeout_s,
                requires_confirmation=True,
                risk_level=risk,
                rate_limit=deps.settings.tool_ehr_rate_limit,
                allowed_roles=roles,
                deps=deps,
                describe=_describe,
                prepare=_preparer(living=living, what=what),
                audit_fields=("resource_type", "id"),
            )
        )
