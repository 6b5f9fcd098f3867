"""Score an EHR task (``data/ehr_tasks.jsonl``): the turn's answer against the expected one, and the chart writes
the sandbox recorded (``--record-writes``) against the expected writes, field by field.

A turn's outcome is a dict: ``answer`` (text), ``values`` (structured facts, optional) and ``writes`` (the
approved write calls; reported, not scored: the recorded POST bodies are what reached the chart). The answer is
read from ``values`` when it has the key the task needs, else from the text:

    number  values["value"] within the task's tolerance (and values["unit"], when given, the same unit);
            text: any number in it within tolerance, dates, times, codes and ids left out (lenient: a turn
            should give values)
    none    values["none"] is true (or values["value"] / values["items"] empty); text: says none / not found
    patient values["patient_id"] or values["mrn"]; text: holds the id or MRN and no other patient's id
    set     values["items"], compared as a set, case-insensitively ("Allergy to X" and "X allergy" read as X);
            text: names every item and none of the task's ``absent`` names (stopped orders, other patients'
            allergies); an empty set is "none recorded"

Writes: each expected write must match a distinct recorded write on resourceType, subject, a coding (system and
one of the codes), value and unit (converted: °F and °C, lb and kg, in and cm; the same unit exactly),
components (blood pressure), reason (each word group in reasonCode), priority; and no other write may be
recorded, in any task. ``occurrence`` is checked only when the write has one: the write tools refuse an order
time before the machine's clock, so a replayed case cannot schedule "tomorrow 08:00" of 2023 and says it in a
note instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

__all__ = ["TaskScore", "match_write", "score_task", "summarize", "unit_key"]


@dataclass
class TaskScore:
    id: str
    type: str
    ok: bool
    problems: list[str] = field(default_factory=list)


# --- units ------------------------------------------------------------------------------------------------

# spellings of one unit, in unit_key's cleaned form (lower case; no spaces, braces or underscores; ² as 2)
_UNIT_ALIASES = {
    "bpm": "/min", "beats/min": "/min", "breaths/min": "/min", "mmhg": "mm[hg]", "°c": "cel", "c": "cel",
    "degc": "cel", "°f": "[degf]", "f": "[degf]", "degf": "[degf]", "lb": "[lbav]", "lbs": "[lbav]", "in": "[ini]",
    "tablets": "tablet", "tab": "tablet", "tabs": "tablet", "meq/l": "mmol/l", "y": "years", "yr": "years",
    "yrs": "years", "year": "years", "a": "years", "yearsold": "years", "kg/m^2": "kg/m2",
}  # fmt: skip
# to a reference unit, for a write given in another unit than expected
_TO_REFERENCE = {
    "[degf]": ("cel", lambda f: (f - 32) * 5 / 9),
    "[lbav]": ("kg", lambda lb: lb * 0.45359237),
    "g": ("kg", lambda g: g / 1000),
    "[ini]": ("cm", lambda inch: inch * 2.54),
    "m": ("cm", lambda m: m * 100),
}


def unit_key(unit: str | None) -> str:
    """A unit as one comparable string: 'mL/min/{1.73_m2}' and 'mL/min/1.73 m²' are both 'ml/min/1.73m2',
    '{tablet}' and 'tablets' both 'tablet', 'lb' and '[lb_av]' both '[lbav]'."""
    text = (unit or "").lower().replace("²", "2")
    text = re.sub(r"[\s{}_]", "", text)
    return _UNIT_ALIASES.get(text, text)


def _reference(value: float, unit: str | None) -> tuple[float, str]:
    key = unit_key(unit)
    if key in _TO_REFERENCE:
        to, convert = _TO_REFERENCE[key]
        return convert(value), to
    return value, key


def _same_quantity(expected: float, expected_unit: str, got: Any, got_unit: str | None) -> str | None:
    """None when equal: exactly in the same unit, within 0.5 % when converted; else what differs."""
    if not isinstance(got, int | float) or isinstance(got, bool):
        return f"value {got!r} is not a number"
    if unit_key(expected_unit) == unit_key(got_unit):
        if abs(float(got) - expected) <= 1e-9 * max(1.0, abs(expected)):
            return None
        return f"value {got} {got_unit}, expected {expected} {expected_unit}"
    ref_expected, unit_a = _reference(expected, expected_unit)
    ref_got, unit_b = _reference(float(got), got_unit)
    if unit_a != unit_b:
        return f"unit {got_unit!r}, expected {expected_unit!r}"
    if abs(ref_got - ref_expected) <= 0.005 * abs(ref_expected):
        return None
    return f"value {got} {got_unit} ({ref_got:.3g} {unit_b}), expected {expected} {expected_unit}"


# --- writes -----------------------------------------------------------------------------------------------


def written_resources(recorded: Iterable[Mapping[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """(method, resource) for every recorded write; a transaction or batch counts as its entries."""
    found: list[tuple[str, dict[str, Any]]] = []
    for write in recorded:
        method = str(write.get("method", "")).upper()
        body = write.get("body") if isinstance(write.get("body"), dict) else {}
        assert isinstance(body, dict)
        if body.get("resourceType") == "Bundle":
            for entry in body.get("entry") or []:
                request = entry.get("request") or {}
                found.append((str(request.get("method", "POST")).upper(), entry.get("resource") or {}))
        else:
            found.append((method, body))
    return found


def _codings(resource: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    concept = resource.get("code") or resource.get("medicationCodeableConcept") or {}
    return [c for c in concept.get("coding") or [] if isinstance(c, dict)]


def _quantity(resource: Mapping[str, Any]) -> tuple[Any, str | None]:
    if resource.get("resourceType") == "MedicationRequest":
        dosage = (resource.get("dosageInstruction") or [{}])[0]
        quantity = ((dosage.get("doseAndRate") or [{}])[0]).get("doseQuantity") or {}
    else:
        quantity = resource.get("valueQuantity") or {}
    return quantity.get("value"), quantity.get("code") or quantity.get("unit")


def _reason_text(resource: Mapping[str, Any]) -> str:
    words = []
    for concept in resource.get("reasonCode") or []:
        words.append(str(concept.get("text") or ""))
        words += [str(c.get("display") or "") for c in concept.get("coding") or []]
    words += [str(r.get("display") or "") for r in resource.get("reasonReference") or []]
    return " ".join(words).lower()


def _occurrence_problem(expected: str, got: str) -> str | None:
    want = datetime.fromisoformat(expected)
    if len(got) == 10:  # a date only
        return None if got == want.date().isoformat() else f"occurrence {got}, expected {expected}"
    try:
        when = datetime.fromisoformat(got.replace("Z", "+00:00"))
    except ValueError:
        return f"occurrence {got!r} is not a date-time"
    if when.tzinfo is None or abs(when - want) > timedelta(minutes=60):
        return f"occurrence {got}, expected {expected}"
    return None


def match_write(expected: Mapping[str, Any], method: str, resource: Mapping[str, Any]) -> list[str]:
    """What differs between an expected write and a recorded one (empty: they match)."""
    if method != "POST":
        return [f"{method} is not a create"]
    if resource.get("resourceType") != expected["resourceType"]:
        return [f"resourceType {resource.get('resourceType')!r}, expected {expected['resourceType']!r}"]
    problems = []
    subject = (resource.get("subject") or resource.get("patient") or {}).get("reference")
    if subject != expected["subject"]:
        problems.append(f"subject {subject!r}, expected {expected['subject']!r}")
    want = expected["code"]
    codings = _codings(resource)
    if not any(c.get("system") == want["system"] and c.get("code") in want["codes"] for c in codings):
        got = [f"{c.get('system')}|{c.get('code')}" for c in codings]
        problems.append(f"code {got}, expected {want['system']}|{' or '.join(want['codes'])}")
    if "value" in expected:
        value, unit = _quantity(resource)
        if problem := _same_quantity(expected["value"], expected["unit"], value, unit):
            problems.append(problem)
    for part in expected.get("components", []):
        found = [
            c
            for c in resource.get("component") or []
            if any(x.get("code") in part["codes"] for x in (c.get("code") or {}).get("coding") or [])
        ]
        if not found:
            problems.append(f"no component {part['codes'][0]}")
            continue
        quantity = found[0].get("valueQuantity") or {}
        got_unit = quantity.get("code") or quantity.get("unit")
        if problem := _same_quantity(part["value"], part["unit"], quantity.get("value"), got_unit):
            problems.append(f"component {part['codes'][0]}: {problem}")
    reason = _reason_text(resource)
    for words in expected.get("reason", []):
        if words.lower() not in reason:
            problems.append(f"reason {reason!r} does not say {words!r}")
    if "priority" in expected and resource.get("priority") != expected["priority"]:
        problems.append(f"priority {resource.get('priority')!r}, expected {expected['priority']!r}")
    if "occurrence" in expected and resource.get("occurrenceDateTime"):
        if problem := _occurrence_problem(expected["occurrence"], str(resource["occurrenceDateTime"])):
            problems.append(problem)
    return problems


def _assign(expected: Sequence[Mapping[str, Any]], writes: Sequence[tuple[str, dict[str, Any]]]) -> list[int] | None:
    """An index into ``writes`` for each expected write, all distinct and matching; None if there is none."""

    def search(i: int, used: frozenset[int]) -> list[int] | None:
        if i == len(expected):
            return []
        for j, (method, resource) in enumerate(writes):
            if j not in used and not match_write(expected[i], method, resource):
                rest = search(i + 1, used | {j})
                if rest is not None:
                    return [j, *rest]
        return None

    return search(0, frozenset())


def _write_problems(expected: Sequence[Mapping[str, Any]], writes: Sequence[tuple[str, dict[str, Any]]]) -> list[str]:
    assigned = _assign(expected, writes)
    if assigned is not None:
        extra = len(writes) - len(assigned)
        return [f"{extra} write(s) not asked for"] if extra else []
    problems = []
    for want in expected:
        same_type = [(m, r) for m, r in writes if r.get("resourceType") == want["resourceType"]]
        if not same_type:
            problems.append(f"no {want['resourceType']} written")
            continue
        nearest = min((match_write(want, m, r) for m, r in same_type), key=len)
        problems.append(
            f"{want['resourceType']}: " + "; ".join(nearest) if nearest else f"{want['resourceType']}: taken twice"
        )
    if len(writes) > len(expected):
        problems.append(f"{len(writes)} writes recorded, {len(expected)} expected")
    return problems


# --- answers ----------------------------------------------------------------------------------------------

_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I)
_NOT_A_VALUE = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"  # dates, date-times
    r"|\b\d{1,2}:\d{2}(?::\d{2})?\b"  # times
    r"|\b\d{1,7}-\d\b"  # LOINC codes
    r"|\b(?:loinc|snomed(?: ct)?|rxnorm|mrn)[:\s]*[\d-]+",
    re.I,
)
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?")
_NONE = re.compile(
    r"\b(?:none|no (?:\w+\s){0,5}?(?:recorded|found|documented|on file|results?|values?|matches?|match|record|"
    r"patient|allerg\w*|measurements?)|not (?:recorded|found|on file|documented|available)|nothing "
    r"(?:recorded|on file|found)|nkda|nka|could not find|couldn't find|cannot find|can't find)\b",
    re.I,
)


def _numbers(text: str) -> list[float]:
    cleaned = _NOT_A_VALUE.sub(" ", _UUID.sub(" ", text))
    return [float(n) for n in _NUMBER.findall(cleaned.replace(",", ""))]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _says_none(values: Mapping[str, Any], answer: str) -> bool | None:
    """True/False from the values when they say; None when only the text can tell."""
    if values.get("none") is True:
        return True
    if _is_number(values.get("value")) or values.get("patient_id") or values.get("mrn") or values.get("items"):
        return False
    if "value" in values and values["value"] is None:
        return True
    if "items" in values and values["items"] == []:
        return True
    return None


def _number_problems(expected: Mapping[str, Any], values: Mapping[str, Any], answer: str) -> list[str]:
    want, tol = float(expected["value"]), float(expected["tolerance"]) + 1e-9
    if values.get("none") is True:
        return [f"said none; expected {want:g} {expected['unit']}"]
    if _is_number(values.get("value")):
        got = float(values["value"])
        problems = [] if abs(got - want) <= tol else [f"value {got:g}, expected {want:g} ± {tol:.3g}"]
        unit = values.get("unit")
        if unit and unit_key(str(unit)) != unit_key(expected["unit"]):
            problems.append(f"unit {unit!r}, expected {expected['unit']!r}")
        return problems
    numbers = _numbers(answer)
    if any(abs(n - want) <= tol for n in numbers):
        return []
    return [f"no {want:g} (± {tol:.3g}) in the answer (numbers: {numbers[:6]})"]


def _normal_item(text: str) -> str:
    item = " ".join(text.lower().split())
    item = re.sub(r"\s*\((?:substance|disorder|finding)\)$", "", item)
    item = re.sub(r"^allergy to\s+", "", item)
    return re.sub(r"\s+allergy$", "", item)


def _mentions(text: str, item: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(item)}(?!\w)", text) is not None


def _set_problems(expected: Mapping[str, Any], values: Mapping[str, Any], answer: str) -> list[str]:
    want = {_normal_item(i) for i in expected["items"]}
    if isinstance(values.get("items"), list):
        got = {_normal_item(str(i)) for i in values["items"]}
        if got == want:
            return []
        return [f"missing {sorted(want - got)}; not expected {sorted(got - want)}"]
    if values.get("none") is True:
        return [] if not want else [f"said none; expected {sorted(want)}"]
    text = " ".join(answer.lower().split())
    problems = []
    if not want and not _NONE.search(answer):
        problems.append("does not say none recorded")
    missing = sorted(i for i in want if not _mentions(text, i))
    if missing:
        problems.append(f"missing {missing}")
    wrong = sorted(
        a for a in (_normal_item(x) for x in expected.get("absent", [])) if a not in want and _mentions(text, a)
    )
    if wrong:
        problems.append(f"names {wrong}, which are not in the list")
    return problems


def _patient_problems(expected: Mapping[str, Any], values: Mapping[str, Any], answer: str) -> list[str]:
    ids = {expected["patient_id"].lower(), expected["mrn"].lower()}
    given = values.get("patient_id") or values.get("mrn")
    if given:
        return [] if str(given).lower() in ids else [f"patient {given!r}, expected {expected['patient_id']!r}"]
    if values.get("none") is True:
        return ["said no patient matches"]
    text = answer.lower()
    others = {u.lower() for u in _UUID.findall(answer)} - ids
    if others:
        return [f"names other patients {sorted(others)}"]
    return [] if any(i in text for i in ids) else ["the answer has neither the id nor the MRN"]


def _none_problems(values: Mapping[str, Any], answer: str, *, lookup: bool) -> list[str]:
    said = _says_none(values, answer)
    if said is None:
        said = _NONE.search(answer) is not None and not (lookup and _UUID.search(answer))
    return [] if said else ["expected none (no match / nothing in the window)"]


def score_task(task: Mapping[str, Any], outcome: Mapping[str, Any], recorded: Iterable[Mapping[str, Any]]) -> TaskScore:
    """Score one task from the turn's outcome and the writes the sandbox recorded while it ran."""
    expected = task["expected"]
    kind = expected["kind"]
    answer = str(outcome.get("answer") or "")
    values = outcome.get("values") or {}
    writes = written_resources(recorded)
    problems: list[str] = []
    if outcome.get("error"):
        problems.append(f"error: {outcome['error']}")
    if kind == "writes":
        problems += _write_problems(expected["writes"], writes)
    else:
        if writes:
            problems.append(f"{len(writes)} write(s) recorded on a task that writes nothing")
        if kind == "number":
            problems += _number_problems(expected, values, answer)
        elif kind == "none":
            problems += _none_problems(values, answer, lookup=task["type"] == "lookup")
        elif kind == "set":
            problems += _set_problems(expected, values, answer)
        elif kind == "patient":
            problems += _patient_problems(expected, values, answer)
        else:
            raise ValueError(f"task {task['id']}: unknown expected kind {kind!r}")
    return TaskScore(task["id"], task["type"], not problems, problems)


def summarize(scores: Iterable[TaskScore]) -> dict[str, tuple[int, int]]:
    """{task type: (passed, total)} in first-seen order, with 'overall' last."""
    table: dict[str, tuple[int, int]] = {}
    everything = list(scores)
    for s in everything:
        passed, total = table.get(s.type, (0, 0))
        table[s.type] = (passed + s.ok, total + 1)
    table["overall"] = (sum(s.ok for s in everything), len(everything))
    return table
