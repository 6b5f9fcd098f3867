"""What every EHR read tool shares: the patient id argument, the patient check, and searches of one
patient's resources with the server's warnings kept.

A search for a patient that does not exist returns an empty list, which would read as "none recorded":
so each patient-scoped tool reads the Patient alongside its search, and an unknown id is NOT_FOUND.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

from curbside.errors import NotFoundError
from curbside.tools.ehr.fhir_errors import FhirNotFoundError

if TYPE_CHECKING:
    from curbside.tools.ehr.fhir_bundle import SearchResult
    from curbside.tools.ehr.fhir_client import FhirClient

__all__ = ["PAGE_SIZE", "PatientId", "patient_search", "read_patient", "search_warnings"]

Resource = dict[str, Any]

# resources asked for per page: a server may send fewer (FHIR lets it cap _count), never more
PAGE_SIZE = 100

PatientId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9\-.]{1,64}$",  # FHIR R4 id (https://hl7.org/fhir/R4/datatypes.html#id)
        description="The patient's FHIR id, as ehr.search_patient returns it.",
    ),
]


async def read_patient(client: FhirClient, patient_id: str) -> Resource:
    """The Patient, or NOT_FOUND naming how to find the right id."""
    try:
        return await client.read("Patient", patient_id)
    except FhirNotFoundError:
        raise NotFoundError(
            f"No patient with id {patient_id!r} in the EHR; find the id with ehr.search_patient "
            "(by name, birth date or MRN)."
        ) from None


async def patient_search(
    client: FhirClient,
    patient_id: str,
    resource_type: str,
    params: Sequence[tuple[str, str]] = (),
    *,
    sort: str | None = None,
    count: int = PAGE_SIZE,
    max_results: int | None = None,
) -> tuple[Resource, SearchResult]:
    """The Patient and a search of ``resource_type`` for that patient, sent together."""
    query = [("patient", f"Patient/{patient_id}"), *params]
    patient, found = await asyncio.gather(
        read_patient(client, patient_id),
        client.search(resource_type, query, count=count, sort=sort, max_results=max_results),
    )
    return patient, found


def search_warnings(found: SearchResult, what: str, shown: int, *, listing: bool = True) -> list[str]:
    """The server's warnings, and (for a listing) a note when there were more matches than were read."""
    warnings = [f"The EHR said: {issue.describe()}" for issue in found.warnings]
    if listing and found.truncated:
        total = f" of {found.total}" if found.total is not None else ""
        warnings.append(f"Only {shown}{total} {what} are listed; narrow the request or raise max_results.")
    return warnings
