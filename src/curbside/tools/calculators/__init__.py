"""``calc.<id>``: clinical calculators, exact, cited and unit-aware — one tool each.

Each calculator is declared in ``library/`` (inputs, formula, bands, citation); this module turns
every declaration into a tool whose argument schema lists its inputs, so a model or a clinician
sees the units, the plausible ranges and the criteria before calling.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from curbside.tools.base import ToolContext, ToolSpec
from curbside.tools.calculators.catalog import calculators
from curbside.tools.calculators.kit import CalcResult, Calculator, Criterion, Day, Number, evaluate
from curbside.tools.calculators.units import DIMENSIONS

if TYPE_CHECKING:
    from curbside.settings import Settings
    from curbside.tools.registry import ToolRegistry

__all__ = ["CalculatorDeps", "Quantity", "args_model", "register"]

MAX_NOTE_CHARS = 20_000


@dataclass(frozen=True)
class CalculatorDeps:
    settings: Settings


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
        return evaluate(calc, given, missing=missing)

    return ToolSpec(
        name=f"calc.{calc.id}",
        description=f"{calc.title}: {calc.summary}",
        args_model=args_model(calc),
        result_model=CalcResult,
        handler=handler,
        category="calculation",
        requires_phi=True,  # patient values go in
        timeout_s=deps.settings.tool_calc_timeout_s,
        rate_limit=deps.settings.tool_calc_rate_limit,
        citation=calc.citation,
        deps=deps,
    )
