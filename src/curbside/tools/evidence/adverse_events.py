"""``evidence.adverse_events``: the reactions most often reported with a drug in FAERS (openFDA).

One count query (``count=patient.reaction.reactionmeddrapt.exact``, the MedDRA preferred term of
each reported reaction; https://open.fda.gov/apis/drug/event/) gives the top terms; a second,
``limit=1``, reads ``meta.results.total`` — how many reports matched — so a count can be read
against it. The drug is looked for as reported (``patient.drug.medicinalproduct``), then, when
nothing matched, by openFDA's harmonized generic name: two phrase queries, never an OR.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from curbside.errors import UpstreamError
from curbside.tools.base import ToolContext, ToolSpec
from curbside.tools.evidence.common import Citation, EvidenceDeps, evidence_fields, fit_to_bytes
from curbside.tools.evidence.openfda import DrugName, fetch_json, phrase, public_url, total_of
from curbside.tools.outbound import Screened

if TYPE_CHECKING:
    from curbside.tools.registry import ToolRegistry

__all__ = ["CAVEAT", "TOOL", "AdverseEventsArgs", "AdverseEventsResult", "Reaction", "register"]

TOOL = "evidence.adverse_events"

CAVEAT = (
    "FAERS counts are spontaneous reports, not a study: a report lists reactions that occurred while the drug was "
    "taken, not reactions it caused; counts depend on how often a drug is used and reported (and include "
    "duplicates), so they establish neither causation nor rates, and cannot compare drugs' safety."
)

_COUNT_FIELD = "patient.reaction.reactionmeddrapt.exact"
_DRUG_FIELDS = ("patient.drug.medicinalproduct", "patient.drug.openfda.generic_name")


class AdverseEventsArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    drug: DrugName = Field(description="A brand or generic name, e.g. 'Humira', 'amiodarone'. Only the drug.")
    top: int = Field(10, ge=1, le=50, description="How many of the most reported reactions to return.")
    serious_only: bool = Field(
        False, description="Only serious reports (death, life-threatening, hospitalization, disability …)."
    )


class Reaction(BaseModel):
    term: str = Field(description="MedDRA preferred term as reported.")
    count: int = Field(description="Reports naming this reaction with the drug.")


class AdverseEventsResult(BaseModel):
    drug: str = Field(description="The name as asked.")
    found: bool = Field(description="False: no FAERS report names this drug (not an error).")
    message: str | None = None
    searched: str | None = Field(None, description="The openFDA search expression that matched.")
    serious_only: bool
    reactions: list[Reaction] = Field(default_factory=list, description="Most reported first.")
    total_reports: int | None = Field(None, description="Reports matching the search (all reactions); None: not read.")
    data_last_updated: str | None = Field(None, description="When openFDA last refreshed FAERS (meta.last_updated).")
    caveat: str = CAVEAT
    citations: list[Citation] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)


def _reactions(data: dict[str, Any]) -> list[Reaction]:
    rows = data.get("results") or []
    reactions = [
        Reaction(term=row["term"].strip(), count=row["count"])
        for row in rows
        if isinstance(row, dict)
        and isinstance(row.get("term"), str)
        and row["term"].strip()
        and isinstance(row.get("count"), int)
        and not isinstance(row.get("count"), bool)
    ]
    if rows and not reactions:
        raise UpstreamError("openFDA's count answer held no term/count pairs; try again later.")
    return reactions


def _last_updated(data: dict[str, Any]) -> str | None:
    meta = data.get("meta")
    value = meta.get("last_updated") if isinstance(meta, dict) else None
    return value if isinstance(value, str) else None


async def adverse_events(ctx: ToolContext[EvidenceDeps], args: AdverseEventsArgs) -> AdverseEventsResult:
    deps = ctx.deps
    url = f"{deps.settings.openfda_url.rstrip('/')}/drug/event.json"
    screened = [Screened("drug", args.drug)]
    result = AdverseEventsResult(drug=args.drug, found=False, serious_only=args.serious_only)
    search = ""
    params: dict[str, Any] = {}
    data: dict[str, Any] | None = None
    for field in _DRUG_FIELDS:
        search = phrase(field, args.drug) + (" AND serious:1" if args.serious_only else "")
        params = {"search": search, "count": _COUNT_FIELD, "limit": args.top}
        data = await fetch_json(deps, "/drug/event.json", params, screened)
        if data and data["results"]:
            break
    cite = Citation(
        source="openFDA FAERS", kind="openfda_query", id=search, url=public_url(url, params), retrieved=deps.retrieved()
    )
    result.citations.append(cite)
    if not data or not data["results"]:
        serious = " serious" if args.serious_only else ""
        result.message = f"no{serious} FAERS reports name {args.drug!r} (searched as reported, then as a generic name)."
        return result
    result.found = True
    result.searched = search
    result.reactions = _reactions(data)[: args.top]
    result.data_last_updated = _last_updated(data)
    try:
        totals = await fetch_json(deps, "/drug/event.json", {"search": search, "limit": 1}, screened)
    except UpstreamError as exc:
        result.warnings.append(f"The number of matching reports could not be read ({exc.message}).")
    else:
        result.total_reports = total_of(totals) if totals else None
    cap = deps.settings.evidence_result_bytes
    return fit_to_bytes(result, cap, shrink=lambda r: _drop_last(r, cap))


def _drop_last(result: AdverseEventsResult, cap: int) -> bool:
    if len(result.reactions) <= 1:
        return False
    result.reactions.pop()
    message = f"Less reported reactions were left off to keep the result under {cap:,} bytes."
    if message not in result.warnings:
        result.warnings.append(message)
    return True


def register(registry: ToolRegistry, deps: EvidenceDeps) -> None:
    """Put ``evidence.adverse_events`` in ``registry``."""
    registry.register(
        ToolSpec(
            name=TOOL,
            description=(
                "The reactions most often reported with a drug in FDA's adverse event reports (FAERS, via openFDA): "
                "MedDRA terms with report counts, the number of matching reports, optionally serious reports only. "
                "Spontaneous reports: they show what was reported, not what the drug causes or how often (read the "
                "caveat). found=false means no report names the drug."
            ),
            args_model=AdverseEventsArgs,
            result_model=AdverseEventsResult,
            handler=adverse_events,
            **evidence_fields(deps),
            citation="openFDA drug adverse event API (FAERS), https://open.fda.gov/apis/drug/event/",
        )
    )
