"""``ehr.get_medications``, ``ehr.get_conditions`` and ``ehr.get_allergies``: one kind of chart entry
for one patient, filtered by status, newest first.

An empty list is said in words ("none recorded") and is never a failed read: a server that cannot
answer is an error (UPSTREAM_*), and an unknown patient is NOT_FOUND.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from curbside.tools.ehr.fhir_read import allergy_row, condition_row, medication_row
from curbside.tools.ehr.read_common import PAGE_SIZE, PatientId, patient_search, search_warnings
from curbside.tools.ehr.read_models import AllergyRow, ConditionRow, MedicationRow

if TYPE_CHECKING:
    from curbside.tools.base import ToolContext
    from curbside.tools.ehr.deps import EhrDeps
    from curbside.tools.ehr.fhir_client import FhirClient

__all__ = [
    "ACTIVE_CONDITION",
    "GetAllergiesArgs",
    "GetAllergiesResult",
    "GetConditionsArgs",
    "GetConditionsResult",
    "GetMedicationsArgs",
    "GetMedicationsResult",
    "condition_reasons",
    "get_allergies",
    "get_conditions",
    "get_medications",
]

# Condition.clinicalStatus: recurrence and relapse are kinds of active
# (http://terminology.hl7.org/CodeSystem/condition-clinical, a hierarchy under 'active')
ACTIVE_CONDITION = "active,recurrence,relapse"

MedicationStatus = Literal[
    "active", "on-hold", "stopped", "completed", "cancelled", "draft", "entered-in-error", "unknown", "all"
]
ClinicalStatus = Literal["active", "recurrence", "relapse", "inactive", "remission", "resolved", "all"]

_MAX = Field(100, ge=1, le=1000, description="Most entries listed, newest first.")


class _PatientArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    patient_id: PatientId


class GetMedicationsArgs(_PatientArgs):
    status: MedicationStatus = Field(
        "active", description="MedicationRequest status to list; 'all' for every order, stopped ones included."
    )
    max_results: int = _MAX


class GetConditionsArgs(_PatientArgs):
    clinical_status: ClinicalStatus = Field(
        "active", description="Clinical status to list ('active' includes recurrence and relapse); 'all' for every one."
    )
    max_results: int = _MAX


class GetAllergiesArgs(_PatientArgs):
    max_results: int = _MAX


class _ListResult(BaseModel):
    patient_id: str
    count: int
    total: int | None = Field(description="Entries the EHR counted, when it counts them.")
    truncated: bool
    message: str | None = Field(None, description="Set when the list is empty: 'None recorded: …'.")
    warnings: list[str] = Field(default_factory=list)


class GetMedicationsResult(_ListResult):
    status: str
    medications: list[MedicationRow] = Field(description="Newest order first.")


class GetConditionsResult(_ListResult):
    clinical_status: str
    conditions: list[ConditionRow] = Field(description="Latest onset first.")


class GetAllergiesResult(_ListResult):
    allergies: list[AllergyRow]


def condition_reasons(conditions: list[dict[str, Any]]) -> dict[str, str]:
    """``Condition/id`` → its words: what a MedicationRequest.reasonReference points at."""
    reasons = {}
    for condition in conditions:
        row = condition_row(condition)
        if row.code.display:
            reasons[f"Condition/{row.id}"] = row.code.display
    return reasons


async def _all_conditions(client: FhirClient, patient_id: str) -> list[dict[str, Any]]:
    found = await client.search(
        "Condition", [("patient", f"Patient/{patient_id}")], count=PAGE_SIZE, max_results=PAGE_SIZE
    )
    return found.matches


async def get_medications(ctx: ToolContext[EhrDeps], args: GetMedicationsArgs) -> GetMedicationsResult:
    client = ctx.deps.fhir()
    params = [] if args.status == "all" else [("status", args.status)]
    (_, found), conditions = await asyncio.gather(
        patient_search(
            client,
            args.patient_id,
            "MedicationRequest",
            params,
            sort="-authoredon",
            count=min(PAGE_SIZE, args.max_results),
            max_results=args.max_results,
        ),
        _all_conditions(client, args.patient_id),  # to name the problem a reasonReference points at
    )
    reasons = condition_reasons(conditions)
    rows = [medication_row(m, reasons) for m in found.matches]
    which = "" if args.status == "all" else f"{args.status} "
    return GetMedicationsResult(
        patient_id=args.patient_id,
        status=args.status,
        medications=rows,
        count=len(rows),
        total=found.total,
        truncated=found.truncated,
        message=None if rows else f"None recorded: no {which}medication orders for this patient.",
        warnings=search_warnings(found, "medication orders", len(rows)),
    )


async def get_conditions(ctx: ToolContext[EhrDeps], args: GetConditionsArgs) -> GetConditionsResult:
    status = {"all": None, "active": ACTIVE_CONDITION}.get(args.clinical_status, args.clinical_status)
    _, found = await patient_search(
        ctx.deps.fhir(),
        args.patient_id,
        "Condition",
        [("clinical-status", status)] if status else [],
        sort="-onset-date",
        count=min(PAGE_SIZE, args.max_results),
        max_results=args.max_results,
    )
    rows = [condition_row(c) for c in found.matches]
    which = "" if args.clinical_status == "all" else f"{args.clinical_status} "
    return GetConditionsResult(
        patient_id=args.patient_id,
        clinical_status=args.clinical_status,
        conditions=rows,
        count=len(rows),
        total=found.total,
        truncated=found.truncated,
        message=None if rows else f"None recorded: no {which}conditions for this patient.",
        warnings=search_warnings(found, "conditions", len(rows)),
    )


async def get_allergies(ctx: ToolContext[EhrDeps], args: GetAllergiesArgs) -> GetAllergiesResult:
    _, found = await patient_search(
        ctx.deps.fhir(),
        args.patient_id,
        "AllergyIntolerance",
        sort="-date",
        count=min(PAGE_SIZE, args.max_results),
        max_results=args.max_results,
    )
    rows = [allergy_row(a) for a in found.matches]
    message = None
    if not rows:
        # an empty list is not a documented "no known allergies" (that would be an entry of its own)
        message = (
            "None recorded: the EHR holds no allergy or intolerance entries for this patient. That is not a "
            "documented 'no known allergies': confirm with the patient."
        )
    return GetAllergiesResult(
        patient_id=args.patient_id,
        allergies=rows,
        count=len(rows),
        total=found.total,
        truncated=found.truncated,
        message=message,
        warnings=search_warnings(found, "allergies", len(rows)),
    )
