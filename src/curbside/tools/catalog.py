"""The application's tools: the registry every interface serves.

Each tool family declares its tools in its own module; this is the one list of
them. Later issues add their families here.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from curbside.tools.base import ToolCaller, ToolContext, ToolSpec
from curbside.tools.executor import ToolExecutor
from curbside.tools.hooks import InMemoryAuditSink, ToolHooks
from curbside.tools.metrics import ToolMetrics
from curbside.tools.passages import passages_tool
from curbside.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry

    from curbside.app import Curbside
    from curbside.settings import Settings

__all__ = ["build_executor", "build_registry", "odb_get_tool"]

log = logging.getLogger("curbside.tools")

# the modules that may not exist yet while the coverage package is being written
_ODB_MODULES = frozenset({"curbside.coverage", "curbside.coverage.odb", "curbside.coverage.odb.tool"})


def build_registry(settings: Settings) -> ToolRegistry:
    registry = ToolRegistry()
    registry.register(passages_tool(settings))
    odb = odb_get_tool(settings)
    if odb is not None:
        registry.register(odb)
    return registry


def build_executor(
    app: Curbside,
    *,
    hooks: ToolHooks | None = None,
    metrics_registry: CollectorRegistry | None = None,
) -> ToolExecutor:
    """The executor over the built-in tools, with the default hooks unless given others."""
    settings = app.settings
    return ToolExecutor(
        app,
        build_registry(settings),
        default_caller=ToolCaller(user=settings.tool_user, role=settings.tool_role),
        hooks=hooks or ToolHooks(audit=InMemoryAuditSink(keep=settings.tool_audit_keep)),
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
        warm_up=_warm_search,
    )


def _warm_search(app: Curbside) -> None:
    # odb.get's search path embeds the question: load the model outside the call's 1 s budget
    app.embedder.warm_up()
    _ = app.documents
    app.odb.warm_up()  # its drug-name index takes ~70 ms to build
