"""The turn's model steps, where a model is allowed (``TurnLLM``: the PHI routing) and the route's budget
holds: a vote on an unsure route, planning by tool calls (``CURBSIDE_TURN_TOOL_CALLING``), and the
answer in the model's words, checked sentence by sentence against the tools' results."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from curbside.agent.budget import within
from curbside.agent.intents import Intent, Triage
from curbside.agent.models import TimelineStep, TurnCitation
from curbside.agent.planner import Plan, Step
from curbside.agent.state import TurnState, elapsed_ms
from curbside.agent.stream import AnswerStream
from curbside.agent.synthesis import stream_text
from curbside.agent.tool_loop import SYSTEM as PLANNER_SYSTEM
from curbside.agent.tool_loop import offered_tools, openai_tools, run_tool_loop
from curbside.agent.triage_model import parse_route, triage_messages, triage_schema
from curbside.agent.writer import (
    SentenceGuard,
    Ungrounded,
    max_tokens_for,
    numbers_in,
    write_answer,
    writer_messages,
)
from curbside.errors import UpstreamError

if TYPE_CHECKING:
    from curbside.agent.llm_access import ModelChoice, TurnLLM
    from curbside.tools.base import ToolResult
    from curbside.tools.executor import ToolExecutor

__all__ = ["ModelSteps"]


class ModelSteps:
    """The model-using states of ``ConsultTurn`` (a mixin: the turn supplies these attributes and ``_run_step``)."""

    executor: ToolExecutor
    llm: TurnLLM | None
    seconds_by_route: dict[str, float]
    tool_calling: bool

    async def _run_step(self, state: TurnState, step: Step) -> ToolResult | None:
        raise NotImplementedError

    def _may_use_model(self, state: TurnState) -> bool:
        return self.llm is not None and self.llm.usable and state.request.use_llm

    async def _choose_model(self, state: TurnState, *texts: str) -> ModelChoice | None:
        """Where a prompt of this turn made of ``texts`` may go; None when no model may be used."""
        if not self._may_use_model(state):
            return None
        assert self.llm is not None
        # asked again for each prompt: the draft may hold what the message did not (the screen caches blocks)
        choice = await self.llm.choose(state.request.message, *texts, patient_active=state.patient_id is not None)
        if state.model is not None and state.model.phi and not choice.phi:
            choice = replace(choice, phi=True)  # PHI seen once in this turn is reported
        state.model = choice
        return choice if choice.endpoint is not None else None

    async def _break_tie(self, state: TurnState, triaged: Triage) -> Triage:
        """The rules are unsure: a model may change the route (never the intents or the plan)."""
        choice = await self._choose_model(state)
        assert state.budget is not None
        refusal = state.budget.refusal()
        if choice is None or choice.endpoint is None or refusal is not None:
            return triaged
        assert self.llm is not None
        began = time.perf_counter()
        messages = triage_messages(state.request.message, has_patient=state.patient_id is not None, rules=triaged)
        model = self.llm.json_model(choice.endpoint)
        try:
            async with within(state.budget.model_seconds_left(), "the route vote"):
                text = await model.complete_json(messages, triage_schema(), max_tokens=120)
        except UpstreamError as exc:
            await state.note(
                TimelineStep(
                    step="triage", what="asked the model for the route", outcome=exc.code, ms=elapsed_ms(began)
                )
            )
            return triaged
        self._charge(state, choice.endpoint, messages, text, model.last_usage)
        answer = parse_route(text)
        route = answer[0] if answer is not None else None
        await state.note(
            TimelineStep(
                step="triage",
                what=f"the {choice.endpoint} model chose route {route}"
                if route
                else "the model's answer was not a route",
                why="the rules were unsure",
                outcome="model" if route else "rules kept",
                ms=elapsed_ms(began),
            )
        )
        if route is None or route == triaged.route:
            return triaged
        state.budget.reroute(route, self.seconds_by_route, subtasks=max(1, len(triaged.intents)))
        return Triage(route, triaged.intents, False, f"{triaged.reason}; the model chose {route}")  # type: ignore[arg-type]

    def _model_should_plan(self, state: TurnState, triaged: Triage, plan: Plan) -> bool:
        """A tool-calling model plans where the rules are not enough: an unsure triage, a reasoning or
        multi-step route, or nothing the rules could plan but the knowledge base or a refusal."""
        if not (self.tool_calling and self._may_use_model(state)) or triaged.route == "direct" or plan.direct:
            return False
        only_fallback = all(s.tool == "kb.ask" for s in plan.steps)
        return (
            not triaged.confident or triaged.route in ("reasoning", "multi_step") or bool(plan.cannot) or only_fallback
        )

    async def _plan_with_model(self, state: TurnState, triaged: Triage) -> bool:
        """Plan and run the tools with the model's tool calls; False (nothing run) sends the turn back to the
        rules: no model allowed, budget spent, or the model failed at once."""
        choice = await self._choose_model(state)
        assert state.budget is not None
        if choice is None or choice.endpoint is None or state.budget.refusal() is not None:
            return False
        assert self.llm is not None
        endpoint = choice.endpoint
        named = [
            str(i.slots["calculator"]) for i in triaged.intents if i.kind == "calculator" and i.slots.get("calculator")
        ]
        specs = offered_tools(
            self.executor.registry,
            role=state.caller.role,
            local=endpoint == "local",
            intents=triaged.kinds,
            calculators=named,
        )
        takes_patient = {s.name for s in specs if "patient_id" in s.input_schema().get("properties", {})}
        user = state.request.message
        if state.patient_id:
            user += f"\n\nActive patient id: {state.patient_id}"
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": PLANNER_SYSTEM},
            {"role": "user", "content": user},
        ]

        async def run_tool(tool: str, arguments: dict[str, Any]) -> ToolResult | None:
            if state.patient_id and tool in takes_patient and not arguments.get("patient_id"):
                arguments = {**arguments, "patient_id": state.patient_id}
            if state.budget is not None and state.budget.out_of_time():
                return None
            step = Step(tool, arguments, Intent("unknown", {}, state.request.message), "chosen by the model")
            return await self._run_step(state, step)

        began = time.perf_counter()
        settings = self.llm.settings
        try:
            outcome = await run_tool_loop(
                self.llm.client(endpoint),
                messages,
                openai_tools(specs),
                run_tool,
                may_call=state.budget.refusal,
                seconds_left=state.budget.model_seconds_left,
                charge=lambda reply, sent: self._charge(
                    state, endpoint, sent, reply.text, (reply.prompt_tokens, reply.completion_tokens)
                ),
                max_rounds=6,
                max_tokens=min(400, settings.llm_max_tokens),
                temperature=0.0,
            )
        except UpstreamError as exc:
            state.warnings.append(f"The {endpoint} model could not plan ({exc.message}); the rules planned instead.")
            await state.note(
                TimelineStep(
                    step="plan", what=f"asked the {endpoint} model to plan", outcome=exc.code, ms=elapsed_ms(began)
                )
            )
            return False
        if outcome.calls == 0:
            await state.note(
                TimelineStep(
                    step="plan",
                    what=f"the {endpoint} model called no tool",
                    why=outcome.stopped or "it answered in words, which are not shown: only tool results are",
                    outcome="rules plan instead",
                    ms=elapsed_ms(began),
                )
            )
            return False
        if outcome.stopped:
            state.warnings.append(f"The model's planning stopped early: {outcome.stopped}.")
        await state.note(
            TimelineStep(
                step="plan",
                what=f"the {endpoint} model planned {outcome.calls} tool calls in {outcome.rounds} rounds",
                why=outcome.stopped or "tool calling",
                outcome="model",
                ms=elapsed_ms(began),
            )
        )
        return True

    def _charge(
        self,
        state: TurnState,
        endpoint: str,
        messages: list[dict[str, Any]],
        reply: str,
        reported: tuple[int | None, int | None],
    ) -> None:
        assert state.budget is not None and self.llm is not None
        prompt_price, completion_price = self.llm.prices(endpoint)  # type: ignore[arg-type]
        state.budget.charge(
            endpoint,
            prompt_tokens=reported[0],
            completion_tokens=reported[1],
            prompt_chars=sum(len(str(m.get("content") or "")) for m in messages),
            completion_chars=len(reply),
            price_prompt_per_1k=prompt_price,
            price_completion_per_1k=completion_price,
        )
        if endpoint not in state.models_used:
            state.models_used.append(endpoint)

    async def _write(
        self, state: TurnState, triaged: Triage, draft: str, citations: list[TurnCitation]
    ) -> tuple[str, str] | None:
        """The answer in the model's words, streamed as it passes the checks; None: the draft stands
        (and has been streamed)."""
        choice = await self._choose_model(state, draft)
        assert state.budget is not None
        refusal = state.budget.refusal() if choice is not None else None
        if choice is None or choice.endpoint is None or refusal is not None:
            if refusal is not None:
                state.warnings.append(f"The answer is in the tools' own words: {refusal}.")
            await stream_text(state, draft, citations)
            return None
        assert self.llm is not None
        endpoint = choice.endpoint
        client = self.llm.client(endpoint)
        breaker = self.llm.router.breakers[endpoint]
        if not breaker.allow():
            state.warnings.append(
                f"The {endpoint} model failed {breaker.consecutive_failures} times in a row and is skipped for "
                f"{breaker.retry_in():.0f} s more; the answer is in the tools' own words."
            )
            await stream_text(state, draft, citations)
            return None
        preferences = state.preferences
        length = preferences.answer_length if preferences is not None else "normal"
        messages = writer_messages(
            state.request.message,
            draft,
            length=length,
            specialty=preferences.specialty if preferences is not None else None,
        )
        sources = {c.n for c in citations}
        allowed = numbers_in(draft) | numbers_in(state.request.message)
        guard = SentenceGuard(AnswerStream(state.on_event, citations), allowed, sources)
        settings = self.llm.settings
        began = time.perf_counter()
        try:
            async with within(state.budget.model_seconds_left(), "the wording"):
                completion = await client.complete(
                    messages,
                    max_tokens=max_tokens_for(length, settings.llm_max_tokens),
                    temperature=settings.llm_temperature,
                    on_token=guard.feed,
                )
            await guard.finish()
            written = write_answer("".join(guard.accepted), bool(sources), sources)
        except (Ungrounded, UpstreamError) as exc:
            if isinstance(exc, UpstreamError):
                breaker.record_failure()
                why, outcome = exc.message, exc.code
            else:
                breaker.record_success()  # the endpoint works; its wording did not pass
                self._charge(state, endpoint, messages, guard.text, (None, None))
                why, outcome = exc.reason, "not used"
            state.warnings.append(
                f"The {endpoint} model's wording was not used ({why}); the answer is in the tools' own words."
            )
            await state.note(
                TimelineStep(
                    step="synthesis",
                    what=f"asked the {endpoint} model to write the answer",
                    why=why,
                    outcome=outcome,
                    ms=elapsed_ms(began),
                )
            )
            if guard.streamed and state.on_event is not None:
                await state.on_event("retract", {"reason": why})
            await stream_text(state, draft, citations)
            return None
        except BaseException:
            breaker.abandon()  # cancelled mid-call: no verdict on the model
            raise
        breaker.record_success()
        self._charge(
            state, endpoint, messages, completion.text, (completion.prompt_tokens, completion.completion_tokens)
        )
        if completion.finish_reason == "length":
            state.warnings.append("The model's answer was cut at its length limit.")
        state.warnings.append(
            f"Worded by the {endpoint} model from the tools' results; its numbers and sources were checked against them."
        )
        if written.uncited:
            state.warnings.append(
                f"{written.uncited} sentence(s) of the model's wording cite no source: read them as its words, not a "
                "source's."
            )
        first = f", first token {completion.ttft_ms:.0f} ms" if completion.ttft_ms is not None else ""
        how = f"written by the {endpoint} model ({completion.model}{first}), checked against the tools' results"
        return written.text, how
