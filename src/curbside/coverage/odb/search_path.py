"""The search path of ``odb.get``: ODB passages for the request, with the facts their items state.

It searches only the ``odb`` namespace and without the relevance threshold:
which passages count as evidence is decided afterwards, by whether they name
the drug the answer is about, not by a similarity cut tuned for prose.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from curbside.coverage.odb.passages import (
    NAMESPACE,
    PassageFacts,
    edition_from_title,
    facts_in,
)
from curbside.types import Passage, SearchFilters

if TYPE_CHECKING:
    from curbside.search.engine import SearchEngine

__all__ = ["PassageSearch", "SearchFindings", "engine_search", "run_search_path", "snippet"]

CONTEXT_CHARS = 500

PassageSearch = Callable[[str, int], list[Passage]]  # (query text, k) -> passages, best first


def engine_search(engine: SearchEngine) -> PassageSearch:
    """The application's hybrid search, restricted to the ODB namespace."""

    def search(text: str, k: int) -> list[Passage]:
        filters = SearchFilters(namespace=NAMESPACE)
        return engine.search(text, k=k, filters=filters, min_similarity=None).hits

    return search


@dataclass(slots=True)
class SearchFindings:
    passages: list[Passage]
    facts: dict[str, PassageFacts] = field(default_factory=dict)  # by chunk id
    editions: dict[str, tuple[str, str]] = field(default_factory=dict)  # chunk id -> (edition, date)


def run_search_path(search: PassageSearch, text: str, k: int) -> SearchFindings:
    passages = search(text, k)
    out = SearchFindings(passages)
    for passage in passages:
        out.facts[passage.chunk_id] = facts_in(passage.text)
        edition = edition_from_title(passage.title)
        if edition is not None:
            out.editions[passage.chunk_id] = edition
    return out


def snippet(text: str, limit: int = CONTEXT_CHARS) -> str:
    """A passage's body (without its title-path line), cut at a word under ``limit`` characters."""
    body = text.split("\n\n", 1)[-1]
    return body if len(body) <= limit else body[:limit].rsplit(" ", 1)[0] + " …"
