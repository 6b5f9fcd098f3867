"""The FHIR R4 resources the write tools send, built from their checked arguments.

Pure functions, no I/O: each returns the JSON of one resource. Every resource carries an identifier
naming the tool call that wrote it, so a create the client sends again after a lost answer finds the
first instead of doubling it (``If-None-Exist``), and an auditor can match a chart entry to its
audited, confirmed call. Elements follow the R4 resource definitions (https://hl7.org/fhir/R4/) and,
for vital signs, the vital-signs profile (https://hl7.org/fhir/R4/observation-vitalsigns.html).
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from curbside.tools.ehr.write_codes import LOINC, RXNORM, SNOMED, UCUM
from curbside.tools.ehr.write_models import (
    AddAllergyArgs,
    OrderServiceArgs,
    PrescribeMedicationArgs,
    RecordVitalArgs,
    SaveClinicalNoteArgs,
)
from curbside.tools.ehr.write_vocab import (
    DIASTOLIC,
    ROUTES,
    SERVICE_CATEGORIES,
    SYSTOLIC,
    VITALS,
    Coding,
    dose_unit,
)

__all__ = [
    "CALL_IDENTIFIER",
    "WriteContext",
    "allergy_intolerance",
    "document_reference",
    "if_none_exist",
    "medication_request",
    "observation",
    "service_request",
]

Resource = dict[str, Any]

# the identifier system of the tool call that wrote a resource (a URN of Curbside's own: no registry needed)
CALL_IDENTIFIER = "urn:curbside:tool-call"
_OBSERVATION_CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category"
_ALLERGY_CLINICAL = "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical"
_ALLERGY_VERIFICATION = "http://terminology.hl7.org/CodeSystem/allergyintolerance-verification"
_US_CORE_NOTE_CATEGORY = "http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category"


@dataclass(frozen=True)
class WriteContext:
    """What a resource takes from the call rather than its arguments."""

    now: datetime  # the write's time: the default for 'when', and authoredOn / recordedDate
    call_id: str  # the tool call, kept as the resource's identifier
    author: str  # the Curbside user whose approved call this is


def if_none_exist(ctx: WriteContext) -> str:
    """The conditional-create query that finds a resource this call already wrote."""
    return f"identifier={CALL_IDENTIFIER}|{ctx.call_id}"


def _common(resource_type: str, ctx: WriteContext) -> Resource:
    return {"resourceType": resource_type, "identifier": [{"system": CALL_IDENTIFIER, "value": ctx.call_id}]}


def _patient(patient_id: str) -> dict[str, str]:
    return {"reference": f"Patient/{patient_id}"}


def _author(ctx: WriteContext) -> dict[str, str]:
    # the Curbside user by name only: Curbside knows no Practitioner id for them
    return {"display": f"{ctx.author} (via Curbside)"}


def _time(moment: datetime | date) -> str:
    return moment.isoformat()


def _now(ctx: WriteContext) -> str:
    return ctx.now.isoformat(timespec="seconds")


def _number(value: float) -> int | float:
    # 120, not 120.0: what was typed, as FHIR decimals are usually written
    return int(value) if value.is_integer() else value


def _coding(system: str, coding: Coding) -> dict[str, str]:
    return {"system": system, "code": coding.code, "display": coding.display}


def _quantity(value: float, unit: str, code: str) -> dict[str, Any]:
    return {"value": _number(value), "unit": unit, "system": UCUM, "code": code}


def observation(args: RecordVitalArgs, ctx: WriteContext) -> Resource:
    vital = VITALS[args.kind]
    unit = args.ucum
    resource = _common("Observation", ctx) | {
        "status": "final",
        "category": [{"coding": [{"system": _OBSERVATION_CATEGORY, "code": "vital-signs", "display": "Vital Signs"}]}],
        "code": {"coding": [_coding(LOINC, c) for c in vital.coding], "text": vital.coding[0].display},
        "subject": _patient(args.patient_id),
        "effectiveDateTime": _time(args.effective) if args.effective else _now(ctx),
        "issued": _now(ctx),
        "performer": [_author(ctx)],
    }
    if args.kind == "blood_pressure":
        assert args.systolic is not None and args.diastolic is not None  # checked by the model
        resource["component"] = [
            {
                "code": {"coding": [_coding(LOINC, part)], "text": part.display},
                "valueQuantity": _quantity(value, unit.display, unit.code),
            }
            for part, value in ((SYSTOLIC, args.systolic), (DIASTOLIC, args.diastolic))
        ]
    else:
        assert args.value is not None  # checked by the model
        resource["valueQuantity"] = _quantity(args.value, unit.display, unit.code)
    return resource


def allergy_intolerance(args: AddAllergyArgs, ctx: WriteContext) -> Resource:
    # R4 ait-1: clinicalStatus is required unless entered in error; a refuted allergy is no longer active
    clinical = "inactive" if args.verification == "refuted" else "active"
    code: dict[str, Any] = {"text": args.substance}
    if args.code is not None:
        # no display: the substance's name in RxNorm or SNOMED cannot be looked up here, and a guessed
        # display would read as the code system's own
        code["coding"] = [{"system": RXNORM if args.code_system == "rxnorm" else SNOMED, "code": args.code}]
    resource = _common("AllergyIntolerance", ctx) | {
        "clinicalStatus": {"coding": [{"system": _ALLERGY_CLINICAL, "code": clinical}]},
        "verificationStatus": {"coding": [{"system": _ALLERGY_VERIFICATION, "code": args.verification}]},
        "code": code,
        "patient": _patient(args.patient_id),
        "recordedDate": _now(ctx),
        "recorder": _author(ctx),
    }
    if args.kind:
        resource["type"] = args.kind
    if args.category:
        resource["category"] = [args.category]
    if args.criticality:
        resource["criticality"] = args.criticality
    if args.reaction:
        reaction: dict[str, Any] = {"manifestation": [{"text": args.reaction}]}
        if args.severity:
            reaction["severity"] = args.severity
        resource["reaction"] = [reaction]
    if args.note:
        resource["note"] = [{"text": args.note}]
    return resource


def medication_request(args: PrescribeMedicationArgs, ctx: WriteContext) -> Resource:
    route = ROUTES[args.route]
    unit = args.unit
    repeat = dict(args.timing.repeat)
    if args.duration_days:
        repeat["boundsDuration"] = {"value": args.duration_days, "unit": "days", "system": UCUM, "code": "d"}
    dosage: dict[str, Any] = {
        "sequence": 1,
        "text": args.dosage_words(),
        "timing": {"repeat": repeat},
        "route": {"coding": [_coding(SNOMED, route.coding)], "text": args.route},
        "doseAndRate": [{"doseQuantity": _quantity(args.dose, unit.words(args.dose), unit.code)}],
    }
    if args.as_needed_for:
        dosage["asNeededCodeableConcept"] = {"text": args.as_needed_for}
    elif args.as_needed:
        dosage["asNeededBoolean"] = True
    resource = _common("MedicationRequest", ctx) | {
        "status": "active",
        "intent": "order",
        # the prescriber's name for it as text, the RxNorm code without a display: see allergy_intolerance
        "medicationCodeableConcept": {"coding": [{"system": RXNORM, "code": args.rxnorm}], "text": args.medication},
        "subject": _patient(args.patient_id),
        "authoredOn": _now(ctx),
        "requester": _author(ctx),
        "dosageInstruction": [dosage],
    }
    if args.reason:
        reason: dict[str, Any] = {"text": args.reason}
        if args.reason_snomed:
            reason["coding"] = [{"system": SNOMED, "code": args.reason_snomed}]
        resource["reasonCode"] = [reason]
    dispense: dict[str, Any] = {}
    if args.quantity is not None:
        spelled = dose_unit(args.quantity_unit) if args.quantity_unit else unit
        assert spelled is not None  # checked by the model
        dispense["quantity"] = _quantity(args.quantity, spelled.words(args.quantity), spelled.code)
    if args.refills is not None:
        dispense["numberOfRepeatsAllowed"] = args.refills
    if args.duration_days:
        dispense["expectedSupplyDuration"] = {"value": args.duration_days, "unit": "days", "system": UCUM, "code": "d"}
    if dispense:
        resource["dispenseRequest"] = dispense
    if args.note:
        resource["note"] = [{"text": args.note}]
    return resource


def service_request(args: OrderServiceArgs, ctx: WriteContext) -> Resource:
    category = SERVICE_CATEGORIES[args.kind]
    system = LOINC if args.code_system == "loinc" else SNOMED
    resource = _common("ServiceRequest", ctx) | {
        "status": "active",
        "intent": "order",
        "category": [{"coding": [_coding(SNOMED, category)], "text": args.kind}],
        "priority": args.priority,
        "code": {"coding": [{"system": system, "code": args.code, "display": args.display}], "text": args.display},
        "subject": _patient(args.patient_id),
        "authoredOn": _now(ctx),
        "requester": _author(ctx),
    }
    if args.when is not None:
        resource["occurrenceDateTime"] = _time(args.when)
    if args.reason:
        resource["reasonCode"] = [{"text": args.reason}]
    if args.note:
        resource["note"] = [{"text": args.note}]
    return resource


def document_reference(args: SaveClinicalNoteArgs, ctx: WriteContext) -> Resource:
    data = args.text.encode("utf-8")
    written = _time(args.date) if args.date else _now(ctx)
    return _common("DocumentReference", ctx) | {
        "status": "current",
        "type": {
            "coding": [{"system": LOINC, "code": args.note_type, "display": args.type_display}],
            "text": args.type_display,
        },
        "category": [
            {"coding": [{"system": _US_CORE_NOTE_CATEGORY, "code": "clinical-note", "display": "Clinical Note"}]}
        ],
        "subject": _patient(args.patient_id),
        "date": written,
        "author": [_author(ctx)],
        "description": args.title,
        "content": [
            {
                "attachment": {
                    "contentType": "text/plain;charset=utf-8",
                    "data": base64.b64encode(data).decode("ascii"),
                    "size": len(data),
                    # R4 Attachment.hash: the SHA-1 of the data, base64 (a reader can check what it got)
                    "hash": base64.b64encode(hashlib.sha1(data, usedforsecurity=False).digest()).decode("ascii"),
                    "title": args.title,
                    "creation": written,
                }
            }
        ],
    }
