"""``consult.turn``: the whole consult turn as one tool, for agent builders over MCP.

Writes the turn proposes are never approved here (there is no ``approve_writes`` argument): they
come back as waiting confirmations, for the client to put in front of its user and answer with
``confirmations.decide``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from curbside.agent.models import TurnRequest, TurnResult
from curbside.tools.base import ToolContext, ToolSpec

if TYPE_CHECKING:
    from curbside.tools.registry import ToolRegistry
    from curbside.types import ToolCaller

__all__ = ["ConsultArgs", "ConsultDeps", "register"]


@dataclass(frozen=True)
class ConsultDeps:
    run: Callable[[TurnRequest, ToolCaller], Awaitable[TurnResult]]
    timeout_s: float


class ConsultArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    message: str = Field(min_length=1, max_length=4000, description="The clinician's message, as they wrote it.")
    patient_id: str | None = Field(None, min_length=1, max_length=64, description="The active patient's FHIR id.")
    session_id: str | None = Field(None, pattern=r"^[A-Za-z0-9._:-]{1,128}$", description="Continue a conversation.")
    now: datetime | None = Field(None, description="Reference time, to replay a recorded case.")


async def _consult(ctx: ToolContext[ConsultDeps], args: ConsultArgs) -> TurnResult:
    request = TurnRequest(message=args.message, patient_id=args.patient_id, session_id=args.session_id, now=args.now)
    return await ctx.deps.run(request, ctx.caller)


def register(registry: ToolRegistry, deps: ConsultDeps) -> None:
    registry.register(
        ToolSpec(
            name="consult.turn",
            description=(
                "A clinical consult turn: give the clinician's message (and the active patient's id); Curbside reads "
                "the chart, calls its tools (labs, calculators, coverage, drug labels, literature, guidelines), and "
                "answers with [n] markers pointing at sources_used, a reasoning_timeline of every step, and the chart "
                "writes it proposes — waiting for the clinician's approval (confirmations.decide). status: answered | "
                "partial | clarify (see clarifying_question) | cannot."
            ),
            args_model=ConsultArgs,
            result_model=TurnResult,
            handler=_consult,
            category="consult",
            requires_phi=True,
            timeout_s=deps.timeout_s,
            rate_limit=60,
            deps=deps,
        )
    )
