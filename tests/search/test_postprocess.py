from __future__ import annotations

import numpy as np
import pytest

from curbside.search.postprocess import (
    dedupe,
    document_ranking,
    group_by_document,
    limit_per_document,
    normalised_body,
)
from curbside.types import Passage


def passage(chunk_id: str, body: str, *, doc_key: str | None = None, title: str = "Doc", score: float = 0.0) -> Passage:
    doc_key = doc_key or chunk_id.split(":")[0]
    return Passage(
        chunk_id=chunk_id,
        doc_key=doc_key,
        title=title,
        section_path="Section",
        score=score,
        text=f"{title} > Section\n\n{body}",
    )


def test_normalised_body_ignores_title_path_case_and_spacing() -> None:
    a = passage("a:v1:0", "Give  IV fluids,\nthen insulin.", title="Guide A")
    b = passage("b:v1:0", "give IV fluids then INSULIN", title="Guide B")
    assert normalised_body(a) == normalised_body(b) == "give iv fluids then insulin"


def test_normalised_body_keeps_text_without_title_line() -> None:
    p = Passage(chunk_id="x:v1:0", doc_key="x", title="T", section_path="", score=0, text="First.\n\nSecond.")
    assert normalised_body(p) == "first second"


def test_dedupe_same_text_keeps_first() -> None:
    hits = [
        passage("a:v1:0", "Loop diuretics relieve congestion.", title="A"),
        passage("b:v1:0", "Something else entirely."),
        passage("c:v1:0", "loop diuretics relieve congestion", title="C"),
    ]
    assert [p.chunk_id for p in dedupe(hits)] == ["a:v1:0", "b:v1:0"]


def test_dedupe_by_vector_cosine() -> None:
    hits = [passage("a:v1:0", "one"), passage("b:v1:0", "two"), passage("c:v1:0", "three")]
    base = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    near = np.array([1.0, 0.1, 0.0], dtype=np.float32)  # cosine 0.995 with base, not normalised
    far = np.array([0.0, 1.0, 0.0], dtype=np.float32)
    vectors = {"a:v1:0": base, "b:v1:0": near, "c:v1:0": far}
    assert [p.chunk_id for p in dedupe(hits, vectors=vectors, threshold=0.97)] == ["a:v1:0", "c:v1:0"]
    # above the cosine -> both kept
    assert len(dedupe(hits, vectors=vectors, threshold=0.999)) == 3
    # passages without a vector are compared by text only
    assert len(dedupe(hits, vectors={"a:v1:0": base}, threshold=0.5)) == 3


def test_dedupe_empty() -> None:
    assert dedupe([]) == []


def test_limit_per_document() -> None:
    hits = [
        passage("a:v1:0", "1"),
        passage("a:v1:1", "2"),
        passage("b:v1:0", "3"),
        passage("a:v1:2", "4"),
        passage("b:v1:1", "5"),
    ]
    assert [p.chunk_id for p in limit_per_document(hits, 1)] == ["a:v1:0", "b:v1:0"]
    assert [p.chunk_id for p in limit_per_document(hits, 2)] == ["a:v1:0", "a:v1:1", "b:v1:0", "b:v1:1"]
    with pytest.raises(ValueError):
        limit_per_document(hits, 0)


def test_group_and_document_ranking() -> None:
    hits = [passage("b:v1:3", "x"), passage("a:v1:0", "y"), passage("b:v1:1", "z")]
    groups = group_by_document(hits)
    assert [(key, [p.chunk_id for p in ps]) for key, ps in groups] == [
        ("b", ["b:v1:3", "b:v1:1"]),
        ("a", ["a:v1:0"]),
    ]
    assert document_ranking(hits) == ["b", "a"]
    assert document_ranking([]) == []
