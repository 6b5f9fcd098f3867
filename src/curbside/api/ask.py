"""``POST /v1/ask``: a cited answer."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from curbside.api.deps import get_curbside
from curbside.api.errors import ERROR_RESPONSES
from curbside.app import Curbside
from curbside.ask.pipeline import AskRequest
from curbside.types import Answer

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["ask"], responses=ERROR_RESPONSES)


@router.post("/ask", response_model=Answer)
async def ask(request: AskRequest, core: Annotated[Curbside, Depends(get_curbside)]) -> Answer:
    """Answer a question (or a condition with clinical findings) from the knowledge base.

    status: answered | no_source (nothing relevant enough; nothing is guessed) | clarify (see
    clarifying_question) | degraded (the model failed; the extractive answer is given, see warnings).
    """
    return await core.asker.ask(request)
