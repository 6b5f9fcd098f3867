"""What one consult turn carries from state to state: the request, the caller, the timeline, the calls,
the writes, the rendered results, the budget; and the event sink the timeline streams to."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from curbside.agent.budget import TurnBudget
from curbside.agent.models import ProposedWrite, TimelineStep, ToolCallRecord, TurnRequest
from curbside.agent.planner import Step
from curbside.agent.render import Rendered

if TYPE_CHECKING:
    from curbside.agent.llm_access import ModelChoice
    from curbside.sessions.models import Preferences
    from curbside.types import ToolCaller

__all__ = ["EventSink", "TurnState", "elapsed_ms"]

EventSink = Callable[[str, dict[str, Any]], Awaitable[None]]


@dataclass
class TurnState:
    request: TurnRequest
    caller: ToolCaller
    now: datetime
    patient_id: str | None
    on_event: EventSink | None
    timeline: list[TimelineStep] = field(default_factory=list)
    calls: list[ToolCallRecord] = field(default_factory=list)
    writes: list[ProposedWrite] = field(default_factory=list)
    rendered: list[tuple[Step, Rendered]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    chart: dict[str, Any] | None = None
    failed: int = 0
    skipped: list[str] = field(default_factory=list)  # conditional writes not made, and why
    budget: TurnBudget | None = None
    preferences: Preferences | None = None
    model: ModelChoice | None = None  # where this turn's prompts may go, once asked
    models_used: list[str] = field(default_factory=list)

    async def note(self, step: TimelineStep) -> None:
        self.timeline.append(step)
        if self.on_event is not None:
            await self.on_event("step", step.model_dump(mode="json"))


def elapsed_ms(began: float) -> float:
    return round((time.perf_counter() - began) * 1000, 1)
