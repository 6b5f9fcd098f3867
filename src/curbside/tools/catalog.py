"""The application's tools: the registry every interface serves.

Each tool family declares its tools in its own module; this is the one list of
them. Later issues add their families here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from curbside.tools.base import ToolContext, ToolSpec
from curbside.tools.executor import ToolExecutor
from curbside.tools.hooks import ToolHooks, application_hooks
from curbside.tools.metrics import ToolMetrics
from curbside.tools.passages import passages_tool
from curbside.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry

    from curbside.app import Curbside
    from curbside.settings import Settings

__all__ = ["adp_get_tool", "build_executor", "build_registry", "odb_get_tool", "schedule_get_tool"]

log = logging.getLogger("curbside.tools")

# the modules that may not exist yet while the coverage package is being written
_ODB_MODULES = frozenset({"curbside.coverage", "curbside.coverage.odb", "curbside.coverage.odb.tool"})


def build_registry(settings: Settings) -> ToolRegistry:
    registry = ToolRegistry()
    registry.register(passages_tool(settings))
    odb = odb_get_tool(settings)
    if odb is not None:
        registry.register(odb)
    registry.register(schedule_get_tool(settings))
    registry.register(adp_get_tool(settings))
    from curbside.coverage.answer.tool import coverage_answer_tool  # routes to the coverage tools above

    registry.register(coverage_answer_tool(settings))
    return registry


def build_executor(
    app: Curbside,
    *,
    hooks: ToolHooks | None = None,
    metrics_registry: CollectorRegistry | None = None,
) -> ToolExecutor:
    """The executor over the built-in tools with the application's hooks (roles, the shared rate
    limiter, the audit trail) unless given others; calls without a caller run as the local operator."""
    from curbside.auth.access import operator_caller

    settings = app.settings
    return ToolExecutor(
        app,
        build_registry(settings),
        default_caller=operator_caller(settings),
        hooks=hooks or application_hooks(app),
        metrics=ToolMetrics(metrics_registry),
    )


def odb_get_tool(settings: Settings) -> ToolSpec[Any, Any] | None:
    """``odb.get`` from the coverage package, or None while that module does not exist.

    Only the module's absence is tolerated: an import error inside it is a bug and is raised.
    """
    try:
        from curbside.coverage.odb.tool import OdbGetArgs, OdbGetResult, run_odb_get
    except ModuleNotFoundError as exc:
        if exc.name not in _ODB_MODULES:
            raise
        log.info("odb.get is not registered: %s is not installed yet", exc.name)
        return None

    async def odb_get(ctx: ToolContext, args: OdbGetArgs) -> OdbGetResult:
        return await run_odb_get(ctx.app, args)

    return ToolSpec(
        name="odb.get",
        description=(
            "Ontario Drug Benefit formulary: is a drug covered, its interchangeable group and lowest-cost "
            "member with savings per unit, Limited Use criteria, and covered alternatives in its class. "
            "Takes a drug name, brand, DIN or ingredient, or a question in plain words (q); answers "
            "needs_more_info when the drug cannot be resolved. Every answer carries the formulary edition."
        ),
        args_model=OdbGetArgs,
        result_model=OdbGetResult,
        handler=odb_get,
        category="coverage",
        requires_phi=False,
        timeout_s=settings.tool_odb_timeout_s,
        rate_limit=settings.tool_odb_rate_limit,
        warm_up=_warm_coverage("odb"),
    )


def _warm_coverage(service: str) -> Callable[[Curbside], None]:
    """Warm-up for a coverage tool whose search path embeds the question: the model, the store, and
    the service's own index (ODB's drug names take ~70 ms to build) load outside the call's budget."""

    def warm(app: Curbside) -> None:
        app.embedder.warm_up()
        _ = app.documents
        getattr(app, service).warm_up()

    return warm


def schedule_get_tool(settings: Settings) -> ToolSpec[Any, Any]:
    """``schedule.get``: OHIP Schedule of Benefits fee codes, fees by specialty, payment rules and premiums."""
    from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult, run_schedule_get

    async def schedule_get(ctx: ToolContext, args: ScheduleGetArgs) -> ScheduleGetResult:
        return await run_schedule_get(ctx.app, args)

    return ToolSpec(
        name="schedule.get",
        description=(
            "OHIP Schedule of Benefits: a fee code's fee in each specialty section, its definition, payment rules "
            "(limits), documentation and commentary, the premiums that apply to it, and checks of its payment "
            "rules against the facts given (MRP, hours since admission, day). Takes codes, a specialty or "
            "section, or a question in plain words (q); answers needs_more_info with the follow-up a billing "
            "clerk would ask. Every answer carries the Schedule's effective date and cites section and page."
        ),
        args_model=ScheduleGetArgs,
        result_model=ScheduleGetResult,
        handler=schedule_get,
        category="coverage",
        requires_phi=False,
        timeout_s=settings.tool_schedule_timeout_s,
        rate_limit=settings.tool_schedule_rate_limit,
        warm_up=_warm_coverage("ohip"),
    )


def adp_get_tool(settings: Settings) -> ToolSpec[Any, Any]:
    """``adp.get``: Assistive Devices Program funding, exclusions and eligibility from the ADP manuals."""
    from curbside.coverage.adp.tool import AdpGetArgs, AdpGetResult, run_adp_get

    async def adp_get(ctx: ToolContext, args: AdpGetArgs) -> AdpGetResult:
        return await run_adp_get(ctx.app, args)

    return ToolSpec(
        name="adp.get",
        description=(
            "Ontario Assistive Devices Program (ADP): what ADP pays for a device and what the client pays, "
            "funding for Ontario Works, ODSP and ACSD recipients, exclusions (batteries, repairs …) and "
            "eligibility, each cited by manual, section and page. Takes a question in plain words (q) or a "
            "structured device {category, type}; answers needs_more_info with the follow-up a vendor would ask "
            "when the device is unknown or the fields disagree. Every answer carries the manuals' edition."
        ),
        args_model=AdpGetArgs,
        result_model=AdpGetResult,
        handler=adp_get,
        category="coverage",
        requires_phi=False,
        timeout_s=settings.tool_adp_timeout_s,
        rate_limit=settings.tool_adp_rate_limit,
        warm_up=_warm_coverage("adp"),
    )
