"""Run the planned tool calls concurrently, through the tool executor, under one total timeout.

Every sub-call goes through ``ToolExecutor.call`` as the caller of ``coverage.answer``,
so its permission check, rate limit, timeout, metrics and audit record are those of a
direct call. Nothing here raises for a failed tool: a tool that is not registered,
is refused, fails or times out becomes an outcome with that status, and the others
still answer. A call still running when the total timeout runs out is cancelled
(the executor keeps no audit record of a cancelled call; the trace here does).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from curbside.coverage.answer.models import CallStatus
from curbside.coverage.answer.routing import PlannedCall
from curbside.tools.base import ToolResult
from curbside.tools.executor import ToolExecutor
from curbside.types import ToolCaller

__all__ = ["CallOutcome", "run_calls"]

log = logging.getLogger("curbside.coverage.answer")


@dataclass(frozen=True, slots=True)
class CallOutcome:
    call: PlannedCall
    status: CallStatus
    duration_ms: float
    result: dict[str, Any] | None = None
    error: str | None = None
    error_code: str | None = None
    call_id: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok" and self.result is not None


async def run_calls(
    executor: ToolExecutor,
    calls: Sequence[PlannedCall],
    *,
    caller: ToolCaller | None,
    total_timeout_s: float,
) -> list[CallOutcome]:
    """One outcome per call, in the order of ``calls``."""
    outcomes: dict[int, CallOutcome] = {}
    tasks: dict[asyncio.Task[ToolResult], int] = {}
    started = time.perf_counter()
    for i, call in enumerate(calls):
        if call.tool not in executor.registry:
            outcomes[i] = CallOutcome(
                call,
                "unavailable",
                0.0,
                error=f"{call.tool} is not installed on this server, so the {call.domain} part was not answered.",
                error_code="NOT_FOUND",
            )
            continue
        task = asyncio.create_task(executor.call(call.tool, call.arguments, caller=caller))
        tasks[task] = i
    if tasks:
        _, pending = await asyncio.wait(tasks, timeout=total_timeout_s)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)  # let cancellation finish before answering
        for task, i in tasks.items():
            outcomes[i] = _outcome(calls[i], task, pending, started, total_timeout_s)
    return [outcomes[i] for i in range(len(calls))]


def _outcome(
    call: PlannedCall,
    task: asyncio.Task[ToolResult],
    pending: set[asyncio.Task[ToolResult]],
    started: float,
    total_timeout_s: float,
) -> CallOutcome:
    if task in pending or task.cancelled():
        return CallOutcome(
            call,
            "cancelled",
            round((time.perf_counter() - started) * 1000, 1),
            error=f"{call.tool} had not answered when coverage.answer's total of {total_timeout_s * 1000:g} ms "
            "ran out; it was stopped.",
            error_code="TIMEOUT",
        )
    failure = task.exception()
    if failure is not None:  # the executor's contract is to return every outcome; a breach is a bug, logged
        log.error("executor raised for %s", call.tool, exc_info=failure)
        return CallOutcome(
            call,
            "error",
            round((time.perf_counter() - started) * 1000, 1),
            error=f"{call.tool} failed unexpectedly; the server log has the details.",
            error_code="INTERNAL_ERROR",
        )
    result = task.result()
    error = result.error
    return CallOutcome(
        call,
        result.status,
        round(result.duration_ms, 1),
        result=result.result if result.ok else None,
        error=error.message if error else None,
        error_code=error.code if error else None,
        call_id=result.call_id,
    )
