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
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from curbside import clock
from curbside.agent.budget import TurnBudget
from curbside.agent.intents import Triage
from curbside.agent.model_steps import ModelSteps
from curbside.agent.models import ProposedWrite, TimelineStep, ToolCallRecord, TurnRequest, TurnResult
from curbside.agent.planner import PATIENT, Plan, Step, chart_inputs, plan_turn
from curbside.agent.render import render
from curbside.agent.state import EventSink, TurnState, elapsed_ms
from curbside.agent.stream import marker_numbers, sentence_pieces
from curbside.agent.synthesis import draft_answer, model_may_write, stream_text

if TYPE_CHECKING:
    from curbside.agent.llm_access import TurnLLM
    from curbside.sessions import SessionStore
    from curbside.tools.base import ToolResult
    from curbside.tools.executor import ToolExecutor
    from curbside.types import ToolCaller

__all__ = ["ConsultTurn", "TriageFn"]

TriageFn = Callable[..., Triage]  # triage(message, *, has_patient, calculators) -> Triage

_RETRY_SAME = frozenset({"TIMEOUT", "UPSTREAM_TIMEOUT", "UPSTREAM_ERROR"})
_DEFAULT_SECONDS = {"direct": 5.0, "lookup": 20.0, "reasoning": 60.0, "multi_step": 90.0}
_MAX_RETRIES = 2
_EXTRA_FIELD = re.compile(r"(\w+): Extra inputs are not permitted")


class ConsultTurn(ModelSteps):
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
        state = TurnState(request, caller, now, request.patient_id, on_event)
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

    async def _session_context(self, state: TurnState) -> None:
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
                ms=elapsed_ms(began),
            )
        )

    def _spent_today(self, state: TurnState) -> float:
        if self.daily_cost_limit is None or self.sessions is None or not self._may_use_model(state):
            return 0.0
        return self.sessions().spent_today(state.caller.user)

    def _remember(self, state: TurnState, result: TurnResult) -> None:
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

    async def _context(self, state: TurnState) -> None:
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
                ms=elapsed_ms(began),
            )
        )

    async def _triage(self, state: TurnState) -> Triage:
        began = time.perf_counter()
        calculators = self.calculators() if self.calculators is not None else None
        triaged = self.triage(state.request.message, has_patient=state.patient_id is not None, calculators=calculators)
        await state.note(
            TimelineStep(
                step="triage",
                what=f"route {triaged.route}: {', '.join(triaged.kinds) or 'no intent'}",
                why=triaged.reason,
                outcome="rules" if triaged.confident else "rules unsure",
                ms=elapsed_ms(began),
            )
        )
        return triaged

    # --- the model, where one is allowed ---------------------------------------------------------

    async def _run_step(self, state: TurnState, step: Step) -> ToolResult | None:
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
        rendered = render(step.tool, result.result, step.intent.slots)
        state.rendered.append((step, rendered))
        # the tool's own warnings reach the clinician (a passage about another condition, weak retrieval)
        state.warnings.extend(w for w in rendered.warnings if w not in state.warnings)
        return result

    async def _condition_met(self, state: TurnState, step: Step, arguments: dict[str, Any]) -> bool:
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

    def _arguments(self, state: TurnState, step: Step) -> dict[str, Any]:
        arguments = {k: (state.patient_id if v == PATIENT else v) for k, v in step.arguments.items()}
        if step.tool.startswith("calc.") and state.chart is not None:
            # chart values fill what the clinician did not give; their own words win
            arguments = {**chart_inputs(state.chart), **arguments}
        return arguments

    async def _call(self, state: TurnState, step: Step, arguments: dict[str, Any]) -> tuple[ToolResult, int]:
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
                    ms=elapsed_ms(began),
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

    async def _proposed(self, state: TurnState, step: Step, result: ToolResult) -> None:
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

    async def _clarify(self, state: TurnState, triaged: Triage, question: str) -> TurnResult:
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

    async def _synthesize(self, state: TurnState, triaged: Triage, plan: Plan) -> TurnResult:
        began = time.perf_counter()
        sentences, citations = draft_answer(state, plan)
        answered = bool(state.rendered or state.writes or plan.direct)
        if not answered:
            sentences.append("Nothing I could run answered this; see the warnings for what failed.")
        status = "answered" if answered and not state.failed else ("partial" if answered else "cannot")
        if not answered and plan.cannot and not state.failed:
            status = "cannot"
        confidence = "high" if status == "answered" and triaged.confident else ("medium" if answered else "low")
        draft = " ".join(sentences)
        text, how = draft, "from the tools' results, no model"
        if model_may_write(state, plan, citations):
            written = await self._write(state, triaged, draft, citations)
            if written is not None:
                text, how = written
        else:
            await stream_text(state, draft, citations)
        cited = set(marker_numbers(text))
        await state.note(
            TimelineStep(
                step="synthesis",
                what=f"{len(sentence_pieces(text))} sentences, {len(cited)} sources",
                why=how,
                ms=elapsed_ms(began),
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
