"""``CoverageAnswerer``: classify the question, call the domain tools in parallel, merge their answers."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, cast

from pydantic import ValidationError as PydanticValidationError

from curbside.coverage.answer.availability import (
    refuse_all_unloaded,
    refuse_none_loaded,
    unloaded_sources,
    unloaded_warnings,
)
from curbside.coverage.answer.drug_names import formulary_lookup
from curbside.coverage.answer.execution import CallOutcome, run_calls
from curbside.coverage.answer.findings import DomainFinding, unanswered
from curbside.coverage.answer.intent import DrugLookup, classify
from curbside.coverage.answer.models import CoverageAnswerArgs, CoverageAnswerResult
from curbside.coverage.answer.readers import READERS
from curbside.coverage.answer.routing import TOOL_FOR, plan_calls
from curbside.coverage.answer.service_names import ServiceWords, schedule_words
from curbside.coverage.answer.synthesis import compose, nothing_to_route

if TYPE_CHECKING:
    from curbside.coverage.odb.service import OdbService
    from curbside.coverage.ohip.service import OhipService
    from curbside.coverage.source_service import SourceService
    from curbside.settings import Settings
    from curbside.tools.executor import ToolExecutor
    from curbside.types import ToolCaller

__all__ = ["CoverageAnswerer"]

log = logging.getLogger("curbside.coverage.answer")


class CoverageAnswerer:
    """Answers ``coverage.answer`` by calling ``schedule.get``, ``adp.get`` and ``odb.get`` through ``executor``.

    ``sources`` are the coverage services by tool name (which have data). ``total_timeout_ms``
    and ``followup_below`` default to ``settings`` (``coverage_answer_timeout_ms``,
    ``coverage_answer_followup_below``).
    """

    def __init__(
        self,
        executor: ToolExecutor,
        sources: dict[str, SourceService[Any]],
        *,
        settings: Settings,
        total_timeout_ms: int | None = None,
        followup_below: float | None = None,
    ) -> None:
        self.executor = executor
        # in routing order (billing, device, drug), whatever order they come in
        self.sources = {t: sources[t] for t in TOOL_FOR.values() if t in sources and t in executor.registry}
        self.total_timeout_ms = total_timeout_ms or settings.coverage_answer_timeout_ms
        self.followup_below = settings.coverage_answer_followup_below if followup_below is None else followup_below

    async def answer(self, args: CoverageAnswerArgs, *, caller: ToolCaller | None = None) -> CoverageAnswerResult:
        """The merged answer; NotLoadedError when no source it would ask has data (see ``availability``)."""
        unloaded = unloaded_sources(self.sources)
        refuse_none_loaded(self.sources, unloaded)
        lookup = await self._drug_lookup(args)
        intent = classify(args.question, args.hints, lookup, await self._schedule_words(args))
        plan = plan_calls(args, intent)
        if not plan.calls:
            result = nothing_to_route(args.question, intent, plan)
        else:
            outcomes = await run_calls(
                self.executor, plan.calls, caller=caller, total_timeout_s=self.total_timeout_ms / 1000
            )
            refuse_all_unloaded(outcomes)
            findings = [self._read(o) for o in outcomes]
            result = compose(intent, plan, outcomes, findings, followup_below=self.followup_below)
        result.warnings.extend(unloaded_warnings(unloaded, intent, args.question))
        return result

    async def _drug_lookup(self, args: CoverageAnswerArgs) -> DrugLookup | None:
        odb = self.sources.get(TOOL_FOR["drug"])
        if not args.question.strip() or odb is None:
            return None
        return await asyncio.to_thread(formulary_lookup, cast("OdbService", odb))  # the drug tool's own service

    async def _schedule_words(self, args: CoverageAnswerArgs) -> ServiceWords | None:
        ohip = self.sources.get(TOOL_FOR["billing"])
        if not args.question.strip() or ohip is None:
            return None
        return await asyncio.to_thread(schedule_words, cast("OhipService", ohip))  # the billing tool's own service

    @staticmethod
    def _read(outcome: CallOutcome) -> DomainFinding:
        if not outcome.ok or outcome.result is None:
            return unanswered(outcome)
        try:
            return READERS[outcome.call.tool](outcome.result, outcome.call)
        except PydanticValidationError as exc:  # the tool's result is not the shape its reader knows
            log.warning("could not read the result of %s: %s", outcome.call.tool, exc)
            failed = CallOutcome(
                outcome.call,
                "error",
                outcome.duration_ms,
                error=f"its result could not be read ({exc.error_count()} field problems)",
                error_code="INTERNAL_ERROR",
                call_id=outcome.call_id,
            )
            return unanswered(failed)
