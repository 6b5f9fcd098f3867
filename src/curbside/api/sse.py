"""Server-sent events for a use case that reports as it goes: its events as they come, then ``final``
(the whole result) or ``error``. The stream has begun by then, so an error is an event, not a status."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from fastapi.responses import StreamingResponse
from pydantic import BaseModel

__all__ = ["EventSink", "event_stream"]

EventSink = Callable[[str, dict[str, Any]], Awaitable[None]]


def event_stream(run: Callable[[EventSink], Awaitable[BaseModel]]) -> StreamingResponse:
    """``run(sink)`` does the work, calling ``sink(kind, data)`` for each event; its result is ``final``."""
    return StreamingResponse(
        _events(run),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def _events(run: Callable[[EventSink], Awaitable[BaseModel]]) -> AsyncIterator[bytes]:
    queue: asyncio.Queue[tuple[str, Any] | None] = asyncio.Queue()

    async def sink(kind: str, data: dict[str, Any]) -> None:
        await queue.put((kind, data))

    async def work() -> None:
        try:
            result = await run(sink)
            await queue.put(("final", result.model_dump(mode="json")))
        except Exception as exc:  # the stream has begun: the error travels as an event, not a status
            code = getattr(exc, "code", "INTERNAL_ERROR")
            message = getattr(exc, "message", "The request failed; the server log has the details.")
            await queue.put(("error", {"code": code, "message": message}))
        finally:
            await queue.put(None)

    task = asyncio.create_task(work())
    try:
        while (item := await queue.get()) is not None:
            kind, data = item
            yield f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()
    finally:
        if not task.done():
            task.cancel()
