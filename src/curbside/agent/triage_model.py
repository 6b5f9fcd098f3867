"""A model's vote on the route, asked only when the rules are unsure, with JSON-schema output.

The origin project's 4-way model router scored 0–50 %; ours, the local 1.5B model alone on the routing
set, 0.425 (``benchmarks/bench_routing.py``). So the model never plans and never routes on its own: it
is shown the rules' unsure guess and may change only the route. Its answer is validated here, since
some servers accept a schema without enforcing it.
"""

from __future__ import annotations

import json
from typing import Any

from curbside.agent.intents import INTENT_KINDS, ROUTES, Triage
from curbside.llm.client import Message

__all__ = ["TRIAGE_SYSTEM", "parse_route", "triage_messages", "triage_schema"]

TRIAGE_SYSTEM = (
    "You route a clinician's message for a clinical assistant with tools (the patient's chart, calculators, "
    "Ontario coverage, drug labels and interactions, literature, trials, guidelines, a knowledge base). "
    "route: direct = greeting, thanks or a question about the assistant; lookup = one tool answers it; "
    "reasoning = clinical judgement over tool results; multi_step = several subtasks or a write that depends "
    "on a value. intents: the kinds of tool the message needs. Answer JSON only."
)


def triage_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "route": {"type": "string", "enum": list(ROUTES)},
            "intents": {"type": "array", "items": {"type": "string", "enum": list(INTENT_KINDS)}, "maxItems": 5},
        },
        "required": ["route", "intents"],
        "additionalProperties": False,
    }


def triage_messages(message: str, *, has_patient: bool, rules: Triage | None) -> list[Message]:
    user = f"Message: {message}\nA patient is {'active' if has_patient else 'not active'} in the session."
    if rules is not None:
        user += f"\nRules guessed route={rules.route} intents={list(rules.kinds)} but are unsure ({rules.reason})."
    return [{"role": "system", "content": TRIAGE_SYSTEM}, {"role": "user", "content": user}]


def parse_route(text: str) -> tuple[str, list[str]] | None:
    """The route and intents of the model's JSON, or None when it is not the asked shape."""
    try:
        answer = json.loads(text)
    except ValueError:
        return None
    if not isinstance(answer, dict) or answer.get("route") not in ROUTES:
        return None
    intents = answer.get("intents")
    kinds = [k for k in intents if k in INTENT_KINDS] if isinstance(intents, list) else []
    return str(answer["route"]), kinds
