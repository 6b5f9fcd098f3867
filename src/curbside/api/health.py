"""``GET /healthz``: is the store readable and which model serves search.

It runs on the event loop (two quick reads), not in the worker pool: a monitor must get its
answer while every worker is busy with clinicians' requests.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import BaseModel

from curbside.api.deps import get_core
from curbside.app import Curbside

router = APIRouter(tags=["health"])


class Health(BaseModel):
    status: str
    documents: int
    chunks: int
    embedder: str
    indexed_model: str | None
    llm: str


@router.get("/healthz", response_model=Health)
async def healthz(core: Annotated[Curbside, Depends(get_core)]) -> Health:
    stats = core.documents.stats()
    indexed = core.ingestor.guard.indexed_model()
    return Health(
        status="ok",
        documents=stats["documents"],
        chunks=stats["chunks"],
        embedder=core.embedder.model_id,
        indexed_model=indexed[0] if indexed else None,
        llm=core.llm_description(),
    )
