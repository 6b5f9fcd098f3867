"""Knowledge-base administration (admin key): documents (upload, delete) and jobs; changes are audited.

Search and passages, open to clinicians, are in ``api/search.py``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, File, Form, Path, Query, UploadFile, status
from pydantic import BaseModel, Field

from curbside.api.deps import AdminCaller, Core, admin_caller
from curbside.api.errors import ERROR_RESPONSES, ErrorBody
from curbside.audit import AuditEntry
from curbside.types import ToolCaller

__all__ = ["router"]

router = APIRouter(prefix="/v1", responses=ERROR_RESPONSES, dependencies=[Depends(admin_caller)])

JobId = Annotated[int, Path(ge=1, le=2**63 - 1, description="A job id, as GET /v1/jobs lists them.")]


def _change(caller: ToolCaller, action: str, doc_key: str | None = None, **details: Any) -> AuditEntry:
    return AuditEntry(
        action=action,
        user=caller.user,
        role=caller.role,
        session=caller.session,
        channel="http",
        sources=(doc_key,) if doc_key else (),
        outcome="started",
        details=details,
    )


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
    core: Core,
    caller: AdminCaller,
    file: Annotated[UploadFile, File(description="PDF, DOCX, HTML, .nxml, Markdown or text.")],
    doc_key: Annotated[
        str | None,
        Form(min_length=1, max_length=200, description="Key of the document (default: from the file name)."),
    ] = None,
    source_type: Annotated[str | None, Form(min_length=1, max_length=200)] = None,
    specialty: Annotated[str | None, Form(min_length=1, max_length=200)] = None,
) -> UploadAccepted:
    """Upload a document; it is ingested by a background job whose id the response gives."""
    import asyncio

    from curbside.audit import audited_async
    from curbside.kb.ingest import IngestOptions

    limit = core.settings.max_file_bytes
    # the row names the document once it is accepted: a refused request's key is only the client's text
    async with audited_async(core.audit, _change(caller, "documents.upload")) as scope:
        data = await file.read(limit + 1)  # one byte over the limit is enough to refuse it
        options = IngestOptions(doc_key=doc_key or None, source_type=source_type or None, specialty=specialty or None)
        submission = await asyncio.to_thread(core.ingestor.submit, file.filename or "", data, options)
        if submission.job is not None:
            core.background.submit(submission.job.id)
        job_id = submission.job.id if submission.job else None
        scope.update(
            sources=(submission.doc_key,), outcome=submission.status, details={"job_id": job_id, "bytes": len(data)}
        )
    return UploadAccepted(
        doc_key=submission.doc_key,
        status=submission.status,
        job_id=job_id,
        version=submission.version,
        message=submission.message,
    )


@router.delete("/documents/{doc_key}", response_model=DocumentRemoved, tags=["documents"])
def remove_document(
    doc_key: Annotated[str, Path(min_length=1, max_length=200)], core: Core, caller: AdminCaller
) -> DocumentRemoved:
    """Take a document out of search (its rows stay for audit)."""
    from curbside.audit import audited

    with audited(core.audit, _change(caller, "documents.remove")) as scope:
        removed = core.ingestor.remove(doc_key)
        scope.update(sources=(doc_key,), outcome="ok", details={"removed_version": removed})
    return DocumentRemoved(doc_key=doc_key, removed_version=removed)


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
    cancel_requested: bool = Field(False, description="A cancel was asked for; the job stops at its next step.")
    created_at: str
    started_at: str | None
    completed_at: str | None
    failed_at: str | None
    updated_at: str

    @classmethod
    def of(cls, job: Any) -> JobView:
        data = job.to_dict()
        data["state"] = job.state.value
        data.pop("runner", None)  # a process name on this machine: of no use to a client
        return cls.model_validate(data)


class JobList(BaseModel):
    jobs: list[JobView]
    total: int = Field(description="Jobs matching the filters; `jobs` holds the newest `limit` of them.")


@router.get("/jobs", response_model=JobList, tags=["jobs"])
def list_jobs(
    core: Core,
    state: Literal["pending", "running", "completed", "failed", "superseded"] | None = None,
    doc_key: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> JobList:
    from curbside.kb.jobs import JobState

    wanted = JobState(state) if state else None
    jobs = core.jobs.list(state=wanted, doc_key=doc_key, limit=limit)
    return JobList(jobs=[JobView.of(job) for job in jobs], total=core.jobs.count(state=wanted, doc_key=doc_key))


@router.get("/jobs/{job_id}", response_model=JobView, tags=["jobs"])
def get_job(job_id: JobId, core: Core) -> JobView:
    return JobView.of(core.jobs.get(job_id))


@router.post(
    "/jobs/{job_id}/retry",
    response_model=JobView,
    status_code=status.HTTP_202_ACCEPTED,
    tags=["jobs"],
    responses={409: {"model": ErrorBody}},
)
def retry_job(job_id: JobId, core: Core, caller: AdminCaller) -> JobView:
    """Queue a failed job again (at most CURBSIDE_JOB_MAX_RETRIES times); it runs in the background."""
    from curbside.audit import audited

    with audited(core.audit, _change(caller, "jobs.retry", job_id=job_id)) as scope:
        job = core.jobs.retry(job_id)
        core.background.submit(job.id)
        scope.update(sources=(job.doc_key,), outcome="ok")
    return JobView.of(job)


@router.post(
    "/jobs/{job_id}/cancel",
    response_model=JobView,
    status_code=status.HTTP_202_ACCEPTED,
    tags=["jobs"],
    responses={409: {"model": ErrorBody}},
)
def cancel_job(job_id: JobId, core: Core, caller: AdminCaller) -> JobView:
    """Cancel a job: a pending one fails at once (CANCELLED); a running one stops at its next step
    (watch GET /v1/jobs/{job_id}). Either can be retried later."""
    from curbside.audit import audited

    with audited(core.audit, _change(caller, "jobs.cancel", job_id=job_id)) as scope:
        job = core.background.cancel(job_id)
        scope.update(sources=(job.doc_key,), outcome="ok")
    return JobView.of(job)
