"""The deterministic planner: each intent of a triaged message becomes tool calls, or a clarifying
question when a fact the call needs is missing, or a plain "cannot" — never a guess.

A step's argument ``"$patient"`` is the active patient, filled in when the step runs (a lookup earlier
in the same turn may set it). Calculators take their inputs from the chart when a patient is set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from curbside.agent.conditions import (
    Condition,
    DoseRule,
    condition_in,
    conditional_writes,
    dose_rule_in,
    states_a_condition,
)
from curbside.agent.intents import Intent, Triage

__all__ = ["PATIENT", "Plan", "Step", "plan_turn"]

PATIENT = "$patient"

_WINDOW = re.compile(r"^\s*(\d+)\s*([hdwmy])\s*$")
_UNIT_DAYS = {"h": 1 / 24, "d": 1, "w": 7, "m": 30, "y": 365}


@dataclass(frozen=True)
class Step:
    tool: str
    arguments: dict[str, Any]
    intent: Intent
    why: str
    needs_patient: bool = False
    condition: Condition | None = None  # write only when the lab read earlier in the turn meets it
    dose_rule: DoseRule | None = None  # the dose, computed from that lab's value


@dataclass
class Plan:
    steps: list[Step] = field(default_factory=list)
    clarify: str | None = None  # a question for the clinician: a fact a call needs is missing
    cannot: list[str] = field(default_factory=list)  # intents nothing here can serve, in words
    direct: str | None = None  # a reply without tools (a greeting)


def plan_turn(triage: Triage, *, has_patient: bool, now: datetime, message: str) -> Plan:
    plan = Plan()
    condition = condition_in(message)
    lab = next((i for i in triage.intents if i.kind == "patient_labs"), None)
    intents = triage.intents
    gated = condition is not None and lab is not None and has_patient
    if gated:
        # "if her K is under 4.0, give … and repeat …": read the lab, then the writes the words name, gated
        intents = tuple(i for i in intents if i.kind not in ("chart_write", "drug_label"))
    elif (condition is not None or states_a_condition(message)) and any(i.kind == "chart_write" for i in intents):
        # a write made to depend on something this turn cannot check is never proposed as if unconditional
        intents = tuple(i for i in intents if i.kind != "chart_write")
        plan.clarify = (
            "Nothing was proposed: the write depends on a condition I could not check"
            + ("" if has_patient else " without a patient")
            + '. Say it as, for example, "order an HbA1c if the last one is more than a year old" or '
            '"if her potassium is below 3.5, …".'
        )
    for intent in intents:
        _plan_intent(plan, intent, has_patient=has_patient, now=now, message=message)
    if condition is not None and lab is not None and has_patient:
        name = str(lab.slots.get("lab") or "").lower()
        rule = dose_rule_in(message)
        for tool, arguments in conditional_writes(message, now, name):
            plan.steps.append(
                Step(
                    tool,
                    {"patient_id": PATIENT, **arguments},
                    Intent("chart_write", {}, message),
                    f"propose if {condition.words(name)}",
                    True,
                    condition,
                    rule if tool == "ehr.prescribe_medication" else None,
                )
            )
    if not plan.steps and not plan.clarify and not plan.cannot and plan.direct is None:
        plan.steps.append(_knowledge(message, Intent("knowledge", {"question": message}, message)))
    return plan


def _plan_intent(plan: Plan, intent: Intent, *, has_patient: bool, now: datetime, message: str) -> None:
    kind, slots = intent.kind, intent.slots
    finding = any(s.tool == "ehr.search_patient" for s in plan.steps)
    if kind == "greeting" and slots.get("topic") == "privacy":
        plan.direct = (
            "About what Curbside keeps: a session holds its last messages for a limited time, and every step is "
            "written to an audit trail with protected health information redacted. Text with PHI goes only to a "
            "local model, never to a cloud model or an outside service; without a model, nothing leaves this server."
        )
        return
    if kind == "greeting":
        plan.direct = (
            "Hello. I can read the active patient's chart, run clinical calculators, check Ontario coverage (OHIP, "
            "ODB, ADP), drug labels and interactions, search the literature, trials and guidelines, and propose "
            "chart writes for your approval."
        )
        return
    if kind == "patient_find":
        args = {k: slots[k] for k in ("name", "birth_date", "identifier") if slots.get(k)}
        if not args:
            plan.clarify = "Which patient? Give a name and birth date, or the MRN."
            return
        plan.steps.append(Step("ehr.search_patient", args, intent, "find the patient named in the message"))
        return
    patient_kinds = {
        "patient_summary",
        "patient_labs",
        "patient_vitals",
        "patient_medications",
        "patient_allergies",
        "patient_problems",
        "chart_write",
    }
    if kind in patient_kinds and not (has_patient or finding):
        plan.clarify = "Which patient is this about? Set the active patient, or give a name and birth date."
        return
    if kind == "patient_summary":
        plan.steps.append(Step("ehr.get_patient_chart", {"patient_id": PATIENT}, intent, "read the chart", True))
    elif kind in ("patient_labs", "patient_vitals"):
        _observations(plan, intent, now)
    elif kind == "patient_medications":
        plan.steps.append(
            Step("ehr.get_medications", {"patient_id": PATIENT}, intent, "list the active medications", True)
        )
    elif kind == "patient_allergies":
        plan.steps.append(Step("ehr.get_allergies", {"patient_id": PATIENT}, intent, "list the allergies", True))
    elif kind == "patient_problems":
        plan.steps.append(Step("ehr.get_conditions", {"patient_id": PATIENT}, intent, "list the active problems", True))
    elif kind == "chart_write":
        _chart_write(plan, intent, message)
    elif kind == "calculator":
        _calculator(plan, intent, has_patient=has_patient or finding, message=message)
    elif kind == "coverage":
        plan.steps.append(
            Step("coverage.answer", {"question": intent.text or message}, intent, "ask the coverage tools")
        )
    elif kind == "drug_label":
        _one_drug(plan, intent, "evidence.check_drug_safety", "read the drug's US label")
    elif kind == "adverse_events":
        _one_drug(plan, intent, "evidence.adverse_events", "count FAERS reports")
    elif kind == "drug_interactions":
        drugs = [d for d in slots.get("drugs") or [] if d]
        if len(drugs) < 2:
            plan.clarify = "Which drugs should I check together? Name at least two."
            return
        plan.steps.append(
            Step("evidence.check_drug_interactions", {"drugs": drugs[:6]}, intent, "read each label's interactions")
        )
    elif kind == "literature":
        search: dict[str, Any] = {"query": slots.get("query") or intent.text or message}
        if slots.get("article_types"):
            search["article_types"] = list(slots["article_types"])
        plan.steps.append(Step("evidence.search_pubmed", search, intent, "search PubMed"))
    elif kind == "trials":
        condition = slots.get("condition")
        if not condition:
            plan.clarify = "Trials for which condition?"
            return
        trial: dict[str, Any] = {"condition": condition}
        for key in ("location", "intervention"):
            if slots.get(key):
                trial[key] = slots[key]
        if slots.get("status"):
            status = slots["status"]
            trial["status"] = list(status) if isinstance(status, list | tuple) else [status]
        plan.steps.append(Step("evidence.find_clinical_trials", trial, intent, "search ClinicalTrials.gov"))
    elif kind == "guideline":
        query = slots.get("query") or intent.text or message
        plan.steps.append(Step("evidence.search_medical_guidelines", {"query": query}, intent, "search the guidelines"))
    elif kind == "knowledge":
        plan.steps.append(_knowledge(slots.get("question") or intent.text or message, intent))
    elif kind == "calendar":
        plan.cannot.append("calendar requests are not planned automatically yet: use calendar.list_events")
    elif kind == "files":
        plan.cannot.append("file requests are not planned automatically yet: use files.search")
    elif kind == "unknown" and slots.get("scope") == "out":
        plan.cannot.append(
            "it is outside what Curbside does: clinical questions, the active patient's chart, calculators, Ontario "
            "coverage, drug safety, the literature, trials and guidelines"
        )
    else:
        plan.cannot.append(f"no tool here answers this kind of request ({kind})")


def _knowledge(question: str, intent: Intent) -> Step:
    # the extractive answer: where a model may word the turn's answer, the turn does it, on its budget and checked
    return Step("kb.ask", {"question": question[:2000], "use_llm": False}, intent, "answer from the knowledge base")


def _observations(plan: Plan, intent: Intent, now: datetime) -> None:
    slots = intent.slots
    code = slots.get("lab") or slots.get("vital")
    if not code:
        plan.steps.append(
            Step("ehr.get_patient_chart", {"patient_id": PATIENT}, intent, "read the latest values", True)
        )
        return
    args: dict[str, Any] = {"patient_id": PATIENT, "code": str(code)}
    since = slots.get("since") or _since(slots.get("window"), now)
    if since:
        args["since"] = since
    if slots.get("until"):
        args["until"] = slots["until"]
    if slots.get("aggregate"):
        args["max_results"] = 1000
    elif slots.get("latest", not since):
        args["latest"] = True
    plan.steps.append(Step("ehr.get_observations", args, intent, f"read {code}", True))


def _since(window: object, now: datetime) -> str | None:
    if not isinstance(window, str):
        return None
    match = _WINDOW.match(window)
    if not match:
        return None
    days = int(match.group(1)) * _UNIT_DAYS[match.group(2)]
    return (now - timedelta(days=days)).date().isoformat()


def _one_drug(plan: Plan, intent: Intent, tool: str, why: str) -> None:
    drug = intent.slots.get("drug") or next(iter(intent.slots.get("drugs") or []), None)
    if not drug:
        plan.clarify = "Which drug?"
        return
    plan.steps.append(Step(tool, {"drug": drug}, intent, why))


# the chart values a calculator input may come from (the chart's lab and vital names, lower case)
_FROM_CHART = {
    "weight": "weight",
    "height": "height",
    "creatinine": "creatinine",
    "sodium": "sodium",
    "potassium": "potassium",
    "bilirubin": "bilirubin",
    "inr": "inr",
    "ast": "ast",
    "alt": "alt",
    "platelets": "platelets",
    "glucose": "glucose",
    "hemoglobin": "hemoglobin",
    "albumin": "albumin",
    "bun": "urea nitrogen",
}


def _calculator(plan: Plan, intent: Intent, *, has_patient: bool, message: str) -> None:
    calc = intent.slots.get("calculator")
    if not calc:
        plan.clarify = "Which score or formula? (curbside calc --list names them.)"
        return
    args: dict[str, Any] = dict(intent.slots.get("inputs") or {})
    if not args:
        args["note"] = message[:4000]  # numbers with units in the message are read by the calculator
    if has_patient:
        # the chart first: the runner fills age, sex and the latest values it holds into the call
        plan.steps.append(
            Step("ehr.get_patient_chart", {"patient_id": PATIENT}, intent, "read values for the calculator", True)
        )
    plan.steps.append(Step(f"calc.{calc}", args, intent, f"compute {calc}", needs_patient=False))


def _chart_write(plan: Plan, intent: Intent, message: str) -> None:
    slots = dict(intent.slots)
    write = slots.pop("write", None)
    tools = {
        "record_vital": "ehr.record_vital",
        "add_allergy": "ehr.add_allergy",
        "prescribe_medication": "ehr.prescribe_medication",
        "order_service": "ehr.order_service",
        "save_clinical_note": "ehr.save_clinical_note",
    }
    if write not in tools:
        plan.clarify = "What should I write to the chart: a vital sign, an allergy, a prescription, an order or a note?"
        return
    if write == "record_vital" and (question := _unclear_reading(slots)):
        plan.clarify = question  # an unclear reading is asked about, never guessed
        return
    args = {"patient_id": PATIENT, **{k: v for k, v in slots.items() if v not in (None, "", [])}}
    if write == "order_service":
        _order_words(args, intent.text, whole=intent.text.strip() == message.strip())
    plan.steps.append(Step(tools[write], args, intent, "propose the write for your approval", True))


def _unclear_reading(slots: dict[str, Any]) -> str | None:
    """A question when a vital's reading is missing, or its value fits more than one unit (a weight of 80: kg
    or lb?); None when the write is clear."""
    from curbside.agent.slots import vital_units

    kind = str(slots.get("kind") or "")
    words = kind.replace("_", " ")
    if kind == "blood_pressure":
        return None if slots.get("systolic") is not None else "What blood pressure should I record (e.g. 128/82)?"
    value = slots.get("value")
    if not isinstance(value, int | float):
        return f"What {words} should I record? Give the value with its unit."
    if slots.get("unit"):
        return None
    units = vital_units(kind, float(value))
    if len(units) > 1:
        return f"Is the {words} of {value:g} in {' or '.join(units)}? Say it with its unit and I will record it."
    return None


_CODE = re.compile(r"\(?\b(snomed(?: ct)?|loinc)\b[\s:#]*([0-9][0-9-]{2,17})\)?", re.IGNORECASE)
# the reason after its cue ("for chest pain", "because of falls", "re: thyroid nodule"), to the end of its clause;
# "for her," names the patient, not a reason
_REASON = re.compile(
    r"\b(?:for(?! (?:her|him|them|me|us|the patient|this patient|the pt|this pt)\s*(?:[,.;:!?(-]|$|please\b|pls\b))"
    r"|reason(?: for (?:the )?referral)?:?|because(?: of)?|due to|re:?|regarding|about|secondary to)\s+"
    r"(?!(?:her|him|them|the patient|this patient)\s*(?:[,.;:!?(-]|$))([^.;?!]+?)(?=\s+-\s|[.;?!]|$)",
    re.IGNORECASE,
)
_CLAUSES = re.compile(r"[.;?!]+\s*|\s+-+\s+|\s*,\s*")
_ORDER_WORDS = re.compile(
    r"\b(?:refer\w*|order\w*|consult|send|get (?:her|him|them) in|see (?:a|an|the)|please|pls|thanks?|thx"
    r"|urgent|routine|stat|asap)\b",
    re.IGNORECASE,
)


def _order_words(args: dict[str, Any], text: str, *, whole: bool = False) -> None:
    """An order's code and reason from the words: 'Refer her to cardiology (SNOMED 183519002) for chest pain'.
    With ``whole`` (the order is the whole message), a clause that is neither the order, its code nor
    politeness is its reason: 'Ortho referral please - SNOMED 308481009, right knee osteoarthritis'."""
    found = _CODE.search(text)
    if found and "code" not in args:
        args["code_system"] = "loinc" if found.group(1).lower() == "loinc" else "snomed"
        args["code"] = found.group(2)
    display = args.get("display")
    if isinstance(display, str):
        display = _CODE.sub("", display).strip(" ,;-")
        display = re.sub(r"^(?:to|a|an|for)\s+", "", display, flags=re.IGNORECASE).strip()
        args["display"] = display[:1].upper() + display[1:] if display else display
    if "reason" in args:
        return
    plain = _CODE.sub(" ", text)
    if reason := _REASON.search(plain):
        args["reason"] = reason.group(1).strip(" .,-")[:500]
        return
    if whole and args.get("kind") == "referral":
        rest = [
            clause.strip()
            for clause in _CLAUSES.split(plain)
            if len(clause.split()) >= 2 and not _ORDER_WORDS.search(clause)
        ]
        if rest:
            args["reason"] = "; ".join(rest)[:500]


def chart_inputs(chart: dict[str, Any]) -> dict[str, Any]:
    """Calculator inputs the chart holds: age, sex, and the latest labs and vitals with their units."""
    found: dict[str, Any] = {}
    patient = chart.get("patient") or {}
    if isinstance(patient.get("age"), int):
        found["age"] = patient["age"]
    if patient.get("sex") in ("female", "male"):
        found["sex"] = patient["sex"]
    for section in ("vitals", "labs"):
        rows = chart.get(section)
        if not isinstance(rows, list):
            continue
        for row in rows:
            name = str(row.get("name") or "").lower()
            key = next((k for k, v in _FROM_CHART.items() if v == name), None)
            if key and isinstance(row.get("value"), int | float):
                found[key] = {"value": row["value"], "unit": row.get("unit") or ""}
    return found
