"""The consult turn as an explicit state machine: context → triage → plan → tools → synthesis.

Each state is a small step that records itself on the timeline. Every tool call goes through the
executor (permissions, confirmations, rate limits, audit) as the calling clinician. Error strategies
follow the reference design, decided by rules: retry the same call (timeouts, a service failing),
reformulate (the tool named an argument it does not take), skip (not found, retries spent), ask the
user (a fact is missing). No model is needed; where none is configured nothing is pretended.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from curbside import clock
from curbside.agent.budget import TurnBudget
from curbside.agent.intents import Intent, Triage
from curbside.agent.models import ProposedWrite, TimelineStep, ToolCallRecord, TurnCitation, TurnRequest, TurnResult
from curbside.agent.planner import PATIENT, Plan, Step, chart_inputs, plan_turn
from curbside.agent.render import Rendered, Source, render
from curbside.agent.stream import AnswerStream, marker_numbers, sentence_pieces
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
from curbside.sessions.citations import Reference, format_citation

if TYPE_CHECKING:
    from curbside.agent.llm_access import ModelChoice, TurnLLM
    from curbside.sessions import SessionStore
    from curbside.sessions.models import Preferences
    from curbside.tools.base import ToolResult
    from curbside.tools.executor import ToolExecutor
    from curbside.types import ToolCaller

__all__ = ["ConsultTurn", "TriageFn"]

TriageFn = Callable[..., Triage]  # triage(message, *, has_patient, calculators) -> Triage
EventSink = Callable[[str, dict[str, Any]], Awaitable[None]]

_RETRY_SAME = frozenset({"TIMEOUT", "UPSTREAM_TIMEOUT", "UPSTREAM_ERROR"})
_DEFAULT_SECONDS = {"direct": 5.0, "lookup": 20.0, "reasoning": 60.0, "multi_step": 90.0}
_MAX_RETRIES = 2
_EXTRA_FIELD = re.compile(r"(\w+): Extra inputs are not permitted")


@dataclass
class _State:
    request: TurnRequest
    caller: ToolCaller
    now: datetime
    patient_id: str | None
    on_event: EventSink | None
    timeline: list[TimelineStep] = field(default_factory=list)
    calls: list[ToolCallRecord] = field(default_factory=list)
    writes: list[ProposedWrite] = field(default_factory=list)
    rendered: list[tuple[Step, Rendered]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    chart: dict[str, Any] | None = None
    failed: int = 0
    skipped: list[str] = field(default_factory=list)  # conditional writes not made, and why
    budget: TurnBudget | None = None
    preferences: Preferences | None = None
    model: ModelChoice | None = None  # where this turn's prompts may go, once asked
    models_used: list[str] = field(default_factory=list)

    async def note(self, step: TimelineStep) -> None:
        self.timeline.append(step)
        if self.on_event is not None:
            await self.on_event("step", step.model_dump(mode="json"))


class ConsultTurn:
    def __init__(
        self,
        executor: ToolExecutor,
        *,
        triage: TriageFn,
        calculators: Callable[[], Mapping[str, str]] | None = None,
        sessions: Callable[[], SessionStore] | None = None,
        llm: TurnLLM | None = None,
        seconds_by_route: Mapping[str, float] | None = None,
        daily_cost_limit: float | None = None,
        tool_calling: bool = False,
    ) -> None:
        self.executor = executor
        self.triage = triage
        self.calculators = calculators
        self.sessions = sessions
        self.llm = llm
        self.seconds_by_route = dict(seconds_by_route or _DEFAULT_SECONDS)
        self.daily_cost_limit = daily_cost_limit
        self.tool_calling = tool_calling  # the configured model can plan with OpenAI-style tool calls

    async def run(self, request: TurnRequest, caller: ToolCaller, *, on_event: EventSink | None = None) -> TurnResult:
        # a replayed case's time holds for every tool this turn calls (ages, "not in the future" checks)
        with clock.reference_time(request.now):
            return await self._run(request, caller, on_event)

    async def _run(self, request: TurnRequest, caller: ToolCaller, on_event: EventSink | None) -> TurnResult:
        now = request.now or datetime.now(UTC)
        state = _State(request, caller, now, request.patient_id, on_event)
        await self._session_context(state)
        if state.patient_id:
            await self._context(state)
        triaged = await self._triage(state)
        state.budget = TurnBudget.for_route(
            triaged.route,
            self.seconds_by_route,
            spent_before=self._spent_today(state),
            daily_limit=self.daily_cost_limit,
        )
        if not triaged.confident:
            triaged = await self._break_tie(state, triaged)
        plan = plan_turn(triaged, has_patient=state.patient_id is not None, now=now, message=request.message)
        if self._model_should_plan(state, triaged, plan) and await self._plan_with_model(state, triaged):
            result = await self._synthesize(state, triaged, Plan())
            self._remember(state, result)
            return result
        await state.note(
            TimelineStep(
                step="plan",
                what=", ".join(s.tool for s in plan.steps)
                or ("a reply without tools" if plan.direct else "nothing to run"),
                why="deterministic planner",
            )
        )
        if plan.clarify and not plan.steps:
            return await self._clarify(state, triaged, plan.clarify)
        for step in plan.steps:
            if state.budget.out_of_time():
                state.warnings.append(
                    f"Stopped before {step.tool}: the {state.budget.route} route's {state.budget.seconds:g} s were spent."
                )
                await state.note(
                    TimelineStep(step="tool", what=step.why, tool=step.tool, outcome="skipped: time budget")
                )
                continue
            await self._run_step(state, step)
        result = await self._synthesize(state, triaged, plan)
        self._remember(state, result)
        return result

    # --- states ---------------------------------------------------------------------------------

    async def _session_context(self, state: _State) -> None:
        """The conversation's active patient and its last messages (a session the caller named)."""
        session_id = state.request.session_id
        if session_id is None or self.sessions is None:
            return
        began = time.perf_counter()
        store = self.sessions()
        session = store.open(state.caller.user, session_id)
        state.preferences = session.preferences
        if state.patient_id is None:
            state.patient_id = session.patient_id
        elif state.patient_id != session.patient_id:
            store.set_patient(state.caller.user, session_id, state.patient_id)
        earlier = len(store.recent(state.caller.user, session_id))
        await state.note(
            TimelineStep(
                step="context",
                what=f"conversation: {earlier} earlier messages"
                + (
                    ", the active patient kept" if session.patient_id and state.patient_id == session.patient_id else ""
                ),
                ms=_ms(began),
            )
        )

    def _spent_today(self, state: _State) -> float:
        if self.daily_cost_limit is None or self.sessions is None or not self._may_use_model(state):
            return 0.0
        return self.sessions().spent_today(state.caller.user)

    def _remember(self, state: _State, result: TurnResult) -> None:
        if result.usage is not None and result.usage.llm_calls and self.sessions is not None:
            usage = result.usage
            self.sessions().record_usage(
                state.caller.user,
                llm_calls=usage.llm_calls,
                prompt_tokens=usage.prompt_tokens,
                completion_tokens=usage.completion_tokens,
                cost=usage.cost,
            )
        session_id = state.request.session_id
        if session_id is None or self.sessions is None:
            return
        store = self.sessions()
        user = state.caller.user
        if state.patient_id and store.get(user, session_id).patient_id != state.patient_id:
            store.set_patient(user, session_id, state.patient_id)  # found during this turn: the next ones keep it
        store.append(user, session_id, "user", state.request.message)
        payload = {"status": result.status, "sources": [c.model_dump(mode="json") for c in result.sources_used]}
        store.append(user, session_id, "assistant", result.final_response, payload=payload)

    async def _context(self, state: _State) -> None:
        began = time.perf_counter()
        result = await self.executor.call(
            "ehr.get_patient_chart", {"patient_id": state.patient_id}, caller=state.caller
        )
        outcome = result.status if result.ok else (result.error.code if result.error else result.status)
        if result.ok and result.result is not None:
            state.chart = result.result
        else:
            state.warnings.append(f"The active patient's chart could not be read ({outcome}).")
        state.calls.append(
            ToolCallRecord(
                tool="ehr.get_patient_chart",
                arguments={"patient_id": state.patient_id},
                status=result.status,
                error_code=result.error.code if result.error else None,
                call_id=result.call_id,
            )
        )
        await state.note(
            TimelineStep(
                step="context",
                what="read the active patient's chart",
                tool="ehr.get_patient_chart",
                arguments={"patient_id": state.patient_id},
                outcome=outcome,
                ms=_ms(began),
            )
        )

    async def _triage(self, state: _State) -> Triage:
        began = time.perf_counter()
        calculators = self.calculators() if self.calculators is not None else None
        triaged = self.triage(state.request.message, has_patient=state.patient_id is not None, calculators=calculators)
        await state.note(
            TimelineStep(
                step="triage",
                what=f"route {triaged.route}: {', '.join(triaged.kinds) or 'no intent'}",
                why=triaged.reason,
                outcome="rules" if triaged.confident else "rules unsure",
                ms=_ms(began),
            )
        )
        return triaged

    # --- the model, where one is allowed ---------------------------------------------------------

    def _may_use_model(self, state: _State) -> bool:
        return self.llm is not None and self.llm.usable and state.request.use_llm

    async def _choose_model(self, state: _State, *texts: str) -> ModelChoice | None:
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

    async def _break_tie(self, state: _State, triaged: Triage) -> Triage:
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
            text = await model.complete_json(messages, triage_schema(), max_tokens=120)
        except UpstreamError as exc:
            await state.note(
                TimelineStep(step="triage", what="asked the model for the route", outcome=exc.code, ms=_ms(began))
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
                ms=_ms(began),
            )
        )
        if route is None or route == triaged.route:
            return triaged
        state.budget.reroute(route, self.seconds_by_route, subtasks=max(1, len(triaged.intents)))
        return Triage(route, triaged.intents, False, f"{triaged.reason}; the model chose {route}")  # type: ignore[arg-type]

    def _model_should_plan(self, state: _State, triaged: Triage, plan: Plan) -> bool:
        """A tool-calling model plans where the rules are not enough: an unsure triage, a reasoning or
        multi-step route, or nothing the rules could plan but the knowledge base or a refusal."""
        if not (self.tool_calling and self._may_use_model(state)) or triaged.route == "direct" or plan.direct:
            return False
        only_fallback = all(s.tool == "kb.ask" for s in plan.steps)
        return (
            not triaged.confident or triaged.route in ("reasoning", "multi_step") or bool(plan.cannot) or only_fallback
        )

    async def _plan_with_model(self, state: _State, triaged: Triage) -> bool:
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
            self.executor.registry, role=state.caller.role, local=endpoint == "local", calculators=named
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
                TimelineStep(step="plan", what=f"asked the {endpoint} model to plan", outcome=exc.code, ms=_ms(began))
            )
            return False
        if outcome.calls == 0:
            await state.note(
                TimelineStep(
                    step="plan",
                    what=f"the {endpoint} model called no tool",
                    why=outcome.note or outcome.stopped or "no call",
                    outcome="rules plan instead",
                    ms=_ms(began),
                )
            )
            return False
        if outcome.stopped:
            state.warnings.append(f"The model's planning stopped early: {outcome.stopped}.")
        await state.note(
            TimelineStep(
                step="plan",
                what=f"the {endpoint} model planned {outcome.calls} tool calls in {outcome.rounds} rounds",
                why=outcome.note or outcome.stopped or "tool calling",
                outcome="model",
                ms=_ms(began),
            )
        )
        return True

    def _charge(
        self,
        state: _State,
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

    async def _run_step(self, state: _State, step: Step) -> ToolResult | None:
        """Run one step through the executor; its result (None: not run)."""
        if step.needs_patient and not state.patient_id:
            state.warnings.append(f"Skipped {step.tool}: no patient was identified.")
            await state.note(TimelineStep(step="tool", what=step.why, tool=step.tool, outcome="skipped: no patient"))
            return None
        if step.tool == "ehr.get_patient_chart" and state.chart is not None and step.intent.kind == "calculator":
            return None  # the context already read it
        arguments = self._arguments(state, step)
        if step.condition is not None and not await self._condition_met(state, step, arguments):
            return None
        result, attempts = await self._call(state, step, arguments)
        record = ToolCallRecord(
            tool=step.tool,
            arguments=arguments,
            status=result.status,
            call_id=result.call_id,
            error_code=result.error.code if result.error else None,
            attempts=attempts,
        )
        state.calls.append(record)
        if result.status == "needs_confirmation" and result.confirmation is not None:
            await self._proposed(state, step, result)
            return result
        if not result.ok or result.result is None:
            state.failed += 1
            code = result.error.code if result.error else result.status
            message = result.error.message if result.error else ""
            state.warnings.append(f"{step.tool} did not answer ({code}): {message}".strip())
            return result
        if step.tool == "ehr.get_patient_chart":
            state.chart = result.result
        if step.tool == "ehr.search_patient":
            matches = result.result.get("matches") or []
            if len(matches) == 1:
                state.patient_id = matches[0]["id"]
        state.rendered.append((step, render(step.tool, result.result, step.intent.slots)))
        return result

    async def _condition_met(self, state: _State, step: Step, arguments: dict[str, Any]) -> bool:
        """Does the lab read earlier in this turn meet the step's condition? Sets a dose by rule when it does."""
        assert step.condition is not None
        lab = next((r for s, r in reversed(state.rendered) if s.tool == "ehr.get_observations"), None)
        values = lab.values if lab is not None else {}
        label = next(
            (s.arguments.get("code") for s, _ in reversed(state.rendered) if s.tool == "ehr.get_observations"), "lab"
        )
        held = step.condition.holds(values.get("value"), values.get("date"), state.now)
        if held:
            if step.dose_rule is not None and isinstance(values.get("value"), int | float):
                arguments["dose"] = step.dose_rule.tablets(float(values["value"]))
            return True
        words = step.condition.words(str(label))
        if held is False:
            seen = f"{values.get('value')} {values.get('unit') or ''}".strip()
            state.skipped.append(
                f"Nothing written for {step.tool}: {words} is not so (latest {seen}, {str(values.get('date'))[:10]})."
            )
        else:
            state.skipped.append(f"Nothing written for {step.tool}: no {label} value to judge whether {words}.")
        await state.note(TimelineStep(step="tool", what=step.why, tool=step.tool, outcome="skipped: condition not met"))
        return False

    def _arguments(self, state: _State, step: Step) -> dict[str, Any]:
        arguments = {k: (state.patient_id if v == PATIENT else v) for k, v in step.arguments.items()}
        if step.tool.startswith("calc.") and state.chart is not None:
            # chart values fill what the clinician did not give; their own words win
            arguments = {**chart_inputs(state.chart), **arguments}
        return arguments

    async def _call(self, state: _State, step: Step, arguments: dict[str, Any]) -> tuple[ToolResult, int]:
        attempts = 0
        while True:
            attempts += 1
            began = time.perf_counter()
            result = await self.executor.call(step.tool, arguments, caller=state.caller)
            code = result.error.code if result.error else None
            await state.note(
                TimelineStep(
                    step="tool",
                    what=step.why,
                    tool=step.tool,
                    arguments=dict(arguments),
                    outcome=code or result.status,
                    ms=_ms(began),
                )
            )
            if attempts > _MAX_RETRIES or result.ok or result.status == "needs_confirmation":
                return result, attempts
            if code in _RETRY_SAME or result.status == "timeout":
                continue  # retry the same call: a slow or failing service
            extra = _EXTRA_FIELD.findall(result.error.message) if result.error else []
            if code in ("VALIDATION_ERROR", "TOOL_RETRY") and extra and any(k in arguments for k in extra):
                arguments = {k: v for k, v in arguments.items() if k not in extra}  # reformulate
                continue
            return result, attempts  # skip: not found, refused, or nothing to change

    async def _proposed(self, state: _State, step: Step, result: ToolResult) -> None:
        assert result.confirmation is not None
        waiting = result.confirmation
        if state.on_event is not None:
            await state.on_event("confirmation", waiting.model_dump(mode="json"))
        if not state.request.approve_writes:
            state.writes.append(
                ProposedWrite(tool=step.tool, summary=waiting.summary, outcome="waiting", confirmation=waiting)
            )
            return
        decided = await self.executor.decide(waiting.id, approve=True, caller=state.caller)
        resource = None
        if decided.ok and decided.result:
            resource = decided.result.get("reference") or decided.result.get("uid")
        outcome = "approved" if decided.ok else "failed"
        state.writes.append(ProposedWrite(tool=step.tool, summary=waiting.summary, outcome=outcome, resource=resource))
        await state.note(
            TimelineStep(step="tool", what="approved write (--yes)", tool=step.tool, outcome=decided.status)
        )

    async def _clarify(self, state: _State, triaged: Triage, question: str) -> TurnResult:
        await state.note(TimelineStep(step="clarify", what=question))
        return TurnResult(
            status="clarify",
            final_response=question,
            route=triaged.route,
            confidence_level="low",
            reasoning_timeline=state.timeline,
            sources_used=[],
            tool_calls=state.calls,
            clarifying_question=question,
            warnings=state.warnings,
            session_id=state.request.session_id,
            reference_time=state.now,
        )

    async def _synthesize(self, state: _State, triaged: Triage, plan: Plan) -> TurnResult:
        began = time.perf_counter()
        sentences, citations = _draft(state, plan)
        answered = bool(state.rendered or state.writes or plan.direct)
        if not answered:
            sentences.append("Nothing I could run answered this; see the warnings for what failed.")
        status = "answered" if answered and not state.failed else ("partial" if answered else "cannot")
        if not answered and plan.cannot and not state.failed:
            status = "cannot"
        confidence = "high" if status == "answered" and triaged.confident else ("medium" if answered else "low")
        draft = " ".join(sentences)
        text, how = draft, "from the tools' results, no model"
        if _model_may_write(state, plan):
            written = await self._write(state, triaged, draft, citations)
            if written is not None:
                text, how = written
        else:
            await _stream_text(state, draft, citations)
        cited = set(marker_numbers(text))
        await state.note(
            TimelineStep(
                step="synthesis",
                what=f"{len(sentence_pieces(text))} sentences, {len(cited)} sources",
                why=how,
                ms=_ms(began),
            )
        )
        assert state.budget is not None
        return TurnResult(
            status=status,
            final_response=text,
            route=triaged.route,
            confidence_level=confidence,
            reasoning_timeline=state.timeline,
            sources_used=[c for c in citations if c.n in cited],
            tool_calls=state.calls,
            proposed_writes=state.writes,
            warnings=state.warnings,
            session_id=state.request.session_id,
            reference_time=state.now,
            facts=[
                {"tool": step.tool, "intent": step.intent.kind, "values": rendered.values}
                for step, rendered in state.rendered
            ],
            model="+".join(state.models_used) or "none",
            phi_detected=state.model.phi if state.model is not None else None,
            usage=state.budget.usage(),
        )

    async def _write(
        self, state: _State, triaged: Triage, draft: str, citations: list[TurnCitation]
    ) -> tuple[str, str] | None:
        """The answer in the model's words, streamed as it passes the checks; None: the draft stands
        (and has been streamed)."""
        choice = await self._choose_model(state, draft)
        assert state.budget is not None
        refusal = state.budget.refusal() if choice is not None else None
        if choice is None or choice.endpoint is None or refusal is not None:
            if refusal is not None:
                state.warnings.append(f"The answer is in the tools' own words: {refusal}.")
            await _stream_text(state, draft, citations)
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
            await _stream_text(state, draft, citations)
            return None
        preferences = state.preferences
        length = preferences.answer_length if preferences is not None else "normal"
        messages = writer_messages(
            state.request.message,
            draft,
            length=length,
            specialty=preferences.specialty if preferences is not None else None,
            route=triaged.route,
        )
        sources = {c.n for c in citations}
        allowed = numbers_in(draft) | numbers_in(state.request.message)
        guard = SentenceGuard(AnswerStream(state.on_event, citations), allowed, sources)
        settings = self.llm.settings
        began = time.perf_counter()
        try:
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
                    ms=_ms(began),
                )
            )
            if guard.streamed and state.on_event is not None:
                await state.on_event("retract", {"reason": why})
            await _stream_text(state, draft, citations)
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
        first = f", first token {completion.ttft_ms:.0f} ms" if completion.ttft_ms is not None else ""
        how = f"written by the {endpoint} model ({completion.model}{first}), checked against the tools' results"
        return written.text, how


def _draft(state: _State, plan: Plan) -> tuple[list[str], list[TurnCitation]]:
    """The answer from the tools' results, each fact with its marker: what a model may only reword."""
    sentences: list[str] = []
    citations: list[TurnCitation] = []
    numbered: dict[tuple[str, str | None, str], int] = {}
    style = state.preferences.citation_style if state.preferences is not None else "vancouver"
    if plan.direct:
        sentences.append(plan.direct)
    for _, rendered in state.rendered:
        for text, source in rendered.lines:
            if not text:
                continue
            if source is None:
                sentences.append(text)
                continue
            n = _number(source, numbered, citations, style)
            sentences.append(_with_marker(text, n))
    for write in state.writes:
        if write.outcome == "waiting" and write.confirmation is not None:
            sentences.append(f"Proposed, waiting for your approval ({write.confirmation.id}): {write.summary}.")
        elif write.outcome == "approved":
            sentences.append(f"Written after approval: {write.summary} ({write.resource}).")
        else:
            sentences.append(f"Not written: {write.summary}.")
    sentences.extend(dict.fromkeys(state.skipped))
    for reason in plan.cannot:
        sentences.append(f"I cannot do this here: {reason}.")
    if plan.clarify:
        sentences.append(plan.clarify)
    return sentences, citations


def _model_may_write(state: _State, plan: Plan) -> bool:
    """Only an answer made of tool results is reworded: writes, refusals and questions keep their exact words."""
    return bool(state.rendered) and not (state.writes or state.skipped or plan.cannot or plan.clarify or plan.direct)


async def _stream_text(state: _State, text: str, citations: list[TurnCitation]) -> None:
    if state.on_event is None:
        return
    stream = AnswerStream(state.on_event, citations)
    for piece in sentence_pieces(text):
        await stream.feed(piece)
    await stream.close()


def _number(
    source: Source, numbered: dict[tuple[str, str | None, str], int], citations: list[TurnCitation], style: str
) -> int:
    key = (source.tool, source.id, source.title)
    if key not in numbered:
        numbered[key] = len(citations) + 1
        kind = "passage" if source.tool in ("kb.ask", "evidence.search_medical_guidelines") else "tool"
        citations.append(
            TurnCitation(
                n=numbered[key],
                kind=kind,
                title=source.title,
                tool=source.tool,
                id=source.id,
                url=source.url,
                detail=source.detail,
                reference=_reference(source, style),
            )
        )
    return numbered[key]


def _reference(source: Source, style: str) -> str | None:
    """The source as a reference in ``style``, when it is a document (an article, a guideline, a passage)."""
    if source.record is None:
        return None
    return format_citation(Reference.from_record(source.record), style)


def _with_marker(text: str, n: int) -> str:
    text = text.rstrip()
    if text.endswith((".", "!", "?")):
        return f"{text[:-1]} [{n}]{text[-1]}"
    return f"{text} [{n}]"


def _ms(began: float) -> float:
    return round((time.perf_counter() - began) * 1000, 1)
