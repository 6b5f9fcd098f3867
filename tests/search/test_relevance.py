"""Calibrated relevance: the fitted models load, the probability moves with the evidence, and the
engine gives every hybrid hit a probability a reader can use."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from curbside.search import relevance
from curbside.search.relevance import Evidence, RelevanceModel, keyword_coverage, relevance_model
from curbside.types import Citation, Passage, relevance_label

MODELS = Path(relevance.__file__).with_name("relevance_models.toml")


def test_both_shipped_embedders_have_a_fitted_and_checked_model() -> None:
    entries = tomllib.loads(MODELS.read_text(encoding="utf-8"))["model"]
    by_id = {e["model_id"]: e for e in entries}
    for model_id in ("sentence-transformers/all-MiniLM-L6-v2", "intfloat/multilingual-e5-small"):
        assert relevance_model(model_id) is not None
        held_out = by_id[model_id]["held_out"]
        # the calibration is only shipped if it separates and is calibrated on held-out questions
        assert held_out["questions"] >= 100 and held_out["auc"] >= 0.85 and held_out["ece"] <= 0.05
    assert relevance_model("some/unfitted-model") is None


def test_probability_rises_with_each_kind_of_evidence() -> None:
    model = relevance_model("sentence-transformers/all-MiniLM-L6-v2")
    assert model is not None
    weak = Evidence(similarity=0.30, dense_rank=None, lexical_rank=None, coverage=0.0)
    assert model.probability(weak) < 0.05
    steps = [
        Evidence(0.65, None, None, 0.0),
        Evidence(0.65, 1, None, 0.0),
        Evidence(0.65, 1, 1, 0.0),
        Evidence(0.65, 1, 1, 1.0),
    ]
    probabilities = [model.probability(e) for e in steps]
    assert probabilities == sorted(probabilities) and len(set(probabilities)) == 4
    assert probabilities[-1] > 0.7  # close, first in both retrievers, every keyword: high


def test_probability_is_bounded_for_extreme_evidence() -> None:
    model = RelevanceModel("m", intercept=-100.0, weights=(1.0, 1.0, 1.0, 1.0))
    assert model.probability(Evidence(None, None, None, 0.0)) == 0.0
    assert RelevanceModel("m", 100.0, (0.0,) * 4).probability(Evidence(1.0, 1, 1, 1.0)) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("keywords", "text", "expected"),
    [
        (["pregnancy", "metformin"], "Metformin in pregnant women", 1.0),  # stems meet
        (["warfarin", "dose"], "Apixaban is preferred.", 0.0),
        (["warfarin", "apixaban"], "apixaban, not WARFARIN", 1.0),
        (["hypertension", "kidney"], "Hypertension targets", 0.5),
        ([], "anything", 0.0),
    ],
)
def test_keyword_coverage(keywords: list[str], text: str, expected: float) -> None:
    assert keyword_coverage(keywords, text) == expected


@pytest.mark.parametrize(
    ("p", "label"), [(0.95, "high"), (0.7, "high"), (0.69, "medium"), (0.4, "medium"), (0.1, "low")]
)
def test_relevance_label_bands(p: float, label: str) -> None:
    assert relevance_label(p) == label


def _passage(relevance_value: float | None) -> Passage:
    return Passage(
        chunk_id="d:v1:0",
        doc_key="d",
        title="T",
        section_path="T",
        score=0.03,
        relevance=relevance_value,
        text="T\nbody",
    )


def test_citation_carries_relevance_and_its_band() -> None:
    cited = Citation.from_passage(1, _passage(0.82))
    assert (cited.relevance, cited.relevance_label) == (0.82, "high")
    unknown = Citation.from_passage(1, _passage(None))
    assert (unknown.relevance, unknown.relevance_label) == (None, None)
