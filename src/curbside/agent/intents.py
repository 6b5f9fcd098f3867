"""What triage decides: the route of a message and the intents in it, each with the slots a planner
needs (a lab's name, drugs, a calculator id …). Rules fill these; a model may, where rules are unsure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["INTENT_KINDS", "ROUTES", "Intent", "IntentKind", "Route", "Triage"]

# direct: answered without a tool (a greeting, a thanks, what Curbside can do);
# lookup: one obvious tool call; reasoning: tools, then reasoning over their results;
# multi_step: several subtasks in order ("check the chart, then interactions with the new Rx")
Route = Literal["direct", "lookup", "reasoning", "multi_step"]
ROUTES: tuple[Route, ...] = ("direct", "lookup", "reasoning", "multi_step")

IntentKind = Literal[
    "greeting",  # hello, thanks, what can you do
    "patient_find",  # find a patient by name / birth date / MRN
    "patient_summary",  # this patient's chart, overview
    "patient_labs",  # this patient's lab values (slots: lab, since, until, latest, aggregate)
    "patient_vitals",  # this patient's vitals (slots: vital)
    "patient_medications",
    "patient_allergies",
    "patient_problems",
    "chart_write",  # record a vital, add an allergy, prescribe, order, save a note (slots: write)
    "calculator",  # a score or formula (slots: calculator id, inputs)
    "coverage",  # OHIP fee, ODB drug coverage, ADP device funding
    "drug_label",  # boxed warning, contraindications, renal/hepatic dosing, pregnancy (slots: drug)
    "drug_interactions",  # (slots: drugs)
    "adverse_events",  # (slots: drug)
    "literature",  # PubMed / Europe PMC (slots: query, article_types)
    "trials",  # ClinicalTrials.gov (slots: condition, location, status)
    "guideline",  # the knowledge base's guidelines
    "knowledge",  # a clinical question for the knowledge base (kb.ask)
    "calendar",
    "files",
    "unknown",
]
INTENT_KINDS: tuple[str, ...] = IntentKind.__args__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Intent:
    kind: IntentKind
    slots: dict[str, Any] = field(default_factory=dict)
    text: str = ""  # the part of the message this intent came from


@dataclass(frozen=True)
class Triage:
    route: Route
    intents: tuple[Intent, ...]
    confident: bool  # False: the rules are unsure (a model may decide, where one is configured)
    reason: str  # why, in words, for the timeline

    @property
    def kinds(self) -> tuple[str, ...]:
        """The intents' kinds, in order, each once."""
        return tuple(dict.fromkeys(i.kind for i in self.intents))
