"""Reserve passages: hits the search ranks first by fusion that fall just under the similarity threshold.

A passage both retrievers rank high can sit under the threshold while weaker ones pass it: "over how long do
people usually taper?" found the tapering sections, not "Taper over at least 2-4 weeks" under Discontinuation. The
first ``RESERVE_PASSAGES`` hits of the search without the threshold that are not in the pool, and not filed beside
what the question names (``focus.off_subject``), are reserve passages: their units may join an extractive answer but
never lead it, and leave the first passages' scores unchanged (``llm.extractive.extractive_answer``). They are no
evidence for the abstention decision, which reads the thresholded hits only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from curbside.ask.focus import Outline, off_subject
from curbside.types import Passage

__all__ = ["RESERVE_PASSAGES", "leading_reserve", "reserve_passages"]

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


_NAME = re.compile(r"[a-z]{5,}")


def leading_reserve(question: str, reserve: Sequence[Passage], pool: Sequence[Passage]) -> list[Passage]:
    """The first reserve passage when it is filed under a name the question gives (a word rare in English in its
    section path: 'Vortioxetine (Trintellix®)' for "pt on trintellix complaining of itchy skin") and no passage of
    the pool is: the passage about what was asked, just under the threshold, may lead the answer that the general
    passages above it would otherwise give ("Side effect management")."""
    from wordfreq import zipf_frequency  # loaded by the guards already (``abstain.warm_word_frequencies``)

    from curbside.ask.abstain import RARE_ZIPF

    named = {w for w in _NAME.findall(question.lower()) if zipf_frequency(w, "en") < RARE_ZIPF}

    def filed(passage: Passage) -> bool:
        return bool(named & set(_NAME.findall(passage.section_path.lower())))

    if not named or not reserve or any(filed(p) for p in pool):
        return []
    return [reserve[0]] if filed(reserve[0]) else []
