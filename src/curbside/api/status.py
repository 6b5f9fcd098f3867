"""``GET /v1/status`` and ``GET /v1/documents`` (admin key): the knowledge base as its administrator sees it.

The index (documents, chunks, the embedding model that built it and the one serving search), the
answer model, jobs by state, the coverage editions loaded with their dates, and the current
documents (to remove one).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from curbside.api.deps import Core, admin_caller
from curbside.api.errors import ERROR_RESPONSES

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["documents"], responses=ERROR_RESPONSES, dependencies=[Depends(admin_caller)])


class IndexStatus(BaseModel):
    documents: int
    chunks: int
    embedder: str = Field(description="The model serving search now.")
    indexed_model: str | None = Field(description="The model the stored vectors were made with.")
    llm: str
    jobs: dict[str, int] = Field(description="Jobs by state: pending, running, completed, failed, superseded.")
    coverage: list[dict[str, Any]] = Field(description="Each coverage source: loaded, edition and date, rows.")


class DocumentRow(BaseModel):
    doc_key: str
    title: str
    version: int
    format: str
    chunks: int
    source_type: str | None
    specialty: str | None
    original_name: str
    created_at: str
    warnings: list[str]


class DocumentList(BaseModel):
    documents: list[DocumentRow]


@router.get("/status", response_model=IndexStatus)
def index_status(core: Core) -> IndexStatus:
    """The index, the models, jobs by state and the coverage editions loaded."""
    from curbside.coverage.status import coverage_status
    from curbside.kb.jobs import JobState

    stats = core.documents.stats()
    indexed = core.ingestor.guard.indexed_model()
    return IndexStatus(
        documents=stats["documents"],
        chunks=stats["chunks"],
        embedder=core.embedder.model_id,
        indexed_model=indexed[0] if indexed else None,
        llm=core.llm_description(),
        jobs={state.value: core.jobs.count(state=state) for state in JobState},
        coverage=coverage_status(core.coverage_store)["sources"],
    )


@router.get("/documents", response_model=DocumentList)
def list_documents(core: Core) -> DocumentList:
    """The knowledge base's current documents (each at its current version), by key."""
    return DocumentList(
        documents=[
            DocumentRow(
                doc_key=v.doc_key,
                title=v.title,
                version=v.version,
                format=v.format,
                chunks=v.chunk_count,
                source_type=v.source_type,
                specialty=v.specialty,
                original_name=v.original_name,
                created_at=v.created_at,
                warnings=list(v.warnings),
            )
            for v in core.documents.list_current(namespace="kb")
        ]
    )
