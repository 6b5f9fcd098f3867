"""``confirmations.pending`` and ``confirmations.decide``: the waiting calls as tools, for clients
that reach Curbside only through tools (MCP).

They are for the clinician's client to show and answer — a dialog in front of a person — not for
an agent to approve its own writes: an agent that calls ``decide`` acts with the user's authority,
so the consult turn never calls it, and the audit trail records who decided each call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from curbside.tools.base import ToolContext, ToolResult, ToolSpec
from curbside.tools.confirmations import ConfirmationInfo

if TYPE_CHECKING:
    from curbside.tools.executor import ToolExecutor
    from curbside.tools.registry import ToolRegistry

__all__ = ["ConfirmingDeps", "register"]


@dataclass(frozen=True)
class ConfirmingDeps:
    executor: Callable[[], ToolExecutor]


class PendingArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PendingList(BaseModel):
    confirmations: list[ConfirmationInfo]


class DecideArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    id: str = Field(min_length=4, max_length=64, description="The confirmation's id (cf_…).")
    decision: Literal["approve", "deny"] = Field(description="approve runs the call as it was asked; deny drops it.")


async def _pending(ctx: ToolContext[ConfirmingDeps], args: PendingArgs) -> PendingList:
    executor = ctx.deps.executor()
    await executor.record_expired()
    return PendingList(confirmations=[p.info() for p in executor.pending_confirmations(ctx.caller)])


async def _decide(ctx: ToolContext[ConfirmingDeps], args: DecideArgs) -> ToolResult:
    return await ctx.deps.executor().decide(args.id, approve=args.decision == "approve", caller=ctx.caller)


def register(registry: ToolRegistry, deps: ConfirmingDeps) -> None:
    registry.register(
        ToolSpec(
            name="confirmations.pending",
            description="The calls waiting for your approval (a chart write, a calendar event): id, the call in "
            "words, expiry. Show them to the clinician; never approve on their behalf.",
            args_model=PendingArgs,
            result_model=PendingList,
            handler=_pending,
            category="confirmation",
            requires_phi=True,  # a summary names the patient
            timeout_s=5.0,
            deps=deps,
        )
    )
    registry.register(
        ToolSpec(
            name="confirmations.decide",
            description="The clinician's answer to a waiting call: approve (it runs as asked and its result is "
            "returned) or deny (nothing is done). Only for a person's explicit decision.",
            args_model=DecideArgs,
            result_model=ToolResult,
            handler=_decide,
            category="confirmation",
            requires_phi=True,
            timeout_s=60.0,
            deps=deps,
        )
    )
