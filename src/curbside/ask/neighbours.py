"""The passages an extractive answer is drawn from: the hits, and the chunks beside the best of them.

A section longer than a chunk is cut in two, and a search finds the half whose words are most like the question's:
"24/7 crisis line for any age?" found the continuation of the crisis-lines section, while "Crisis Line:
1-866-996-0991 (all ages)" sits in its first chunk. So the chunk just before and after each of the first hits,
when it is filed under the same section, is a candidate passage too. It carries its hit's relevance (it is part
of the same section the search judged), and it is cited only when a unit quoted from it is chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from curbside.types import Passage

__all__ = ["NEIGHBOUR_HITS", "with_neighbours"]

NEIGHBOUR_HITS = 2  # the first hits whose neighbouring chunks join the candidates (more only adds distractors)


def with_neighbours(
    hits: Sequence[Passage], neighbours: Callable[[Passage], list[Passage]], first: int = NEIGHBOUR_HITS
) -> list[Passage]:
    """``hits`` followed by the same-section neighbours (``SearchEngine.neighbours``) of the first ``first`` hits
    that are not hits already, each with its hit's scores."""
    seen = {h.chunk_id for h in hits}
    added: list[Passage] = []
    for hit in hits[:first]:
        for near in neighbours(hit):
            if near.chunk_id in seen:
                continue
            seen.add(near.chunk_id)
            added.append(
                near.model_copy(
                    update={
                        "score": hit.score, "similarity": hit.similarity, "relevance": hit.relevance,
                        "dense_rank": None, "lexical_rank": None,
                    }
                )
            )  # fmt: skip
    return [*hits, *added]
