"""``kb.search`` and ``kb.ask``: the knowledge base as tools, for an agent or an MCP client.

An agent could reach only ``source.passages``, which needs chunk ids it has no way to find.
These two give it the same search and the same cited answers the HTTP API and the CLI give,
through the application's own audited ``search`` and ``ask`` (each call is a search or ask row
on the trail, beside the tool row), as the calling user.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from curbside.settings import QUERY_CEILING
from curbside.tools.base import ToolContext, ToolSpec
from curbside.types import Answer, AskRequest, SearchFilters, SearchResponse

if TYPE_CHECKING:
    from curbside.settings import Settings
    from curbside.tools.registry import ToolRegistry
    from curbside.types import ToolCaller

__all__ = ["KnowledgeDeps", "SearchArgs", "register"]

_Filter = Annotated[str, StringConstraints(min_length=1, max_length=200)]


@dataclass(frozen=True)
class KnowledgeDeps:
    settings: Settings
    search: Callable[..., SearchResponse]  # Curbside.search: audited, as the caller
    ask: Callable[[AskRequest, ToolCaller], Awaitable[Answer]]  # Curbside.ask: audited, as the caller


class SearchArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    query: str = Field(
        min_length=1,
        max_length=QUERY_CEILING,
        description="A question or keywords, e.g. 'first-line treatment of hypertension in CKD'.",
    )
    k: int = Field(5, ge=1, le=50, description="Passages to return.")
    mode: Literal["hybrid", "dense", "bm25"] = Field("hybrid", description="hybrid (default), dense or bm25.")
    source_type: _Filter | None = None
    specialty: _Filter | None = None
    doc_key: _Filter | None = None
    namespace: _Filter = Field("kb", description="'kb' (ingested documents) or e.g. 'odb' (formulary passages).")


async def _search(ctx: ToolContext[KnowledgeDeps], args: SearchArgs) -> SearchResponse:
    import asyncio

    filters = SearchFilters(
        source_type=args.source_type, specialty=args.specialty, doc_key=args.doc_key, namespace=args.namespace
    )
    return await asyncio.to_thread(
        ctx.deps.search, args.query, ctx.caller, channel=ctx.caller.channel or "tool", k=args.k, mode=args.mode,
        filters=filters,
    )


async def _ask(ctx: ToolContext[KnowledgeDeps], args: AskRequest) -> Answer:
    return await ctx.deps.ask(args, ctx.caller)


def register(registry: ToolRegistry, deps: KnowledgeDeps) -> None:
    """Put ``kb.search`` and ``kb.ask`` in ``registry``."""
    registry.register(
        ToolSpec(
            name="kb.search",
            description=(
                "Search the knowledge base (ingested guidelines and articles): hybrid dense + keyword search with "
                "the relevance threshold applied. Each hit has its chunk_id (open it whole with source.passages), "
                "title, section path, page and similarity. An empty list means nothing relevant enough."
            ),
            args_model=SearchArgs,
            result_model=SearchResponse,
            handler=_search,
            category="search",
            requires_phi=False,
            timeout_s=10.0,
            rate_limit=120,
            deps=deps,
        )
    )
    registry.register(
        ToolSpec(
            name="kb.ask",
            description=(
                "Answer a clinical question from the knowledge base, citing passages ([n] markers, citations with "
                "chunk ids). status: answered | no_source (nothing relevant: nothing is guessed) | clarify (see "
                "clarifying_question) | degraded. Give a question, or a condition with findings; patient_context "
                "may hold PHI and never reaches a cloud model."
            ),
            args_model=AskRequest,
            result_model=Answer,
            handler=_ask,
            category="search",
            requires_phi=True,  # patient_context may carry chart facts
            timeout_s=deps.settings.llm_timeout_s + 15.0,
            rate_limit=60,
            deps=deps,
        )
    )
