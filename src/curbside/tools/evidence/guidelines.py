"""``evidence.search_medical_guidelines``: the knowledge base's guideline documents, searched by
condition and clinical findings.

The guideline RAG plan (specs/guideline-rag-plan.md, "Why the query is condition + clinical
findings") asks for one query text: the condition finds the right guideline, the findings the
right section of it ("malaria; pregnant, first trimester" reaches "Treatment in pregnancy").
The search is the application's own (``Curbside.search``): hybrid dense + keyword with its
relevance threshold, restricted to source type ``guideline``, recorded on the audit trail as
the caller.

No PHI screen here, unlike the other evidence tools: the knowledge base is local, so the query
never leaves the machine, and the audit row keeps it redacted like every other search.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from curbside.errors import ConfigError
from curbside.tools.base import ToolContext, ToolSpec
from curbside.tools.evidence.common import (
    Citation,
    EvidenceDeps,
    caller_channel,
    cut_at_sentence,
    evidence_fields,
    fit_to_bytes,
)
from curbside.types import SearchFilters

if TYPE_CHECKING:
    from curbside.tools.registry import ToolRegistry
    from curbside.types import Passage, SearchResponse

__all__ = ["TOOL_NAME", "GuidelineHit", "GuidelineSearchArgs", "GuidelineSearchResult", "compose_query", "register"]

TOOL_NAME = "evidence.search_medical_guidelines"
SOURCE_TYPE = "guideline"
SNIPPET_CHARS = 600
NO_GUIDELINES = (
    "No guideline passage matched. If the knowledge base holds no guideline documents yet, add them with "
    "`curbside guidelines fetch` (NCBI Bookshelf open-access guidelines, WHO by default) or "
    "`curbside ingest --source-type guideline FILE`."
)

_Finding = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class GuidelineSearchArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    query: str | None = Field(
        None,
        min_length=1,
        max_length=2000,
        description="The question or the condition with its clinical findings, e.g. 'malaria in pregnancy, first "
        "trimester: treatment'.",
    )
    condition: str | None = Field(
        None, min_length=1, max_length=300, description="The diagnosed condition, e.g. 'uncomplicated malaria'."
    )
    findings: list[_Finding] | None = Field(
        None,
        max_length=20,
        description="Clinical findings that pick the section, e.g. ['pregnant', 'first trimester', 'no drug allergies'].",
    )
    k: int = Field(5, ge=1, le=20, description="Passages to return.")

    @model_validator(mode="after")
    def _something_to_search(self) -> GuidelineSearchArgs:
        if not (self.query or self.condition or self.findings):
            raise ValueError("give a query, or a condition with its clinical findings")
        return self


class GuidelineHit(BaseModel):
    title: str = Field(description="The guideline's title.")
    section_path: str = Field(description="Its section, 'Chapter > Section'.")
    page: int | None = None
    snippet: str = Field(description="The passage, cut at a sentence ('…'); open it whole with source.passages.")
    chunk_id: str
    doc_key: str
    relevance: float | None = Field(None, description="Calibrated probability the passage is relevant, where known.")
    similarity: float | None = Field(None, description="Dense cosine similarity to the query.")
    citation: Citation


class GuidelineSearchResult(BaseModel):
    query: str = Field(description="The text searched: condition, findings and query combined.")
    hits: list[GuidelineHit]
    warnings: list[str] = Field(default_factory=list)


def compose_query(query: str | None, condition: str | None, findings: list[str] | None) -> str:
    """'condition; finding, finding; query' — the plan's "condition + clinical findings" as one text."""
    parts = [condition or "", ", ".join(f for f in findings or [] if f), query or ""]
    return "; ".join(p for p in parts if p)


def _hit(passage: Passage, retrieved: str) -> GuidelineHit:
    return GuidelineHit(
        title=passage.title,
        section_path=passage.section_path,
        page=passage.page,
        snippet=cut_at_sentence(passage.body, SNIPPET_CHARS),
        chunk_id=passage.chunk_id,
        doc_key=passage.doc_key,
        relevance=passage.relevance,
        similarity=round(passage.similarity, 4) if passage.similarity is not None else None,
        citation=Citation(source="knowledge base", kind="chunk", id=passage.chunk_id, retrieved=retrieved),
    )


def to_result(text: str, response: SearchResponse, retrieved: str, cap: int) -> GuidelineSearchResult:
    # the filter already restricts the search; this keeps a mislabelled hit out all the same
    hits = [_hit(p, retrieved) for p in response.hits if p.source_type == SOURCE_TYPE]
    result = GuidelineSearchResult(query=text, hits=hits, warnings=list(response.warnings))
    if not hits:
        result.warnings.append(NO_GUIDELINES)
    dropped = 0
    shortened = False

    def shrink(r: GuidelineSearchResult) -> bool:
        nonlocal dropped, shortened
        if not shortened:
            shortened = True
            for h in r.hits:
                h.snippet = cut_at_sentence(h.snippet, 250)
            return True
        if len(r.hits) > 1:
            r.hits.pop()
            dropped += 1
            return True
        return False

    fit_to_bytes(result, cap, shrink=shrink)
    if dropped:
        result.warnings.append(f"The {dropped} lowest-ranked passages were left out to stay under {cap:,} bytes.")
    elif shortened:
        result.warnings.append(f"Snippets were shortened to stay under {cap:,} bytes; open a passage by chunk_id.")
    return result


async def search_medical_guidelines(ctx: ToolContext[EvidenceDeps], args: GuidelineSearchArgs) -> GuidelineSearchResult:
    search = ctx.deps.search
    if search is None:
        raise ConfigError(
            "Guideline search needs the knowledge base, and this tool was registered without it; register the "
            "evidence tools through the application (Curbside) so they get its search."
        )
    text = compose_query(args.query, args.condition, args.findings)
    response = await asyncio.to_thread(
        search,
        text,
        ctx.caller,
        channel=caller_channel(ctx.caller),
        k=args.k,
        filters=SearchFilters(source_type=SOURCE_TYPE),
    )
    return to_result(text, response, ctx.deps.retrieved(), ctx.deps.settings.evidence_result_bytes)


def register(registry: ToolRegistry, deps: EvidenceDeps) -> None:
    """Put ``evidence.search_medical_guidelines`` in ``registry``."""
    registry.register(
        ToolSpec(
            name=TOOL_NAME,
            description=(
                "Search the clinical practice guidelines in the local knowledge base (documents ingested with "
                "source type 'guideline', e.g. WHO guidelines from NCBI Bookshelf). Give the condition and the "
                "patient's clinical findings (age group, pregnancy, severity, allergies, comorbidities): the "
                "condition finds the guideline, the findings its section. Each hit: guideline title, section "
                "path, page, snippet, chunk_id (open it whole with source.passages), relevance, citation. An "
                "empty list means no guideline passage is relevant enough, or none is ingested (see warnings)."
            ),
            args_model=GuidelineSearchArgs,
            result_model=GuidelineSearchResult,
            handler=search_medical_guidelines,
            **evidence_fields(deps),
            citation="Curbside knowledge base: documents ingested with source type 'guideline' (their own citations per hit)",
        )
    )
