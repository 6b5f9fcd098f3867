"""The consult turn at its edges: what comes in (``TurnRequest``) and what goes out (``TurnResult``,
with its timeline, citations, tool calls and proposed writes)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from curbside.tools.confirmations import ConfirmationInfo

__all__ = [
    "ProposedWrite",
    "TimelineStep",
    "ToolCallRecord",
    "TurnCitation",
    "TurnRequest",
    "TurnResult",
    "TurnUsage",
]

_SESSION_PATTERN = r"^[A-Za-z0-9._:-]{1,128}$"


class TurnRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    message: str = Field(min_length=1, max_length=4000, description="The clinician's message.")
    patient_id: str | None = Field(
        None, min_length=1, max_length=64, description="The active patient's FHIR id; their chart is read first."
    )
    session_id: str | None = Field(None, pattern=_SESSION_PATTERN, description="Continue this conversation.")
    now: datetime | None = Field(None, description="The reference time (replaying a recorded case); default: now.")
    approve_writes: bool = Field(
        False, description="Approve the writes this turn proposes (a scripted run's --yes); else they wait."
    )
    use_llm: bool = Field(True, description="False: never call a model, even when one is configured.")


class TimelineStep(BaseModel):
    step: Literal["context", "triage", "plan", "tool", "clarify", "synthesis"]
    what: str = Field(description="What was done, in words.")
    why: str | None = None
    tool: str | None = None
    arguments: dict[str, Any] | None = Field(None, description="The tool's arguments (this turn's caller sees them).")
    outcome: str | None = Field(None, description="ok, an error code, needs_confirmation, skipped …")
    ms: float = 0.0


class TurnCitation(BaseModel):
    n: int = Field(description="The [n] marker in the answer.")
    kind: Literal["tool", "passage"]
    title: str
    tool: str | None = None
    id: str | None = Field(None, description="The resource, PMID, NCT, chunk or call id it points at.")
    url: str | None = None
    detail: str | None = Field(None, description="e.g. the date of an observation, a formula's source.")
    relevance: float | None = Field(None, description="A passage's calibrated relevance (0-1), where known.")
    relevance_label: str | None = Field(None, description="high, medium or low.")
    year: int | None = Field(None, description="An article's or guideline's year, where known.")
    reference: str | None = Field(
        None,
        description="An article, guideline or passage written as a reference in the session's citation style "
        "(AMA, APA or Vancouver; Vancouver by default).",
    )


class ToolCallRecord(BaseModel):
    tool: str
    arguments: dict[str, Any]
    status: str
    error_code: str | None = None
    call_id: str | None = None
    attempts: int = 1


class ProposedWrite(BaseModel):
    tool: str
    summary: str
    outcome: Literal["waiting", "approved", "denied", "failed"]
    confirmation: ConfirmationInfo | None = None
    resource: str | None = Field(None, description="ResourceType/id once written.")


class TurnUsage(BaseModel):
    """What the turn spent on models, against its route's budget."""

    llm_calls: int = 0
    max_llm_calls: int = Field(description="The route's budget (agent-decision-tree.md: LLM call budget by route).")
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tokens_estimated: bool = Field(False, description="A server reported no counts: estimated from characters.")
    cost: float = Field(0.0, description="At the configured prices (CURBSIDE_LLM_PRICE_*); 0 on a free local model.")
    seconds: float = 0.0
    time_budget_s: float = Field(description="The route's time budget (CURBSIDE_TURN_TIME_BUDGET_S).")


class TurnResult(BaseModel):
    status: Literal["answered", "partial", "clarify", "cannot"] = Field(
        description="answered; partial (some parts failed, said in warnings); clarify (see clarifying_question); "
        "cannot (nothing Curbside can do answers this: said plainly)."
    )
    final_response: str
    route: str
    confidence_level: Literal["high", "medium", "low"]
    reasoning_timeline: list[TimelineStep]
    sources_used: list[TurnCitation]
    tool_calls: list[ToolCallRecord]
    proposed_writes: list[ProposedWrite] = Field(default_factory=list)
    clarifying_question: str | None = None
    warnings: list[str] = Field(default_factory=list)
    facts: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Structured facts behind the answer, per tool: {tool, intent, values} (a value with its unit, a "
        "list's items, a found patient's id), for cards and evaluations.",
    )
    session_id: str | None = None
    model: str = Field("none", description="Where a model ran: none, local, cloud (local+cloud when both did).")
    phi_detected: bool | None = Field(
        None, description="Whether the text a model would see held PHI (None: no model was considered)."
    )
    usage: TurnUsage | None = None
    reference_time: datetime
