"""The spec's confidence formula and the conflict detector, alone and through ``odb.get``."""

from __future__ import annotations

import asyncio

import pytest

from curbside.app import Curbside
from curbside.coverage.confidence import ConfidenceInputs, confidence
from curbside.coverage.conflicts import FieldComparison, detect
from curbside.coverage.odb.service import OdbService
from curbside.coverage.odb.tool import OdbGetArgs
from curbside.types import Passage


@pytest.mark.parametrize(
    ("inputs", "expected"),
    [
        (ConfidenceInputs(sql_hit=True), 0.9),
        (ConfidenceInputs(sql_hit=True, passages=1, sql_records=1), 0.93),
        (ConfidenceInputs(sql_hit=True, passages=3, sql_records=3), 1.0),  # 0.9 + 0.09 + 0.04, clamped
        (ConfidenceInputs(sql_hit=True, passages=2, sql_records=2), 0.98),
        (ConfidenceInputs(sql_hit=True, passages=9, sql_records=1), 1.0),  # passage bonus capped at +0.15
        (ConfidenceInputs(sql_hit=True, passages=0, sql_records=9), 0.96),  # record bonus capped at +0.06
        (ConfidenceInputs(sql_hit=True, passages=1, sql_records=3, conflicts=2), 0.77),
        (ConfidenceInputs(sql_hit=False, passages=2), 0.66),
        (ConfidenceInputs(sql_hit=False, passages=9), 0.75),
        (ConfidenceInputs(sql_hit=False, passages=1, conflicts=1), 0.53),
        (ConfidenceInputs(sql_hit=False, passages=0), 0.0),
        (ConfidenceInputs(sql_hit=True, conflicts=12), 0.0),
    ],
)
def test_formula(inputs: ConfidenceInputs, expected: float) -> None:
    assert confidence(inputs) == expected


def test_detector_reports_each_disagreement_once() -> None:
    found = detect(
        [
            FieldComparison(field="unit_price", subject="DIN 1", sql_value=3.2787, vector_value=3.27870001),
            FieldComparison(field="unit_price", subject="DIN 2", sql_value=3.2787, vector_value=3.1),
            FieldComparison(field="unit_price", subject="DIN 2", sql_value=3.2787, vector_value=3.0),
            FieldComparison(field="coverage", subject="DIN 3", sql_value="general_benefit", vector_value=None),
            FieldComparison(field="coverage", subject="DIN 4", sql_value="limited_use", vector_value="not_a_benefit"),
        ]
    )
    assert [(c.field, c.subject, c.vector_value) for c in found] == [
        ("unit_price", "DIN 2", 3.1),
        ("coverage", "DIN 4", "not_a_benefit"),
    ]
    assert all("take precedence" in c.resolution for c in found)


def test_a_stale_passage_is_a_conflict_and_costs_confidence(odb_app: Curbside) -> None:
    real = next(p for p in odb_app.coverage_service("odb").search("Januvia", 8) if "DIN 02388839" in p.text)
    stale = real.model_copy(
        update={
            "text": real.text.replace(
                "[Januvia DIN 02388839 $3.2787, pays $0.8197]", "[Januvia DIN 02388839 $3.1, pays $0.8197]"
            ),
            "title": real.title.replace("Edition 43 (2025-08-29)", "Edition 42 (2025-07-31)"),
        }
    )
    assert stale.text != real.text

    def search(text: str, k: int) -> list[Passage]:  # an index left behind by an older load
        return [stale]

    service = OdbService(odb_app.source_parts, search=search)
    try:
        r = asyncio.run(service.get(OdbGetArgs(q="Is Januvia covered?")))
    finally:
        service.close()
    assert sorted((c.field, c.sql_value, c.vector_value) for c in r.conflicts) == [
        ("edition", "43 2025-08-29", "42 2025-07-31"),
        ("unit_price", 3.2787, 3.1),
    ]
    assert r.conflicts[0].chunk_id == real.chunk_id
    assert r.coverage is not None and r.coverage.unit_price == 3.2787  # the tables win
    assert r.confidence == 0.77  # 0.9 + 0.03 x 1 passage + 0.02 x 2 more Januvia products - 0.1 x 2 conflicts
    assert any("disagree with the formulary tables" in w for w in r.warnings)
