"""Reciprocal rank fusion of several rankings."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["reciprocal_rank_fusion"]

# sums of the same reciprocals added in a different order can differ in the last bits
_TIE_DECIMALS = 12


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[int]],
    k: int = 60,
    weights: Sequence[float] | None = None,
) -> list[tuple[int, float]]:
    """Fuse best-first rankings into one: ``score(d) = sum_i w_i / (k + rank_i(d))``.

    Reciprocal rank fusion (Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion
    outperforms Condorcet and individual Rank Learning Methods", SIGIR 2009) uses
    only ranks, so a cosine similarity and a BM25 score, which live on unrelated
    scales, combine without calibration. Ranks are 1-based. ``k`` damps the
    weight of the very top ranks so that one retriever's first place cannot
    outvote agreement lower down; the paper found k = 60 near-optimal across
    TREC collections and insensitive nearby, hence the default.

    An id repeated inside one ranking counts once, at its first (best) rank. An
    id missing from a ranking simply gets nothing from it. Equal scores are
    ordered by the better best rank over all rankings, then by the smaller id,
    so the output is deterministic. Empty input gives ``[]``.
    """
    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    if weights is None:
        weights = [1.0] * len(rankings)
    elif len(weights) != len(rankings):
        raise ValueError(f"{len(weights)} weights for {len(rankings)} rankings")
    elif any(w < 0 for w in weights):
        raise ValueError("weights must be non-negative")

    scores: dict[int, float] = {}
    best_rank: dict[int, int] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        seen: set[int] = set()
        for rank, item in enumerate(ranking, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
            best_rank[item] = min(best_rank.get(item, rank), rank)
    return sorted(
        scores.items(),
        key=lambda pair: (-round(pair[1], _TIE_DECIMALS), best_rank[pair[0]], pair[0]),
    )
