"""``evidence.check_drug_safety``: the safety sections of a drug's US label, from openFDA.

A full label is 100–400 kB of text (the recorded HUMIRA label is 340 kB); a model needs the
boxed warning, contraindications, warnings, pregnancy and lactation, and what the label says
about renal and hepatic impairment, each cut at sentence boundaries, with the DailyMed link for
the rest. openFDA has no field for renal or hepatic dosing: those are the sentences of "Use in
Specific Populations" and "Dosage and Administration" that name them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from curbside.tools.base import ToolContext, ToolSpec
from curbside.tools.evidence.common import Citation, EvidenceDeps, evidence_fields, fit_to_bytes
from curbside.tools.evidence.openfda import (
    US_LABEL_NOTE,
    DrugName,
    cut,
    dailymed_url,
    find_label,
    label_facts,
    label_section,
    sentences,
)

if TYPE_CHECKING:
    from curbside.tools.registry import ToolRegistry

__all__ = ["TOOL", "DrugSafetyArgs", "DrugSafetyResult", "LabelSection", "register"]

TOOL = "evidence.check_drug_safety"

SectionName = Literal[
    "boxed_warning", "contraindications", "warnings_and_cautions", "pregnancy", "lactation", "renal", "hepatic"
]
ALL_SECTIONS: tuple[SectionName, ...] = (
    "boxed_warning",
    "contraindications",
    "warnings_and_cautions",
    "pregnancy",
    "lactation",
    "renal",
    "hepatic",
)

# section -> (the label fields holding it, first present wins; the headings that open it)
# Field names: https://open.fda.gov/apis/drug/label/searchable-fields/ (older labels use
# "warnings" for what PLR-format labels call "warnings_and_cautions").
_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "boxed_warning": (("boxed_warning",), ("BOXED WARNING",)),
    "contraindications": (("contraindications",), ("CONTRAINDICATIONS",)),
    "warnings_and_cautions": (
        ("warnings_and_cautions", "warnings"),
        ("WARNINGS AND PRECAUTIONS", "WARNINGS AND CAUTIONS", "WARNINGS"),
    ),
    "pregnancy": (
        ("pregnancy", "pregnancy_or_breast_feeding", "teratogenic_effects"),
        ("Pregnancy", "Teratogenic Effects"),
    ),
    "lactation": (("lactation", "nursing_mothers"), ("Lactation", "Nursing Mothers")),
}
# renal / hepatic: sentences naming the organ's impairment, from these fields in this order
_IMPAIRMENT_FIELDS = ("use_in_specific_populations", "dosage_and_administration")
_IMPAIRMENT = {
    "renal": re.compile(
        r"\b(renal|kidney|creatinine clearance|CrCl|CLcr|eGFR|GFR|dialysis|hemodialysis|haemodialysis)\b", re.I
    ),
    "hepatic": re.compile(r"\b(hepatic|liver|Child[- ]Pugh|cirrhosis|cirrhotic)\b", re.I),
}


class DrugSafetyArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    drug: DrugName = Field(
        description="A brand or generic name as on a US label, e.g. 'Humira', 'adalimumab', 'amiodarone'. "
        "Only the drug: no patient details."
    )
    sections: list[SectionName] | None = Field(
        None,
        min_length=1,
        max_length=len(ALL_SECTIONS),
        description="Which sections to return (default all): boxed_warning, contraindications, "
        "warnings_and_cautions, pregnancy, lactation, renal, hepatic (renal/hepatic: the label's sentences on "
        "use and dosing in that impairment).",
    )
    max_chars_per_section: int = Field(
        1200, ge=200, le=6000, description="Longest text per section; longer text is cut at a sentence with '…'."
    )


class LabelSection(BaseModel):
    section: SectionName
    present: bool = Field(description="False: the label has no such text ('none on the label').")
    fields: list[str] = Field(description="The openFDA label field(s) the text came from, or that were looked in.")
    text: str = Field(description="The label's text, its section heading removed; cut at a sentence with '…'.")
    truncated: bool = Field(False, description="True when the text was cut; the DailyMed link has it whole.")


class DrugSafetyResult(BaseModel):
    drug: str = Field(description="The name as asked.")
    found: bool = Field(description="False: openFDA has no label for this name (not an error).")
    message: str | None = None
    brand_names: list[str] = Field(default_factory=list)
    generic_names: list[str] = Field(default_factory=list)
    manufacturer: str | None = None
    set_id: str | None = Field(None, description="The label's SPL set id (DailyMed).")
    effective_time: str | None = Field(None, description="The label version's date, YYYY-MM-DD.")
    matched_by: str | None = Field(None, description="openfda.brand_name or openfda.generic_name.")
    labels_matched: int = Field(0, description="How many openFDA labels matched the name; the result shows one.")
    sections: list[LabelSection] = Field(default_factory=list)
    note: str = US_LABEL_NOTE
    citations: list[Citation] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)


def _impairment(label: dict[str, object], organ: str) -> tuple[list[str], str] | None:
    """The sentences about ``organ`` impairment, and the fields they came from."""
    found: list[str] = []
    fields: list[str] = []
    for field in _IMPAIRMENT_FIELDS:
        hit = label_section(label, (field,), ("USE IN SPECIFIC POPULATIONS", "DOSAGE AND ADMINISTRATION"))
        if hit is None:
            continue
        picked = [s for s in sentences(hit[1]) if _IMPAIRMENT[organ].search(s) and s not in found]
        if picked:
            fields.append(field)
            found.extend(picked)
    return (fields, " ".join(found)) if found else None


def _section(label: dict[str, object], name: SectionName, max_chars: int) -> LabelSection:
    if name in _IMPAIRMENT:
        hit = _impairment(label, name)
        if hit is None:
            return LabelSection(
                section=name,
                present=False,
                fields=list(_IMPAIRMENT_FIELDS),
                text=f"none on the label (no sentence on {name} impairment in use_in_specific_populations or "
                "dosage_and_administration)",
            )
        fields, text = hit
    else:
        wanted, headings = _FIELDS[name]
        section = label_section(label, wanted, headings)
        if section is None:
            return LabelSection(
                section=name,
                present=False,
                fields=list(wanted),
                text=f"none on the label (no {' / '.join(wanted)} section)",
            )
        fields, text = [section[0]], section[1]
    short, truncated = cut(text, max_chars)
    return LabelSection(section=name, present=True, fields=fields, text=short, truncated=truncated)


def _shrink(result: DrugSafetyResult, cap: int) -> bool:
    """Cut the longest section by a third; say so once."""
    longest = max((s for s in result.sections if s.present), key=lambda s: len(s.text), default=None)
    if longest is None or len(longest.text) <= 200:
        return False
    longest.text, _ = cut(longest.text, len(longest.text) * 2 // 3)
    longest.truncated = True
    message = (
        f"Sections were shortened further to keep the result under {cap:,} bytes; the DailyMed link has them whole."
    )
    if message not in result.warnings:
        result.warnings.append(message)
    return True


async def check_drug_safety(ctx: ToolContext[EvidenceDeps], args: DrugSafetyArgs) -> DrugSafetyResult:
    deps = ctx.deps
    lookup = await find_label(deps, args.drug)
    if lookup.label is None:
        return DrugSafetyResult(
            drug=args.drug,
            found=False,
            message=f"no openFDA label for {args.drug!r} (searched as a brand name, then as a generic name). "
            "Check the spelling, or try the other name (brand or generic).",
            citations=[
                Citation(
                    source="openFDA",
                    kind="openfda_query",
                    id=args.drug,
                    url=lookup.query_url,
                    retrieved=deps.retrieved(),
                )
            ],
        )
    label = lookup.label
    facts = label_facts(label)
    result = DrugSafetyResult(
        drug=args.drug,
        found=True,
        brand_names=facts.brand_names,
        generic_names=facts.generic_names,
        manufacturer=facts.manufacturer,
        set_id=facts.set_id,
        effective_time=facts.effective_time,
        matched_by=lookup.field,
        labels_matched=lookup.matched,
        sections=[_section(label, name, args.max_chars_per_section) for name in (args.sections or ALL_SECTIONS)],
    )
    if lookup.matched > 1:
        result.warnings.append(
            f"{lookup.matched} openFDA labels matched {args.drug!r} by {lookup.field}; this is the one naming it "
            f"exactly, else the most recent of the first page (set id {facts.set_id}, {facts.effective_time})."
        )
    if facts.set_id:
        result.citations.append(
            Citation(
                source="openFDA drug label (DailyMed SPL)",
                kind="openfda_set_id",
                id=facts.set_id,
                url=dailymed_url(facts.set_id),
                retrieved=deps.retrieved(),
            )
        )
    else:
        result.warnings.append("The label carries no set id, so there is no DailyMed link for it.")
        result.citations.append(
            Citation(
                source="openFDA", kind="openfda_query", id=args.drug, url=lookup.query_url, retrieved=deps.retrieved()
            )
        )
    cap = deps.settings.evidence_result_bytes
    return fit_to_bytes(result, cap, shrink=lambda r: _shrink(r, cap))


def register(registry: ToolRegistry, deps: EvidenceDeps) -> None:
    """Put ``evidence.check_drug_safety`` in ``registry``."""
    registry.register(
        ToolSpec(
            name=TOOL,
            description=(
                "Safety sections of a drug's US label (openFDA / DailyMed), by brand or generic name: boxed warning, "
                "contraindications, warnings and precautions, pregnancy, lactation, and the label's sentences on "
                "renal and hepatic impairment. Each section is cut at a sentence ('…'); an absent one reads 'none "
                "on the label'. found=false means openFDA has no label for the name (try the other name). US label "
                "text, not a Canadian monograph; cite the DailyMed link."
            ),
            args_model=DrugSafetyArgs,
            result_model=DrugSafetyResult,
            handler=check_drug_safety,
            **evidence_fields(deps),
            citation="openFDA drug label API, https://open.fda.gov/apis/drug/label/",
        )
    )
