"""Ranking metrics with the standard (trec_eval / BEIR) definitions.

Conventions shared by every function here:

* ``ranking`` is a best-first list of document ids. An id repeated in it counts
  once, at its first (best) rank, so a document split into several chunks
  cannot score twice.
* ``judged`` maps document id → graded relevance from the qrels. A grade > 0
  means relevant; 0 or below means judged not relevant (gain 0).
* Ranks are 1-based; only the first ``k`` distinct ids are looked at, and a
  ranking shorter than ``k`` is simply scored as it is.
* ``evaluate_run`` averages over the queries that have at least one relevant
  document in the qrels. Queries with none are excluded (every metric would be
  undefined or trivially 0 for them); a judged query missing from the run
  scores 0 on everything (as ``trec_eval -c``), so failing to answer costs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["dcg", "evaluate_run", "mrr_at_k", "ndcg_at_k", "recall_at_k", "relevant_ids"]

Judgements = Mapping[str, int]  # doc id → graded relevance


def _top_k(ranking: Iterable[str], k: int) -> list[str]:
    """The first ``k`` distinct ids, in order."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    seen: set[str] = set()
    out: list[str] = []
    for doc in ranking:
        if doc not in seen:
            seen.add(doc)
            out.append(doc)
            if len(out) == k:
                break
    return out


def relevant_ids(judged: Judgements) -> set[str]:
    return {doc for doc, grade in judged.items() if grade > 0}


def dcg(gains: Sequence[float]) -> float:
    """Discounted cumulative gain: ``sum_i gain_i / log2(i + 1)`` over 1-based ranks i (linear gain)."""
    return sum(g / math.log2(i + 1) for i, g in enumerate(gains, start=1))


def ndcg_at_k(ranking: Sequence[str], judged: Judgements, k: int) -> float:
    """DCG of the top ``k`` over the DCG of the ideal top ``k`` built from all grades in the qrels.

    Gains are the grades themselves (negative grades count 0), as trec_eval's
    ``ndcg_cut`` and BEIR do. 0.0 when nothing is relevant.
    """
    top = _top_k(ranking, k)
    ideal = dcg(sorted((g for g in judged.values() if g > 0), reverse=True)[:k])
    if ideal == 0:
        return 0.0
    return dcg([max(judged.get(doc, 0), 0) for doc in top]) / ideal


def recall_at_k(ranking: Sequence[str], judged: Judgements, k: int) -> float:
    """Relevant documents in the top ``k`` over all relevant documents (not capped at k). 0.0 when none."""
    relevant = relevant_ids(judged)
    if not relevant:
        return 0.0
    return len(relevant.intersection(_top_k(ranking, k))) / len(relevant)


def mrr_at_k(ranking: Sequence[str], judged: Judgements, k: int) -> float:
    """Reciprocal rank of the first relevant document within the top ``k``, else 0.0."""
    for rank, doc in enumerate(_top_k(ranking, k), start=1):
        if judged.get(doc, 0) > 0:
            return 1.0 / rank
    return 0.0


_METRICS = {"ndcg": ndcg_at_k, "recall": recall_at_k, "mrr": mrr_at_k}


def evaluate_run(
    run: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Judgements],
    metrics: Sequence[str] = ("ndcg@10", "recall@10", "recall@100", "mrr@10"),
) -> dict[str, float]:
    """Mean of each metric (named ``"<ndcg|recall|mrr>@<k>"``) over the queries with a relevant document.

    Every mean is 0.0 when no query has a relevant document.
    """
    parsed: list[tuple[str, str, int]] = []
    for name in metrics:
        kind, _, k = name.partition("@")
        if kind not in _METRICS or not k.isdigit() or int(k) < 1:
            raise ValueError(f"unknown metric {name!r}: use ndcg@K, recall@K or mrr@K")
        parsed.append((name, kind, int(k)))
    judged_queries = [q for q, judged in qrels.items() if relevant_ids(judged)]
    out: dict[str, float] = {}
    for metric, kind, cutoff in parsed:
        scores = [_METRICS[kind](run.get(q, ()), qrels[q], cutoff) for q in judged_queries]
        out[metric] = sum(scores) / len(scores) if scores else 0.0
    return out
