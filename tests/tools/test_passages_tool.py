"""source.passages on real ingested sample documents, through the application's executor."""

from __future__ import annotations

import asyncio
from typing import Any

from curbside.app import Curbside
from curbside.search.passages import open_passages
from curbside.tools import ToolResult
from curbside.tools.passages import PassagesArgs
from curbside.types import SourcePassages

HYPERTENSION = "sample-hypertension:v1:0"
METFORMIN = "sample-metformin-renal:v1:0"


def call(app: Curbside, arguments: Any) -> ToolResult:
    result: ToolResult = asyncio.run(app.tools.call("source.passages", arguments))
    return result


def test_passages_come_back_in_order_with_highlights_and_missing_ids(
    sample_app: Curbside,
) -> None:
    result = call(
        sample_app,
        {
            "chunk_ids": [METFORMIN, "nope:v1:0", HYPERTENSION],
            "highlight_terms": ["diuretic"],
        },
    )
    assert result.status == "ok" and result.result is not None
    passages = SourcePassages.model_validate(result.result)
    assert [p.chunk_id for p in passages.passages] == [METFORMIN, HYPERTENSION]
    assert passages.total_chunks == 2 and passages.missing == ["nope:v1:0"]
    hypertension = passages.passages[1]
    assert hypertension.source == "SAMPLE — Hypertension in adults (not clinical advice)"
    assert hypertension.doc_key == "sample-hypertension" and hypertension.version == 1
    assert hypertension.highlights == [
        "… options are a thiazide or thiazide-like **diuretic**, an ACE inhibitor, an angiotensin receptor …"
    ]
    assert passages.passages[0].highlights == []  # the metformin page does not mention diuretics


def test_the_tool_returns_exactly_what_open_passages_returns(
    sample_app: Curbside,
) -> None:
    args = {
        "chunk_ids": [HYPERTENSION, METFORMIN],
        "highlight_terms": ["eGFR", "blood pressure"],
    }
    expected = open_passages(sample_app.documents, args["chunk_ids"], args["highlight_terms"])
    assert call(sample_app, args).result == expected.model_dump(mode="json")


def test_bad_arguments_are_named(sample_app: Curbside) -> None:
    cases = {
        "chunk_ids: List should have at least 1 item after validation, not 0": {"chunk_ids": []},
        "chunk_ids: List should have at most 100 items after validation, not 101": {
            "chunk_ids": [f"d:v1:{n}" for n in range(101)]
        },
        "chunk_id: Extra inputs are not permitted": {
            "chunk_ids": [HYPERTENSION],
            "chunk_id": HYPERTENSION,
        },
        "highlight_terms: Input should be a valid list": {
            "chunk_ids": [HYPERTENSION],
            "highlight_terms": "eGFR",
        },
    }
    for expected, arguments in cases.items():
        result = call(sample_app, arguments)
        assert result.error is not None and result.error.code == "VALIDATION_ERROR", arguments
        assert expected in result.error.message


def test_blank_ids_that_pass_the_schema_are_refused_by_open_passages(
    sample_app: Curbside,
) -> None:
    result = call(sample_app, {"chunk_ids": ["  "]})
    assert result.status == "error" and result.error is not None
    assert result.error.code == "VALIDATION_ERROR" and result.error.message.startswith("chunk_ids is empty")


def test_declaration_follows_the_spec_and_settings(sample_app: Curbside) -> None:
    spec = sample_app.tools.registry.get("source.passages")
    assert spec.args_model is PassagesArgs and spec.result_model is SourcePassages
    assert (
        spec.category,
        spec.requires_phi,
        spec.requires_confirmation,
        spec.risk_level,
    ) == ("search", False, False, "low")
    assert spec.timeout_s == sample_app.settings.tool_passages_timeout_s == 2.0
    assert set(spec.input_schema()["properties"]) == {"chunk_ids", "highlight_terms"}
    assert spec.input_schema()["required"] == ["chunk_ids"]
