"""Knowledge-base routes: search, passages, documents (upload, delete) and jobs."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, File, Form, Query, UploadFile, status
from pydantic import BaseModel, Field

from curbside.api.deps import get_curbside
from curbside.api.errors import ERROR_RESPONSES, ErrorBody
from curbside.app import Curbside
from curbside.errors import NotFoundError
from curbside.types import SearchFilters, SearchResponse, SourcePassages

__all__ = ["router"]

router = APIRouter(prefix="/v1", responses=ERROR_RESPONSES)


def _split(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


# --- search and passages ------------------------------------------------------------------------
@router.get("/search", response_model=SearchResponse, tags=["search"])
def search(
    core: Annotated[Curbside, Depends(get_curbside)],
    q: Annotated[str, Query(description="Question or keywords.")],
    k: Annotated[int | None, Query(ge=1, le=100, description="Hits to return (default 10).")] = None,
    mode: Literal["hybrid", "dense", "bm25"] = "hybrid",
    source_type: str | None = None,
    specialty: str | None = None,
    doc_key: str | None = None,
    namespace: Annotated[
        str, Query(min_length=1, description="'kb' (documents) or 'odb' (formulary passages).")
    ] = "kb",
) -> SearchResponse:
    """Hybrid (dense + BM25) search of the knowledge base, with the relevance threshold applied."""
    filters = SearchFilters(source_type=source_type, specialty=specialty, doc_key=doc_key, namespace=namespace)
    return core.search_engine.search(q, k=k, mode=mode, filters=filters)


@router.get("/passages", response_model=SourcePassages, tags=["search"])
def passages(
    core: Annotated[Curbside, Depends(get_curbside)],
    chunk_ids: Annotated[str, Query(description="Comma-separated chunk ids, e.g. 'guide:v1:3,guide:v1:4'.")],
    highlight_terms: Annotated[
        str | None, Query(description="Comma-separated terms to mark **like this** (up to 5 snippets each).")
    ] = None,
) -> SourcePassages:
    """Open passages by chunk id (full text, source, page, section, highlights)."""
    from curbside.search.passages import open_passages

    result = open_passages(core.documents, _split(chunk_ids), _split(highlight_terms))
    if not result.passages:
        raise NotFoundError(f"No stored passage has the chunk id(s): {', '.join(result.missing)}.")
    return result


# --- documents ----------------------------------------------------------------------------------------
class UploadAccepted(BaseModel):
    doc_key: str
    status: Literal["queued", "unchanged"]
    job_id: int | None = Field(None, description="Follow it at GET /v1/jobs/{job_id}; none when unchanged.")
    version: int | None = Field(None, description="The current version when the content is unchanged.")
    message: str


class DocumentRemoved(BaseModel):
    doc_key: str
    removed_version: int


@router.post(
    "/documents",
    response_model=UploadAccepted,
    status_code=status.HTTP_202_ACCEPTED,
    tags=["documents"],
    responses={413: {"model": ErrorBody}, 415: {"model": ErrorBody}},
)
async def upload(
    core: Annotated[Curbside, Depends(get_curbside)],
    file: Annotated[UploadFile, File(description="PDF, DOCX, HTML, .nxml, Markdown or text.")],
    doc_key: Annotated[str | None, Form(description="Key of the document (default: from the file name).")] = None,
    source_type: Annotated[str | None, Form()] = None,
    specialty: Annotated[str | None, Form()] = None,
) -> UploadAccepted:
    """Upload a document; it is ingested by a background job whose id the response gives."""
    import asyncio

    from curbside.kb.ingest import IngestOptions

    limit = core.settings.max_file_bytes
    data = await file.read(limit + 1)  # one byte over the limit is enough to refuse it
    options = IngestOptions(doc_key=doc_key or None, source_type=source_type or None, specialty=specialty or None)
    submission = await asyncio.to_thread(core.ingestor.submit, file.filename or "", data, options)
    if submission.job is not None:
        core.background.submit(submission.job.id)
    return UploadAccepted(
        doc_key=submission.doc_key,
        status=submission.status,
        job_id=submission.job.id if submission.job else None,
        version=submission.version,
        message=submission.message,
    )


@router.delete("/documents/{doc_key}", response_model=DocumentRemoved, tags=["documents"])
def remove_document(doc_key: str, core: Annotated[Curbside, Depends(get_curbside)]) -> DocumentRemoved:
    """Take a document out of search (its rows stay for audit)."""
    return DocumentRemoved(doc_key=doc_key, removed_version=core.ingestor.remove(doc_key))


# --- jobs ---------------------------------------------------------------------------------------------
class JobView(BaseModel):
    id: int
    doc_key: str
    state: Literal["pending", "running", "completed", "failed", "superseded"]
    original_name: str
    options: dict[str, Any]
    version_id: int | None
    retry_count: int
    max_retries: int
    total_chunks: int | None
    processed_chunks: int
    error_code: str | None
    error_message: str | None
    superseded_by: int | None
    created_at: str
    started_at: str | None
    completed_at: str | None
    failed_at: str | None
    updated_at: str

    @classmethod
    def of(cls, job: Any) -> JobView:
        data = job.to_dict()
        data["state"] = job.state.value
        return cls.model_validate(data)


class JobList(BaseModel):
    jobs: list[JobView]


@router.get("/jobs", response_model=JobList, tags=["jobs"])
def list_jobs(
    core: Annotated[Curbside, Depends(get_curbside)],
    state: Literal["pending", "running", "completed", "failed", "superseded"] | None = None,
    doc_key: str | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> JobList:
    from curbside.kb.jobs import JobState

    jobs = core.jobs.list(state=JobState(state) if state else None, doc_key=doc_key, limit=limit)
    return JobList(jobs=[JobView.of(job) for job in jobs])


@router.get("/jobs/{job_id}", response_model=JobView, tags=["jobs"])
def get_job(job_id: int, core: Annotated[Curbside, Depends(get_curbside)]) -> JobView:
    return JobView.of(core.jobs.get(job_id))


@router.post(
    "/jobs/{job_id}/retry",
    response_model=JobView,
    status_code=status.HTTP_202_ACCEPTED,
    tags=["jobs"],
    responses={409: {"model": ErrorBody}},
)
def retry_job(job_id: int, core: Annotated[Curbside, Depends(get_curbside)]) -> JobView:
    """Queue a failed job again (at most CURBSIDE_JOB_MAX_RETRIES times); it runs in the background."""
    job = core.jobs.retry(job_id)
    core.background.submit(job.id)
    return JobView.of(job)
