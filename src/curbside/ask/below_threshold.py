"""A second look when no passage passes the search's relevance threshold.

The threshold is a cosine similarity calibrated on BioASQ questions. A clinician's short question full of
brand names ("how much does trintellix cost?") embeds far from the passage that answers it, so the dense
similarity can fall below the threshold even when the passage is right. The passage's words
then still hold the question's rare key words, and that is checked here: the best passages below the
threshold are kept when one of them holds a large enough share of the question's rarity-weighted key
words, and the answer/no-answer guards of ``ask/abstain.py`` decide on them as on any other.

A question in a clinician's own words ("does the client pay for the chair's maintenance?") may share few
of its words with the passage that answers it. The answer units' stored embeddings (``kb/unit_meaning.py``)
then show it: one unit of the best passages close in meaning to the question (``best_unit_cosine``) keeps
them too. A passage-level cosine averages a whole chunk; one unit saying what was asked stands out more.

Just under the threshold, the two retrievers agreeing is evidence too: when the dense and the keyword search
both rank the best passage in their first three, the passages within a small margin under the threshold are
kept. On BioASQ questions whose answer was withheld from the corpus, the passages found just under the
threshold almost never have that agreement; on the guideline QA sets, those that have it were nearly always
answerable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from curbside.ask.abstain import agreement, coverage_terms, weighted_share
from curbside.llm.extractive import Meaning, asked_for, passage_units
from curbside.types import Passage

__all__ = ["agreed_near_threshold", "best_key_share", "best_unit_cosine", "close_in_meaning", "holds_key_words"]


def best_key_share(
    keys: Mapping[str, str], idf: Mapping[str, float], passages: Sequence[Passage], lacking: int = 0
) -> float:
    """The largest share of the key words' rarity weight that any one passage holds (0 with no passage).

    One passage, not the passages together: words scattered over several passages are no sign that any of
    them is about the question. ``lacking`` counts the question's words the knowledge base never has and the
    answer guards leave out as plain English ('oil', 'engine' for 'how do I change the oil in a diesel car
    engine?'): here each weighs as the rarest key word and no passage holds it, else 'change' alone would be
    all the question asks and any passage would hold it."""
    rarest = max(idf.values(), default=1.0)
    total = sum(idf[w] for w in keys) + lacking * rarest
    if total <= 0:
        return 1.0 if not lacking else 0.0
    held = max(
        (weighted_share(coverage_terms([f"{p.title} {p.section_path} {p.body}"]), keys, idf) for p in passages),
        default=0.0,
    )
    return held * sum(idf[w] for w in keys) / total


def holds_key_words(share: float, min_share: float | None) -> bool:
    """Whether passages below the threshold may answer: ``min_share`` None turns the second look off."""
    return min_share is not None and share >= min_share


def best_unit_cosine(question: str, passages: Sequence[Passage], meaning: Meaning) -> float:
    """The highest meaning cosine to the question of any answer unit of ``passages`` (0 when none has a vector).
    The units are cut as the extractive answer cuts them, so each finds the vector stored for it at ingest."""
    asked = asked_for(question)
    texts = [u.text for rank, p in enumerate(passages) for u in passage_units(p, rank, asked)]
    return max((c for c in meaning(texts) if c is not None), default=0.0) if texts else 0.0


def close_in_meaning(cosine: float, min_cosine: float | None) -> bool:
    """Whether a unit is close enough in meaning for passages below the threshold to answer (None: never)."""
    return min_cosine is not None and cosine >= min_cosine


def agreed_near_threshold(passages: Sequence[Passage], floor: float) -> list[Passage]:
    """The passages at or above ``floor`` when the best of them is ranked in both retrievers' first three; else
    none. ``passages`` are the search's fused ranking, best first."""
    near = [p for p in passages if (p.similarity or 0.0) >= floor]
    if not near or not agreement(near[0].dense_rank, near[0].lexical_rank):
        return []
    return near
