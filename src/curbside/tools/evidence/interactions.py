"""``evidence.check_drug_interactions``: what each drug's US label says about the others.

This is not an interaction database. For each named drug it reads the "Drug Interactions"
section of its openFDA label and reports which of the other named drugs that text mentions —
by the name asked, the brand and generic names openFDA lists for it, or its pharmacologic class
(a label warning about "TNF blockers" or "CYP3A4 inhibitors" names a class, not the drug) — with
the sentences that mention them. A label that says nothing about a drug proves nothing; the
result says so in its ``disclaimer``.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from curbside.errors import RateLimitedError, UpstreamError
from curbside.tools.base import ToolContext, ToolSpec
from curbside.tools.evidence.common import Citation, EvidenceDeps, evidence_fields, fit_to_bytes, service_for
from curbside.tools.evidence.openfda import (
    US_LABEL_NOTE,
    DrugName,
    LabelFacts,
    LabelLookup,
    cut,
    dailymed_url,
    excerpt,
    find_label,
    label_facts,
    label_section,
    sentences,
)
from curbside.tools.outbound import Screened

if TYPE_CHECKING:
    from curbside.tools.registry import ToolRegistry

__all__ = ["TOOL", "DISCLAIMER", "InteractionsArgs", "InteractionsResult", "register"]

TOOL = "evidence.check_drug_interactions"

DISCLAIMER = (
    "This is label text matched by name, not an interaction database: each drug's US label 'Drug Interactions' "
    "section was searched for the other drugs' names (as asked, and the brand and generic names openFDA lists) "
    "and for their pharmacologic classes. The absence of a mention is not evidence that a combination is safe; "
    "check an interaction reference or a pharmacist."
)

_SENTENCE_CHARS = 300  # one quoted sentence, a window around the mention when longer
_SENTENCES_PER_MENTION = 3
# Salt and hydrate words openFDA generic names carry ("ATORVASTATIN CALCIUM") that label prose drops.
_SALTS = re.compile(
    r"\b(hydrochloride|hcl|hydrobromide|sodium|potassium|calcium|magnesium|besylate|besilate|maleate|mesylate|"
    r"succinate|tartrate|bitartrate|citrate|sulfate|phosphate|acetate|fumarate|bromide|chloride|lactate|"
    r"monohydrate|dihydrate|trihydrate|anhydrous|disodium|dipropionate|propionate|valerate)\b",
    re.I,
)
# How label prose abbreviates some openFDA class words ("Tumor Necrosis Factor Blocker" -> "TNF blockers").
_CLASS_ALIASES = (
    ("Tumor Necrosis Factor", "TNF"),
    ("Cytochrome P450 ", "CYP"),
    ("Nonsteroidal Anti-inflammatory Drug", "NSAID"),
    ("P-Glycoprotein", "P-gp"),
    ("Angiotensin Converting Enzyme", "ACE"),
    ("Monoamine Oxidase", "MAO"),
    ("Selective Serotonin Reuptake Inhibitor", "SSRI"),
)
# Mechanism classes worth matching (enzyme and transporter effects labels name as such); other
# [MoA] classes ("... Receptor Blocking Activity") are not phrases label prose uses.
_MOA_WORTH = re.compile(r"(Cytochrome P450|P-Glycoprotein).*(Inhibitors|Inducers)", re.I)


class InteractionsArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    drugs: list[DrugName] = Field(
        min_length=2,
        max_length=6,
        description="2 to 6 brand or generic names, e.g. ['clarithromycin', 'simvastatin']. Only drug names.",
    )
    max_chars_per_drug: int = Field(
        1000, ge=200, le=4000, description="Longest 'Drug Interactions' text shown per label (cut at a sentence)."
    )

    @field_validator("drugs")
    @classmethod
    def _distinct(cls, drugs: list[str]) -> list[str]:
        seen: dict[str, str] = {}
        for drug in drugs:
            seen.setdefault(drug.casefold(), drug)
        if len(seen) < 2:
            raise ValueError("name at least two different drugs")
        return list(seen.values())


class Mention(BaseModel):
    drug: str = Field(description="The other drug, as asked.")
    kind: Literal["name", "class"] = Field(
        description="name: the text names the drug; class: it names a pharmacologic class openFDA assigns the drug."
    )
    term: str = Field(description="The words found in the label text.")
    note: str | None = Field(None, description="For a class mention: how far it reaches.")
    sentences: list[str] = Field(description="The sentences that mention it (a window around the mention when long).")


class LabelInteractions(BaseModel):
    drug: str = Field(description="The name as asked.")
    brand_names: list[str] = Field(default_factory=list)
    generic_names: list[str] = Field(default_factory=list)
    pharm_classes: list[str] = Field(default_factory=list, description="openFDA pharm_class_epc / pharm_class_moa.")
    set_id: str | None = None
    effective_time: str | None = Field(None, description="The label version's date, YYYY-MM-DD.")
    interactions_text: str | None = Field(
        None,
        description="The label's 'Drug Interactions' section, cut at a sentence with '…'; None: none on the label "
        "(truncated=false) or left out to fit the result (truncated=true).",
    )
    truncated: bool = False
    mentions: list[Mention] = Field(default_factory=list, description="Other named drugs this section mentions.")
    not_mentioned: list[str] = Field(
        default_factory=list, description="Other named drugs this section does not mention (not evidence of safety)."
    )


class InteractionsResult(BaseModel):
    drugs: list[str]
    disclaimer: str = DISCLAIMER
    labels: list[LabelInteractions] = Field(description="One per drug whose label was found, in the order asked.")
    not_found: list[str] = Field(default_factory=list, description="Names openFDA has no label for.")
    unavailable: list[str] = Field(default_factory=list, description="Names whose label could not be fetched.")
    note: str = US_LABEL_NOTE
    citations: list[Citation] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class _Terms:
    names: list[str]
    classes: list[tuple[str, str]]  # (pattern text, the openFDA class it came from)


def _name_terms(drug: str, facts: LabelFacts | None) -> list[str]:
    names = [drug]
    if facts is not None:
        names += facts.brand_names
        for generic in facts.generic_names:
            names.append(generic)
            # a combination product "AMLODIPINE AND ATORVASTATIN": each part, salts dropped
            for part in re.split(r",|\band\b|/", generic, flags=re.I):
                names.append(" ".join(_SALTS.sub(" ", part).split()))
    seen: dict[str, str] = {}
    for name in names:
        if len(name) >= 3:
            seen.setdefault(name.casefold(), name)
    return sorted(seen.values(), key=len, reverse=True)


def _class_terms(facts: LabelFacts | None) -> list[tuple[str, str]]:
    if facts is None:
        return []
    terms: list[tuple[str, str]] = []
    for klass in facts.pharm_class_epc + [m for m in facts.pharm_class_moa if _MOA_WORTH.search(m)]:
        bare = re.sub(r"\s*\[(EPC|MoA)\]\s*$", "", klass).strip()
        if len(bare) < 4:
            continue
        forms = {bare}
        for long, short in _CLASS_ALIASES:
            if long.casefold() in bare.casefold():
                forms.add(re.sub(re.escape(long), short, bare, flags=re.I))
        terms.extend((form, klass) for form in forms)
    return terms


def _pattern(term: str, *, plural: bool) -> re.Pattern[str]:
    words = r"[\s-]+".join(re.escape(w) for w in re.split(r"[\s-]+", term.strip()))
    if plural:
        words += r"s?"  # "TNF blocker" / "TNF blockers"; classes end in a singular or plural noun
    return re.compile(rf"(?<!\w){words}(?!\w)", re.I)


def _find(parts: list[str], pattern: re.Pattern[str]) -> tuple[str, list[str]] | None:
    """The first matched words and up to three sentences holding ``pattern``."""
    quoted: list[str] = []
    first: str | None = None
    for sentence in parts:
        match = pattern.search(sentence)
        if match is None:
            continue
        first = first or match.group(0)
        quoted.append(excerpt(sentence, match.start(), match.end(), _SENTENCE_CHARS))
        if len(quoted) >= _SENTENCES_PER_MENTION:
            break
    return (first, quoted) if first is not None else None


def _mentions(text: str, others: list[tuple[str, _Terms]]) -> tuple[list[Mention], list[str]]:
    parts = sentences(text)
    mentions: list[Mention] = []
    silent: list[str] = []
    for other, terms in others:
        before = len(mentions)
        for name in terms.names:
            hit = _find(parts, _pattern(name, plural=False))
            if hit is not None:
                mentions.append(Mention(drug=other, kind="name", term=hit[0], sentences=hit[1]))
                break
        for form, klass in terms.classes:
            hit = _find(parts, _pattern(form, plural=True))
            if hit is not None:
                mentions.append(
                    Mention(
                        drug=other,
                        kind="class",
                        term=hit[0],
                        note=f"A class mention: openFDA classes {other} as {klass!r}. The label speaks of the class; "
                        f"whether it applies to {other} in particular needs the full label or an interaction reference.",
                        sentences=hit[1],
                    )
                )
                break
        if len(mentions) == before:
            silent.append(other)
    return mentions, silent


def _shrink(result: InteractionsResult, cap: int) -> bool:
    """One step towards the cap: shorten the longest section text, then quote one sentence per mention,
    then drop section texts one by one, then shorten the quotes."""
    texts = [e for e in result.labels if e.interactions_text and len(e.interactions_text) > 300]
    many = [m for e in result.labels for m in e.mentions if len(m.sentences) > 1]
    shown = [e for e in result.labels if e.interactions_text]
    long_quotes = [m for e in result.labels for m in e.mentions if any(len(s) > 160 for s in m.sentences)]
    if texts:
        entry = max(texts, key=lambda e: len(e.interactions_text or ""))
        entry.interactions_text, _ = cut(entry.interactions_text or "", len(entry.interactions_text or "") * 2 // 3)
        entry.truncated = True
    elif many:
        for mention in many:
            mention.sentences = mention.sentences[:1]
    elif shown:
        entry = max(shown, key=lambda e: len(e.interactions_text or ""))
        entry.interactions_text = None
        entry.truncated = True
    elif long_quotes:
        for mention in long_quotes:
            mention.sentences = [cut(s, 160)[0] for s in mention.sentences]
    else:
        return False
    message = f"Label texts and quotes were shortened to keep the result under {cap:,} bytes; the DailyMed links have them whole."
    if message not in result.warnings:
        result.warnings.append(message)
    return True


async def check_drug_interactions(ctx: ToolContext[EvidenceDeps], args: InteractionsArgs) -> InteractionsResult:
    deps = ctx.deps
    client = deps.client()
    # every name is screened before any is sent: one name holding PHI stops the whole call
    await asyncio.to_thread(
        client.screen.check,
        [Screened(f"drugs[{i}]", drug) for i, drug in enumerate(args.drugs)],
        service=service_for("openfda", deps.settings).name,
    )
    outcomes = await asyncio.gather(
        *(find_label(deps, drug, arg=f"drugs[{i}]") for i, drug in enumerate(args.drugs)), return_exceptions=True
    )
    result = InteractionsResult(drugs=list(args.drugs), labels=[])
    lookups: dict[str, LabelLookup] = {}
    failures: list[UpstreamError | RateLimitedError] = []
    for drug, outcome in zip(args.drugs, outcomes, strict=True):
        if isinstance(outcome, UpstreamError | RateLimitedError):  # one dead lookup: a partial answer
            failures.append(outcome)
            result.unavailable.append(drug)
            result.warnings.append(f"The label of {drug!r} could not be fetched ({outcome.message}).")
        elif isinstance(outcome, BaseException):
            raise outcome  # a PHI refusal or a bug: not a partial answer
        else:
            lookups[drug] = outcome
    if failures and not lookups:
        raise failures[0]
    facts = {drug: label_facts(lk.label) for drug, lk in lookups.items() if lk.label is not None}
    terms = {drug: _Terms(_name_terms(drug, facts.get(drug)), _class_terms(facts.get(drug))) for drug in args.drugs}
    for drug in args.drugs:
        lookup = lookups.get(drug)
        if lookup is None:
            continue
        if lookup.label is None:
            result.not_found.append(drug)
            continue
        # two names for one label ("Humira", "adalimumab"): its text would "mention" itself
        set_id = facts[drug].set_id
        same = [o for o in args.drugs if o != drug and o in facts and set_id and facts[o].set_id == set_id]
        for other in same:
            if args.drugs.index(other) > args.drugs.index(drug):
                result.warnings.append(
                    f"{drug!r} and {other!r} found the same label; it is not checked against itself."
                )
        result.labels.append(_entry(deps, drug, lookup, facts[drug], terms, args, result, same))
    if result.not_found:
        names = ", ".join(repr(d) for d in result.not_found)
        result.warnings.append(
            f"No openFDA label for {names}: their own interaction text could not be read, and the other labels were "
            "searched for these names as asked only (no brand, generic or class names)."
        )
    cap = deps.settings.evidence_result_bytes
    return fit_to_bytes(result, cap, shrink=lambda r: _shrink(r, cap))


def _entry(
    deps: EvidenceDeps,
    drug: str,
    lookup: LabelLookup,
    facts: LabelFacts,
    terms: dict[str, _Terms],
    args: InteractionsArgs,
    result: InteractionsResult,
    same: list[str],
) -> LabelInteractions:
    assert lookup.label is not None
    entry = LabelInteractions(
        drug=drug,
        brand_names=facts.brand_names,
        generic_names=facts.generic_names,
        pharm_classes=facts.pharm_class_epc + facts.pharm_class_moa,
        set_id=facts.set_id,
        effective_time=facts.effective_time,
    )
    if facts.set_id and all(c.id != facts.set_id for c in result.citations):
        result.citations.append(
            Citation(
                source="openFDA drug label (DailyMed SPL)",
                kind="openfda_set_id",
                id=facts.set_id,
                url=dailymed_url(facts.set_id),
                retrieved=deps.retrieved(),
            )
        )
    section = label_section(lookup.label, ("drug_interactions",), ("DRUG INTERACTIONS",))
    others = [(o, terms[o]) for o in args.drugs if o != drug and o not in same]
    if section is None:
        entry.not_mentioned = [o for o, _ in others]
        result.warnings.append(
            f"The label of {drug!r} has no 'Drug Interactions' section (older labels may discuss interactions "
            "under Precautions or Warnings); no mention could be looked for."
        )
        return entry
    text = section[1]
    entry.interactions_text, entry.truncated = cut(text, args.max_chars_per_drug)
    # mentions are sought in the whole section, not only the part shown
    entry.mentions, entry.not_mentioned = _mentions(text, others)
    return entry


def register(registry: ToolRegistry, deps: EvidenceDeps) -> None:
    """Put ``evidence.check_drug_interactions`` in ``registry``."""
    registry.register(
        ToolSpec(
            name=TOOL,
            description=(
                "For 2–6 drugs (brand or generic names): each one's US label 'Drug Interactions' section (openFDA), "
                "and which of the other named drugs it mentions — by name, or by a pharmacologic class openFDA "
                "assigns the drug (kind='class', e.g. 'TNF blockers') — with the sentences that mention them. Label "
                "text matched by name, NOT an interaction database: no mention is not evidence of safety (see "
                "disclaimer). not_found lists names with no label."
            ),
            args_model=InteractionsArgs,
            result_model=InteractionsResult,
            handler=check_drug_interactions,
            **evidence_fields(deps),
            citation="openFDA drug label API, https://open.fda.gov/apis/drug/label/",
        )
    )
