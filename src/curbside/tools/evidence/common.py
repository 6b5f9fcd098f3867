"""What every evidence tool shares: its dependencies, the citation it attaches, the services'
published rate limits, and trimming a result to the size a model's context can afford."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import BaseModel, Field

from curbside.tools.outbound import OutboundClient, Service

if TYPE_CHECKING:
    from curbside.settings import Settings
    from curbside.types import SearchResponse, ToolCaller

__all__ = [
    "Citation",
    "EvidenceDeps",
    "cut_at_sentence",
    "evidence_fields",
    "fit_to_bytes",
    "retrieved_today",
    "service_for",
]

SourceKind = Literal["pmid", "pmcid", "doi", "nct", "openfda_set_id", "openfda_query", "url", "chunk"]


class Citation(BaseModel):
    """Where a result came from, for a reader to check: the identifier, a link, and when it was read."""

    source: str = Field(description="The service: PubMed, Europe PMC, ClinicalTrials.gov, openFDA, knowledge base …")
    kind: SourceKind
    id: str = Field(description="PMID, NCT number, SPL set id, DOI, chunk id …")
    url: str | None = None
    retrieved: str = Field(description="Date the service was asked (UTC, YYYY-MM-DD); a cached answer keeps its date.")


@dataclass(frozen=True)
class EvidenceDeps:
    """The narrow dependencies of the evidence family: settings, the shared outbound client, and
    the application's audited knowledge-base search (for ``search_medical_guidelines``)."""

    settings: Settings
    client: Callable[[], OutboundClient]
    search: Callable[..., SearchResponse] | None = None  # Curbside.search(query, caller, channel=, k=, filters=)
    today: Callable[[], str] | None = None  # the retrieval date; default: the UTC clock

    def retrieved(self) -> str:
        return self.today() if self.today is not None else retrieved_today()


def evidence_fields(deps: EvidenceDeps) -> dict[str, Any]:
    """What every evidence tool declares alike: its category, that PHI is refused (not sent), its limits."""
    return {
        "category": "evidence",
        "requires_phi": False,  # a query holding PHI is refused by the outbound client, never sent
        "timeout_s": deps.settings.tool_evidence_timeout_s,
        "rate_limit": deps.settings.tool_evidence_rate_limit,
        "deps": deps,
    }


def retrieved_today() -> str:
    return datetime.now(UTC).date().isoformat()


def service_for(name: str, settings: Settings) -> Service:
    """The service as the outbound client paces it, at its published rate limit (bursts up to it go at once)."""
    if name == "ncbi":
        # NCBI E-utilities usage guidelines: at most 3 requests/s without an API key, 10 with one
        return Service("PubMed (NCBI E-utilities)", "CURBSIDE_PUBMED_URL", 10 if settings.ncbi_api_key else 3)
    if name == "bookshelf":
        return Service("NCBI Bookshelf", "CURBSIDE_BOOKSHELF_URL", 3)
    if name == "openfda":
        # openFDA authentication docs: 240 requests per minute per IP, with or without a key
        return Service("openFDA", "CURBSIDE_OPENFDA_URL", 240, 60.0)
    if name == "europepmc":
        # Europe PMC publishes no hard limit; its REST docs ask for moderation: 10/s keeps well inside
        return Service("Europe PMC", "CURBSIDE_EUROPEPMC_URL", 10)
    if name == "clinicaltrials":
        # ClinicalTrials.gov API docs: about 50 requests per minute per IP
        return Service("ClinicalTrials.gov", "CURBSIDE_CLINICALTRIALS_URL", 50, 60.0)
    if name == "web":
        return Service("web search", "CURBSIDE_WEB_SEARCH_URL", 2)
    if name == "evidence_service":
        return Service("evidence service", "CURBSIDE_EVIDENCE_SERVICE_URL", 2)
    raise KeyError(name)


_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z0-9(\[•-])")


def cut_at_sentence(text: str, max_chars: int) -> str:
    """``text`` whole when it fits; else its leading sentences that fit, ending in "…".

    When not even the first sentence fits, it is cut at a word boundary. Whitespace runs are folded.
    """
    text = " ".join(text.split())
    if len(text) <= max_chars:
        return text
    budget = max(1, max_chars - 1)
    cut = 0
    for match in _SENTENCE_END.finditer(text):
        if match.start() > budget:
            break
        cut = match.start()
    if cut < budget // 3:  # a sentence boundary would waste most of the room: cut at a word
        cut = text.rfind(" ", 0, budget)
        if cut <= 0:
            cut = budget
    return text[:cut].rstrip(" ,;:") + " …"


M = TypeVar("M", bound=BaseModel)


def fit_to_bytes(result: M, cap: int, *, shrink: Callable[[M], bool]) -> M:
    """Call ``shrink(result)`` (it drops or shortens something and says whether it could) until the
    result's JSON is at most ``cap`` bytes or nothing more can go."""
    while len(json.dumps(result.model_dump(mode="json"), ensure_ascii=False).encode()) > cap:
        if not shrink(result):
            break
    return result


def result_bytes(result: BaseModel) -> int:
    return len(json.dumps(result.model_dump(mode="json"), ensure_ascii=False).encode())


def caller_channel(caller: ToolCaller) -> str:
    return caller.channel or "tool"
