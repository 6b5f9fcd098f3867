"""A coverage source's tool: one declaration (name, description, models, limits), one handler.

Every source's tool does the same thing with a different service: hand the validated
arguments to ``service().get(args)``. Its family module calls ``source_tool`` from its
``register(registry, deps)``; the service is resolved on the first call (or warm-up), so
listing the tools builds nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel

from curbside.tools.base import ToolContext, ToolSpec

if TYPE_CHECKING:
    from curbside.coverage.source_service import SourceService
    from curbside.settings import Settings

__all__ = ["SourceToolDeps", "source_tool"]

S = TypeVar("S", bound="SourceService[Any]")


@dataclass(frozen=True)
class SourceToolDeps(Generic[S]):
    """What a coverage source's tool needs: the settings (its limits) and its service."""

    settings: Settings
    service: Callable[[], S]


def source_tool(
    deps: SourceToolDeps[Any],
    *,
    name: str,
    description: str,
    args_model: type[BaseModel],
    result_model: type[BaseModel],
    timeout_s: float,
    rate_limit: int | None,
) -> ToolSpec[Any, Any]:
    async def handler(ctx: ToolContext[SourceToolDeps[Any]], args: Any) -> Any:
        return await ctx.deps.service().get(args)

    def warm_up() -> None:
        """The encoder, the store and the source's own indexes load outside the first call's budget."""
        deps.service().warm_up()

    return ToolSpec(
        name=name,
        description=description,
        args_model=args_model,
        result_model=result_model,
        handler=handler,
        category="coverage",
        requires_phi=False,
        timeout_s=timeout_s,
        rate_limit=rate_limit,
        warm_up=warm_up,
        deps=deps,
    )
