"""Ranking metrics against hand-computed values."""

from __future__ import annotations

import math

import pytest

from curbside.evaluation.metrics import dcg, evaluate_run, mrr_at_k, ndcg_at_k, recall_at_k

# Relevant: b (grade 2), d and e (grade 1); x is judged not relevant.
JUDGED = {"b": 2, "d": 1, "e": 1, "x": 0}
RANKING = ["a", "b", "c", "d"]


def test_ndcg_graded_by_hand() -> None:
    # DCG  = 0/log2(2) + 2/log2(3) + 0/log2(4) + 1/log2(5) = 1.26186 + 0.43068 = 1.69254
    # IDCG = 2/log2(2) + 1/log2(3) + 1/log2(4)             = 2 + 0.63093 + 0.5 = 3.13093
    # nDCG@10 = 1.69254 / 3.13093 = 0.54059
    assert ndcg_at_k(RANKING, JUDGED, 10) == pytest.approx(0.54059, abs=1e-5)
    assert ndcg_at_k(RANKING, JUDGED, 10) == pytest.approx(
        (2 / math.log2(3) + 1 / math.log2(5)) / (2 + 1 / math.log2(3) + 0.5)
    )


def test_ndcg_cutoff_also_cuts_the_ideal() -> None:
    # @2: DCG = 2/log2(3) = 1.26186; IDCG = 2 + 1/log2(3) = 2.63093 → 0.47962
    assert ndcg_at_k(RANKING, JUDGED, 2) == pytest.approx(0.47962, abs=1e-5)
    assert ndcg_at_k(RANKING, JUDGED, 1) == 0.0  # "a" is not judged


def test_ndcg_perfect_and_order_sensitive() -> None:
    assert ndcg_at_k(["b", "d", "e"], JUDGED, 10) == pytest.approx(1.0)
    assert ndcg_at_k(["b", "e", "d"], JUDGED, 10) == pytest.approx(1.0)  # equal grades may swap
    assert ndcg_at_k(["d", "b", "e"], JUDGED, 10) < 1.0  # grade 1 above grade 2


def test_dcg_linear_gain() -> None:
    assert dcg([3, 2]) == pytest.approx(3 + 2 / math.log2(3))
    assert dcg([]) == 0.0


def test_recall_by_hand() -> None:
    assert recall_at_k(RANKING, JUDGED, 2) == pytest.approx(1 / 3)  # b of {b, d, e}
    assert recall_at_k(RANKING, JUDGED, 10) == pytest.approx(2 / 3)  # b, d


def test_mrr_by_hand() -> None:
    assert mrr_at_k(RANKING, JUDGED, 10) == 0.5  # first relevant (b) at rank 2
    assert mrr_at_k(RANKING, JUDGED, 1) == 0.0
    assert mrr_at_k(["x", "c", "e"], JUDGED, 10) == pytest.approx(1 / 3)  # grade 0 is not relevant


def test_no_relevant_documents() -> None:
    judged = {"a": 0}
    assert ndcg_at_k(["a"], judged, 10) == 0.0
    assert recall_at_k(["a"], judged, 10) == 0.0
    assert mrr_at_k(["a"], judged, 10) == 0.0


def test_all_retrieved_documents_relevant() -> None:
    judged = {"a": 1, "b": 1, "c": 1}
    ranking = ["a", "b", "c"]
    assert ndcg_at_k(ranking, judged, 10) == pytest.approx(1.0)
    assert recall_at_k(ranking, judged, 10) == 1.0
    assert mrr_at_k(ranking, judged, 10) == 1.0
    # k below the number relevant: the ideal is cut too, so still perfect; recall is not
    assert ndcg_at_k(ranking, judged, 2) == pytest.approx(1.0)
    assert recall_at_k(ranking, judged, 2) == pytest.approx(2 / 3)


def test_k_larger_than_ranking_and_empty_ranking() -> None:
    assert recall_at_k(["b"], JUDGED, 1000) == pytest.approx(1 / 3)
    assert ndcg_at_k([], JUDGED, 10) == 0.0
    assert mrr_at_k([], JUDGED, 10) == 0.0


def test_repeated_ids_count_once_at_first_rank() -> None:
    # a document split into chunks must not fill the top k or score twice
    assert ndcg_at_k(["b", "b", "d"], JUDGED, 10) == ndcg_at_k(["b", "d"], JUDGED, 10)
    assert recall_at_k(["a", "a", "b"], JUDGED, 2) == pytest.approx(1 / 3)


def test_negative_grades_give_no_gain() -> None:
    assert ndcg_at_k(["n", "b"], {"n": -1, "b": 1}, 10) == pytest.approx(1 / math.log2(3))


def test_bad_k() -> None:
    with pytest.raises(ValueError):
        ndcg_at_k(RANKING, JUDGED, 0)


def test_evaluate_run_excludes_queries_without_relevant_and_zeroes_missing_ones() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"b": 0}, "q3": {"c": 1}}
    run = {"q1": ["a"], "q2": ["b"]}  # q2 has nothing relevant: excluded; q3 absent from the run: scores 0
    scores = evaluate_run(run, qrels, ("ndcg@10", "recall@100", "mrr@10"))
    assert scores == {"ndcg@10": 0.5, "recall@100": 0.5, "mrr@10": 0.5}


def test_evaluate_run_empty_and_unknown_metric() -> None:
    assert evaluate_run({}, {"q": {"a": 0}}, ("ndcg@10",)) == {"ndcg@10": 0.0}
    with pytest.raises(ValueError, match="unknown metric"):
        evaluate_run({}, {}, ("map@10",))
