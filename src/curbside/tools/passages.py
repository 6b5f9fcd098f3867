"""``source.passages``: open stored passages by chunk id ("show source").

A thin declaration over ``curbside.search.passages.open_passages``, which owns the
behaviour (highlighting, missing ids, limits).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from curbside.search.passages import MAX_CHUNK_IDS, MAX_TERMS, open_passages
from curbside.tools.base import ToolContext, ToolSpec
from curbside.types import SourcePassages

if TYPE_CHECKING:
    from curbside.settings import Settings
    from curbside.store.documents import DocumentStore
    from curbside.tools.registry import ToolRegistry

__all__ = ["PassagesArgs", "PassagesDeps", "register"]


@dataclass(frozen=True)
class PassagesDeps:
    settings: Settings
    documents: Callable[[], DocumentStore]  # the store, opened on the first call (or warm-up)


class PassagesArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    chunk_ids: list[str] = Field(
        min_length=1,
        max_length=MAX_CHUNK_IDS,
        description="Chunk ids from citations or search hits, e.g. 'sample-hypertension:v1:0'.",
    )
    highlight_terms: list[str] = Field(
        default_factory=list,
        max_length=MAX_TERMS,
        description="Terms to mark **like this** in up to five snippets per passage (case-insensitive).",
    )


async def _open(ctx: ToolContext[PassagesDeps], args: PassagesArgs) -> SourcePassages:
    documents = ctx.deps.documents()  # resolved on the loop's thread: the application's parts are built once
    # a thread, so the executor's timeout can end the wait even if SQLite is slow
    return await asyncio.to_thread(open_passages, documents, args.chunk_ids, args.highlight_terms)


def register(registry: ToolRegistry, deps: PassagesDeps) -> None:
    """Put ``source.passages`` in ``registry``."""
    settings = deps.settings
    spec: ToolSpec[PassagesArgs, SourcePassages] = ToolSpec(
        name="source.passages",
        description=(
            "Exact text of stored passages by chunk id, with source document, page and section, "
            "and snippets around highlight terms. Unknown ids are listed in 'missing'."
        ),
        args_model=PassagesArgs,
        result_model=SourcePassages,
        handler=_open,
        category="search",
        requires_phi=False,
        timeout_s=settings.tool_passages_timeout_s,
        rate_limit=settings.tool_passages_rate_limit,
        warm_up=lambda: _open_store(deps),
        deps=deps,
    )
    registry.register(spec)


def _open_store(deps: PassagesDeps) -> None:
    deps.documents()
