"""``POST /v1/ask``: a cited answer (clinician or admin key), recorded on the audit trail."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from curbside.api.deps import ClinicalCaller, Core, clinical_caller
from curbside.api.errors import ERROR_RESPONSES
from curbside.types import Answer, AskRequest

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["ask"], responses=ERROR_RESPONSES, dependencies=[Depends(clinical_caller)])


@router.post("/ask", response_model=Answer)
async def ask(request: AskRequest, core: Core, caller: ClinicalCaller) -> Answer:
    """Answer a question (or a condition with clinical findings) from the knowledge base.

    status: answered | no_source (nothing relevant enough; nothing is guessed) | clarify (see
    clarifying_question) | degraded (the model failed; the extractive answer is given, see warnings).
    """
    return await core.ask(request, caller, channel="http")
