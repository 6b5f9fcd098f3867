"""The search path of ``adp.get``: manual passages for the request, with the paragraph ids they hold.

It searches only the ``adp`` namespace, without the relevance threshold
(``curbside.coverage.paths.namespace_search``): which
passages count as evidence is decided afterwards, by whether they hold a
paragraph the answer cites, not by a similarity cut tuned for prose.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from curbside.coverage.adp.passages import paragraph_ids
from curbside.coverage.paths import PassageSearch
from curbside.types import Passage

__all__ = ["SearchFindings", "manual_of", "paragraph_text", "run_search_path"]


@dataclass(slots=True)
class SearchFindings:
    passages: list[Passage]
    paragraphs: dict[str, list[str]] = field(default_factory=dict)  # chunk id -> paragraph ids it holds

    def holding(self, manual: str, paragraph_id: str) -> list[Passage]:
        """The passages of ``manual`` that hold ``paragraph_id``."""
        return [
            p for p in self.passages if manual_of(p) == manual and paragraph_id in self.paragraphs.get(p.chunk_id, [])
        ]


def manual_of(passage: Passage) -> str:
    return passage.doc_key.removeprefix("adp-")


def run_search_path(search: PassageSearch, text: str, k: int) -> SearchFindings:
    passages = search(text, k)
    return SearchFindings(passages, {p.chunk_id: paragraph_ids(p.body) for p in passages})


def paragraph_text(passage: Passage, paragraph_id: str) -> str:
    """The text of one paragraph inside a passage (from its id to the next block)."""
    body = "\n" + passage.body
    start = body.find(f"\n{paragraph_id} ")
    if start < 0:
        return ""
    end = body.find("\n\n", start + 1)
    return body[start + 1 : end if end >= 0 else None]
