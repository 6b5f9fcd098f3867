"""What a tool is and what a call returns.

A tool is declared once, as a ``ToolSpec``: its argument and result models are
pydantic classes and both JSON schemas are derived from them, so the CLI, the HTTP
API and the MCP server describe it identically. A call always ends in a
``ToolResult``; nothing a tool does reaches its caller as an exception.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, Field

from curbside.tools.confirmations import ConfirmationInfo
from curbside.types import ToolCaller, ToolStatus

__all__ = [
    "RiskLevel",
    "DepsT",
    "ToolContext",
    "ToolErrorDetail",
    "ToolHandler",
    "ToolInfo",
    "ToolResult",
    "ToolSpec",
]

RiskLevel = Literal["low", "medium", "high"]

ArgsT = TypeVar("ArgsT", bound=BaseModel)
ResultT = TypeVar("ResultT", bound=BaseModel)


DepsT = TypeVar("DepsT")


@dataclass(frozen=True)
class ToolContext(Generic[DepsT]):
    """What a handler gets besides its arguments: its family's dependencies (``ToolSpec.deps``,
    given at registration), who is calling, and the call's id.

    A family declares the narrow ``deps`` it needs (a service, settings, a client); it never
    gets the application object.
    """

    deps: DepsT
    caller: ToolCaller
    call_id: str
    tool: str


ToolHandler = Callable[[ToolContext[Any], ArgsT], Awaitable[ResultT]]


@dataclass(frozen=True)
class ToolSpec(Generic[ArgsT, ResultT]):
    """One tool, declared once. ``ToolRegistry.register`` checks every field.

    ``rate_limit`` is calls per user per minute (None: unlimited); ``allowed_roles``
    None lets every role call it; ``warm_up`` loads what the first call would
    otherwise load inside its timeout; ``deps`` is what handlers get as ``ctx.deps``.
    """

    name: str
    description: str
    args_model: type[ArgsT]
    result_model: type[ResultT]
    handler: ToolHandler[ArgsT, ResultT]
    category: str
    requires_phi: bool
    timeout_s: float
    requires_confirmation: bool = False
    risk_level: RiskLevel = "low"
    rate_limit: int | None = None
    allowed_roles: frozenset[str] | None = None
    warm_up: Callable[[], None] | None = None
    deps: Any = None
    citation: str | None = None  # the primary source a tool's result rests on (calculators)
    # a call needing confirmation, in words a clinician checks before approving ("Prescribe …")
    describe: Callable[[ArgsT], str] | None = None
    # before a confirmation is asked: checks against the world (the patient exists) that may refuse the
    # call at once, and the call in words with what they found (the patient's name); replaces describe
    prepare: Callable[[ToolContext[Any], ArgsT], Awaitable[str]] | None = None
    # result fields safe to put on the audit trail (e.g. a created resource's type and id): never content
    audit_fields: tuple[str, ...] = ()

    def input_schema(self) -> dict[str, Any]:
        return self.args_model.model_json_schema(mode="validation")

    def output_schema(self) -> dict[str, Any]:
        # serialization mode: what callers receive is the dumped result, not what validates it
        return self.result_model.model_json_schema(mode="serialization")


class ToolInfo(BaseModel):
    """A tool as its callers see it (``GET /v1/tools``, ``curbside tool --list``)."""

    name: str
    description: str
    category: str
    requires_phi: bool
    requires_confirmation: bool
    risk_level: RiskLevel
    rate_limit: int | None = Field(description="Calls per user per minute; null: unlimited.")
    timeout_s: float
    citation: str | None = Field(None, description="The primary source the result rests on (calculators).")
    input_schema: dict[str, Any] = Field(description="JSON schema of the arguments.")
    output_schema: dict[str, Any] = Field(description="JSON schema of ``result`` when the call is ok.")

    @classmethod
    def from_spec(cls, spec: ToolSpec[Any, Any]) -> ToolInfo:
        return cls(
            name=spec.name,
            description=spec.description,
            category=spec.category,
            requires_phi=spec.requires_phi,
            requires_confirmation=spec.requires_confirmation,
            risk_level=spec.risk_level,
            rate_limit=spec.rate_limit,
            timeout_s=spec.timeout_s,
            citation=spec.citation,
            input_schema=spec.input_schema(),
            output_schema=spec.output_schema(),
        )


class ToolErrorDetail(BaseModel):
    code: str = Field(description="Stable code: VALIDATION_ERROR, NOT_FOUND, TIMEOUT, PERMISSION_DENIED, …")
    message: str = Field(description="What went wrong and what to do about it; never a traceback.")
    retry_after: float | None = Field(None, description="Seconds until a rate-limited call may be retried.")


class ToolResult(BaseModel):
    """The outcome of one tool call, whatever happened."""

    tool: str
    status: ToolStatus = Field(
        description=(
            "ok; error (bad arguments, unknown tool, the tool failed); timeout; denied (the caller's role may "
            "not call it); rate_limited (see error.retry_after); needs_confirmation (call again with confirm)."
        )
    )
    result: dict[str, Any] | None = Field(None, description="The tool's result (its output schema) when ok.")
    error: ToolErrorDetail | None = None
    duration_ms: float = Field(description="Wall time of the whole call, checks included.")
    call_id: str = Field(description="Identifies the call in logs and the audit trail.")
    confirmation: ConfirmationInfo | None = Field(
        None, description="When status is needs_confirmation: the waiting call to approve or deny by its id."
    )

    @property
    def ok(self) -> bool:
        return self.status == "ok"
