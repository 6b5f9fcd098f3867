"""Writes that depend on what the chart says: "if her latest K is under 4.0, give …", "order an HbA1c if
the last one is more than a year old". The condition is read from the words by rules; the turn checks it
against the value the lab step read, and writes only when it holds — saying why either way.

A dose given by rule ("one tablet for every 0.1 below 4.0, rounded up") is computed from the same value.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

__all__ = ["Condition", "DoseRule", "condition_in", "conditional_writes", "dose_rule_in", "states_a_condition"]

_BELOW = r"(?:below|under|less than|lower than|<)"
_ABOVE = r"(?:above|over|greater than|more than|higher than|>)"
_VALUE = re.compile(
    rf"(?:(?P<below>{_BELOW})|(?P<above>{_ABOVE}))\s*=?\s*(?P<n>\d+(?:\.\d+)?)(?!\s*(?:mg|meq|tab|mmol/l? per))"
)
_TARGET = re.compile(r"(?:at|to be)\s*(?P<n>\d+(?:\.\d+)?)\s*or above|>=\s*(?P<m>\d+(?:\.\d+)?)")
_OLDER = re.compile(
    r"(?:more than|over|older than|>)\s*(?:a|one|1|12)\s*(?:year|yr|months?)|(?:a|one|1)\s*year\s*(?:old|ago)"
)
_IF = re.compile(r"\bif\b|\bonly\b|\banything over\b|\?\s*if yes\b|\bdue\b")
# "hasn't had one in the last 12 months", "not checked within the past 6 months": due when older than that
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "six": 6, "twelve": 12, "eighteen": 18}
_NOT_WITHIN = re.compile(
    r"\b(?:has\s*n[o']?t|hasnt|had\s*n[o']?t|hadnt|not|no\s+\w+)\b[^.;:?!]{0,40}?\b(?:in|within)\s+the\s+"
    r"(?:last|past|previous)\s+(?P<n>\d+|a|an|one|two|three|six|twelve|eighteen)?\s*(?P<unit>days?|weeks?|months?|"
    r"years?|yrs?|mos?)\b"
)
_OLDER_N = re.compile(
    r"(?:more than|over|older than|>)\s*(?P<n>\d+|two|three|six|eighteen)\s*(?P<unit>days?|weeks?|months?|mos?|years?|yrs?)"
)
_UNIT_DAYS = {"d": 1, "w": 7, "m": 30.44, "y": 365.25}
# a write the message makes depend on something: "only if", "if …", "unless …" (not "if you can", "if possible")
_CONDITIONAL = re.compile(
    r"\bunless\b|\bif\b(?!\s+(?:you\s+(?:can|could|don'?t\s+mind|have\s+a\s+(?:sec|moment|minute))|possible|"
    r"that'?s\s+(?:ok|okay|alright)|ok|okay|needed\s+for\s+pain))"
)
_PER_STEP = re.compile(
    r"(?:one|1)\s*(?:tablet|tab)s?\s*(?:for every|per|for each)\s*(?P<step>\d*\.\d+)(?:\s*mmol/l)?\s*"
    r"(?:below|under)\s*(?P<t>\d+(?:\.\d+)?)"
)


@dataclass(frozen=True)
class Condition:
    kind: str  # "below" | "above" | "older"
    threshold: float | None = None  # the value's (below/above) or days (older)

    def holds(self, value: Any, when: str | None, now: datetime) -> bool | None:
        """True or False from the lab's latest value and date; None when there is nothing to judge by."""
        if self.kind == "older":
            if not when:
                return True  # never done: it is due
            taken = datetime.fromisoformat(when)
            if taken.tzinfo is None:
                taken = taken.replace(tzinfo=now.tzinfo)
            return (now - taken).days > (self.threshold or 365)
        if not isinstance(value, int | float) or self.threshold is None:
            return None
        return value < self.threshold if self.kind == "below" else value > self.threshold

    def words(self, label: str) -> str:
        if self.kind == "older":
            days = self.threshold or 365
            age = "a year" if days == 365 else (f"{days / 30.44:.0f} months" if days >= 56 else f"{days:g} days")
            return f"the last {label} is more than {age} old"
        return f"the latest {label} is {self.kind} {self.threshold:g}"


@dataclass(frozen=True)
class DoseRule:
    step: float
    below: float

    def tablets(self, value: float) -> int:
        # "rounded up": 3.72 below 4.0 by 0.1 steps is 2.8 -> 3 tablets (a small epsilon: 3.7 is exactly 3)
        return max(1, math.ceil((self.below - value) / self.step - 1e-9))


def condition_in(message: str) -> Condition | None:
    low = message.lower()
    if not _IF.search(low):
        return None
    within = _NOT_WITHIN.search(low) or _OLDER_N.search(low)
    if within:
        return Condition("older", _days(within.group("n"), within.group("unit")))
    if _OLDER.search(low):
        return Condition("older", 365)
    target = _TARGET.search(low)
    if target:
        return Condition("below", float(target.group("n") or target.group("m")))
    found = _VALUE.search(low)
    if found:
        return Condition("below" if found.group("below") else "above", float(found.group("n")))
    return None


def states_a_condition(message: str) -> bool:
    """Does the message make something depend on a condition ("only if …", "unless …")? A write in such a
    message is proposed only when the condition was read and can be checked."""
    return _CONDITIONAL.search(message.lower()) is not None


def _days(count: str | None, unit: str) -> float:
    n = _COUNTS.get(count or "a") if not (count or "").isdigit() else int(count or 1)
    days = (n or 1) * _UNIT_DAYS[unit[0]]
    return 365.0 if round(days) in (365, 366) else round(days)


def dose_rule_in(message: str) -> DoseRule | None:
    found = _PER_STEP.search(message.lower())
    return DoseRule(float(found.group("step")), float(found.group("t"))) if found else None


_RXNORM = re.compile(r"rxnorm[\s:#]*(\d{2,9})", re.IGNORECASE)
_SNOMED = re.compile(r"snomed(?: ct)?[\s:#]*(\d{6,18})", re.IGNORECASE)
_LOINC = re.compile(r"loinc[\s:#]*(\d{1,7}-\d)", re.IGNORECASE)
_REPEAT_K = re.compile(r"\b(?:repeat|recheck|stat|a)\s+(?:potassium|k)\b|\b(?:potassium|k)\s+(?:repeat|recheck|draw)\b")
_TOMORROW_8 = re.compile(r"tomorrow\s*(?:at\s*)?0?8[:.]?00")
_ECG = re.compile(r"\b(?:12[- ]lead\s+)?(?:ecg|ekg)\b")


def conditional_writes(message: str, now: datetime, lab: str) -> list[tuple[str, dict[str, Any]]]:
    """The writes a conditional request names, as tool calls (the dose of a per-step rule is set later)."""
    low = message.lower()
    stat = "stat" in low
    writes: list[tuple[str, dict[str, Any]]] = []
    rx = _RXNORM.search(message)
    if rx:
        name = "potassium chloride 10 mEq ER tablet" if re.search(r"\bkcl\b|potassium chloride", low) else "as ordered"
        writes.append(
            (
                "ehr.prescribe_medication",
                {
                    "medication": name,
                    "rxnorm": rx.group(1),
                    "dose": 1,
                    "dose_unit": "tablet",
                    "route": "oral",
                    "frequency": "once",
                    "reason": f"{lab} replacement",
                },
            )
        )
    if _REPEAT_K.search(low) or (lab == "potassium" and re.search(r"\brepeat\b|\brecheck\b", low)):
        order: dict[str, Any] = {
            "kind": "lab",
            "code_system": "loinc",
            "code": "6298-4",
            "display": "Potassium",
            "priority": "stat" if stat else "routine",
        }
        if _TOMORROW_8.search(low):
            order["when"] = (now + timedelta(days=1)).replace(hour=8, minute=0, second=0, microsecond=0).isoformat()
        writes.append(("ehr.order_service", order))
    snomed = _SNOMED.search(message)
    if snomed and _ECG.search(low):
        writes.append(
            (
                "ehr.order_service",
                {
                    "kind": "procedure",
                    "code_system": "snomed",
                    "code": snomed.group(1),
                    "display": "12-lead ECG",
                    "priority": "stat" if stat else "routine",
                },
            )
        )
    if lab in ("hba1c", "a1c") or "a1c" in low:
        loinc = _LOINC.search(message)
        writes.append(
            (
                "ehr.order_service",
                {
                    "kind": "lab",
                    "code_system": "loinc",
                    "code": loinc.group(1) if loinc else "4548-4",
                    "display": "HbA1c",
                },
            )
        )
    return writes
