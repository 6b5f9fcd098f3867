"""The application's tool families, in one list: each registers its own tools with the narrow
dependencies it declares (``register(registry, deps)``); the tools layer names none of them.

A new family adds its folder and one line here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from curbside.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from curbside.app import Curbside
    from curbside.types import Answer, AskRequest, ToolCaller

__all__ = ["build_registry"]


def build_registry(core: Curbside) -> ToolRegistry:
    """Every tool of ``core``; nothing is opened or loaded until a tool is called or warmed up."""
    from functools import partial

    from curbside.agent import tool as consult
    from curbside.coverage.answer import tool as coverage_answer
    from curbside.coverage.source_tool import SourceToolDeps
    from curbside.coverage.sources import SOURCES
    from curbside.tools import calculators, confirming, ehr, evidence, knowledge, passages, vision, workspace

    settings = core.settings
    registry = ToolRegistry()
    passages.register(registry, passages.PassagesDeps(settings, documents=lambda: core.documents))
    knowledge.register(registry, knowledge.KnowledgeDeps(settings, search=core.search, ask=_ask_as(core)))
    calculators.register(registry, calculators.CalculatorDeps(settings, models=lambda: core.models))
    evidence.register(registry, evidence.EvidenceDeps(settings, client=lambda: core.outbound, search=core.search))
    ehr.register(registry, ehr.EhrDeps(settings, client=lambda: core.fhir))
    workspace.register(registry, workspace.WorkspaceDeps(settings))
    vision.register(registry, vision.VisionDeps(settings))
    confirming.register(registry, confirming.ConfirmingDeps(executor=lambda: core.tools))
    consult.register(registry, consult.ConsultDeps(run=lambda request, caller: core.turn(request, caller, channel=caller.channel or "tool"), timeout_s=120.0))
    for source in SOURCES:  # each coverage source's tool, then the one that routes to them
        source.register(registry, SourceToolDeps(settings, service=partial(core.coverage_service, source.name)))
    coverage_answer.register(
        registry,
        coverage_answer.CoverageAnswerDeps(
            settings,
            executor=lambda: core.tools,
            sources=lambda: {source.tool: core.coverage_service(source.name) for source in SOURCES},
        ),
    )
    return registry


def _ask_as(core: Curbside) -> Callable[[AskRequest, ToolCaller], Awaitable[Answer]]:
    """``core.ask`` for a tool call: the caller's own channel (http, mcp-http, mcp-stdio, cli) on the row."""

    async def ask(request: AskRequest, caller: ToolCaller) -> Answer:
        return await core.ask(request, caller, channel=caller.channel or "tool")

    return ask
