"""``calc.<id>``: clinical calculators, exact, cited and unit-aware — one tool each.

Each calculator is declared in ``library/`` (inputs, formula, bands, citation); this module turns
every declaration into a tool whose argument schema lists its inputs, so a model or a clinician
sees the units, the plausible ranges and the criteria before calling. Every tool also takes
``note``: a clinical note the inputs are read from (``note.py``; yes/no criteria by the local model
when the PHI routing lets a note reach it, ``note_model.py``), explicit arguments winning.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from curbside.tools.base import ToolContext, ToolSpec
from curbside.tools.calculators.catalog import calculators
from curbside.tools.calculators.kit import CalcResult, Calculator, Criterion, Day, Number, evaluate
from curbside.tools.calculators.units import DIMENSIONS

if TYPE_CHECKING:
    from curbside.llm.endpoints import ModelRouter
    from curbside.settings import Settings
    from curbside.tools.calculators.note_model import NoteModel
    from curbside.tools.registry import ToolRegistry

__all__ = ["MAX_NOTE_CHARS", "CalculatorDeps", "Quantity", "args_model", "note_model_for", "register"]

MAX_NOTE_CHARS = 20_000  # the longest note read (note.py)


@dataclass(frozen=True)
class CalculatorDeps:
    """``models``: the application's LLM endpoints and PHI routing; a note's yes/no criteria are read
    by the local model when the routing lets a note (PHI) reach it. ``note_model``, if set, is used
    instead (an embedding application's own model; tests' stubs). Neither: criteria are never read."""

    settings: Settings
    models: Callable[[], ModelRouter] | None = None
    note_model: Callable[[], NoteModel] | None = None

    def model_for_notes(self) -> NoteModel | None:
        if self.note_model is not None:
            return self.note_model()
        if self.models is not None:
            return note_model_for(self.models(), self.settings)
        return None


def note_model_for(router: ModelRouter, settings: Settings) -> NoteModel:
    """The model a note's criteria are read with: the local one if the PHI routing lets a note reach it."""
    from curbside.tools.calculators import note_model

    return note_model.note_model_for(router, settings)


class Quantity(BaseModel):
    model_config = ConfigDict(extra="forbid")

    value: float
    unit: str = Field(description="A unit as written, e.g. 'µmol/L', 'mg/dL', 'lb', '°F'.")


def args_model(calc: Calculator) -> type[BaseModel]:
    """The tool's argument model: every input optional (missing ones are reported, not defaulted)."""
    fields: dict[str, Any] = {}
    for item in calc.inputs:
        if isinstance(item, Number):
            accepted = ", ".join(DIMENSIONS[item.dimension].accepted)
            text = f"{item.label} in {item.unit} ({item.low:g}–{item.high:g}), or {{value, unit}} with unit one of: {accepted}."
            if item.description:
                text += f" {item.description}"
            if not item.required:
                text += " Optional."
            fields[item.key] = (float | Quantity | None, Field(None, description=text))
        elif isinstance(item, Criterion):
            text = f"{item.label} ({item.points:+g} if present)." + (f" {item.description}" if item.description else "")
            fields[item.key] = (bool | None, Field(None, description=text))
        elif isinstance(item, Day):
            text = f"{item.label}, as YYYY-MM-DD." + (f" {item.description}" if item.description else "")
            fields[item.key] = (date | None, Field(None, description=text))
        else:
            options = tuple(item.options)
            text = f"{item.label}: one of {', '.join(options)}."
            if item.default is not None:
                text += f" Default {item.default}."
            if item.description:
                text += f" {item.description}"
            fields[item.key] = (Literal[options] | None, Field(None, description=text))  # type: ignore[valid-type]
    fields["missing"] = (
        Literal["ask", "absent"],
        Field("ask", description="ask: report unmentioned criteria as missing; absent: score them absent (listed)."),
    )
    if "note" in fields:
        raise ValueError(f"calculator {calc.id!r} has an input named 'note', which the tool's note argument takes")
    fields["note"] = (
        str | None,
        Field(
            None,
            max_length=MAX_NOTE_CHARS,
            description=(
                "A clinical note to read the inputs from: numbers with units by parsing, yes/no criteria by the "
                "local model when one is configured (never a cloud model: a note is PHI). Each value found is in "
                "the result's 'extracted' with its sentence; arguments given explicitly win; what the note does "
                "not give is listed as missing."
            ),
        ),
    )
    model_name = "".join(part.title() for part in calc.id.split("_")) + "Args"
    return create_model(model_name, __config__=ConfigDict(extra="forbid"), **fields)


def register(registry: ToolRegistry, deps: CalculatorDeps) -> None:
    """Put one ``calc.<id>`` tool per calculator in ``registry``."""
    for calc in calculators().values():
        registry.register(_spec(calc, deps))


def _spec(calc: Calculator, deps: CalculatorDeps) -> ToolSpec[Any, CalcResult]:
    async def handler(ctx: ToolContext[CalculatorDeps], args: BaseModel) -> CalcResult:
        given = args.model_dump(exclude_none=True)
        missing = given.pop("missing", "ask")
        note = given.pop("note", None)
        if note is None:
            return evaluate(calc, given, missing=missing)
        from curbside.tools.calculators.note import evaluate_note

        chosen = ctx.deps.model_for_notes()
        model = chosen.model if chosen is not None else None
        unavailable = chosen.unavailable if chosen is not None else None
        return await evaluate_note(calc, note, given, missing=missing, model=model, unavailable=unavailable)

    return ToolSpec(
        name=f"calc.{calc.id}",
        description=f"{calc.title}: {calc.summary}",
        args_model=args_model(calc),
        result_model=CalcResult,
        handler=handler,
        category="calculation",
        requires_phi=True,  # patient values go in
        timeout_s=_timeout(deps),
        rate_limit=deps.settings.tool_calc_rate_limit,
        citation=calc.citation,
        deps=deps,
    )


def _timeout(deps: CalculatorDeps) -> float:
    """The formulas are local; with a local model configured, a note's criteria take a generation too."""
    settings = deps.settings
    if (deps.note_model is not None or deps.models is not None) and settings.local_llm_url:
        return settings.tool_calc_timeout_s + settings.llm_timeout_s
    return settings.tool_calc_timeout_s
