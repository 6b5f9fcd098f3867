"""Search routes (clinician or admin key): hybrid search and opening passages, each recorded on the audit trail."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query

from curbside.api.deps import ClinicalCaller, Core, clinical_caller
from curbside.api.errors import ERROR_RESPONSES
from curbside.errors import NotFoundError
from curbside.settings import QUERY_CEILING
from curbside.types import SearchFilters, SearchResponse, SourcePassages

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["search"], responses=ERROR_RESPONSES, dependencies=[Depends(clinical_caller)])


def _split(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


@router.get("/search", response_model=SearchResponse)
def search(
    core: Core,
    caller: ClinicalCaller,
    q: Annotated[
        str,
        Query(
            min_length=1,
            max_length=QUERY_CEILING,
            description="Question or keywords; at most CURBSIDE_MAX_QUERY_CHARS characters (default 2,000).",
        ),
    ],
    k: Annotated[int | None, Query(ge=1, le=100, description="Hits to return (default 10).")] = None,
    mode: Literal["hybrid", "dense", "bm25"] = "hybrid",
    source_type: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    specialty: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    doc_key: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    namespace: Annotated[
        str, Query(min_length=1, max_length=200, description="'kb' (documents) or 'odb' (formulary passages).")
    ] = "kb",
) -> SearchResponse:
    """Hybrid (dense + BM25) search of the knowledge base, with the relevance threshold applied."""
    filters = SearchFilters(source_type=source_type, specialty=specialty, doc_key=doc_key, namespace=namespace)
    return core.search(q, caller, channel="http", k=k, mode=mode, filters=filters)


@router.get("/passages", response_model=SourcePassages)
def passages(
    core: Core,
    caller: ClinicalCaller,
    chunk_ids: Annotated[
        str,
        Query(
            min_length=1,
            max_length=4_000,
            description="Comma-separated chunk ids, e.g. 'guide:v1:3,guide:v1:4' (at most 100 ids, 4,000 characters).",
        ),
    ],
    highlight_terms: Annotated[
        str | None,
        Query(max_length=2_000, description="Comma-separated terms to mark **like this** (up to 5 snippets each)."),
    ] = None,
) -> SourcePassages:
    """Open passages by chunk id (full text, source, page, section, highlights)."""
    from curbside.audit import audited, passages_entry
    from curbside.search.passages import open_passages

    ids, terms = _split(chunk_ids), _split(highlight_terms)
    entry = passages_entry(caller, ids, channel="http", highlight_terms=len(terms))
    with audited(core.audit, entry) as scope:
        result = open_passages(core.documents, ids, terms)
        if not result.passages:
            raise NotFoundError(f"No stored passage has the chunk id(s): {', '.join(result.missing)}.")
        scope.entry = passages_entry(caller, ids, channel="http", highlight_terms=len(terms), result=result)
    return result
