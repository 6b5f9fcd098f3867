"""The tools-only baseline of the EHR task set: rules, no model — a reference for the consult turn's
deterministic planner.

``ToolsOnlyTurn(fhir_url)`` is a turn (``turn(message, *, patient, now) -> outcome``): it sorts the message into
one of the task types by keywords, reads what it needs from the words (a lab and a window, a vital and its
value, a threshold and a dosing rule, a referral's SNOMED CT code and reason, a name and a birth date), and
calls the EHR and calculator tools through a ``ToolExecutor`` as a clinician who said yes to every write
(``confirm=True``, a scripted run's ``--yes``). It never sees the expected answer: only the message, the
patient's id and the reference time, as the turn does.
"""

from __future__ import annotations

import re
import tempfile
from datetime import date, datetime, timedelta
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

__all__ = ["ToolsOnlyTurn", "classify"]

Outcome = dict[str, Any]

# message words → the read tools' names for labs (ehr.get_observations' ``code``)
_LABS = (
    (r"\b(?:hb)?a1c\b|hemoglobin a1c|glycated", "hba1c"),
    (r"\bpotassium\b|\bk\b", "potassium"),
    (r"\bcreatinine\b|\bcr\b", "creatinine"),
    (r"\begfr\b|\bgfr\b", "egfr"),
    (r"\bglucose\b|\bsugar", "glucose"),
    (r"\bsodium\b|\bna\b", "sodium"),
    (r"\bha?emoglobin\b|\bhg?b\b", "hemoglobin"),
    (r"\bsystolic\b", "systolic"),
    (r"\bweight\b", "weight"),
)
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "twelve": 12, "a": 1, "an": 1}
_UNIT_DAYS = {"h": 1 / 24, "hour": 1 / 24, "day": 1, "week": 7, "month": 365.25 / 12, "year": 365}
_WINDOW = re.compile(
    r"(?:last|past|previous|within(?: the)?)\s+(?:(\d+|one|two|three|four|five|six|twelve|a|an)\s*)?"
    r"(h|hours?|days?|weeks?|months?|years?)\b",
    re.I,
)
_DOB = re.compile(r"\b(?:dob|d\.o\.b\.?|born|date of birth)\b[:\s]*", re.I)
_NAME_STOP = {
    "please", "patient", "is", "for", "up", "find", "looking", "can", "you", "pull", "i", "i've", "have", "got",
    "here", "in", "room", "record", "a", "there", "mrn", "look", "chart", "the", "of", "to", "me",
}  # fmt: skip


def classify(message: str, patient: str | None) -> str:
    """The task type a message asks for, by keywords (the order matters: an order mentions a lab too)."""
    text = message.lower()
    if patient is None:
        return "lookup"
    if re.search(r"\brefer|\bsend (?:him|her|them) to\b", text):
        return "referral"
    if re.search(r"a1c", text) and re.search(r"\border\b", text) and re.search(r"year|12 months|older", text):
        return "hba1c_reorder"
    comparator = r"\b(?:above|over|below|under|greater than|less than|lower than|more than)\s+\d+\.\d"
    if re.search(comparator, text) and re.search(r"\b(?:orders?|give|replace|get|repeat|want)\b", text):
        return "conditional_order"
    if re.search(r"\bbmi\b|ckd-epi", text):
        return "calculator"
    if re.search(r"\b(?:record|chart it|document|log it|enter it|add it|flowsheet)\b", text):
        return "record_vital"
    if "allerg" in text:
        return "allergy_list"
    if re.search(r"\bmeds?\b|medications?|taking|prescriptions", text):
        return "medication_list"
    if re.search(r"\bhow old\b|\bage\b", text):
        return "age"
    if re.search(r"\baverage|\bmean\b", text):
        return "average_lab"
    return "latest_lab"


def _lab(text: str) -> str | None:
    lowered = text.lower()
    for pattern, name in _LABS:
        if re.search(pattern, lowered):
            return name
    return None


def _window_start(text: str, now: datetime) -> date | None:
    found = _WINDOW.search(text)
    if found is None:
        return None
    count = found[1].lower() if found[1] else "1"
    n = int(count) if count.isdigit() else _NUMBER_WORDS[count]
    unit = found[2].lower().rstrip("s")
    return (now - timedelta(days=n * _UNIT_DAYS[unit])).date()


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


class ToolsOnlyTurn:
    """A turn made of rules and tool calls (see the module docstring)."""

    def __init__(self, fhir_url: str) -> None:
        from curbside.settings import Settings
        from curbside.tools import ToolExecutor, ToolRegistry
        from curbside.tools import calculators as calc_tools
        from curbside.tools.ehr import EhrDeps
        from curbside.tools.ehr import register as register_ehr
        from curbside.tools.ehr.fhir_client import HttpFhirClient
        from curbside.types import ToolCaller

        home = Path(tempfile.mkdtemp(prefix="bench-ehr-tasks-"))
        settings = Settings(home=home, fhir_url=fhir_url, tool_ehr_rate_limit=None, tool_calc_rate_limit=None)
        self._client = HttpFhirClient.from_settings(settings)
        self._now = datetime.now().astimezone()
        registry = ToolRegistry()
        register_ehr(registry, EhrDeps(settings, client=lambda: self._client, now=lambda: self._now))
        calc_tools.register(registry, calc_tools.CalculatorDeps(settings))
        self.executor = ToolExecutor(registry, default_caller=ToolCaller(user="bench", role="clinician"))
        self.writes: list[dict[str, Any]] = []

    async def aclose(self) -> None:
        await self._client.aclose()

    async def _call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        result = await self.executor.call(name, args, confirm=True)
        if not result.ok or result.result is None:
            detail = result.error.message if result.error else result.status
            raise _Failed(f"{name}: {detail}")
        if name.startswith("ehr.") and name.split(".")[1] in _WRITE_TOOLS:
            self.writes.append({"tool": name, "arguments": args, "result": result.result})
        return result.result

    async def __call__(self, message: str, *, patient: str | None, now: datetime) -> Outcome:
        self._now = now
        self.writes = []
        kind = classify(message, patient)
        try:
            if kind == "lookup":
                outcome = await self._lookup(message)
            else:
                assert patient is not None
                outcome = await getattr(self, f"_{kind}")(message, patient, now)
        except _Failed as failed:
            outcome = {"answer": f"Could not complete: {failed}", "values": {}, "error": str(failed)}
        return outcome | {"writes": self.writes, "route": kind}

    # --- reads ------------------------------------------------------------------------------------------

    async def _lookup(self, message: str) -> Outcome:
        marker = _DOB.search(message)
        if marker is None:
            return {"answer": "Give the patient's birth date to find the chart.", "values": {}}
        words = [w.strip(",.()?!'\"-") for w in message[: marker.start()].split()]
        name = [w for w in words if w and w.lower() not in _NAME_STOP and w.isalpha()][-2:]
        born = _parse_date(message[marker.end() : marker.end() + 30])
        if not name or born is None:
            return {"answer": "Could not read the name and birth date.", "values": {}}
        found = await self._call("ehr.search_patient", {"name": " ".join(name), "birth_date": born.isoformat()})
        if found["count"] == 0:
            return {"answer": f"No patient found: {found['message']}", "values": {"none": True}}
        if found["count"] > 1:
            return {"answer": found["message"], "values": {}}
        row = found["matches"][0]
        return {
            "answer": f"{row['name']}, born {row['birth_date']}: patient id {row['id']}, MRN {row['mrn']}.",
            "values": {"patient_id": row["id"], "mrn": row["mrn"]},
        }

    async def _age(self, message: str, patient: str, now: datetime) -> Outcome:
        chart = await self._call("ehr.get_patient_chart", {"patient_id": patient})
        age = chart["patient"]["age"]
        return {"answer": f"{age} years old (as of {chart['as_of']}).", "values": {"value": age, "unit": "years"}}

    async def _observations(self, lab: str, patient: str, since: date | None, now: datetime, **more: Any) -> list[Any]:
        args: dict[str, Any] = {"patient_id": patient, "code": "bp" if lab == "systolic" else lab, **more}
        if since is not None:
            args |= {"since": since.isoformat(), "until": now.date().isoformat()}
        rows = (await self._call("ehr.get_observations", args))["observations"]
        if lab != "systolic":
            return [(r["date"], r["value"], r["unit"]) for r in rows if isinstance(r["value"], int | float)]
        found = []
        for r in rows:
            for c in r["components"]:
                if c["code"]["code"] == "8480-6":
                    found.append((r["date"], c["value"], c["unit"]))
        return found

    async def _latest_lab(self, message: str, patient: str, now: datetime) -> Outcome:
        lab = _lab(message)
        if lab is None:
            return {"answer": "Which lab?", "values": {}}
        rows = await self._observations(lab, patient, _window_start(message, now), now, latest=lab != "systolic")
        if not rows:
            return {"answer": f"No {lab} recorded in that window.", "values": {"none": True}}
        when, value, unit = rows[0]
        return {"answer": f"{lab}: {_number(value)} {unit} ({when}).", "values": {"value": value, "unit": unit}}

    async def _average_lab(self, message: str, patient: str, now: datetime) -> Outcome:
        lab = _lab(message)
        if lab is None:
            return {"answer": "Which lab?", "values": {}}
        rows = await self._observations(lab, patient, _window_start(message, now), now, max_results=1000)
        if not rows:
            return {"answer": f"No {lab} recorded in that window.", "values": {"none": True}}
        mean = sum(float(v) for _, v, _ in rows) / len(rows)
        unit = rows[0][2]
        return {
            "answer": f"Mean {lab} {mean:.2f} {unit} over {len(rows)} results.",
            "values": {"value": round(mean, 4), "unit": unit, "n": len(rows)},
        }

    async def _medication_list(self, message: str, patient: str, now: datetime) -> Outcome:
        found = await self._call("ehr.get_medications", {"patient_id": patient, "max_results": 1000})
        names = sorted({m["medication"]["display"] for m in found["medications"]}, key=str.lower)
        answer = "; ".join(names) if names else "None recorded."
        return {"answer": answer, "values": {"items": names}}

    async def _allergy_list(self, message: str, patient: str, now: datetime) -> Outcome:
        found = await self._call("ehr.get_allergies", {"patient_id": patient, "max_results": 1000})
        names = sorted(
            {a["substance"]["display"] for a in found["allergies"] if a["clinical_status"] in (None, "active")},
            key=str.lower,
        )
        answer = "; ".join(names) if names else (found.get("message") or "None recorded.")
        return {"answer": answer, "values": {"items": names}}

    async def _latest(self, code: str, patient: str) -> tuple[Any, str, str, str]:
        """(value, unit, date, LOINC code) of the newest observation of a concept or code."""
        rows = (await self._call("ehr.get_observations", {"patient_id": patient, "code": code, "latest": True}))[
            "observations"
        ]
        if not rows:
            raise _Failed(f"no {code} recorded")
        row = rows[0]
        return row["value"], row["unit"], row["date"], row["code"]["code"]

    async def _calculator(self, message: str, patient: str, now: datetime) -> Outcome:
        if re.search(r"\bbmi\b", message, re.I):
            weight, w_unit, _, _ = await self._latest("weight", patient)
            height, h_unit, _, _ = await self._latest("height", patient)
            args: dict[str, Any] = {
                "weight": {"value": weight, "unit": w_unit},
                "height": {"value": height, "unit": h_unit},
            }
            name = "calc.bmi"
        else:
            chart = await self._call("ehr.get_patient_chart", {"patient_id": patient})
            creatinine, unit, _, _ = await self._latest("creatinine", patient)
            args = {
                "age": chart["patient"]["age"],
                "sex": chart["patient"]["sex"],
                "creatinine": {"value": creatinine, "unit": unit},
            }
            name = "calc.ckd_epi_2021"
        result = await self._call(name, args)
        if result["value"] is None:
            return {"answer": f"Missing: {result['missing']}", "values": {}}
        return {
            "answer": f"{result['title']}: {result['display']} ({result.get('category') or ''}).",
            "values": {"value": result["value"], "unit": result["unit"]},
        }

    # --- writes -----------------------------------------------------------------------------------------

    async def _record_vital(self, message: str, patient: str, now: datetime) -> Outcome:
        args = _vital(message)
        if args is None:
            return {"answer": "Which vital sign, and what value?", "values": {}}
        written = await self._call("ehr.record_vital", {"patient_id": patient, **args})
        return {"answer": written["summary"], "values": {}}

    async def _order(self, args: dict[str, Any], when: datetime | None) -> dict[str, Any]:
        """An order for a time; refused for a time before the machine's clock (a replayed case), the time
        goes in the note instead (the error strategy 'reformulate')."""
        if when is None:
            return await self._call("ehr.order_service", args)
        try:
            return await self._call("ehr.order_service", args | {"when": when.isoformat()})
        except _Failed as failed:
            if "in the past" not in str(failed):
                raise
            note = f"Draw at {when.isoformat()}."
            return await self._call("ehr.order_service", args | {"note": note})

    async def _conditional_order(self, message: str, patient: str, now: datetime) -> Outcome:
        text = message.lower()
        threshold = re.search(r"(\d+\.\d+)", text)
        if threshold is None:
            return {"answer": "What threshold?", "values": {}}
        limit = Decimal(threshold[1])
        low = re.search(r"\b(?:below|under|lower|less than)\b", text) is not None
        value, unit, when, loinc = await self._latest("potassium", patient)
        k = Decimal(str(value))
        facts = {"value": value, "unit": unit}
        if not (k < limit if low else k > limit):
            return {"answer": f"Latest potassium {value} {unit} ({when}): no orders needed.", "values": facts}
        repeat = {"patient_id": patient, "kind": "lab", "code_system": "loinc", "code": loinc, "display": "Potassium"}
        summaries = []
        if low:
            per = re.search(r"(?:every|per|each|for)\s+(\d+(?:\.\d+)?)", text)
            step = Decimal(per[1]) if per else Decimal("0.1")
            rounding = ROUND_CEILING if "round" in text and "up" in text else ROUND_HALF_UP
            tablets = int(((limit - k) / step).to_integral_value(rounding=rounding))
            rxnorm = re.search(r"rxnorm\s*(\d+)", text)
            strength = re.search(r"(\d+)\s*meq", text)
            if rxnorm is None:
                return {"answer": "Which product (RxNorm code)?", "values": facts}
            rx = await self._call(
                "ehr.prescribe_medication",
                {
                    "patient_id": patient,
                    "medication": f"potassium chloride {strength[1] if strength else ''} mEq ER tablet".replace(
                        "  ", " "
                    ),
                    "rxnorm": rxnorm[1],
                    "dose": tablets,
                    "dose_unit": "tablet",
                    "route": "oral",
                    "frequency": "once",
                    "reason": f"potassium {value} {unit}",
                },
            )
            summaries.append(rx["summary"])
            hour = re.search(r"(\d{1,2})(?::(\d{2}))?\s*(?:am|h\b)|(\d{2}):(\d{2})", text)
            at = (int(hour[1] or hour[3]), int(hour[2] or hour[4] or 0)) if hour else (8, 0)
            tomorrow = (now + timedelta(days=1)).replace(hour=at[0], minute=at[1], second=0, microsecond=0)
            summaries.append((await self._order(repeat, tomorrow))["summary"])
        else:
            summaries.append((await self._order(repeat | {"priority": "stat"}, None))["summary"])
            snomed = re.search(r"snomed(?:\s*ct)?\s*(\d+)", text)
            if snomed is not None:
                ecg = {
                    "patient_id": patient,
                    "kind": "procedure",
                    "code_system": "snomed",
                    "code": snomed[1],
                    "display": "12 lead electrocardiogram",
                    "priority": "stat",
                }
                summaries.append((await self._order(ecg, None))["summary"])
        answer = f"Latest potassium {value} {unit} ({when}). " + " ".join(summaries)
        return {"answer": answer, "values": facts}

    async def _referral(self, message: str, patient: str, now: datetime) -> Outcome:
        code = re.search(r"snomed(?:\s*ct)?\s*(\d+)", message, re.I)
        if code is None:
            return {"answer": "Which service (SNOMED CT code)?", "values": {}}
        reason = _reason(message, code)
        args = {
            "patient_id": patient,
            "kind": "referral",
            "code_system": "snomed",
            "code": code[1],
            "display": f"Referral to {_service(message) or f'service (SNOMED CT {code[1]})'}",
        }
        if reason:
            args["reason"] = reason
        written = await self._call("ehr.order_service", args)
        return {"answer": written["summary"], "values": {}}

    async def _hba1c_reorder(self, message: str, patient: str, now: datetime) -> Outcome:
        rows = (await self._call("ehr.get_observations", {"patient_id": patient, "code": "hba1c", "latest": True}))[
            "observations"
        ]
        last = datetime.fromisoformat(rows[0]["date"]) if rows else None
        if last is not None and now - last <= timedelta(days=365):
            return {"answer": f"Last HbA1c {rows[0]['value']} % on {rows[0]['date']}: not due.", "values": {}}
        written = await self._call(
            "ehr.order_service",
            {
                "patient_id": patient,
                "kind": "lab",
                "code_system": "loinc",
                "code": "4548-4",
                "display": "Hemoglobin A1c/Hemoglobin.total in Blood",
                "reason": "last HbA1c more than a year ago" if last else "no HbA1c on file",
            },
        )
        return {"answer": written["summary"], "values": {}}


_WRITE_TOOLS = {"record_vital", "add_allergy", "prescribe_medication", "order_service", "save_clinical_note"}


class _Failed(Exception):
    """A tool call that did not give a result: the turn says so instead of answering."""


def _parse_date(text: str) -> date | None:
    iso = re.search(r"\d{4}-\d{2}-\d{2}", text)
    if iso:
        return date.fromisoformat(iso[0])
    from dateutil import parser

    cut = re.split(r"[?)]| - |\. ", text)[0]
    try:
        return parser.parse(cut, fuzzy=True, default=datetime(1900, 1, 1)).date()
    except (ValueError, OverflowError):
        return None


_SERVICE = (
    r"refer(?:\s+(?:him|her|them))?(?:\s+on)?\s+to\s+(?:the\s+)?([a-z ]+?)\s*(?:\(|,|\bfor\b|\.|$)",
    r"send (?:him|her|them) to (?:the\s+)?([a-z ]+?)\s*(?:\(|,|\bfor\b|\.|$)",
    r"((?:\w+\s)?\w+)\s+referral",
)
_SERVICE_STOP = {"a", "an", "the", "in", "put", "please"}


def _service(message: str) -> str | None:
    """The service referred to, in the message's words ('cardiology', 'sleep clinic')."""
    for pattern in _SERVICE:
        found = re.search(pattern, message, re.I)
        if found:
            words = [w for w in found[1].lower().split() if w not in _SERVICE_STOP]
            if words:
                return " ".join(words)[:150]
    return None


def _reason(message: str, code: re.Match[str]) -> str | None:
    said = re.search(r"\breason:?\s+(.+?)(?:[.]?\s*$)", message, re.I)
    if said:
        return said[1].strip(" .,-")
    because = re.search(r"\bfor\s+(.+?)(?:,|\.|\(|$)", message, re.I)
    if because and "snomed" not in because[1].lower():
        return re.sub(r"\s*please$", "", because[1].strip(" .,-"))
    after = message[code.end() :].strip(" .,-)")
    return after or None


_READING = re.compile(r"(\d+(?:\.\d+)?)\s*(°\s*[cf]|[cf]\b|kg|lbs?|cm|in\b|%|/min|bpm)?")


def _vital(message: str) -> dict[str, Any] | None:
    text = message.lower()
    bp = re.search(r"(\d{2,3})\s*/\s*(\d{2,3})", text)
    if bp:
        return {"kind": "blood_pressure", "systolic": float(bp[1]), "diastolic": float(bp[2])}
    rules = (
        (r"heart rate|\bhr\b|pulse", "heart_rate", None),
        (r"resp(?:iratory)? rate|\brr\b", "respiratory_rate", None),
        (r"\btemp", "temperature", None),
        (r"\bsat\b|spo2|o2 sat|oxygen saturation", "spo2", "%"),
        (r"weigh", "weight", None),
        (r"height|\btall\b", "height", None),
    )
    for pattern, kind, unit in rules:
        named = re.search(pattern, text)
        if named:
            found = _READING.search(text[named.start() :])
            if found is None:
                return None
            value = float(found[1])
            spelled = (found[2] or unit or "").replace(" ", "")
            args: dict[str, Any] = {"kind": kind, "value": value}
            if kind == "temperature":
                args["unit"] = "°F" if "f" in spelled or (not spelled and value > 45) else "Cel"
            elif spelled and spelled not in ("/min", "bpm"):
                args["unit"] = spelled
            return args
    return None
