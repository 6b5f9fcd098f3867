"""Reserve passages: hits the search ranks first by fusion that fall just under the similarity threshold.

A passage both retrievers rank high can sit under the threshold while weaker ones pass it: "over how long do
people usually taper?" found the tapering sections, not "Taper over at least 2-4 weeks" under Discontinuation. The
first ``RESERVE_PASSAGES`` hits of the search without the threshold that are not in the pool, and not filed beside
what the question names (``focus.off_subject``), are reserve passages: their units may join an extractive answer but
never lead it, and leave the first passages' scores unchanged (``llm.extractive.extractive_answer``). They are no
evidence for the abstention decision, which reads the thresholded hits only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from curbside.ask.focus import Outline, off_subject
from curbside.types import Passage

__all__ = ["RESERVE_PASSAGES", "reserve_passages"]

RESERVE_PASSAGES = 3  # hits of the search without the threshold that are weighed (more only add distractors)


def reserve_passages(
    question: str, found: Sequence[Passage], pool: Sequence[Passage], outline: Callable[[str, int], list[str]]
) -> list[Passage]:
    """The passages of ``found`` (the first hits without the threshold) that are not in ``pool`` and stay on the
    question; ``outline(doc_key, version)`` gives a document's section paths."""
    seen = {p.chunk_id for p in pool}
    outlines: dict[tuple[str, int], Outline] = {}
    kept: list[Passage] = []
    for hit in found[:RESERVE_PASSAGES]:
        if hit.chunk_id in seen:
            continue
        key = (hit.doc_key, hit.version)
        if key not in outlines:
            outlines[key] = Outline(outline(*key))
        if off_subject(question, hit.section_path, outlines[key], hit.body) is None:
            kept.append(hit)
    return kept
