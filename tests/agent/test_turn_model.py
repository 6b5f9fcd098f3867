"""The consult turn with a model: a scripted OpenAI-compatible server on loopback stands in for it, so the
real client, the PHI routing, the checks on the model's wording, the budgets and the event stream run as
they would against llama.cpp or a cloud API. The tools are real (a calculator: no EHR needed)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from curbside.agent.budget import TurnBudget, max_llm_calls
from curbside.agent.intents import Intent, Triage
from curbside.agent.models import TurnRequest, TurnResult
from curbside.agent.stream import AnswerStream, marker_numbers
from curbside.agent.writer import check_sentence, numbers_in
from curbside.app import Curbside
from curbside.settings import Settings
from curbside.types import ToolCaller
from tests.scripted_llm import Reply, ScriptedLLM

DR = ToolCaller(user="dr-model", role="clinician", channel="cli")
BMI = "BMI for weight 80 kg, height 180 cm?"
DRAFT_VALUE = "24.7"


@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    with ScriptedLLM() as server:
        yield server


def make_app(tmp_path: Path, llm: ScriptedLLM, **settings: Any) -> Curbside:
    return Curbside(Settings(home=tmp_path / "home", local_llm_url=llm.url, **settings))


def run(app: Curbside, message: str = BMI, **request: Any) -> tuple[TurnResult, list[tuple[str, dict[str, Any]]]]:
    events: list[tuple[str, dict[str, Any]]] = []

    async def sink(kind: str, data: dict[str, Any]) -> None:
        events.append((kind, data))

    result = asyncio.run(app.turns.run(TurnRequest(message=message, **request), DR, on_event=sink))
    return result, events


def run_once(tmp_path: Path, llm: ScriptedLLM) -> tuple[TurnResult, list[tuple[str, dict[str, Any]]]]:
    """One turn on the BMI question in a new application, closed after it."""
    app = make_app(tmp_path, llm)
    try:
        return run(app)
    finally:
        app.close()


def streamed_text(events: list[tuple[str, dict[str, Any]]]) -> str:
    """What a page shows at the end: the tokens after the last retract."""
    text = ""
    for kind, data in events:
        if kind == "retract":
            text = ""
        elif kind == "token":
            text += data["text"]
    return text


def test_the_model_words_the_answer_and_sources_stream_before_their_markers(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.default = Reply(f"The BMI is {DRAFT_VALUE} kg/m² [1], in the normal range for an adult.")
    result, events = run_once(tmp_path, llm)
    assert result.final_response == f"The BMI is {DRAFT_VALUE} kg/m² [1], in the normal range for an adult."
    assert result.model == "local"
    assert [c.n for c in result.sources_used] == [1]
    assert result.usage is not None and result.usage.llm_calls == 1
    assert result.usage.tokens_estimated  # the scripted stream reports no counts
    assert result.usage.prompt_tokens > 0 and result.usage.completion_tokens > 0
    assert any("Worded by the local model" in w for w in result.warnings)
    # the model saw the draft with its marker, and nothing was said before the source it cites
    prompt = llm.user_prompt()
    assert "24.7 kg/m²" in prompt and "[1]" in prompt
    kinds = [k for k, _ in events]
    first_marker = next(i for i, (k, d) in enumerate(events) if k == "token" and "[1]" in d["text"])
    assert kinds.index("source") < first_marker
    assert streamed_text(events).strip() == result.final_response


def test_a_number_the_tools_did_not_give_stops_the_model_and_the_draft_stands(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.default = Reply(f"The BMI is {DRAFT_VALUE} kg/m² [1]. Aim for a weight below 75 kg.")
    result, events = run_once(tmp_path, llm)
    assert result.final_response.startswith("Body mass index: 24.7 kg/m²")
    assert "75" not in result.final_response
    assert result.model == "local"  # it ran; its words were refused
    assert any("wording was not used (it wrote 75" in w for w in result.warnings)
    # its first sentence had streamed, so the page is told to drop it before the draft follows
    assert ("retract", {"reason": "it wrote 75, which the tools' results do not say"}) in events
    assert streamed_text(events).strip() == result.final_response


def test_a_marker_naming_no_source_is_refused(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.default = Reply(f"The BMI is {DRAFT_VALUE} kg/m² [2].")
    result, events = run_once(tmp_path, llm)
    assert result.final_response.startswith("Body mass index")
    assert any("[2], which name no source" in w for w in result.warnings)
    assert all(d.get("n") != 2 for k, d in events if k == "source")


def test_an_answer_citing_nothing_is_refused(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.default = Reply("That weight is fine for a man of his height.")  # no number, no marker
    result, _ = run_once(tmp_path, llm)
    assert result.final_response.startswith("Body mass index")
    assert any("it cited no source" in w for w in result.warnings)


def test_a_failing_model_leaves_the_tools_answer(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.default = Reply(status=500)
    result, _ = run_once(tmp_path, llm)
    assert result.status == "answered"
    assert result.final_response.startswith("Body mass index")
    assert result.model == "none" and result.usage is not None and result.usage.llm_calls == 0
    assert any("HTTP 500" in w for w in result.warnings)


def test_use_llm_false_and_no_setting_keep_the_model_out(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.default = Reply(f"The BMI is {DRAFT_VALUE} kg/m² [1], normal.")
    app = make_app(tmp_path, llm)
    try:
        result, _ = run(app, use_llm=False)
    finally:
        app.close()
    assert result.model == "none" and not llm.requests
    app = make_app(tmp_path, llm, turn_use_llm=False)
    try:
        result, _ = run(app)
    finally:
        app.close()
    assert result.model == "none" and not llm.requests


def test_a_patients_turn_never_reaches_a_cloud_model(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.default = Reply(f"The BMI is {DRAFT_VALUE} kg/m² [1], normal.")
    app = Curbside(Settings(home=tmp_path / "home", cloud_llm_url=llm.url, cloud_llm_key="k"))
    try:
        result, _ = run(app, patient_id="a59944cf-1153-25c3-cc82-e5bfa70d63c2")
    finally:
        app.close()
    assert not llm.requests
    assert result.model == "none" and result.phi_detected is True


def test_the_daily_cost_limit_stops_model_calls(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.default = Reply(f"The BMI is {DRAFT_VALUE} kg/m² [1], in the normal range.")
    app = make_app(tmp_path, llm, llm_price_local_per_1k=1.0, llm_user_daily_cost_limit=0.01)
    try:
        first, _ = run(app)
        spent = app.sessions.spent_today(DR.user)
        second, _ = run(app)
        ledger = app.sessions.usage(DR.user)
    finally:
        app.close()
    assert first.model == "local" and first.usage is not None and first.usage.cost > 0.01
    assert spent == pytest.approx(first.usage.cost)
    assert second.model == "none" and len(llm.requests) == 1
    assert any("daily model budget (0.01) is spent" in w for w in second.warnings)
    assert ledger[0]["turns"] == 1 and ledger[0]["llm_calls"] == 1


def test_an_unsure_triage_asks_the_model_for_the_route(tmp_path: Path, llm: ScriptedLLM) -> None:
    def unsure(message: str, **_: Any) -> Triage:
        return Triage("lookup", (Intent("calculator", {"calculator": "bmi"}),), False, "rules unsure")

    llm.replies.append(Reply(json.dumps({"route": "reasoning", "intents": ["calculator"]}), stream=False))
    llm.default = Reply(f"The BMI is {DRAFT_VALUE} kg/m² [1].")
    app = make_app(tmp_path, llm)
    try:
        app.turns.triage = unsure
        result, _ = run(app)
    finally:
        app.close()
    assert result.route == "reasoning"
    assert result.usage is not None and result.usage.llm_calls == 2 and result.usage.max_llm_calls == 5
    assert llm.requests[0]["body"]["response_format"]["type"] == "json_schema"
    assert any(s.step == "triage" and s.outcome == "model" for s in result.reasoning_timeline)


def test_budgets_follow_the_reference_table() -> None:
    # agent-decision-tree.md, "LLM Call Budget by Route": direct 2, lookup 3, reasoning 5, multi-step 3 + 3N
    assert [max_llm_calls(r) for r in ("direct", "lookup", "reasoning")] == [2, 3, 5]
    assert max_llm_calls("multi_step", 2) == 9 and max_llm_calls("multi_step", 9) == 18  # N is at most 5
    budget = TurnBudget.for_route("direct", {"direct": 5.0})
    for _ in range(2):
        assert budget.refusal() is None
        budget.charge(
            "local",
            prompt_tokens=None,
            completion_tokens=7,
            prompt_chars=40,
            completion_chars=0,
            price_prompt_per_1k=0,
            price_completion_per_1k=0,
        )
    assert budget.refusal() == "the direct route's budget of 2 model calls is spent"
    assert budget.prompt_tokens == 20 and budget.completion_tokens == 14 and budget.estimated
    late = TurnBudget.for_route("lookup", {"lookup": 1.2})  # 75 % of it is under a second: no model call
    assert late.refusal() == "the lookup route's 1.2 s leave no time for a model call"


def test_sentence_checks_and_the_stream_hold_back_an_open_marker() -> None:
    allowed = numbers_in("HbA1c 6.77 % on 2024-01-24 [1].")
    assert check_sentence("Her HbA1c was 6.770 % [1].", allowed, {1}) is None
    assert check_sentence("Her HbA1c was 7 % [1].", allowed, {1}) == "it wrote 7, which the tools' results do not say"
    assert marker_numbers("a [1-3] b [5, 7]") == [1, 2, 3, 5, 7]

    from curbside.agent.models import TurnCitation

    events: list[tuple[str, Any]] = []

    async def sink(kind: str, data: dict[str, Any]) -> None:
        events.append((kind, data))

    async def feed() -> None:
        stream = AnswerStream(sink, [TurnCitation(n=1, kind="tool", title="HbA1c")])
        for piece in ("HbA1c 6.77 % [", "1", "]. Also [9] here."):
            await stream.feed(piece)
        await stream.close()

    asyncio.run(feed())
    assert [k for k, _ in events] == ["token", "source", "token"]
    assert events[0][1]["text"] == "HbA1c 6.77 % "
    assert events[2][1]["text"] == "[1]. Also [9] here."  # [9] names no source: text, never a source event


# --- planning by tool calls (CURBSIDE_TURN_TOOL_CALLING) ------------------------------------------------


def tool_calls(*calls: tuple[str, dict[str, Any]], text: str = "") -> Reply:
    """A non-streamed OpenAI reply asking for ``calls`` (function names as the model sees them)."""
    message = {
        "role": "assistant",
        "content": text or None,
        "tool_calls": [
            {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            for i, (name, args) in enumerate(calls)
        ],
    }
    body = {"model": "scripted", "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}
    return Reply(raw=json.dumps(body).encode(), stream=False)


def said(text: str) -> Reply:
    body = {"model": "scripted", "choices": [{"index": 0, "message": {"role": "assistant", "content": text}}]}
    return Reply(raw=json.dumps(body).encode(), stream=False)


def unsure(message: str, **_: Any) -> Triage:
    return Triage("reasoning", (Intent("unknown"),), False, "no rule fired")


def test_a_tool_calling_model_plans_what_the_rules_cannot(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.replies.extend(
        [
            said(json.dumps({"route": "reasoning", "intents": ["calculator"]})),  # the triage tie-break
            tool_calls(("calc__bmi", {"weight": 80, "height": 180}), ("no__such_tool", {})),
            said("The BMI answers it."),
            Reply(f"The BMI is {DRAFT_VALUE} kg/m² [1], normal for an adult."),
        ]
    )
    app = make_app(tmp_path, llm, turn_tool_calling=True)
    try:
        app.turns.triage = unsure
        result, _ = run(app, "how heavy is a man of 80 kg and 180 cm, really?")
    finally:
        app.close()
    assert [c.tool for c in result.tool_calls] == ["calc.bmi"]
    assert result.final_response == f"The BMI is {DRAFT_VALUE} kg/m² [1], normal for an adult."
    plan = next(s for s in result.reasoning_timeline if s.step == "plan")
    assert plan.what == "the local model planned 1 tool calls in 2 rounds"
    assert "The BMI answers it" not in json.dumps(result.model_dump(mode="json"))  # its own words are unchecked
    tools = llm.requests[1]["body"]["tools"]
    offered = {t["function"]["name"] for t in tools}
    assert "calc__bmi" in offered and "kb__ask" in offered and "consult__turn" not in offered
    assert len(json.dumps(tools)) <= 6_000  # a small local model's context holds a few schemas, not all
    # the unknown tool was answered with an error for the model, never run
    sent_back = [m for m in llm.requests[2]["body"]["messages"] if m["role"] == "tool"]
    assert "no tool named no__such_tool" in sent_back[1]["content"] and DRAFT_VALUE in sent_back[0]["content"]
    assert result.usage is not None and result.usage.llm_calls == 4 and result.usage.max_llm_calls == 5


def test_a_cloud_planner_is_never_offered_the_chart(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.replies.extend([said("{}"), said("nothing to call")])
    app = Curbside(Settings(home=tmp_path / "home", cloud_llm_url=llm.url, cloud_llm_key="k", turn_tool_calling=True))
    try:
        app.turns.triage = unsure
        result, _ = run(app, "what do you make of this?")
    finally:
        app.close()
    planning = next(r for r in llm.requests if "tools" in r["body"])
    offered = {t["function"]["name"] for t in planning["body"]["tools"]}
    assert offered and not any(name.startswith("ehr__") for name in offered)
    assert any(s.outcome == "rules plan instead" for s in result.reasoning_timeline)


def test_a_planner_that_fails_leaves_the_rules_plan(tmp_path: Path, llm: ScriptedLLM) -> None:
    def bmi_unsure(message: str, **_: Any) -> Triage:
        return Triage("lookup", (Intent("calculator", {"calculator": "bmi"}),), False, "rules unsure")

    llm.replies.extend([said("not json"), Reply(status=500)])
    llm.default = Reply(f"The BMI is {DRAFT_VALUE} kg/m² [1].")
    app = make_app(tmp_path, llm, turn_tool_calling=True)
    try:
        app.turns.triage = bmi_unsure
        result, _ = run(app)
    finally:
        app.close()
    assert [c.tool for c in result.tool_calls] == ["calc.bmi"]
    assert any("could not plan" in w and "the rules planned instead" in w for w in result.warnings)
    assert DRAFT_VALUE in result.final_response


def test_with_one_source_a_sentence_stating_a_number_is_cited_to_it(tmp_path: Path, llm: ScriptedLLM) -> None:
    # small models drop markers; with a single source every fact of the draft is that source's
    llm.default = Reply(f"His BMI is {DRAFT_VALUE} kg/m². That is in the normal range for an adult.")
    result, events = run_once(tmp_path, llm)
    assert result.final_response == f"His BMI is {DRAFT_VALUE} kg/m² [1]. That is in the normal range for an adult."
    assert streamed_text(events).strip() == result.final_response


def test_the_tools_an_intent_names_are_offered_first_within_the_schema_budget(tmp_path: Path) -> None:
    from curbside.agent.tool_loop import offered_tools, openai_tools

    app = Curbside(Settings(home=tmp_path / "home"))
    try:
        registry = app.tools.registry
        local = offered_tools(registry, role="clinician", local=True, intents=["patient_labs", "drug_label"])
        cloud = offered_tools(registry, role="clinician", local=False, intents=["patient_labs", "drug_label"])
    finally:
        app.close()
    assert [s.name for s in local[:2]] == ["ehr.get_observations", "evidence.check_drug_safety"]
    assert [s.name for s in cloud[:2]] == ["evidence.check_drug_safety", "kb.ask"]
    assert len(json.dumps(openai_tools(local))) <= 6_000 < len(json.dumps(openai_tools(cloud)))
    assert not any(s.name.startswith("ehr.") for s in cloud)  # the chart never goes to a cloud model


def test_a_slow_model_is_cut_at_the_routes_time_budget_and_the_tools_answer_stands(
    tmp_path: Path, llm: ScriptedLLM
) -> None:
    llm.default = Reply(f"The BMI is {DRAFT_VALUE} kg/m² [1].", delay_s=6.0)
    app = make_app(tmp_path, llm, turn_time_budget_s={"lookup": 3.0})
    try:
        result, _ = run(app)
    finally:
        app.close()
    assert result.final_response.startswith("Body mass index: 24.7 kg/m²")
    assert result.usage is not None and result.usage.seconds < 3.0  # the model had 75 % of the 3 s
    assert any("stopped at the route's time budget" in w for w in result.warnings)


def test_an_answer_citing_nothing_is_never_reworded_into_a_judgement(tmp_path: Path, llm: ScriptedLLM) -> None:
    # seen with the local model: "the knowledge base holds nothing relevant" became "No, … is not a problem."
    llm.replies.append(said(json.dumps({"route": "lookup", "intents": ["knowledge"]})))
    llm.default = Reply("No, a man of 80 kg and 180 cm is not a problem.")
    message = "how heavy is a man of 80 kg and 180 cm, is that a problem?"

    def to_the_knowledge_base(text: str, **_: Any) -> Triage:
        return Triage("lookup", (Intent("knowledge", {"question": text}),), False, "no rule matched")

    app = make_app(tmp_path, llm)  # an empty knowledge base
    try:
        app.turns.triage = to_the_knowledge_base
        result, _ = run(app, message)
    finally:
        app.close()
    assert "not a problem" not in result.final_response
    assert "nothing relevant" in result.final_response and not result.sources_used
    assert len(llm.requests) == 1  # the route vote only: nothing was sent to be worded


def test_a_sentence_of_the_models_own_is_flagged(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.default = Reply(f"The BMI is {DRAFT_VALUE} kg/m² [1]. That is a healthy weight for him.")
    result, _ = run_once(tmp_path, llm)
    assert result.final_response.endswith("That is a healthy weight for him.")
    assert any(w.startswith("1 sentence(s) of the model's wording cite no source") for w in result.warnings)
    system = llm.requests[0]["body"]["messages"][0]["content"]
    assert "judgements" in system and "you may add" not in system
