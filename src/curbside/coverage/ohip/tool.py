"""``schedule.get``: its argument and result models, and the entry point the tools layer calls.

The request follows the coverage spec (Tool 2: ``q``, ``codes``, ``include``,
``top_k``) plus the structured fields a billing question needs: the
specialty or section billed under and the billing context (MRP or not, hours
from admission to discharge, day of the week). The work happens in
``curbside.coverage.ohip.service.OhipService``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from curbside.coverage.conflicts import Conflict
from curbside.coverage.paths import PathTrace
from curbside.coverage.question_args import MAX_QUESTION_CHARS, QuestionArgs
from curbside.coverage.source_tool import SourceToolDeps, source_tool
from curbside.types import Citation

if TYPE_CHECKING:
    from curbside.coverage.ohip.service import OhipService
    from curbside.tools.registry import ToolRegistry

__all__ = [
    "BillingContext",
    "FeeListing",
    "Include",
    "RuleCheck",
    "Relation",
    "RuleText",
    "ScheduleEdition",
    "ScheduleGetArgs",
    "ScheduleGetResult",
    "ScheduleItem",
    "DESCRIPTION",
    "register",
]

Include = Literal["codes", "fee", "limits", "documentation", "commentary"]
Relation = Literal["asked", "matched", "related", "premium"]
Day = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "holiday"]
ALL_INCLUDE: tuple[Include, ...] = ("codes", "fee", "limits", "documentation", "commentary")
_CODE = re.compile(r"^([A-Z]\d{3})[ABC]?$")


class BillingContext(BaseModel):
    """Facts about the service that decide whether a code is payable."""

    model_config = ConfigDict(extra="forbid")

    mrp: bool | None = Field(
        None, description="True when the billing physician is the patient's most responsible physician."
    )
    hours_since_admission: float | None = Field(
        None, ge=0, le=24 * 366, description="Hours from the admission to hospital to the service (e.g. the discharge)."
    )
    day: Day | None = Field(None, description="Day of the week the service was rendered, or 'holiday'.")


class ScheduleGetArgs(QuestionArgs):
    """What to look up in the OHIP Schedule of Benefits: a question, fee codes, or both."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    q: str | None = Field(
        None,
        max_length=MAX_QUESTION_CHARS,
        description="A billing question in plain words, e.g. 'What is the fee for C124?', 'Which codes apply for a "
        "Thursday discharge?', 'Can I bill C124 if the patient was discharged 36 hours after admission?'.",
    )
    codes: list[str] | None = Field(
        None, max_length=20, description="Fee codes to look up: a letter and three digits, e.g. ['C124', 'E083']."
    )
    specialty: str | None = Field(
        None,
        max_length=100,
        description="Specialty billed under: its two-digit code ('00', '01') or name ('Family Practice', 'Anaesthesia').",
    )
    section: str | None = Field(
        None,
        max_length=100,
        description="Schedule section or part, e.g. 'General Preamble', 'J', 'Diagnostic Radiology', 'Anaesthesia (01)'.",
    )
    context: BillingContext | None = Field(
        None, description="Facts about the service (MRP, hours since admission, day)."
    )
    include: list[Include] | None = Field(
        None, description="Fields to report for each code; default all: codes, fee, limits, documentation, commentary."
    )
    top_k: int = Field(6, ge=1, le=20, description="Most codes to return when the question names none.")

    @field_validator("specialty", "section")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value or None

    @field_validator("codes")
    @classmethod
    def _fee_codes(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        out: list[str] = []
        for raw in value:
            code = raw.strip().upper()
            match = _CODE.match(code)
            if not match:
                raise ValueError(
                    f"{raw!r} is not a fee code: give a letter and three digits, e.g. 'C124' (a claim suffix A, B "
                    "or C may follow)."
                )
            out.append(match.group(1))
        return list(dict.fromkeys(out)) or None

    @model_validator(mode="after")
    def _something_to_look_up(self) -> ScheduleGetArgs:
        if not self.q and not self.codes:
            raise ValueError(
                "schedule.get needs something to look up: a question (q) or fee codes (codes). "
                "An empty question cannot be answered."
            )
        return self

    def included(self) -> frozenset[Include]:
        return frozenset(self.include or ALL_INCLUDE)


class ScheduleEdition(BaseModel):
    label: str = Field(description="'OHIP Schedule of Benefits (effective 2025-03-03)': quote it with every answer.")
    effective: str = Field(description="Effective date, YYYY-MM-DD.")
    published: str | None = Field(None, description="Date printed on the edition, YYYY-MM-DD.")
    amendment: str | None = Field(None, description="Amendment line as printed, e.g. 'Amd 12 Draft 1'.")


class FeeListing(BaseModel):
    """The code as listed in one section of the Schedule."""

    section: str = Field(description="Section title, e.g. 'Anaesthesia (01)'.")
    part: str = Field(description="Schedule part letter(s), e.g. 'A', 'GP', 'J'.")
    specialty: str | None = Field(None, description="Two-digit specialty code of the section, when it has one.")
    page: str = Field(description="Page label, e.g. 'A74'.")
    description: str
    fee: float | None = Field(None, description="Dollars; null when the fee is a percentage, I.C. or unknown.")
    fee_text: str = Field(description="As printed: '61.15', 'I.C', 'add 30%', or 'fee unknown'.")
    fee_status: Literal["aligned", "independent_consideration", "percent", "no_fee", "unknown"] = Field(
        description="'unknown': the text extraction did not let the fee be aligned with certainty (never guessed); "
        "'no_fee': the text lists the code here without a fee of its own (a table naming codes, basic units only)."
    )
    components: dict[str, str] = Field(
        default_factory=dict,
        description="Columns as printed, e.g. {'H': '29.90', 'P': '13.25'} (technical/professional).",
    )
    unit: str | None = Field(None, description="'per visit', 'per unit', 'add' …")


class RuleText(BaseModel):
    kind: str = Field(description="definition | payment_rules | note | commentary | claims | medical_record | text")
    heading: str = Field(description="The Schedule heading the block sits under.")
    page: str
    text: str
    relation: Literal["subject", "mention"] = Field(description="subject: the rules of this code; mention: names it.")


class ScheduleItem(BaseModel):
    code: str
    description: str = Field(description="The code's title in the Schedule.")
    relation: Relation = Field(
        description="asked: named in the request; matched: found from the question's words; related: its rules name "
        "an asked code; premium: a premium whose listing names an asked code."
    )
    fee: float | None = Field(None, description="Dollars, for the requested specialty, or the same in every section.")
    fee_text: str = Field(description="The fee as printed, or why none is given.")
    fee_status: Literal["aligned", "independent_consideration", "percent", "no_fee", "unknown", "varies"]
    percent: float | None = Field(None, description="Premiums: the percentage added.")
    unit: str | None = None
    section: str | None = Field(None, description="Section of the fee given (the requested specialty's).")
    specialty: str | None = None
    page: str | None = Field(
        None,
        description="Page label of the fee given, or of the code's definition ('GP45'; the Schedule numbers pages by part).",
    )
    requirements: str | None = Field(None, description="Definition / required elements of service.")
    limits: str | None = Field(None, description="Payment rules.")
    documentation: str | None = Field(
        None, description="Medical record requirements and claims submission instructions."
    )
    commentary: str | None = None
    rules: list[RuleText] = Field(default_factory=list, description="Every rule block behind the fields above.")
    listings: list[FeeListing] = Field(default_factory=list, description="The code in every section that lists it.")


class RuleCheck(BaseModel):
    """A payment rule applied to the facts given."""

    code: str
    verdict: Literal["not_eligible", "satisfied", "not_applicable", "needs_fact"]
    reason: str
    rule: str = Field(description="The rule's words, quoted.")
    page: str


class ScheduleGetResult(BaseModel):
    """The billing answer; every fee and rule is from the edition in ``schedule``."""

    query: str = Field(description="What was looked up, as understood.")
    summary: str = Field(description="One-paragraph answer for a clinician or billing clerk, naming the edition.")
    provenance: list[Literal["sql", "vector"]] = Field(description="Paths whose evidence the answer uses.")
    confidence: float = Field(ge=0.0, le=1.0)
    schedule: ScheduleEdition | None = Field(description="The edition answered from; null when none is readable.")
    billable: bool | None = Field(
        None, description="False when a payment rule excludes the asked code for the facts given; null: not decided."
    )
    items: list[ScheduleItem] = Field(default_factory=list)
    rule_checks: list[RuleCheck] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list, description="Passages; section_path ends in the page.")
    context: list[str] = Field(default_factory=list, description="Passage text behind the answer.")
    conflicts: list[Conflict] = Field(default_factory=list)
    needs_more_info: bool = False
    follow_up: str | None = Field(None, description="The question a billing clerk would ask next.")
    warnings: list[str] = Field(default_factory=list)
    trace: list[PathTrace] = Field(default_factory=list)


DESCRIPTION = (
    "OHIP Schedule of Benefits: a fee code's fee in each specialty section, its definition, payment rules "
    "(limits), documentation and commentary, the premiums that apply to it, and checks of its payment "
    "rules against the facts given (MRP, hours since admission, day). Takes codes, a specialty or "
    "section, or a question in plain words (q); answers needs_more_info with the follow-up a billing "
    "clerk would ask. Every answer carries the Schedule's effective date and cites section and page."
)


def register(registry: ToolRegistry, deps: SourceToolDeps[OhipService]) -> None:
    """Put ``schedule.get`` in ``registry``; its calls go to ``deps.service()``."""
    limits = deps.settings.coverage_limits("ohip")
    registry.register(
        source_tool(
            deps,
            name="schedule.get",
            description=DESCRIPTION,
            args_model=ScheduleGetArgs,
            result_model=ScheduleGetResult,
            timeout_s=limits.tool_timeout_s,
            rate_limit=limits.tool_rate_limit,
        )
    )
