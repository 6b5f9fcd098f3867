"""``coverage.answer``: its argument and result models (the spec's Tool 1 schemas, with a few additions).

Additions to the spec's response, each because the spec's shape could not say it:

- ``decision`` also takes ``not_billable``, ``not_eligible`` and ``not_covered``: the spec's four
  values have no way to say no, and "covered" for a drug that is not a benefit would be wrong;
- ``domains``: one line per routed domain (its tool, status, decision, confidence), since one
  ``decision`` cannot carry a billing, a device and a drug answer at once;
- ``intent``: how the question was routed (scores and the words that decided);
- ``warnings``: what went wrong without stopping the answer (a tool that timed out, an ignored field);
- trace entries carry the executor's ``status`` and ``call_id`` (the audit record of the sub-call);
- highlight citations carry ``chunk_id`` (open it with ``source.passages``) and the ``tool`` that cited it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "AdpCategory",
    "AnswerConflict",
    "CallStatus",
    "CoverageAnswerArgs",
    "CoverageAnswerResult",
    "Decision",
    "DeviceHint",
    "Domain",
    "DomainAnswer",
    "FollowUp",
    "Highlight",
    "Hints",
    "IntentReport",
    "PatientContext",
    "SourceRef",
    "TraceEntry",
]

Domain = Literal["billing", "device", "drug"]
Decision = Literal[
    "billable",
    "not_billable",
    "eligible",
    "not_eligible",
    "covered",
    "not_covered",
    "needs_more_info",
]
# the executor's statuses, plus: unavailable (the tool is not registered), cancelled (the total timeout ran out)
CallStatus = Literal[
    "ok", "error", "timeout", "denied", "rate_limited", "needs_confirmation", "unavailable", "cancelled"
]
# the 11 ADP device categories of the spec's adp.get (Tool 3, structured format)
AdpCategory = Literal[
    "mobility",
    "comm_aids",
    "hearing_devices",
    "visual_aids",
    "respiratory",
    "insulin_pump",
    "glucose_monitoring",
    "prosthesis",
    "maxillofacial",
    "grants",
    "core_manual",
]
MAX_QUESTION_CHARS = 2000


class DeviceHint(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    category: AdpCategory | None = Field(None, description="ADP device category, e.g. 'mobility', 'comm_aids'.")
    type: str | None = Field(None, max_length=200, description="Device type, e.g. 'walker', 'power wheelchair'.")


class Hints(BaseModel):
    """Entities a caller already extracted; each routes its domain whatever the question's words say."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    codes: list[str] = Field(
        default_factory=list,
        max_length=20,
        description="OHIP fee codes, e.g. ['C124', 'E083']: routes to schedule.get. A code that is not a letter "
        "and three digits is not sent; the answer asks which code was meant.",
    )
    device: DeviceHint | None = Field(None, description="An ADP device: routes to adp.get.")
    drug: str | None = Field(None, max_length=200, description="Drug name or ingredient: routes to odb.get.")

    @field_validator("codes")
    @classmethod
    def _upper(cls, codes: list[str]) -> list[str]:
        return list(dict.fromkeys(c.strip().upper() for c in codes if c.strip()))

    @field_validator("drug")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value or None


class PatientContext(BaseModel):
    """Optional patient context. Out-of-range values are not refused: the answer asks about them instead."""

    model_config = ConfigDict(extra="forbid")

    age: int | None = Field(None, description="Age in years.")
    setting: Literal["acute", "community", "ltc"] | None = None
    plan: Literal["ODB", "private", "none"] | None = Field(None, description="Drug plan.")
    income: float | None = Field(None, description="Annual income, dollars (for ADP's cep check).")

    @field_validator("setting", "plan", mode="before")
    @classmethod
    def _case(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip()
            return "ODB" if value.upper() == "ODB" else value.lower()
        return value


class CoverageAnswerArgs(BaseModel):
    """A clinical coverage question: billing (OHIP), devices (ADP), drugs (ODB), or several at once."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    question: str = Field(
        max_length=MAX_QUESTION_CHARS,
        description="The question in plain words, e.g. 'Can I bill C124 as MRP? Also needs a walker - what is "
        "covered?'. An empty question gets needs_more_info with the follow-up to answer.",
    )
    hints: Hints | None = None
    patient: PatientContext | None = None


class SourceRef(BaseModel):
    source: str = Field(description="Document name, with its edition or date.")
    loc: str = Field("", description="Location: section, fee code or DIN.")
    page: int | None = None
    chunk_id: str | None = Field(None, description="Open the passage with source.passages.")
    excerpt: str = Field("", description="The cited words, shortened.")
    tool: str = Field(description="The tool that cited it.")


class Highlight(BaseModel):
    point: str = Field(description="One finding, in a sentence.")
    domain: Domain
    tool: str
    citations: list[SourceRef] = Field(default_factory=list)


class AnswerConflict(BaseModel):
    """A disagreement: inside one tool (its SQL against its passages) or between two tools."""

    field: str
    subject: str = ""
    tool: str = Field(description="The tool that reported it, or 'adp.get vs odb.get' between tools.")
    sql_value: Any = None
    vector_value: Any = None
    values: dict[str, Any] = Field(default_factory=dict, description="Between tools: each tool's value.")
    resolution: str


class FollowUp(BaseModel):
    ask: str = Field(description="The question to put to the clinician.")
    reason: str
    domain: Domain | None = None
    tool: str | None = Field(None, description="The tool that asked it, when one did.")


class TraceEntry(BaseModel):
    tool: str
    domain: Domain
    args: dict[str, Any] = Field(description="The arguments sent.")
    status: CallStatus
    duration_ms: float
    confidence: float | None = Field(None, description="The tool's own confidence, when it answered.")
    call_id: str | None = Field(None, description="The sub-call's id in the audit trail.")
    error: str | None = None
    error_code: str | None = None


class DomainAnswer(BaseModel):
    domain: Domain
    tool: str
    status: CallStatus
    decision: Decision | None = Field(None, description="null when the tool did not answer.")
    confidence: float = Field(ge=0.0, le=1.0, description="0 when the tool did not answer.")
    summary: str


class IntentReport(BaseModel):
    domains: list[Domain] = Field(description="The routed domains, in the order billing, device, drug.")
    scores: dict[str, int] = Field(description="Keyword score per domain.")
    signals: dict[str, list[str]] = Field(description="The words behind each score.")
    from_hints: list[Domain] = Field(default_factory=list, description="Domains the hints routed.")


class CoverageAnswerResult(BaseModel):
    decision: Decision = Field(
        description="The first answered domain's decision (billing, then device, then drug); needs_more_info "
        "when nothing could be decided. Every domain's is in 'domains'."
    )
    summary: str = Field(description="One paragraph for the clinician, composed from the tools' results.")
    provenance_summary: str = Field(description="Evidence paths behind the answer, e.g. 'sql+vector'.")
    confidence: float = Field(ge=0.0, le=1.0)
    highlights: list[Highlight] = Field(default_factory=list)
    conflicts: list[AnswerConflict] = Field(default_factory=list)
    followups: list[FollowUp] = Field(default_factory=list)
    trace: list[TraceEntry] = Field(default_factory=list)
    domains: list[DomainAnswer] = Field(default_factory=list)
    intent: IntentReport
    warnings: list[str] = Field(default_factory=list)
