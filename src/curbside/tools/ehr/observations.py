"""``ehr.get_observations``: a patient's labs and vitals by LOINC code or common name, newest first,
in a time window, the latest only or all of them (following the server's pages).

Window edges are calendar dates as the chart recorded them, both included: an HbA1c taken at
2023-05-01T23:30+02:00 is "on 2023-05-01" even though it is 21:30 UTC. FHIR date search compares
instants (https://hl7.org/fhir/R4/search.html#date), so the server is asked for one more day at each
edge and the rows are then kept by their recorded date.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, model_validator

from curbside.tools.ehr.fhir_read import local_date, observation_date, observation_row
from curbside.tools.ehr.lab_codes import CONCEPTS, resolve
from curbside.tools.ehr.read_common import PAGE_SIZE, PatientId, patient_search, search_warnings
from curbside.tools.ehr.read_models import ObservationRow

if TYPE_CHECKING:
    from curbside.tools.base import ToolContext
    from curbside.tools.ehr.deps import EhrDeps

__all__ = ["ConceptInfo", "GetObservationsArgs", "GetObservationsResult", "get_observations"]

_EDGE_SLACK = 10  # extra rows asked for when the window was widened, so trimming its edges still fills the list

_NAMES = ", ".join(c.name for c in CONCEPTS)


class GetObservationsArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    patient_id: PatientId
    code: str | None = Field(
        None,
        min_length=1,
        max_length=100,
        description=f"A LOINC code ('4548-4') or a common name: {_NAMES} (and aliases such as 'a1c', "
        "'blood pressure'). Omit for every observation.",
    )
    since: date | None = Field(None, description="Earliest date to include, YYYY-MM-DD (included).")
    until: date | None = Field(None, description="Latest date to include, YYYY-MM-DD (included).")
    latest: bool = Field(False, description="Only the newest observation.")
    max_results: int = Field(100, ge=1, le=1000, description="Most observations listed, newest first.")

    @model_validator(mode="after")
    def _window(self) -> GetObservationsArgs:
        if self.since and self.until and self.since > self.until:
            raise ValueError(f"since ({self.since}) is after until ({self.until})")
        return self


class ConceptInfo(BaseModel):
    name: str
    label: str
    loinc_codes: list[str] = Field(description="Every LOINC code searched for.")


class GetObservationsResult(BaseModel):
    patient_id: str
    concept: ConceptInfo | None = Field(description="What was asked for; None: every observation.")
    observations: list[ObservationRow] = Field(description="Newest first.")
    count: int
    total: int | None = Field(description="Matches the EHR counted (None when the window's edges were trimmed).")
    truncated: bool = Field(description="More matched than are listed (always false with latest).")
    message: str | None = Field(None, description="Set when nothing matched: 'none recorded' and for what.")
    warnings: list[str] = Field(default_factory=list)


def _in_window(recorded: str | None, since: date | None, until: date | None) -> bool:
    day = local_date(recorded)
    if day is None:
        return since is None and until is None
    return (since is None or day >= since) and (until is None or day <= until)


async def get_observations(ctx: ToolContext[EhrDeps], args: GetObservationsArgs) -> GetObservationsResult:
    concept = resolve(args.code) if args.code else None
    params: list[tuple[str, str]] = []
    if concept is not None:
        params.append(("code", concept.search_code()))
    windowed = args.since is not None or args.until is not None
    if args.since:
        params.append(("date", f"ge{(args.since - timedelta(days=1)).isoformat()}"))
    if args.until:
        params.append(("date", f"le{(args.until + timedelta(days=1)).isoformat()}"))
    wanted = 1 if args.latest else args.max_results
    asked = wanted + _EDGE_SLACK if windowed else wanted
    _, found = await patient_search(
        ctx.deps.fhir(),
        args.patient_id,
        "Observation",
        params,
        sort="-date",
        count=min(PAGE_SIZE, asked),
        max_results=asked,
    )
    kept = [o for o in found.matches if _in_window(observation_date(o), args.since, args.until)]
    trimmed = len(kept) != len(found.matches)
    rows = [observation_row(o) for o in kept[:wanted]]
    what = concept.label if concept else "observations"
    message = None
    if not rows:
        window = ""
        if windowed:
            window = f" from {args.since or 'the start'} to {args.until or 'now'}"
        message = f"None recorded: no {what} for this patient{window}."
    return GetObservationsResult(
        patient_id=args.patient_id,
        concept=ConceptInfo(name=concept.name, label=concept.label, loinc_codes=list(concept.codes))
        if concept
        else None,
        observations=rows,
        count=len(rows),
        total=None if trimmed else found.total,
        truncated=not args.latest and (found.truncated or len(kept) > wanted),
        message=message,
        warnings=search_warnings(found, f"{what} (newest first)", len(rows), listing=not args.latest),
    )
