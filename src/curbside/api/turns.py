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

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse

from curbside.agent.models import TurnRequest, TurnResult
from curbside.api.deps import ClinicalCaller, Core, clinical_caller
from curbside.api.errors import ERROR_RESPONSES
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
    return StreamingResponse(
        _events(core, body, caller),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def _events(core: Any, body: TurnRequest, caller: Any) -> AsyncIterator[bytes]:
    queue: asyncio.Queue[tuple[str, Any] | None] = asyncio.Queue()

    async def on_event(kind: str, data: dict[str, Any]) -> None:
        await queue.put((kind, data))

    async def run() -> None:
        try:
            result = await core.turn(body, caller, channel="http", on_event=on_event)
            await queue.put(("final", result.model_dump(mode="json")))
        except Exception as exc:  # the stream has begun: the error travels as an event, not a status
            code = getattr(exc, "code", "INTERNAL_ERROR")
            message = getattr(exc, "message", "The turn failed; the server log has the details.")
            await queue.put(("error", {"code": code, "message": message}))
        finally:
            await queue.put(None)

    task = asyncio.create_task(run())
    try:
        while (item := await queue.get()) is not None:
            kind, data = item
            yield f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()
    finally:
        if not task.done():
            task.cancel()
