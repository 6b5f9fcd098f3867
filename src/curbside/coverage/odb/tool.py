"""``odb.get``: its argument and result models, and the entry point the tools layer calls.

The arguments accept both request formats of the coverage spec (Tool 4): the
simple one (``drug``, ``check_alternatives``, ``include_lu``, ``top_k``) and
the enhanced one (``q`` plus optional structured fields), in one model whose
JSON schema is the tool's input schema. The work happens in
``curbside.coverage.odb.service.OdbService``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from curbside.coverage.conflicts import Conflict
from curbside.coverage.odb.flags import FlagInfo, StatusCode
from curbside.coverage.paths import PathTrace
from curbside.coverage.question_args import MAX_QUESTION_CHARS, QuestionArgs
from curbside.coverage.source_tool import SourceToolDeps, source_tool
from curbside.types import Citation

if TYPE_CHECKING:
    from curbside.coverage.odb.service import OdbService
    from curbside.tools.registry import ToolRegistry

__all__ = [
    "Alternative",
    "Check",
    "DrugCoverage",
    "FormularyEdition",
    "InterchangeableMember",
    "LowestCost",
    "LuCriterion",
    "MatchedProduct",
    "OdbGetArgs",
    "OdbGetResult",
    "PathTrace",
    "DESCRIPTION",
    "register",
]

Check = Literal[
    "coverage",
    "interchangeable",
    "lowest_cost",
    "lu_criteria",
    "documentation",
    "alternatives",
    "interchangeable_group",
    "price_comparison",
    "all_strengths",
]
DEFAULT_CHECKS: tuple[Check, ...] = ("coverage", "interchangeable", "lowest_cost")
_DIN = re.compile(r"^(?:DIN)?[\s:#-]*(\d{1,8})$", re.IGNORECASE)


class OdbGetArgs(QuestionArgs):
    """What to look up on the Ontario Drug Benefit formulary: a question, or structured fields, or both."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    q: str | None = Field(
        None,
        max_length=MAX_QUESTION_CHARS,
        description="A question in plain words (enhanced format), e.g. 'Is Ozempic covered for diabetes?', "
        "'cheapest covered atorvastatin 20 mg', 'Is there a generic for Januvia?'.",
    )
    drug: str | None = Field(
        None,
        max_length=200,
        description="Drug name, brand or ingredient (simple format), e.g. 'Januvia', 'sitagliptin'.",
    )
    din: str | None = Field(
        None, max_length=20, description="Drug Identification Number: 8 digits (leading zeros may be left out)."
    )
    ingredient: str | None = Field(None, max_length=200, description="Active ingredient, e.g. 'atorvastatin'.")
    strength: str | None = Field(None, max_length=50, description="Strength, e.g. '20 mg' or '0.68 mg/mL'.")
    drug_class: str | None = Field(
        None, max_length=100, description="Drug class, e.g. 'statin', 'GLP-1 agonist', 'SGLT2 inhibitor'."
    )
    check: list[Check] | None = Field(
        None,
        description="What to report; default coverage, interchangeable and lowest_cost (plus lu_criteria while "
        "include_lu is true, and alternatives when the drug is not covered while check_alternatives is true).",
    )
    check_alternatives: bool = Field(
        True, description="Simple format: list covered alternatives in the drug's class when it is not covered."
    )
    include_lu: bool = Field(True, description="Simple format: include the Limited Use criteria.")
    condition: str | None = Field(
        None, max_length=200, description="The patient's condition, to put the matching LU criteria first."
    )
    include_brand: bool = Field(
        True,
        description="When false, list only the interchangeable products priced at the group's lowest cost "
        "(drops the dearer ones, usually the original brands).",
    )
    exclude_lu: bool = Field(False, description="Leave Limited Use products out of the alternatives.")
    top_k: int = Field(5, ge=1, le=10, description="Most alternatives (and matched products) to list.")

    @field_validator("drug", "ingredient", "strength", "drug_class", "condition", "din")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value or None

    @field_validator("din")
    @classmethod
    def _din_digits(cls, value: str | None) -> str | None:
        if value is None:
            return None
        match = _DIN.match(value.replace(" ", ""))
        if not match:
            raise ValueError(
                f"DIN {value!r} is not a Drug Identification Number: give up to 8 digits, e.g. '02388839'."
            )
        return match.group(1).zfill(8)

    @model_validator(mode="after")
    def _something_to_look_up(self) -> OdbGetArgs:
        if not any((self.q, self.drug, self.din, self.ingredient, self.drug_class)):
            raise ValueError(
                "odb.get needs something to look up: a question (q), a drug name (drug), a DIN, an ingredient or "
                "a drug_class. An empty question cannot be answered."
            )
        return self

    def checks(self) -> frozenset[Check]:
        chosen: set[Check] = set(self.check) if self.check else set(DEFAULT_CHECKS)
        if self.include_lu and not self.check:
            chosen.add("lu_criteria")
        return frozenset(chosen)


class FormularyEdition(BaseModel):
    edition: str = Field(description="Edition number, e.g. '43'.")
    edition_code: str | None = Field(None, description="The extract's edition attribute as written, e.g. '4345'.")
    formulary_date: str = Field(description="Formulary date, YYYY-MM-DD.")
    label: str = Field(description="'ODB Formulary Edition 43 (2025-08-29)': quote it with every answer.")


class DrugCoverage(BaseModel):
    covered: bool | None = Field(
        description="True: a benefit (Limited Use ones only when the criteria are met); False: not a benefit; "
        "null: no documented flag decides it."
    )
    status: StatusCode
    status_text: str = Field(description="What the status means for the patient.")
    status_basis: str = Field(description="Which flags decided it, and whether their meaning is documented.")
    din: str | None = Field(None, description="Drug Identification Number (null: a group-level answer).")
    brand_name: str | None = Field(None, description="Product name as listed.")
    generic_name: str | None = None
    strength: str | None = None
    dosage_form: str | None = None
    manufacturer: str | None = None
    unit_price: float | None = Field(None, description="Listed unit price (individualPrice), dollars.")
    amount_mohltc_pays: float | None = Field(None, description="Most the ministry pays per unit, dollars.")
    listing_date: str | None = None
    interchangeable_group: str | None = Field(None, description="pcg9 id of its interchangeable group.")
    therapeutic_class: str | None = Field(None, description="pcg2 class name.")
    therapeutic_subclass: str | None = Field(None, description="pcg6 subclass name, when the extract names one.")
    lu_required: bool = Field(description="True for Limited Use products (a Reason for Use code is needed).")
    lu_criteria: str | None = Field(None, description="The Limited Use criteria, joined (see lu_criteria list).")
    notes: list[str] = Field(default_factory=list, description="Formulary notes on the product, group or ingredient.")
    flags: list[FlagInfo] = Field(default_factory=list, description="Every flag as written, with its meaning.")


class MatchedProduct(BaseModel):
    din: str
    brand_name: str
    generic_name: str
    strength: str | None = None
    dosage_form: str | None = None
    status: StatusCode
    covered: bool | None


class InterchangeableMember(BaseModel):
    din: str
    brand: str
    manufacturer: str | None = None
    price: float | None = Field(None, description="Unit price, dollars.")
    amount_mohltc_pays: float | None = None
    covered: bool | None
    status: StatusCode
    lowest_cost: bool = Field(description="At the group's lowest covered unit price (ties all marked).")


class LowestCost(BaseModel):
    din: str = Field(description="One lowest-cost product (see tied_dins for the others at that price).")
    brand: str
    price: float = Field(description="Unit price, dollars.")
    savings: float | None = Field(None, description="Per unit, against the requested product's unit price.")
    tied_dins: list[str] = Field(default_factory=list, description="Every product at the lowest price.")
    covered: bool = Field(description="False when no product of the group is covered (cheapest priced shown).")


class LuCriterion(BaseModel):
    reason_for_use_code: str | None = Field(None, description="The code the prescriber writes on the prescription.")
    indication: str | None = Field(None, description="The heading before the code, e.g. 'Osteoarthritis'.")
    text: str = Field(description="The criteria and the notes after them, in formulary order.")
    authorization_period: str | None = Field(None, description="From the 'LU Authorization Period: …' note.")
    note_types: list[str] = Field(
        default_factory=list, description="Types of the notes joined in, as written (their meaning is not documented)."
    )
    matches_condition: bool = Field(False, description="Mentions a word of the request's condition.")


class Alternative(BaseModel):
    din: str
    brand: str
    generic_name: str
    strength: str | None = None
    dosage_form: str | None = None
    price: float | None = None
    status: StatusCode
    lu_required: bool


class OdbGetResult(BaseModel):
    """The coverage answer; every field is from the formulary edition in ``formulary``."""

    query: str = Field(description="What was looked up, as understood.")
    summary: str = Field(description="One-paragraph answer for a clinician, naming the formulary edition.")
    provenance: list[Literal["sql", "vector"]] = Field(description="Paths whose evidence the answer uses.")
    confidence: float = Field(ge=0.0, le=1.0)
    formulary: FormularyEdition | None = Field(description="The edition answered from; null when none is readable.")
    resolved_as: Literal["din", "brand", "ingredient", "class", "search", "none"] = "none"
    coverage: DrugCoverage | None = None
    matches: list[MatchedProduct] = Field(default_factory=list, description="Products the request matched.")
    interchangeable: list[InterchangeableMember] = Field(default_factory=list)
    lowest_cost: LowestCost | None = None
    lu_criteria: list[LuCriterion] = Field(default_factory=list)
    alternatives: list[Alternative] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    context: list[str] = Field(default_factory=list, description="Passage text behind the answer.")
    conflicts: list[Conflict] = Field(default_factory=list)
    needs_more_info: bool = False
    follow_up: str | None = Field(None, description="The question a pharmacist would ask next.")
    warnings: list[str] = Field(default_factory=list)
    trace: list[PathTrace] = Field(default_factory=list)


DESCRIPTION = (
            "Ontario Drug Benefit formulary: is a drug covered, its interchangeable group and lowest-cost "
            "member with savings per unit, Limited Use criteria, and covered alternatives in its class. "
            "Takes a drug name, brand, DIN or ingredient, or a question in plain words (q); answers "
            "needs_more_info when the drug cannot be resolved. Every answer carries the formulary edition."
)


def register(registry: ToolRegistry, deps: SourceToolDeps[OdbService]) -> None:
    """Put ``odb.get`` in ``registry``; its calls go to ``deps.service()``."""
    limits = deps.settings.coverage_limits("odb")
    registry.register(
        source_tool(
            deps,
            name="odb.get",
            description=DESCRIPTION,
            args_model=OdbGetArgs,
            result_model=OdbGetResult,
            timeout_s=limits.tool_timeout_s,
            rate_limit=limits.tool_rate_limit,
        )
    )
