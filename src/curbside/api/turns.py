"""``POST /v1/turns``: a consult turn, as one JSON result or as server-sent events.

With ``Accept: text/event-stream`` the turn streams as it happens: ``step`` (each timeline step:
context, triage, plan, every tool call with its outcome), ``confirmation`` (a write waiting for
approval: answer it with ``POST /v1/confirmations/{id}``), ``source`` (a ``TurnCitation``, sent before
the first ``token`` that cites it), ``token`` (``{"text": …}``, the answer as it is written),
``retract`` (``{"reason": …}``: a model's wording failed its checks; drop the text and sources shown so
far, the tools' own answer follows), then ``final`` (the whole ``TurnResult``, authoritative) or
``error``. Writes are never approved here: they wait for the clinician.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from curbside.agent.models import TurnRequest, TurnResult
from curbside.api.deps import ClinicalCaller, Core, clinical_caller
from curbside.api.errors import ERROR_RESPONSES
from curbside.api.sse import event_stream
from curbside.errors import ValidationError

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["consult"], responses=ERROR_RESPONSES, dependencies=[Depends(clinical_caller)])


@router.post(
    "/turns",
    response_model=TurnResult,
    responses={200: {"content": {"text/event-stream": {}}, "description": "TurnResult, or its events (SSE)."}},
)
async def turn(body: TurnRequest, request: Request, core: Core, caller: ClinicalCaller) -> Any:
    """One consult turn: the answer with [n] citations, the timeline, the tool calls, the proposed writes."""
    if body.approve_writes:
        raise ValidationError(
            "approve_writes is for a scripted run on this machine (curbside turn --yes); over HTTP each write waits "
            "for the clinician: POST /v1/confirmations/{id}."
        )
    if "text/event-stream" not in request.headers.get("accept", ""):
        return await core.turn(body, caller, channel="http")
    return event_stream(lambda sink: core.turn(body, caller, channel="http", on_event=sink))
