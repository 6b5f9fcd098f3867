"""``ehr.search_patient``: find a patient's id by name, birth date or MRN, with "not found" and
"several match" said in words an agent can act on (ask for the birth date, not pick one).

FHIR Patient search (https://hl7.org/fhir/R4/patient.html#search): ``name`` matches the start of any
part of a name, case-insensitively; repeating it ANDs the words; ``birthdate`` is a date; ``identifier``
is ``value`` or ``system|value``.
"""

from __future__ import annotations

import re
from datetime import date
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, model_validator

from curbside.tools.ehr.fhir_read import patient_row
from curbside.tools.ehr.read_common import search_warnings
from curbside.tools.ehr.read_models import PatientRow

if TYPE_CHECKING:
    from curbside.tools.base import ToolContext
    from curbside.tools.ehr.deps import EhrDeps

__all__ = ["SearchPatientArgs", "SearchPatientResult", "search_patient"]

_MAX_NAME_WORDS = 5


class SearchPatientArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: str | None = Field(
        None,
        min_length=1,
        max_length=120,
        description="Family and/or given name, whole or the start of each word: 'Prosacco', 'Felica Prosacco'.",
    )
    birth_date: date | None = Field(None, description="Date of birth, YYYY-MM-DD.")
    identifier: str | None = Field(
        None,
        min_length=1,
        max_length=200,
        description="The MRN (or another identifier) as the chart holds it; 'system|value' to name its system.",
    )
    max_results: int = Field(10, ge=1, le=50, description="Most patients listed.")

    @model_validator(mode="after")
    def _something_to_search(self) -> SearchPatientArgs:
        if self.name is None and self.birth_date is None and self.identifier is None:
            raise ValueError("give at least one of name, birth_date or identifier (MRN)")
        if self.name is not None and not _name_words(self.name):
            raise ValueError("name has no letters or digits to search for")
        return self


class SearchPatientResult(BaseModel):
    matches: list[PatientRow]
    count: int = Field(description="Patients listed.")
    total: int | None = Field(description="Patients the EHR found, when it counts them.")
    message: str = Field(description="What the matches mean and what to do next.")
    warnings: list[str] = Field(default_factory=list)


def _name_words(name: str) -> list[str]:
    return [w for w in re.split(r"[\s,]+", name) if w][:_MAX_NAME_WORDS]


def _criteria(args: SearchPatientArgs) -> str:
    said = []
    if args.name:
        said.append(f"name {args.name!r}")
    if args.birth_date:
        said.append(f"birth date {args.birth_date.isoformat()}")
    if args.identifier:
        said.append(f"identifier {args.identifier!r}")
    return " and ".join(said)


async def search_patient(ctx: ToolContext[EhrDeps], args: SearchPatientArgs) -> SearchPatientResult:
    params: list[tuple[str, str]] = [("name", word) for word in _name_words(args.name or "")]
    if args.birth_date:
        params.append(("birthdate", args.birth_date.isoformat()))
    if args.identifier:
        params.append(("identifier", args.identifier))
    found = await ctx.deps.fhir().search("Patient", params, count=args.max_results, max_results=args.max_results)
    rows = [patient_row(p) for p in found.matches]
    n = len(rows)
    total = found.total if found.total is not None else n
    if n == 0:
        message = (
            f"No patient matches {_criteria(args)}: check the spelling, try fewer words of the name, or search "
            "by MRN or birth date."
        )
    elif total == 1:
        message = f"One patient matches {_criteria(args)}; use its id as patient_id."
    else:
        narrow = "the MRN" if args.birth_date else "the birth date (or the MRN)"
        message = (
            f"{total} patients match {_criteria(args)}: do not guess which one is meant; ask for {narrow} and "
            "search again, or confirm the right one by name, birth date and MRN."
        )
    return SearchPatientResult(
        matches=rows,
        count=n,
        total=found.total,
        message=message,
        warnings=search_warnings(found, "patients", n),
    )
