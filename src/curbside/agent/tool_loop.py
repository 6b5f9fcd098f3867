"""Planning by a capable model with OpenAI-style tool calling, over the registry's own schemas.

Used only where the rules are not enough (an unsure triage, a reasoning or multi-step route, nothing
the rules could plan) and only when ``CURBSIDE_TURN_TOOL_CALLING`` says the configured model can call
tools. The model chooses tools and arguments; every call still goes through the executor as the
clinician (permissions, confirmations for writes, rate limits, audit), and the answer is still built
from the tools' results (the model's own closing words are unchecked: never shown, never the answer).

PHI: chart tools are offered to a local model only, so a cloud model never sees a chart's values.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from curbside.agent.budget import within
from curbside.llm.client import ChatClient, RequestedCall, ToolReply

if TYPE_CHECKING:
    from curbside.tools.base import ToolResult, ToolSpec

__all__ = ["LoopOutcome", "function_name", "offered_tools", "openai_tools", "run_tool_loop", "tool_name"]

_FAMILIES = ("ehr.", "evidence.", "kb.", "odb.", "schedule.", "adp.", "coverage.")
# calculators a clinician asks for most; any other is offered when triage named it
_COMMON_CALCULATORS = (
    "calc.bmi",
    "calc.cockcroft_gault",
    "calc.ckd_epi_2021",
    "calc.cha2ds2_vasc",
    "calc.has_bled",
    "calc.wells_dvt",
    "calc.wells_pe",
    "calc.meld_na",
    "calc.curb_65",
    "calc.heart",
)
# the tools each intent names first: a small local model's context (4,096 tokens for the shipped 1.5B) holds a
# few tools' schemas, not all of them (about 19,000 tokens)
_INTENT_TOOLS: dict[str, tuple[str, ...]] = {
    "patient_find": ("ehr.search_patient",),
    "patient_summary": ("ehr.get_patient_chart",),
    "patient_labs": ("ehr.get_observations",),
    "patient_vitals": ("ehr.get_observations",),
    "patient_medications": ("ehr.get_medications",),
    "patient_allergies": ("ehr.get_allergies",),
    "patient_problems": ("ehr.get_conditions",),
    "chart_write": ("ehr.record_vital", "ehr.add_allergy", "ehr.prescribe_medication", "ehr.order_service"),
    "coverage": ("coverage.answer",),
    "drug_label": ("evidence.check_drug_safety",),
    "drug_interactions": ("evidence.check_drug_interactions",),
    "adverse_events": ("evidence.adverse_events",),
    "literature": ("evidence.search_pubmed",),
    "trials": ("evidence.find_clinical_trials",),
    "guideline": ("evidence.search_medical_guidelines",),
    "knowledge": ("kb.ask",),
}
SCHEMA_CHARS = {"local": 6_000, "cloud": 80_000}  # JSON of the offered tools, about 4 characters a token
_RESULT_CHARS = 3000  # of each tool result given back to the model
_CALLS_PER_ROUND = 5
SYSTEM = (
    "You plan for a clinical assistant. Call the tools that answer the clinician's message; call independent "
    "tools together in one turn. Use the active patient's id for patient tools. Never invent an argument the "
    "message or an earlier result does not give; if a fact is missing, stop and say which. When the results "
    "answer the message, reply with one short line saying so: the assistant writes the answer from the results."
)

RunTool = Callable[[str, dict[str, Any]], Awaitable["ToolResult | None"]]


@dataclass
class LoopOutcome:
    rounds: int = 0
    calls: int = 0
    note: str = ""  # the model's closing words: unchecked, so never shown to the clinician
    stopped: str | None = None  # why the loop ended early (budget, an error)


def function_name(tool: str) -> str:
    """OpenAI function names allow [a-zA-Z0-9_-]: ``ehr.get_observations`` → ``ehr__get_observations``."""
    return tool.replace(".", "__")


def tool_name(function: str) -> str:
    return function.replace("__", ".", 1)


def offered_tools(
    specs: Iterable[ToolSpec[Any, Any]],
    *,
    role: str,
    local: bool,
    intents: Sequence[str] = (),
    calculators: Sequence[str] = (),
    max_chars: int | None = None,
) -> list[ToolSpec[Any, Any]]:
    """The tools a planning model may call: the clinical families, common and named calculators; chart tools
    only for a local model (PHI). Those the triaged intents name come first, then the knowledge base; the rest
    follow while their schemas fit in ``max_chars`` (default by endpoint, ``SCHEMA_CHARS``)."""
    wanted_calcs = {f"calc.{c}" for c in calculators}
    allowed = []
    for spec in specs:
        if spec.allowed_roles is not None and role not in spec.allowed_roles:
            continue
        if spec.name.startswith("ehr.") and not local:
            continue
        if spec.name.startswith(_FAMILIES) or spec.name in wanted_calcs or spec.name in _COMMON_CALCULATORS:
            allowed.append(spec)
    first = [name for kind in intents for name in _INTENT_TOOLS.get(kind, ())] + sorted(wanted_calcs) + ["kb.ask"]
    rank = {name: i for i, name in enumerate(dict.fromkeys(first))}
    allowed.sort(key=lambda spec: rank.get(spec.name, len(rank)))
    budget = max_chars if max_chars is not None else SCHEMA_CHARS["local" if local else "cloud"]
    offered: list[ToolSpec[Any, Any]] = []
    used = 0
    for spec in allowed:
        size = len(json.dumps(openai_tools([spec])))
        if offered and used + size > budget:
            continue  # a smaller one further down may still fit
        offered.append(spec)
        used += size
    return offered


def openai_tools(specs: Iterable[ToolSpec[Any, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": function_name(spec.name),
                "description": spec.description[:1000],
                "parameters": spec.input_schema(),
            },
        }
        for spec in specs
    ]


async def run_tool_loop(
    client: ChatClient,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    run_tool: RunTool,
    *,
    may_call: Callable[[], str | None],
    seconds_left: Callable[[], float],
    charge: Callable[[ToolReply, list[dict[str, Any]]], None],
    max_rounds: int,
    max_tokens: int,
    temperature: float,
) -> LoopOutcome:
    """Rounds of: the model asks for calls, they run, their results go back; until it stops calling,
    ``may_call`` refuses (budgets), or ``max_rounds``. An UpstreamError on the first round propagates
    (the caller falls back to the rules); later ones end the loop with what was gathered."""
    outcome = LoopOutcome()
    offered = {t["function"]["name"] for t in tools}
    while outcome.rounds < max_rounds:
        refusal = may_call()
        if refusal is not None:
            outcome.stopped = refusal
            break
        try:
            async with within(seconds_left(), "planning"):
                reply = await client.call_tools(messages, tools, max_tokens=max_tokens, temperature=temperature)
        except Exception as exc:
            if outcome.rounds == 0:
                raise
            outcome.stopped = getattr(exc, "message", str(exc))
            break
        outcome.rounds += 1
        charge(reply, messages)
        if not reply.calls:
            outcome.note = reply.text.strip()
            break
        calls = reply.calls[:_CALLS_PER_ROUND]
        messages.append(
            {
                "role": "assistant",
                "content": reply.text or None,
                "tool_calls": [
                    {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                    for c in calls
                ],
            }
        )
        for call in calls:
            content, ran = await _one_call(call, offered, run_tool)
            outcome.calls += ran
            messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
    return outcome


async def _one_call(call: RequestedCall, offered: set[str], run_tool: RunTool) -> tuple[str, bool]:
    """What goes back to the model for one requested call, and whether a tool ran."""
    if call.name not in offered:
        return json.dumps({"error": f"no tool named {call.name}; use one of the tools offered"}), False
    try:
        arguments = json.loads(call.arguments or "{}")
    except ValueError:
        return json.dumps({"error": "the arguments were not JSON"}), False
    if not isinstance(arguments, dict):
        return json.dumps({"error": "the arguments must be a JSON object"}), False
    result = await run_tool(tool_name(call.name), arguments)
    if result is None:
        return json.dumps({"error": "not run (no patient is active, or the time budget is spent)"}), False
    if result.status == "needs_confirmation":
        return json.dumps({"status": "waiting for the clinician's approval; do not repeat this call"}), True
    if not result.ok or result.result is None:
        error = result.error.model_dump(mode="json") if result.error else {"status": result.status}
        return json.dumps({"error": error}), True
    text = json.dumps(result.result, ensure_ascii=False, default=str)
    return (text if len(text) <= _RESULT_CHARS else text[:_RESULT_CHARS] + " …(cut)"), True
