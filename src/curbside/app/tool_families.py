"""The application's tool families, in one list: each registers its own tools with the narrow
dependencies it declares (``register(registry, deps)``); the tools layer names none of them.

A new family adds its folder and one line here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from curbside.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from curbside.app import Curbside

__all__ = ["build_registry"]


def build_registry(core: Curbside) -> ToolRegistry:
    """Every tool of ``core``; nothing is opened or loaded until a tool is called or warmed up."""
    from curbside.coverage.adp import tool as adp
    from curbside.coverage.answer import tool as coverage_answer
    from curbside.coverage.odb import tool as odb
    from curbside.coverage.ohip import tool as ohip
    from curbside.coverage.source_tool import SourceToolDeps
    from curbside.tools import passages

    settings = core.settings
    registry = ToolRegistry()
    passages.register(registry, passages.PassagesDeps(settings, documents=lambda: core.documents))
    odb.register(registry, SourceToolDeps(settings, service=lambda: core.odb))
    ohip.register(registry, SourceToolDeps(settings, service=lambda: core.ohip))
    adp.register(registry, SourceToolDeps(settings, service=lambda: core.adp))
    coverage_answer.register(  # after the three it routes to
        registry,
        coverage_answer.CoverageAnswerDeps(
            settings,
            executor=lambda: core.tools,
            sources=lambda: {"schedule.get": core.ohip, "adp.get": core.adp, "odb.get": core.odb},
        ),
    )
    return registry
