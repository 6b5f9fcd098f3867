"""The search path of ``odb.get``: ODB passages for the request, with the facts their items state.

It searches only the ``odb`` namespace and without the relevance threshold
(``curbside.coverage.paths.namespace_search``): which passages count as
evidence is decided afterwards, by whether they name the drug the answer is
about, not by a similarity cut tuned for prose.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from curbside.coverage.odb.passages import (
    PassageFacts,
    edition_from_title,
    facts_in,
)
from curbside.coverage.paths import PassageSearch
from curbside.types import Passage

__all__ = ["SearchFindings", "run_search_path"]


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
