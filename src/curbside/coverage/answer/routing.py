"""From an intent to tool calls: which tool per domain, and the arguments each is sent.

Each tool gets the clauses of the question that concern its domain and the
structured fields that belong to it (fee codes to ``schedule.get``; the device and
the patient's income to ``adp.get``; the drug to ``odb.get``), in the request
shapes of the spec (Tools 2-4). Input that cannot be sent as given (a code that
is not an OHIP code, a negative income, a device type contradicting its category)
is not guessed at: it is left out and becomes a follow-up question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from curbside.coverage.answer.intent import Intent
from curbside.coverage.answer.models import CoverageAnswerArgs, Domain, FollowUp
from curbside.coverage.answer.vocabulary import DEVICE_NOUNS
from curbside.coverage.ohip.query import plan as schedule_plan
from curbside.coverage.ohip.tool import ScheduleGetArgs

__all__ = ["TOOL_FOR", "MAX_TOOL_TEXT", "PlannedCall", "RoutingPlan", "plan_calls"]

TOOL_FOR: dict[Domain, str] = {"billing": "schedule.get", "device": "adp.get", "drug": "odb.get"}
MAX_TOOL_TEXT = 1000  # odb.get's question limit; the others' requests are cut the same way
_OHIP_CODE = re.compile(r"^[A-Z]\d{3}[A-C]?$")
_DEVICE_PATTERNS = tuple((re.compile(rf"^(?:{p})$", re.IGNORECASE), c) for p, c in DEVICE_NOUNS.items())
_MAX_AGE = 130


@dataclass(frozen=True, slots=True)
class PlannedCall:
    domain: Domain
    tool: str
    arguments: dict[str, Any]
    subjects: tuple[str, ...] = ()  # what the call asks about (devices, drugs, codes), for cross-tool checks


@dataclass(slots=True)
class RoutingPlan:
    calls: list[PlannedCall] = field(default_factory=list)
    followups: list[FollowUp] = field(default_factory=list)  # about the request itself
    warnings: list[str] = field(default_factory=list)


def plan_calls(args: CoverageAnswerArgs, intent: Intent) -> RoutingPlan:
    out = RoutingPlan()
    builders = {"billing": _billing, "device": _device, "drug": _drug}
    for domain in intent.domains:
        arguments = builders[domain](args, intent, out)
        out.calls.append(PlannedCall(domain, TOOL_FOR[domain], arguments, _subjects(args, intent, domain)))
    _check_patient(args, intent, out)
    return out


def _text(intent: Intent, domain: Domain, *, story: bool = False) -> str:
    text = intent.text_for(domain, story=story)
    if len(text) <= MAX_TOOL_TEXT:
        return text
    return text[:MAX_TOOL_TEXT].rsplit(" ", 1)[0]


def _billing(args: CoverageAnswerArgs, intent: Intent, out: RoutingPlan) -> dict[str, Any]:
    hinted = args.hints.codes if args.hints else []
    valid = [c for c in hinted if _OHIP_CODE.match(c)]
    for bad in (c for c in hinted if not _OHIP_CODE.match(c)):
        out.followups.append(
            FollowUp(
                ask=f"Which fee code did you mean by {bad!r}? OHIP fee codes are a letter and three digits, "
                "e.g. C124 or A007.",
                reason=f"{bad!r} is not an OHIP fee code, so it was not looked up.",
                domain="billing",
            )
        )
    codes = list(dict.fromkeys([*(c[:4] for c in valid), *intent.codes]))
    text = _text(intent, "billing", story=True) or " ".join(codes)
    if not codes and not _names_a_service(text):
        # 'injected a few cystic acne lesions with kenalog today - billable to OHIP?': the clause naming the drug
        # names the service too; 'billable to OHIP?' alone says nothing the Schedule can be searched for
        text = _text_of_all(intent)
    arguments: dict[str, Any] = {"q": text}
    if codes:
        arguments["codes"] = codes
    return arguments


def _names_a_service(text: str) -> bool:
    """Whether ``text`` holds a word the Schedule's titles could be searched by (not only 'bill', 'OHIP' …)."""
    return bool(schedule_plan(ScheduleGetArgs(q=text)).words) if text.strip() else False


def _text_of_all(intent: Intent) -> str:
    text = "; ".join(intent.clauses)
    return text if len(text) <= MAX_TOOL_TEXT else text[:MAX_TOOL_TEXT].rsplit(" ", 1)[0]


def _device(args: CoverageAnswerArgs, intent: Intent, out: RoutingPlan) -> dict[str, Any]:
    text = _text(intent, "device")
    income = args.patient.income if args.patient else None
    if income is not None and income < 0:
        out.followups.append(
            FollowUp(
                ask="What is the patient's annual income? It was given as a negative amount.",
                reason=f"An income of {income:,.2f} cannot be checked against the program's thresholds; "
                "it was not sent.",
                domain="device",
            )
        )
        income = None
    hint = args.hints.device if args.hints else None
    arguments: dict[str, Any] = {}
    question = text or (hint.type or hint.category if hint else None)
    if question:
        arguments["q"] = question
    if hint is not None:
        device = {"category": hint.category, "type": hint.type}
        if hint.category and _contradicts(hint.category, hint.type, out):
            device["category"] = None
        arguments["device"] = {k: v for k, v in device.items() if v}
    if income is not None:
        arguments["patient_income"] = income
    return arguments


def _contradicts(category: str, device_type: str | None, out: RoutingPlan) -> bool:
    if not device_type:
        return False
    implied = next((c for pattern, c in _DEVICE_PATTERNS if pattern.match(device_type.strip())), None)
    if implied is None or implied == category:
        return False
    out.followups.append(
        FollowUp(
            ask=f"Is the device a {device_type} ({implied}), or a device of the {category} category?",
            reason=f"The hints give category {category!r} with type {device_type!r}, which is a {implied} "
            "device; the category was not sent.",
            domain="device",
        )
    )
    return True


def _drug(args: CoverageAnswerArgs, intent: Intent, out: RoutingPlan) -> dict[str, Any]:
    arguments: dict[str, Any] = {}
    text = _text(intent, "drug")
    if text:
        arguments["q"] = text
    if args.hints and args.hints.drug:
        arguments["drug"] = args.hints.drug
    plan = args.patient.plan if args.patient else None
    if plan in ("private", "none"):
        out.warnings.append(
            f"The patient's drug plan is {plan!r}: odb.get answers from the Ontario Drug Benefit formulary, "
            "which decides coverage for ODB recipients only."
        )
    return arguments


def _subjects(args: CoverageAnswerArgs, intent: Intent, domain: Domain) -> tuple[str, ...]:
    hints = args.hints
    if domain == "device":
        hinted = [hints.device.type] if hints and hints.device and hints.device.type else []
        return tuple(dict.fromkeys([*hinted, *(noun for noun, _ in intent.devices)]))
    if domain == "drug":
        return tuple(dict.fromkeys([*([hints.drug] if hints and hints.drug else []), *intent.drugs]))
    return tuple(dict.fromkeys([*(hints.codes if hints else []), *intent.codes]))


def _check_patient(args: CoverageAnswerArgs, intent: Intent, out: RoutingPlan) -> None:
    patient = args.patient
    if patient is None:
        return
    if patient.age is not None and not 0 <= patient.age <= _MAX_AGE:
        out.followups.append(
            FollowUp(
                ask="How old is the patient?",
                reason=f"An age of {patient.age} is not possible; it was not used.",
            )
        )
    if patient.income is not None and "device" not in intent.domains:
        out.warnings.append("patient.income is used only by the device (ADP) part; no device was asked about.")
