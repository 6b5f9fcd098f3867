from __future__ import annotations

import pytest

from curbside.search.fusion import reciprocal_rank_fusion


def test_empty_inputs() -> None:
    assert reciprocal_rank_fusion([]) == []
    assert reciprocal_rank_fusion([[], []]) == []


def test_one_list_keeps_its_order() -> None:
    fused = reciprocal_rank_fusion([[7, 3, 9]])
    assert [i for i, _ in fused] == [7, 3, 9]
    assert fused[0][1] == pytest.approx(1 / 61)
    assert fused[2][1] == pytest.approx(1 / 63)


def test_one_empty_list_is_ignored() -> None:
    assert reciprocal_rank_fusion([[1, 2], []]) == reciprocal_rank_fusion([[1, 2]])


def test_agreement_beats_a_single_first_place() -> None:
    fused = dict(reciprocal_rank_fusion([[1, 2, 3], [2, 3, 1]]))
    assert fused[2] == pytest.approx(1 / 62 + 1 / 61)
    assert max(fused, key=fused.__getitem__) == 2


def test_scores_sum_over_lists() -> None:
    fused = dict(reciprocal_rank_fusion([[10, 20], [20]], k=1))
    assert fused == {10: pytest.approx(1 / 2), 20: pytest.approx(1 / 3 + 1 / 2)}


def test_tie_with_equal_best_rank_prefers_smaller_id() -> None:
    # 5 and 4 each hold one first place
    assert [i for i, _ in reciprocal_rank_fusion([[5], [4]])] == [4, 5]


def test_tie_prefers_better_best_rank() -> None:
    # k=0: 9 -> 1/1, 3 -> 1/2 + 1/2, 0 -> 1/1: all tie; 0 and 9 have a first place, 3 does not
    fused = reciprocal_rank_fusion([[9, 3], [0, 3]], k=0)
    assert [i for i, _ in fused] == [0, 9, 3]
    assert all(score == pytest.approx(1.0) for _, score in fused)


def test_float_noise_does_not_break_ties() -> None:
    # 20 has ranks (1, 2, 7), 10 has (7, 1, 2): equal in exact arithmetic, but the float
    # sums differ in the last bit; the tie must still fall to the smaller id
    rankings = [[20, 101, 102, 103, 104, 105, 10], [10, 20], [106, 10, 107, 108, 109, 110, 20]]
    assert 1 / 61 + 1 / 62 + 1 / 67 != 1 / 67 + 1 / 61 + 1 / 62
    fused = reciprocal_rank_fusion(rankings)
    assert [i for i, _ in fused][:2] == [10, 20]


def test_duplicates_within_a_list_count_once() -> None:
    fused = dict(reciprocal_rank_fusion([[1, 2, 1, 1]]))
    assert fused[1] == pytest.approx(1 / 61)
    assert fused[2] == pytest.approx(1 / 62)


def test_weights() -> None:
    fused = reciprocal_rank_fusion([[1], [2]], weights=[1.0, 2.0])
    assert [i for i, _ in fused] == [2, 1]
    assert reciprocal_rank_fusion([[1], [2]], weights=[1.0, 0.0])[1] == (2, 0.0)


def test_order_of_the_rankings_does_not_matter() -> None:
    rankings = [[5, 3, 1, 4], [4, 5, 2], [2, 3, 6, 1]]
    forward = reciprocal_rank_fusion(rankings)
    backward = reciprocal_rank_fusion(rankings[::-1])
    assert [i for i, _ in forward] == [i for i, _ in backward]
    assert [s for _, s in forward] == pytest.approx([s for _, s in backward])


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        reciprocal_rank_fusion([[1]], weights=[1.0, 1.0])
    with pytest.raises(ValueError):
        reciprocal_rank_fusion([[1]], k=-1)
    with pytest.raises(ValueError):
        reciprocal_rank_fusion([[1]], weights=[-1.0])
