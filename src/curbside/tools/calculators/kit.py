"""What a calculator is: its inputs, its formula, its bands, its citation — declared once.

A calculator module declares ``Calculator`` values; ``evaluate`` turns the caller's raw arguments
into a ``CalcResult``: units converted and shown, impossible values refused with the plausible range,
missing criteria never assumed unless the caller says ``missing="absent"`` (and then listed), and a
result that carries the points each criterion gave, the formula's version and its citation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, Field

from curbside.errors import ValidationError
from curbside.tools.calculators.units import DIMENSIONS, convert

__all__ = [
    "Above",
    "Band",
    "CalcResult",
    "Calculator",
    "Choice",
    "Contribution",
    "Criterion",
    "Day",
    "Given",
    "MissingInput",
    "Number",
    "Outcome",
    "band_for",
    "evaluate",
    "sum_points",
]


# --- inputs ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Number:
    """A measured or counted value, in ``dimension``'s canonical unit unless the caller gives another.

    ``low``/``high`` bound what is physiologically possible; outside them the value is refused.
    """

    key: str
    label: str
    dimension: str
    low: float
    high: float
    required: bool = True
    description: str = ""
    aliases: tuple[str, ...] = ()  # how notes name it ("creatinine", "Cr", "SCr"): for extraction from a note

    @property
    def unit(self) -> str:
        return DIMENSIONS[self.dimension].unit


@dataclass(frozen=True)
class Above:
    """A criterion that is a measurement above a cut-off ("Heart rate > 100"): a note's measured value
    decides it. ``cutoff``, ``low`` and ``high`` are in ``dimension``'s canonical unit."""

    label: str  # the measurement's name, as a Number's label ("Heart rate")
    dimension: str
    cutoff: float
    low: float
    high: float


@dataclass(frozen=True)
class Recent:
    """A criterion that is an event within a time window ("surgery in the previous 4 weeks"): a note's
    explicit elapsed time for an affirmed event ("knee replacement 3 weeks ago") decides it. ``within``:
    the longest elapsed time, in days, that is surely inside the window; ``beyond``: the shortest surely
    outside it ("< 1 month": 27 and 31, since a month is 28-31 days). ``events``: the words for the event,
    when they are not the criterion's own (a criterion that is surgery *or* immobilisation times only the
    surgery)."""

    within: float
    beyond: float
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class Criterion:
    """A yes/no item worth ``points`` when present (negative points subtract, as in Wells)."""

    key: str
    label: str
    points: float = 1.0
    description: str = ""
    aliases: tuple[str, ...] = ()  # phrases a note uses for it: for extraction from a note
    measured: Above | None = None  # a measurement past a cut-off: read from the note's number when written
    recent: Recent | None = None  # an event within a time window: read from an explicit elapsed time


@dataclass(frozen=True)
class Choice:
    """One of named options, each worth points (or just naming a convention).

    ``default`` set: a convention with a cited default, used when the caller gives none (the result
    says so). ``absent`` set: the option taken when the caller passes ``missing="absent"``.
    """

    key: str
    label: str
    options: Mapping[str, float]
    default: str | None = None
    absent: str | None = None
    description: str = ""
    in_note: bool = True  # False: the caller's question, not a fact of the patient (a conversion's target)


@dataclass(frozen=True)
class Day:
    """A calendar date (ISO 'YYYY-MM-DD'), e.g. the first day of the last menstrual period."""

    key: str
    label: str
    required: bool = True
    description: str = ""


Input = Number | Criterion | Choice | Day


# --- outcome and result -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Band:
    """A category from ``lower`` (inclusive) up to the next band's lower bound."""

    lower: float
    category: str
    meaning: str


def band_for(value: float, bands: Sequence[Band]) -> Band:
    """The band ``value`` falls in: the highest ``lower`` at or below it (bands in ascending order)."""
    chosen = bands[0]
    for band in bands:
        if value >= band.lower - 1e-9:
            chosen = band
    return chosen


@dataclass
class Outcome:
    """What a formula returns: the value with its unit; the category and meaning; warnings."""

    value: float
    unit: str
    category: str | None = None
    meaning: str | None = None
    digits: int = 0  # decimals shown and returned
    warnings: list[str] = field(default_factory=list)
    extra: dict[str, float] = field(default_factory=dict)  # secondary values (e.g. each QTc formula)
    display: str | None = None  # how a clinician reads it when not 'value unit' (a date, '34 weeks 3 days')


class Contribution(BaseModel):
    input: str
    label: str
    value: Any = Field(description="The input as used (after unit conversion).")
    points: float


class MissingInput(BaseModel):
    input: str
    label: str
    kind: Literal["number", "criterion", "choice", "date"]
    unit: str | None = None
    options: list[str] | None = None


class CalcResult(BaseModel):
    calculator: str = Field(description="Its id, e.g. 'wells_dvt' (the tool is calc.<id>).")
    title: str
    status: Literal["complete", "needs_more_info"] = Field(
        description="needs_more_info: 'missing' lists what to supply; nothing is assumed unless missing='absent'."
    )
    value: float | None = None
    unit: str | None = None
    display: str | None = Field(None, description="The value as a clinician reads it, e.g. '3 points' or '54 mL/min'.")
    category: str | None = None
    meaning: str | None = Field(None, description="What the category means, e.g. '≥ 2: DVT likely'.")
    points: list[Contribution] = Field(default_factory=list, description="Each criterion's contribution.")
    inputs_used: dict[str, Any] = Field(default_factory=dict, description="Every input as used, canonical units.")
    conversions: list[str] = Field(
        default_factory=list, description="Unit conversions done, e.g. '106 µmol/L = 1.2 mg/dL'."
    )
    assumed_absent: list[str] = Field(default_factory=list, description="Criteria scored absent because not given.")
    conventions: dict[str, str] = Field(default_factory=dict, description="Conventions used, defaults marked.")
    missing: list[MissingInput] = Field(default_factory=list)
    extra: dict[str, float] = Field(default_factory=dict, description="Secondary values the formula also gives.")
    formula: str = Field(description="The formula's name and version.")
    citation: str
    warnings: list[str] = Field(default_factory=list)
    extracted: list[dict[str, Any]] = Field(
        default_factory=list, description="From a note: each value found with the sentence it came from."
    )


# --- the calculator ---------------------------------------------------------------------------------


class Given:
    """The inputs as the formula reads them: numbers in canonical units, criteria as bools, choices as names."""

    def __init__(self, values: Mapping[str, Any], calculator: Calculator) -> None:
        self._values = dict(values)
        self.calculator = calculator

    def num(self, key: str) -> float:
        return float(self._values[key])

    def opt(self, key: str) -> float | None:
        value = self._values.get(key)
        return None if value is None else float(value)

    def flag(self, key: str) -> bool:
        return bool(self._values[key])

    def choice(self, key: str) -> str:
        return str(self._values[key])

    def day(self, key: str) -> date:
        value = self._values[key]
        assert isinstance(value, date)
        return value

    def has(self, key: str) -> bool:
        return self._values.get(key) is not None

    def as_dict(self) -> dict[str, Any]:
        return dict(self._values)


@dataclass(frozen=True)
class Calculator:
    """One calculator. ``summary`` is the one line a model chooses it by; ``citation`` the primary source."""

    id: str
    title: str
    summary: str
    formula: str
    citation: str
    inputs: tuple[Input, ...]
    compute: Callable[[Given], Outcome]
    warnings: tuple[str, ...] = ()  # always shown (e.g. a formula's known limits)
    check: Callable[[Given], None] | None = None  # cross-input checks; raise ValidationError

    def input(self, key: str) -> Input:
        for item in self.inputs:
            if item.key == key:
                return item
        raise KeyError(key)


def sum_points(given: Given) -> tuple[float, list[Contribution]]:
    """The sum of every criterion's and choice's points, with each one's contribution."""
    total = 0.0
    parts: list[Contribution] = []
    values = given.as_dict()
    for item in given.calculator.inputs:
        if isinstance(item, Criterion):
            present = bool(values.get(item.key))
            points = item.points if present else 0.0
            parts.append(Contribution(input=item.key, label=item.label, value=present, points=points))
            total += points
        elif isinstance(item, Choice) and item.default is None and any(item.options.values()):
            option = values.get(item.key)
            if option is None:
                continue
            points = float(item.options[option])
            parts.append(Contribution(input=item.key, label=item.label, value=option, points=points))
            total += points
    return total, parts


def evaluate(
    calculator: Calculator,
    arguments: Mapping[str, Any],
    *,
    missing: Literal["ask", "absent"] = "ask",
) -> CalcResult:
    """Run ``calculator`` on raw ``arguments`` (numbers, ``{"value", "unit"}``, bools, option names)."""
    known = {item.key for item in calculator.inputs}
    unknown = sorted(set(arguments) - known)
    if unknown:
        raise ValidationError(
            f"{calculator.id} has no input {', '.join(map(repr, unknown))}; its inputs: {', '.join(sorted(known))}"
        )
    values: dict[str, Any] = {}
    conversions: list[str] = []
    conventions: dict[str, str] = {}
    assumed: list[str] = []
    lacking: list[MissingInput] = []
    for item in calculator.inputs:
        raw = arguments.get(item.key)
        if isinstance(item, Number):
            if raw is None:
                if item.required:
                    lacking.append(MissingInput(input=item.key, label=item.label, kind="number", unit=item.unit))
                values[item.key] = None
                continue
            number, note = _number(item, raw)
            if note:
                conversions.append(f"{item.label}: {note}")
            values[item.key] = number
        elif isinstance(item, Criterion):
            if raw is None:
                if missing == "absent":
                    assumed.append(item.label)
                    values[item.key] = False
                else:
                    lacking.append(MissingInput(input=item.key, label=item.label, kind="criterion"))
                continue
            values[item.key] = _bool(item, raw)
        elif isinstance(item, Day):
            if raw is None:
                if item.required:
                    lacking.append(MissingInput(input=item.key, label=item.label, kind="date"))
                values[item.key] = None
                continue
            values[item.key] = _day(item, raw)
        else:
            if raw is None:
                if item.default is not None:
                    values[item.key] = item.default
                    conventions[item.key] = f"{item.default} (default)"
                elif missing == "absent" and item.absent is not None:
                    values[item.key] = item.absent
                    assumed.append(f"{item.label}: {item.absent}")
                else:
                    lacking.append(
                        MissingInput(input=item.key, label=item.label, kind="choice", options=list(item.options))
                    )
                continue
            option = str(raw)
            if option not in item.options:
                raise ValidationError(
                    f"{item.key}: {option!r} is not an option; choose one of {', '.join(item.options)}"
                )
            values[item.key] = option
            if item.default is not None:
                conventions[item.key] = option
    base = CalcResult(
        calculator=calculator.id,
        title=calculator.title,
        status="needs_more_info",
        inputs_used={k: _shown(v) for k, v in values.items() if v is not None},
        conversions=conversions,
        assumed_absent=assumed,
        conventions=conventions,
        formula=calculator.formula,
        citation=calculator.citation,
        warnings=list(calculator.warnings),
    )
    if lacking:
        base.missing = lacking
        return base
    given = Given(values, calculator)
    if calculator.check is not None:
        calculator.check(given)
    outcome = calculator.compute(given)
    _, parts = sum_points(given)
    value = round(outcome.value, outcome.digits) if outcome.digits else float(round(outcome.value))
    if not math.isfinite(value):
        raise ValidationError(f"{calculator.id}: these inputs give no finite value")
    base.status = "complete"
    base.value = value
    base.unit = outcome.unit
    base.display = outcome.display or _display(value, outcome.unit, outcome.digits)
    base.category = outcome.category
    base.meaning = outcome.meaning
    scored = _scored_inputs(calculator, values, outcome.extra)
    # a criterion the formula scored itself (smoking points that depend on age) shows those points, once
    rescored = {part.input for part in scored}
    parts = [*(part for part in parts if part.input not in rescored), *scored]
    if outcome.unit == "points" and any(part.points for part in parts):
        # a score's points add up to its value: what the named parts do not account for is said, not hidden;
        # an equation on a points scale (MELD) whose criteria only switch a bound adds nothing up
        rest = value - sum(part.points for part in parts)
        if abs(rest) > 1e-9:
            parts.append(Contribution(input="*", label="Points from the other inputs", value=None, points=rest))
    base.points = parts
    base.extra = outcome.extra
    base.warnings = [*base.warnings, *outcome.warnings]
    return base


def _scored_inputs(calculator: Calculator, values: Mapping[str, Any], extra: Mapping[str, float]) -> list[Contribution]:
    """The points a formula scored from a numeric input itself (its band of age, bilirubin …), which it
    reports as ``<input>_points`` in ``extra``: each is a contribution like a criterion's."""
    parts = []
    for name, points in extra.items():
        key = name.removesuffix("_points")
        if key == name or key not in values:
            continue
        try:
            label = calculator.input(key).label
        except KeyError:
            label = key.replace("_", " ")
        parts.append(Contribution(input=key, label=label, value=_shown(values[key]), points=float(points)))
    return parts


def _number(item: Number, raw: Any) -> tuple[float, str | None]:
    unit: str | None = None
    if isinstance(raw, Mapping):
        if "value" not in raw:
            raise ValidationError(f"{item.key}: give a number or {{'value': …, 'unit': …}}")
        unit = raw.get("unit")
        raw = raw["value"]
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        try:
            raw = float(str(raw))
        except ValueError:
            raise ValidationError(f"{item.key}: {raw!r} is not a number") from None
    number, note = convert(float(raw), unit, item.dimension)
    if not math.isfinite(number) or not item.low <= number <= item.high:
        shown = f"{raw} {unit}" if unit else f"{raw} {item.unit}"
        raise ValidationError(
            f"{item.key}: {shown} is not plausible for {item.label}; "
            f"expected {_fmt(item.low)}–{_fmt(item.high)} {item.unit}"
        )
    return number, note


_TRUE = {"true", "yes", "y", "1", "present", "positive"}
_FALSE = {"false", "no", "n", "0", "absent", "negative"}


def _bool(item: Criterion, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValidationError(f"{item.key}: {raw!r} is not yes or no")


def _shown(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float):
        return float(f"{value:.4g}")
    return value


def _day(item: Day, raw: Any) -> date:
    if isinstance(raw, date):
        return raw
    try:
        return date.fromisoformat(str(raw).strip())
    except ValueError:
        raise ValidationError(f"{item.key}: {raw!r} is not a date; write it as YYYY-MM-DD") from None


def _fmt(value: float) -> str:
    return f"{value:g}"


def _display(value: float, unit: str, digits: int) -> str:
    shown = f"{value:.{digits}f}" if digits else f"{value:.0f}"
    if unit == "points":
        return f"{shown} point" if shown == "1" else f"{shown} points"
    return f"{shown} {unit}"
