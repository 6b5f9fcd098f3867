"""``coverage.answer`` as a tool family: ``register(registry, deps)`` declares it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from curbside.coverage.answer.models import CoverageAnswerArgs, CoverageAnswerResult
from curbside.coverage.answer.service import CoverageAnswerer
from curbside.errors import ConfigError
from curbside.tools.base import ToolContext, ToolSpec

if TYPE_CHECKING:
    from curbside.coverage.source_service import SourceService
    from curbside.settings import Settings
    from curbside.tools.executor import ToolExecutor
    from curbside.tools.registry import ToolRegistry

__all__ = ["NAME", "CoverageAnswerDeps", "coverage_answer_tool", "register", "run_coverage_answer"]


@dataclass(frozen=True)
class CoverageAnswerDeps:
    """What ``coverage.answer`` needs: the executor its sub-calls run through (as the same caller),
    and the coverage services by tool name (to tell which sources are loaded)."""

    settings: Settings
    executor: Callable[[], ToolExecutor]
    sources: Callable[[], dict[str, SourceService[Any]]]

NAME = "coverage.answer"
DESCRIPTION = (
    "Ontario coverage questions in plain words: billing (OHIP Schedule of Benefits fee codes), devices (Assistive "
    "Devices Program funding) and drugs (Ontario Drug Benefit formulary), or several at once. Routes the question "
    "to schedule.get, adp.get and odb.get in parallel and merges their answers: decision, summary, cited "
    "highlights, conflicts, follow-up questions when confidence is below 0.7, and a trace of every call. Optional "
    "hints (codes, device, drug) and patient context (age, setting, plan, income)."
)


async def run_coverage_answer(ctx: ToolContext[CoverageAnswerDeps], args: CoverageAnswerArgs) -> CoverageAnswerResult:
    """The handler: sub-calls run through the application's executor, as the same caller."""
    deps = ctx.deps
    answerer = CoverageAnswerer(deps.executor(), deps.sources(), settings=deps.settings)
    return await answerer.answer(args, caller=ctx.caller)


def register(registry: ToolRegistry, deps: CoverageAnswerDeps) -> None:
    """Put ``coverage.answer`` in ``registry`` (after the tools it routes to)."""
    registry.register(coverage_answer_tool(deps.settings, deps))


def coverage_answer_tool(
    settings: Settings, deps: CoverageAnswerDeps | None = None
) -> ToolSpec[CoverageAnswerArgs, CoverageAnswerResult]:
    total_ms = settings.coverage_answer_timeout_ms
    if settings.tool_coverage_timeout_s * 1000 <= total_ms:
        raise ConfigError(
            f"CURBSIDE_TOOL_COVERAGE_TIMEOUT_S={settings.tool_coverage_timeout_s:g} must be above "
            f"CURBSIDE_COVERAGE_ANSWER_TIMEOUT_MS={total_ms} (in seconds: {total_ms / 1000:g}), or the whole call "
            "times out before it can answer with the tools that finished. Raise the first or lower the second."
        )
    def warm_up() -> None:
        """The tools it routes to warm up outside its budget: cold, schedule.get's indexes took longer than its
        share of the call, and ``curbside tool coverage.answer`` answered from passages alone (C005 for a
        family practice intermediate assessment, A007)."""
        if deps is not None:
            deps.executor().warm_up(deps.sources())

    return ToolSpec(
        name=NAME,
        description=DESCRIPTION,
        args_model=CoverageAnswerArgs,
        result_model=CoverageAnswerResult,
        handler=run_coverage_answer,
        category="coverage",
        requires_phi=True,  # patient context (age, income) and free text about a patient
        timeout_s=settings.tool_coverage_timeout_s,
        rate_limit=settings.tool_coverage_rate_limit,
        warm_up=warm_up,
        deps=deps,
    )
