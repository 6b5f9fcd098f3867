"""Clinical units: each measured input has a dimension, a canonical unit the formulas use, and the
common units a clinician writes, converted with cited factors.

Factors (one place, each with its source):
- creatinine 1 mg/dL = 88.4 µmol/L; bilirubin 1 mg/dL = 17.1 µmol/L; glucose 1 mmol/L = 18.016 mg/dL
  (molar masses 113.12, 584.66, 180.16 g/mol; the SI conversion table of the AMA Manual of Style,
  11th ed., 2020, §18.5, as used by NEJM/JAMA "Conventional to SI units").
- urea: BUN mg/dL = urea mmol/L × 2.8 (nitrogen 28.02 g per mol urea; same table).
- calcium 1 mmol/L = 4.008 mg/dL (40.08 g/mol); magnesium 1 mmol/L = 2.431 mg/dL.
- total / LDL / HDL cholesterol 1 mmol/L = 38.67 mg/dL; triglycerides 1 mmol/L = 88.57 mg/dL
  (Friedewald's units; NCEP ATP III, 2002, conversion note).
- insulin 1 µIU/mL = 6.00 pmol/L (Heinemann L., Diabetes Care 2010;33:e83).
- weight 1 lb = 0.45359237 kg, height 1 in = 2.54 cm (international yard and pound, 1959).
- pressure 1 kPa = 7.50062 mmHg; temperature °F = °C × 9/5 + 32.
- albumin, haemoglobin, protein 1 g/dL = 10 g/L; platelets 1 ×10⁹/L = 1 ×10³/µL.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from curbside.errors import ValidationError

__all__ = ["DIMENSIONS", "Dimension", "convert", "normalize_unit"]


@dataclass(frozen=True)
class Dimension:
    """What an input measures: its canonical unit and every accepted unit as ``value × factor + offset``."""

    name: str
    unit: str
    units: dict[str, tuple[float, float]]  # normalized spelling -> (factor, offset) into ``unit``
    accepted: tuple[str, ...]  # as a clinician writes them, the canonical unit first


def normalize_unit(unit: str) -> str:
    """'µmol/L', 'umol/l', 'μmol / L' -> 'umol/l'; '°F' -> 'f'."""
    text = unit.strip().lower().replace("µ", "u").replace("μ", "u").replace(" ", "").replace("°", "")
    return text.replace("⁹", "9").replace("³", "3").replace("×", "x").replace("*", "x")


def _dimension(name: str, unit: str, others: Mapping[str, float | tuple[float, float]] | None = None) -> Dimension:
    """A dimension whose ``others`` map a unit as written to its factor (or factor and offset) into ``unit``."""
    units: dict[str, tuple[float, float]] = {normalize_unit(unit): (1.0, 0.0)}
    shown: dict[str, str] = {normalize_unit(unit): unit}
    for spelling, rule in (others or {}).items():
        units[normalize_unit(spelling)] = rule if isinstance(rule, tuple) else (float(rule), 0.0)
        shown[normalize_unit(spelling)] = spelling
    return Dimension(name, unit, units, tuple(shown.values()))


_PER_10_9 = {"10^3/uL": 1.0, "x10^9/L": 1.0, "10^9/L": 1.0, "K/uL": 1.0, "10^3/mm3": 1.0}

DIMENSIONS: dict[str, Dimension] = {
    d.name: d
    for d in (
        _dimension("creatinine", "mg/dL", {"µmol/L": 1 / 88.4, "mmol/L": 1000 / 88.4}),
        _dimension("bilirubin", "mg/dL", {"µmol/L": 1 / 17.1}),
        _dimension("glucose", "mg/dL", {"mmol/L": 18.016}),
        _dimension("bun", "mg/dL", {"mmol/L": 2.8}),  # urea in mmol/L -> blood urea nitrogen in mg/dL
        _dimension("calcium", "mg/dL", {"mmol/L": 4.008}),
        _dimension("magnesium", "mg/dL", {"mmol/L": 2.431}),
        _dimension("ethanol", "mg/dL", {"mmol/L": 4.607, "g/L": 100.0}),  # ethanol 46.07 g/mol (AMA Manual §18.5)
        _dimension("cholesterol", "mg/dL", {"mmol/L": 38.67}),
        _dimension("triglycerides", "mg/dL", {"mmol/L": 88.57}),
        _dimension("insulin", "µIU/mL", {"pmol/L": 1 / 6.0, "mU/L": 1.0, "mIU/L": 1.0}),
        _dimension("albumin", "g/dL", {"g/L": 0.1}),
        _dimension("hemoglobin", "g/dL", {"g/L": 0.1}),
        _dimension("protein", "g/dL", {"g/L": 0.1}),
        _dimension("electrolyte", "mmol/L", {"mEq/L": 1.0}),
        _dimension("osmolality", "mOsm/kg", {"mmol/kg": 1.0}),
        _dimension("platelets", "10^9/L", _PER_10_9),
        _dimension("wbc", "10^9/L", _PER_10_9),
        _dimension("enzyme", "U/L", {"IU/L": 1.0}),
        _dimension("ratio", "ratio"),
        _dimension("weight", "kg", {"lb": 0.45359237, "lbs": 0.45359237, "g": 0.001}),
        _dimension("bmi", "kg/m²", {"kg/m2": 1.0}),  # body mass index (a target BMI)
        _dimension("height", "cm", {"m": 100.0, "in": 2.54, "inch": 2.54, "ft": 30.48, "mm": 0.1}),
        _dimension("temperature", "°C", {"C": 1.0, "°F": (5 / 9, -32 * 5 / 9), "K": (1.0, -273.15)}),
        _dimension("pressure", "mmHg", {"kPa": 7.50062}),
        _dimension("rate", "/min", {"bpm": 1.0, "breaths/min": 1.0, "beats/min": 1.0}),
        _dimension("age", "years", {"yr": 1.0, "y": 1.0, "months": 1 / 12}),
        _dimension("duration_ms", "ms", {"s": 1000.0}),
        _dimension("percent", "%"),
        _dimension("fio2", "fraction", {"%": 0.01}),  # inspired oxygen: 0.21-1.0, or 21-100 %
        _dimension("hematocrit", "%", {"L/L": 100.0}),
        _dimension("dose_mcg_h", "mcg/h", {"µg/h": 1.0}),
        _dimension("dose_mcg_kg_min", "µg/kg/min", {"mcg/kg/min": 1.0}),  # vasopressor infusion rates (SOFA)
        _dimension("ph", "pH"),
        _dimension("dose_mg", "mg", {"g": 1000.0, "mcg": 0.001, "µg": 0.001}),
        _dimension("volume_ml", "mL", {"L": 1000.0}),
        _dimension("count", "count"),
        _dimension("hours", "h", {"min": 1 / 60, "days": 24.0}),
        _dimension("days", "days", {"weeks": 7.0}),
    )
}


def convert(value: float, unit: str | None, dimension: str) -> tuple[float, str | None]:
    """``value`` in ``unit`` -> (value in the dimension's canonical unit, a note saying what was done or None).

    An unknown unit is an error naming the accepted ones.
    """
    dim = DIMENSIONS[dimension]
    if unit is None:
        return value, None
    key = normalize_unit(unit)
    if key not in dim.units:
        raise ValidationError(f"unit {unit!r} is not a unit of {dim.name}; accepted: {', '.join(dim.accepted)}")
    factor, offset = dim.units[key]
    if factor == 1.0 and offset == 0.0:
        return value, None
    converted = value * factor + offset
    return converted, f"{_fmt(value)} {unit} = {_fmt(converted)} {dim.unit}"


def _fmt(value: float) -> str:
    return f"{value:.4g}" if abs(value) < 1000 else f"{value:.0f}"
