"""``POST /v1/ask``: a cited answer (clinician or admin key), recorded on the audit trail.

With ``Accept: text/event-stream`` the answer streams: ``source`` (a ``Citation``, sent before the first
``token`` that cites it), ``token`` (``{"text": …}``), ``retract`` (``{"reason": …}``: the model's answer
failed its checks; drop what was shown, the extractive answer follows), then ``final`` (the whole
``Answer``, authoritative) or ``error``. A model's answer streams as it is written; an answer without a
model arrives at once.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from curbside.api.deps import ClinicalCaller, Core, clinical_caller
from curbside.api.errors import ERROR_RESPONSES
from curbside.api.sse import EventSink, event_stream
from curbside.ask.stream import send_answer
from curbside.types import Answer, AskRequest

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["ask"], responses=ERROR_RESPONSES, dependencies=[Depends(clinical_caller)])


@router.post(
    "/ask",
    response_model=Answer,
    responses={200: {"content": {"text/event-stream": {}}, "description": "Answer, or its events (SSE)."}},
)
async def ask(body: AskRequest, request: Request, core: Core, caller: ClinicalCaller) -> Any:
    """Answer a question (or a condition with clinical findings) from the knowledge base.

    status: answered | no_source (nothing relevant enough; nothing is guessed) | clarify (see
    clarifying_question) | degraded (the model failed; the extractive answer is given, see warnings).
    """
    if "text/event-stream" not in request.headers.get("accept", ""):
        return await core.ask(body, caller, channel="http")

    async def run(sink: EventSink) -> Answer:
        shown = {"text": False}  # is streamed text on the reader's screen (sent and not retracted)?

        async def tracked(kind: str, data: dict[str, Any]) -> None:
            if kind in ("token", "retract"):
                shown["text"] = kind == "token"
            await sink(kind, data)

        answer = await core.ask(body, caller, channel="http", on_event=tracked)
        if not shown["text"]:
            await send_answer(answer, sink)
        return answer

    return event_stream(run)
