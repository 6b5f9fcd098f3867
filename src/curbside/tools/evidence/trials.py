"""``evidence.find_clinical_trials``: studies registered on ClinicalTrials.gov (API v2, ``GET /studies``).

A raw v2 page is about 25 kB per study (eligibility text, outcomes, every site); a model needs a
line or two of each. The request names only the fields read here (``fields=``), the answer keeps
up to five sites per study (those matching the caller's location first), and the whole result
stays under ``evidence_result_bytes``. Paging is the API's own: ``next_page_token`` goes back as
``page_token`` (sent as ``pageToken``).

API reference: https://clinicaltrials.gov/data-api/api (query.cond, query.intr, query.locn,
filter.overallStatus, filter.advanced, pageSize ≤ 1000, pageToken, countTotal, fields).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from curbside.errors import UpstreamError
from curbside.tools.base import ToolContext, ToolSpec
from curbside.tools.evidence.common import (
    Citation,
    EvidenceDeps,
    cut_at_sentence,
    evidence_fields,
    fit_to_bytes,
    service_for,
)
from curbside.tools.outbound import Screened

if TYPE_CHECKING:
    from curbside.tools.registry import ToolRegistry

__all__ = ["TOOL_NAME", "Trial", "TrialSearchArgs", "TrialSearchResult", "parse_studies", "register"]

TOOL_NAME = "evidence.find_clinical_trials"
STUDY_URL = "https://clinicaltrials.gov/study/"
SITES_SHOWN = 5
SUMMARY_CHARS = 300

# The v2 enumerations (data-api "Enums": Status, Phase)
TrialStatus = Literal[
    "RECRUITING",
    "NOT_YET_RECRUITING",
    "ENROLLING_BY_INVITATION",
    "ACTIVE_NOT_RECRUITING",
    "SUSPENDED",
    "TERMINATED",
    "COMPLETED",
    "WITHDRAWN",
    "UNKNOWN",
    "AVAILABLE",
    "NO_LONGER_AVAILABLE",
    "TEMPORARILY_NOT_AVAILABLE",
    "APPROVED_FOR_MARKETING",
    "WITHHELD",
]
TrialPhase = Literal["EARLY_PHASE1", "PHASE1", "PHASE2", "PHASE3", "PHASE4", "NA"]

# The pieces read below; the API nests them under protocolSection as in a full record.
FIELDS = ",".join(
    [
        "NCTId",
        "BriefTitle",
        "OverallStatus",
        "Phase",
        "StudyType",
        "Condition",
        "InterventionName",
        "InterventionType",
        "LeadSponsorName",
        "StartDate",
        "CompletionDate",
        "EnrollmentCount",
        "EnrollmentType",
        "BriefSummary",
        "LocationFacility",
        "LocationCity",
        "LocationState",
        "LocationCountry",
        "LocationStatus",
    ]
)

_Text = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class TrialSearchArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    condition: str = Field(
        min_length=2, max_length=300, description="Condition or disease, e.g. 'amyotrophic lateral sclerosis'."
    )
    intervention: _Text | None = Field(None, description="Drug, device or procedure, e.g. 'tofersen'.")
    status: list[TrialStatus] | None = Field(
        None,
        min_length=1,
        max_length=14,
        description="Overall statuses to keep, e.g. ['RECRUITING', 'NOT_YET_RECRUITING']; default: any.",
    )
    phase: list[TrialPhase] | None = Field(
        None, min_length=1, max_length=6, description="Phases to keep, e.g. ['PHASE2', 'PHASE3']; default: any."
    )
    location: _Text | None = Field(
        None, description="A city, region or country with a study site, e.g. 'Toronto' (never a patient's address)."
    )
    max_results: int = Field(5, ge=1, le=20, description="Studies per page.")
    page_token: str | None = Field(
        None,
        min_length=1,
        max_length=500,
        pattern=r"^[A-Za-z0-9_\-=.+/]+$",
        description="next_page_token of a previous result (same other arguments), for the next page.",
    )


class Trial(BaseModel):
    nct_id: str
    title: str | None = None
    status: str | None = None
    phases: list[str] = Field(default_factory=list)
    study_type: str | None = None
    conditions: list[str] = Field(default_factory=list)
    interventions: list[str] = Field(
        default_factory=list, description="'Type: name' as the registry shows them, e.g. 'Drug: tofersen'."
    )
    sponsor: str | None = None
    start_date: str | None = None
    completion_date: str | None = None
    enrollment: int | None = None
    enrollment_type: str | None = Field(None, description="ACTUAL or ESTIMATED.")
    summary: str | None = Field(None, description="The brief summary, cut at a sentence ('…').")
    sites: list[str] = Field(
        default_factory=list,
        description="Up to five sites, 'Facility, City, State, Country (site status)'; those matching the location "
        "filter first.",
    )
    sites_total: int = Field(0, description="All sites the study lists.")
    sites_note: str | None = Field(None, description="'and N more sites' when not all are shown.")
    url: str
    citation: Citation


class TrialSearchResult(BaseModel):
    total: int | None = Field(None, description="Studies matching in all pages (first page only).")
    next_page_token: str | None = Field(None, description="Pass as page_token for the next page; null: last page.")
    studies: list[Trial]
    warnings: list[str] = Field(default_factory=list)


def build_params(args: TrialSearchArgs) -> dict[str, Any]:
    params: dict[str, Any] = {
        "format": "json",
        "query.cond": args.condition,
        "query.intr": args.intervention,
        "query.locn": args.location,
        "pageSize": args.max_results,
        "pageToken": args.page_token,
        "countTotal": "true",  # totalCount comes with the first page; later pages ignore it
        "fields": FIELDS,
    }
    if args.status:
        params["filter.overallStatus"] = ",".join(dict.fromkeys(args.status))
    if args.phase:
        # Essie expression on the Phase area: there is no filter.phase parameter (unknown ones are refused)
        phases = list(dict.fromkeys(args.phase))
        params["filter.advanced"] = (
            f"AREA[Phase]{phases[0]}" if len(phases) == 1 else f"AREA[Phase]({' OR '.join(phases)})"
        )
    return params


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list_of_dicts(value: object) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _str(value: object) -> str | None:
    return (value.strip() or None) if isinstance(value, str) else None


def _strings(value: object) -> list[str]:
    return [s for item in value if (s := _str(item))] if isinstance(value, list) else []


def _site(loc: dict[str, Any]) -> tuple[str, list[str]]:
    """A site as one line, and its lower-cased place fields (for matching the location filter)."""
    places = [_str(loc.get(k)) for k in ("facility", "city", "state", "country")]
    line = ", ".join(p for p in places if p)
    status = _str(loc.get("status"))
    if status:
        line = f"{line} ({status})" if line else status
    return line, [p.casefold() for p in places if p]


def _intervention(item: dict[str, Any]) -> str:
    """'Dietary Supplement: genistein', as the registry's pages write an intervention ('' without a name)."""
    name = _str(item.get("name"))
    kind = _str(item.get("type"))
    if not name:
        return ""
    return f"{kind.replace('_', ' ').title()}: {name}" if kind else name


def _more_sites(total: int, shown: int) -> str | None:
    hidden = total - shown
    return f"and {hidden} more site{'s' if hidden != 1 else ''}" if hidden > 0 else None


def _matches(fields: list[str], wanted: list[str]) -> bool:
    """Every comma-separated part of the location ('Toronto, Ontario') is in one of the site's fields."""
    return all(any(part in f for f in fields) for part in wanted)


def parse_study(raw: object, *, location: str | None, retrieved: str) -> Trial | None:
    """One study of a v2 page, or None when it has no NCT id (nothing to cite)."""
    protocol = _dict(_dict(raw).get("protocolSection"))
    ident = _dict(protocol.get("identificationModule"))
    nct_id = _str(ident.get("nctId"))
    if nct_id is None:
        return None
    status = _dict(protocol.get("statusModule"))
    design = _dict(protocol.get("designModule"))
    enrollment = _dict(design.get("enrollmentInfo"))
    count = enrollment.get("count")
    interventions = [
        _intervention(item)
        for item in _list_of_dicts(_dict(protocol.get("armsInterventionsModule")).get("interventions"))
    ]
    located = [_site(loc) for loc in _list_of_dicts(_dict(protocol.get("contactsLocationsModule")).get("locations"))]
    located = [(line, fields) for line, fields in located if line]
    if location:
        wanted = [part.strip().casefold() for part in location.split(",") if part.strip()]
        located.sort(key=lambda site: not _matches(site[1], wanted))  # stable: the registry's order otherwise
    sites = [line for line, _ in located]
    summary = _str(_dict(protocol.get("descriptionModule")).get("briefSummary"))
    url = STUDY_URL + nct_id
    return Trial(
        nct_id=nct_id,
        title=_str(ident.get("briefTitle")) or _str(ident.get("officialTitle")),
        status=_str(status.get("overallStatus")),
        phases=_strings(design.get("phases")),
        study_type=_str(design.get("studyType")),
        conditions=_strings(_dict(protocol.get("conditionsModule")).get("conditions")),
        interventions=[i for i in interventions if i],
        sponsor=_str(_dict(_dict(protocol.get("sponsorCollaboratorsModule")).get("leadSponsor")).get("name")),
        start_date=_str(_dict(status.get("startDateStruct")).get("date")),
        completion_date=_str(_dict(status.get("completionDateStruct")).get("date")),
        enrollment=count if isinstance(count, int) and not isinstance(count, bool) else None,
        enrollment_type=_str(enrollment.get("type")),
        summary=cut_at_sentence(summary, SUMMARY_CHARS) if summary else None,
        sites=sites[:SITES_SHOWN],
        sites_total=len(sites),
        sites_note=_more_sites(len(sites), SITES_SHOWN),
        url=url,
        citation=Citation(source="ClinicalTrials.gov", kind="nct", id=nct_id, url=url, retrieved=retrieved),
    )


def parse_studies(data: object, *, location: str | None, retrieved: str) -> TrialSearchResult:
    """A v2 ``/studies`` page as a result; a body without a ``studies`` list is the service's fault."""
    if not isinstance(data, dict) or not isinstance(data.get("studies"), list):
        raise UpstreamError("ClinicalTrials.gov sent an answer without a 'studies' list; try again later.")
    raw = data["studies"]
    studies = [t for item in raw if (t := parse_study(item, location=location, retrieved=retrieved))]
    warnings = []
    if len(studies) < len(raw):
        warnings.append(f"{len(raw) - len(studies)} studies without an NCT number were left out.")
    total = data.get("totalCount")
    return TrialSearchResult(
        total=total if isinstance(total, int) and not isinstance(total, bool) else None,
        next_page_token=_str(data.get("nextPageToken")),
        studies=studies,
        warnings=warnings,
    )


def fit(result: TrialSearchResult, cap: int) -> TrialSearchResult:
    """Trim to ``cap`` bytes, least loss first: shorter summaries, two sites each, no summaries, then the
    last studies go. The warnings say what went."""
    done: list[str] = []
    dropped = 0

    def shrink(r: TrialSearchResult) -> bool:
        nonlocal dropped
        if not done:
            done.append("summaries were shortened")
            for t in r.studies:
                t.summary = cut_at_sentence(t.summary, 160) if t.summary else None
        elif len(done) == 1:
            done.append("site lists were shortened")
            for t in r.studies:
                if len(t.sites) > 2:
                    t.sites = t.sites[:2]
                    t.sites_note = _more_sites(t.sites_total, 2)
        elif len(done) == 2:
            done[0] = "summaries were left out"
            done.append("")
            for t in r.studies:
                t.summary = None
        elif len(r.studies) > 1:
            r.studies.pop()
            dropped += 1
        else:
            return False
        return True

    fit_to_bytes(result, cap, shrink=shrink)
    if done:
        said = " and ".join(d for d in done if d)
        result.warnings.append(f"To stay under {cap:,} bytes, {said}.")
    if dropped:
        result.warnings.append(
            f"{dropped} more studies on this page were left out to stay under {cap:,} bytes; ask with a smaller "
            "max_results to see them (next_page_token continues after them)."
        )
    return result


async def find_clinical_trials(ctx: ToolContext[EvidenceDeps], args: TrialSearchArgs) -> TrialSearchResult:
    settings = ctx.deps.settings
    screened = [Screened("condition", args.condition)]
    if args.intervention:
        screened.append(Screened("intervention", args.intervention))
    if args.location:
        # a city, region or country alone names where a trial runs, not who a patient is
        screened.append(Screened("location", args.location, allow=frozenset({"LOCATION"})))
    fetched = await ctx.deps.client().get(
        settings.clinicaltrials_url.rstrip("/") + "/studies",
        service=service_for("clinicaltrials", settings),
        params=build_params(args),
        screened=screened,
    )
    result = parse_studies(fetched.json(), location=args.location, retrieved=ctx.deps.retrieved())
    if not result.studies and not result.warnings:
        result.warnings.append(
            "No registered study matches; try a broader condition, fewer filters, or no location."
            if args.page_token is None
            else "This page is empty: the previous page was the last."
        )
    return fit(result, settings.evidence_result_bytes)


def register(registry: ToolRegistry, deps: EvidenceDeps) -> None:
    """Put ``evidence.find_clinical_trials`` in ``registry``."""
    registry.register(
        ToolSpec(
            name=TOOL_NAME,
            description=(
                "Find studies registered on ClinicalTrials.gov by condition, with optional intervention, overall "
                "status (e.g. RECRUITING), phase (e.g. PHASE3) and site location (a city, region or country). Each "
                "study: NCT number, title, status, phases, conditions, interventions, sponsor, dates, enrollment, "
                "a short summary, up to five sites (matching the location first), link and citation. Page with "
                "next_page_token. Registration is not evidence of effect: a listed trial may have no results. "
                "Never put patient identifiers in the arguments (they are screened and refused)."
            ),
            args_model=TrialSearchArgs,
            result_model=TrialSearchResult,
            handler=find_clinical_trials,
            **evidence_fields(deps),
            citation="ClinicalTrials.gov API v2, U.S. National Library of Medicine: https://clinicaltrials.gov/data-api/api",
        )
    )
