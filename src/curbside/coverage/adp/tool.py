"""``adp.get``: its argument and result models, and the entry point the tools layer calls.

The arguments take both request formats of the coverage spec (Tool 3): a
question in plain words (``q``/``query``, with ``patient_income``) and the
structured one (``device`` {category, type}, ``check``, ``use_case``,
``patient_income``), plus the funding context a vendor asks about
(``social_assistance``, ``household``). The work happens in
``curbside.coverage.adp.service.AdpService``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from curbside.coverage.conflicts import Conflict
from curbside.coverage.paths import PathTrace
from curbside.coverage.question_args import MAX_QUESTION_CHARS, QuestionArgs
from curbside.coverage.source_tool import SourceToolDeps, source_tool
from curbside.types import Citation

if TYPE_CHECKING:
    from curbside.coverage.adp.service import AdpService
    from curbside.tools.registry import ToolRegistry

__all__ = [
    "AdpCheck",
    "AdpGetArgs",
    "AdpGetResult",
    "CepAssessment",
    "DeviceMatch",
    "DeviceSpec",
    "Eligibility",
    "ExclusionRule",
    "Funding",
    "ManualEditionInfo",
    "RuleFinding",
    "SocialAssistanceFunding",
    "SourceRef",
    "UseCase",
    "DESCRIPTION",
    "register",
]

AdpCheck = Literal["eligibility", "exclusions", "funding", "cep"]
SocialAssistanceProgram = Literal["OW", "ODSP", "ACSD", "none"]
INTERPRETATION_NOTES = {
    "null_values": "null means 'not determined from the request'.",
    "confidence": "0.9+ very high (rules from the manuals, corroborated by passages); 0.8-0.9 high; below 0.7 ask the follow-up.",
    "percentages": "adp_contribution and client_share_percent are percent of the ADP Approved Price (or of the approved maximum amount, see funding_model).",
    "cep": "In the ADP manuals CEP is the Central Equipment Pool for High Technology Wheelchairs. The income thresholds in cep come from the coverage spec, not from an official source (cep.official = false).",
}


class DeviceSpec(BaseModel):
    """The device asked about (structured format)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    category: str | None = Field(
        None,
        max_length=100,
        description="ADP device category: a name from §105.05 of the ADP Manual (e.g. 'Mobility Devices', "
        "'Hearing Devices') or the spec's key (mobility, comm_aids, hearing_devices, visual_aids, respiratory, "
        "insulin_pump, prosthesis, maxillofacial).",
    )
    type: str | None = Field(
        None,
        max_length=MAX_QUESTION_CHARS,
        description="Device type in plain words, e.g. 'walker', 'power wheelchair', 'scooter batteries'; a "
        "question is accepted too.",
    )

    @field_validator("category", "type")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value or None


class UseCase(BaseModel):
    """How the device will be used (mobility devices: the basic-mobility test of §305 and §310)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    daily: bool | None = Field(None, description="Used every day.")
    location: str | None = Field(
        None, max_length=100, description="Where, e.g. 'home+entry_exit', 'home', 'community', 'outdoors'."
    )
    independent_transfer: bool | None = Field(None, description="Transfers on and off the device unaided.")


class AdpGetArgs(QuestionArgs):
    """What to look up on the Assistive Devices Program: a question, or structured fields, or both."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, allow_inf_nan=False)

    q: str | None = Field(
        None,
        max_length=MAX_QUESTION_CHARS,
        description="A question in plain words, e.g. 'What does ADP pay for a walker?', 'Does ADP cover power "
        "wheelchair batteries?', 'My patient is on ODSP, what do they pay for a wheelchair?'.",
    )
    query: str | None = Field(None, max_length=MAX_QUESTION_CHARS, description="The same as q (the spec's name).")
    device: DeviceSpec | None = Field(None, description="The device (structured format).")
    check: list[AdpCheck] | None = Field(
        None, description="What to report; default all: eligibility, exclusions, funding, cep."
    )
    use_case: UseCase | None = None
    patient_income: float | None = Field(
        None, description="Annual income in dollars, for the (unofficial) CEP income thresholds; the manuals use none."
    )
    household: Literal["single", "family"] | None = Field(
        None, description="Which CEP income threshold applies (single or family)."
    )
    social_assistance: SocialAssistanceProgram | None = Field(
        None,
        description="The patient receives Ontario Works (OW), ODSP or ACSD ('none': none of them). These clients "
        "have ADP funding of 100% (ADP Manual §310).",
    )

    @model_validator(mode="after")
    def _device_given(self) -> AdpGetArgs:
        if self.device is not None and self.device.category is None and self.device.type is None:
            self.device = None
        return self

    def checks(self) -> frozenset[AdpCheck]:
        return frozenset(self.check) if self.check else frozenset(("eligibility", "exclusions", "funding", "cep"))


class SourceRef(BaseModel):
    """Where a manual says it."""

    manual: str = Field(
        description="'core' (the ADP Manual) or a Policy and Administration Manual, e.g. 'mobility-devices'."
    )
    manual_title: str
    edition: str = Field(description="As printed on every page, e.g. 'July 2023'.")
    section: str = Field(description="Section or numbered paragraph, e.g. '305.00', '705'.")
    page: int
    quote: str = Field(description="The manual's own words.")

    @property
    def ref(self) -> str:
        return f"{self.manual_title} §{self.section}, p. {self.page}"


class RuleFinding(BaseModel):
    rule_id: str
    topic: str
    summary: str = Field(description="What the rule says, in one line.")
    applies_to: list[str]
    source: SourceRef


class ManualEditionInfo(BaseModel):
    manual: str
    title: str
    edition: str = Field(description="'July 2023'")
    edition_date: str = Field(description="'2023-07'")
    label: str


class DeviceMatch(BaseModel):
    category: str | None = Field(None, description="ADP device category (§105.05), when one is determined.")
    device_type: str | None = Field(None, description="Device key, e.g. 'walker', 'power_wheelchair'.")
    name: str | None = None
    group: str | None = Field(None, description="Device group of its manual, e.g. 'Ambulation Aids'.")
    listed_as: str | None = Field(
        None, description="How the manual lists it, e.g. 'Wheeled walkers (two, three and four wheels)'."
    )
    source: SourceRef | None = Field(None, description="Where the manual lists it.")
    matched: str = Field("", description="The words of the request that named it.")
    policy_manual_loaded: bool = Field(
        False, description="The category's Policy and Administration Manual is loaded (its own rules apply)."
    )
    candidates: list[str] = Field(
        default_factory=list, description="Categories the request could mean, when ambiguous."
    )


class Funding(BaseModel):
    adp_contribution: float | None = Field(None, description="ADP's share, percent (75.0 = 75%).")
    client_share_percent: float | None = Field(None, description="The client's share, percent.")
    adp_share_is_maximum: bool = Field(False, description="'up to' that share.")
    client_share_is_minimum: bool = Field(False, description="'at least' that share.")
    funding_model: str | None = Field(
        None, description="fixed_price, maximum_contribution, grant … (null: set by the category's manual)."
    )
    max_contribution: float | None = Field(
        None, description="Dollar maximum: the Product Manuals list prices and maximums; not in the loaded manuals."
    )
    repair_coverage: str = Field("", description="What ADP pays toward repairs (nothing, §670.00).")
    social_assistance_applied: bool = Field(False, description="The split is the OW/ODSP/ACSD one.")
    basis: str = Field("", description="The rule behind the split, with its section.")
    rules: list[RuleFinding] = Field(default_factory=list)


class SocialAssistanceFunding(BaseModel):
    programs: list[str] = Field(description="Ontario Works (OW), ODSP, ACSD.")
    patient_receives: bool | None = Field(None, description="From the request; null when not said.")
    adp_contribution: float | None = Field(None, description="Percent ADP pays for these clients.")
    client_share_percent: float | None = None
    models: list[str] = Field(default_factory=list, description="The four 100% models of §310.00.")
    by_category: dict[str, str] = Field(
        default_factory=dict, description="What a loaded Policy and Administration Manual states for its category."
    )
    rules: list[RuleFinding] = Field(default_factory=list)


class ExclusionRule(BaseModel):
    topic: str = Field(description="batteries, repairs, loss_theft, misuse, …")
    text: str
    applies_to: list[str]
    asked: bool = Field(False, description="The request asked about it.")
    source: SourceRef


class Eligibility(BaseModel):
    basic_mobility: bool | None = Field(None, description="Mobility Devices §305/§310; null = not determined.")
    ontario_resident: bool | None = None
    valid_prescription: bool | None = None
    other_criteria: dict[str, str] = Field(default_factory=dict)
    criteria: list[RuleFinding] = Field(default_factory=list, description="The criteria that apply, from the manuals.")


class CepAssessment(BaseModel):
    name: str
    official: bool = Field(description="False: the figures are not from an official source.")
    source: str = Field(description="Where the figures come from.")
    cited_as: str = Field(description="The source, shortly, as answers name it.")
    as_of: str
    income_threshold: float | None = Field(None, description="The threshold for the household (single when not said).")
    single_income_threshold: float
    family_income_threshold: float
    patient_income: float | None = None
    household: str | None = None
    eligible: bool | None = Field(None, description="Under these unofficial thresholds; null when not determined.")
    client_share: float | None = Field(None, description="Percent under these unofficial thresholds, when eligible.")
    note: str
    central_equipment_pool: SourceRef | None = Field(
        None, description="What CEP is in the manuals: the Central Equipment Pool for High Technology Wheelchairs."
    )


class AdpGetResult(BaseModel):
    """The ADP answer; every rule is cited from the manual edition in ``manuals``."""

    query: str = Field(description="What was looked up, as understood.")
    summary: str = Field(description="A short answer for a clinician, with sections, pages and the manuals' edition.")
    provenance: list[Literal["sql", "vector"]] = Field(description="Paths whose evidence the answer uses.")
    confidence: float = Field(ge=0.0, le=1.0)
    interpretation_notes: dict[str, str] = Field(default_factory=lambda: dict(INTERPRETATION_NOTES))
    edition: str | None = Field(None, description="'ADP manuals, July 2023: …': quote it with every answer.")
    manuals: list[ManualEditionInfo] = Field(default_factory=list)
    device: DeviceMatch | None = None
    covered: bool | None = Field(
        None, description="True: ADP funds this kind of device; False: no ADP category lists it; null: not determined."
    )
    funding: Funding | None = None
    social_assistance: SocialAssistanceFunding | None = None
    exclusions: list[str] = Field(default_factory=list, description="Exclusions, each with its manual section.")
    exclusion_rules: list[ExclusionRule] = Field(default_factory=list)
    eligibility: Eligibility | None = None
    cep: CepAssessment | None = None
    context: list[str] = Field(
        default_factory=list, description="The funding rules and policy passages behind the answer, one per item."
    )
    citations: list[Citation] = Field(default_factory=list)
    conflicts: list[Conflict] = Field(default_factory=list)
    needs_more_info: bool = False
    follow_up: str | None = Field(None, description="The question an ADP clerk or vendor would ask next.")
    warnings: list[str] = Field(default_factory=list)
    trace: list[PathTrace] = Field(default_factory=list)


DESCRIPTION = (
    "Ontario Assistive Devices Program (ADP): what ADP pays for a device and what the client pays, "
    "funding for Ontario Works, ODSP and ACSD recipients, exclusions (batteries, repairs …) and "
    "eligibility, each cited by manual, section and page. Takes a question in plain words (q) or a "
    "structured device {category, type}; answers needs_more_info with the follow-up a vendor would ask "
    "when the device is unknown or the fields disagree. Every answer carries the manuals' edition."
)


def register(registry: ToolRegistry, deps: SourceToolDeps[AdpService]) -> None:
    """Put ``adp.get`` in ``registry``; its calls go to ``deps.service()``."""
    limits = deps.settings.coverage_limits("adp")
    registry.register(
        source_tool(
            deps,
            name="adp.get",
            description=DESCRIPTION,
            args_model=AdpGetArgs,
            result_model=AdpGetResult,
            timeout_s=limits.tool_timeout_s,
            rate_limit=limits.tool_rate_limit,
        )
    )
