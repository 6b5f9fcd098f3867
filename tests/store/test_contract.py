"""Contract tests: every VectorIndex / LexicalIndex implementation runs the same cases.

A PostgreSQL + pgvector backend joins by adding a factory to the params below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

from curbside.store.database import Database
from curbside.store.protocols import ChunkMeta, LexicalIndex, VectorIndex
from curbside.store.sqlite_indexes import Fts5Index, SqliteVecIndex
from curbside.types import SearchFilters

DIM = 8


def _sqlite_vec(db: Database) -> VectorIndex:
    return SqliteVecIndex(db)


def _fts5(db: Database) -> LexicalIndex:
    return Fts5Index(db)


@pytest.fixture
def db(tmp_path) -> Iterator[Database]:
    database = Database(tmp_path / "contract.sqlite3")
    yield database
    database.close()


@pytest.fixture(params=[_sqlite_vec], ids=["sqlite-vec"])
def vectors(request: pytest.FixtureRequest, db: Database) -> VectorIndex:
    factory: Callable[[Database], VectorIndex] = request.param
    index = factory(db)
    index.reset(DIM)
    return index


@pytest.fixture(params=[_fts5], ids=["fts5"])
def lexical(request: pytest.FixtureRequest, db: Database) -> LexicalIndex:
    factory: Callable[[Database], LexicalIndex] = request.param
    return factory(db)


def unit(*values: float) -> np.ndarray:
    v = np.zeros(DIM, dtype=np.float32)
    v[: len(values)] = values
    return v / np.linalg.norm(v)


KB = ChunkMeta("kb", "doc-a", "guideline", "cardiology")
KB_B = ChunkMeta("kb", "doc-b", "textbook", None)
COVERAGE = ChunkMeta("coverage", "odb", None, None)


# --- vector index -----------------------------------------------------------------------------
def test_vector_protocol_is_satisfied(vectors: VectorIndex) -> None:
    assert isinstance(vectors, VectorIndex)
    assert vectors.dim == DIM
    assert vectors.count() == 0


def test_vector_search_orders_by_cosine(vectors: VectorIndex) -> None:
    vectors.add([1, 2, 3], np.stack([unit(1, 0), unit(1, 1), unit(0, 1)]), [KB, KB, KB])
    hits = vectors.search(unit(1, 0.1), 3, SearchFilters())
    assert [r for r, _ in hits] == [1, 2, 3]
    assert hits[0][1] == pytest.approx(float(unit(1, 0) @ unit(1, 0.1)), abs=1e-5)
    assert hits[0][1] > hits[1][1] > hits[2][1]


def test_vector_k_limits_and_empty_index(vectors: VectorIndex) -> None:
    assert vectors.search(unit(1), 5, SearchFilters()) == []
    vectors.add([1, 2], np.stack([unit(1), unit(0, 1)]), [KB, KB])
    assert len(vectors.search(unit(1), 1, SearchFilters())) == 1
    assert len(vectors.search(unit(1), 50, SearchFilters())) == 2


def test_vector_filters(vectors: VectorIndex) -> None:
    vectors.add([1, 2, 3], np.stack([unit(1), unit(1, 0.2), unit(1, 0.4)]), [KB, KB_B, COVERAGE])
    assert [r for r, _ in vectors.search(unit(1), 10, SearchFilters())] == [1, 2]
    assert [r for r, _ in vectors.search(unit(1), 10, SearchFilters(namespace="coverage"))] == [3]
    assert [r for r, _ in vectors.search(unit(1), 10, SearchFilters(source_type="textbook"))] == [2]
    assert [r for r, _ in vectors.search(unit(1), 10, SearchFilters(specialty="cardiology"))] == [1]
    assert [r for r, _ in vectors.search(unit(1), 10, SearchFilters(doc_key="doc-b"))] == [2]
    assert vectors.search(unit(1), 10, SearchFilters(doc_key="missing")) == []


def test_vector_delete_and_similarities(vectors: VectorIndex) -> None:
    vectors.add([1, 2], np.stack([unit(1), unit(0, 1)]), [KB, KB])
    sims = vectors.similarities(unit(1), [1, 2, 99])
    assert sims[1] == pytest.approx(1.0, abs=1e-5)
    assert sims[2] == pytest.approx(0.0, abs=1e-5)
    assert 99 not in sims
    vectors.delete([1])
    assert vectors.count() == 1
    assert [r for r, _ in vectors.search(unit(1), 5, SearchFilters())] == [2]


def test_vector_returns_stored_vectors(vectors: VectorIndex) -> None:
    vectors.add([1, 2], np.stack([unit(1), unit(0, 1)]), [KB, KB])
    stored = vectors.vectors([2, 1, 77])
    assert set(stored) == {1, 2}
    assert np.allclose(stored[2], unit(0, 1))


def test_vector_rejects_wrong_dimension(vectors: VectorIndex) -> None:
    with pytest.raises(ValueError, match="dimension"):
        vectors.add([1], np.ones((1, DIM + 1), dtype=np.float32), [KB])


def test_vector_reset_changes_dimension(vectors: VectorIndex) -> None:
    vectors.add([1], np.stack([unit(1)]), [KB])
    vectors.reset(4)
    assert vectors.dim == 4
    assert vectors.count() == 0


def test_vector_writes_roll_back_with_the_transaction(vectors: VectorIndex, db: Database) -> None:
    with pytest.raises(RuntimeError), db.transaction():
        vectors.add([1], np.stack([unit(1)]), [KB])
        raise RuntimeError("abort")
    assert vectors.count() == 0


# --- lexical index ----------------------------------------------------------------------------
TEXTS = {
    1: "Hypertension management in adults: thiazide diuretics are first line.",
    2: "Chronic kidney disease staging uses eGFR and albuminuria.",
    3: "Treating hypertensive patients with kidney disease: ACE inhibitors.",
}


def _fill(lexical: LexicalIndex) -> None:
    lexical.add(list(TEXTS), list(TEXTS.values()), [KB, KB_B, COVERAGE])


def test_lexical_protocol_and_count(lexical: LexicalIndex) -> None:
    assert isinstance(lexical, LexicalIndex)
    _fill(lexical)
    assert lexical.count() == 3


def test_lexical_bm25_ranks_and_stems(lexical: LexicalIndex) -> None:
    _fill(lexical)
    hits = lexical.search(["kidney", "diseases"], 10, SearchFilters())
    assert {r for r, _ in hits} == {2}  # 3 lives in another namespace
    # porter stemming: "treat" matches "Treating"
    assert [r for r, _ in lexical.search(["treat"], 10, SearchFilters(namespace="coverage"))] == [3]
    scored = lexical.search(["hypertension", "thiazide"], 10, SearchFilters())
    assert scored[0][0] == 1 and scored[0][1] > 0


def test_lexical_filters_and_delete(lexical: LexicalIndex) -> None:
    _fill(lexical)
    assert [r for r, _ in lexical.search(["hypertension"], 10, SearchFilters(source_type="guideline"))] == [1]
    assert lexical.search(["hypertension"], 10, SearchFilters(source_type="textbook")) == []
    lexical.delete([1])
    assert lexical.search(["thiazide"], 10, SearchFilters()) == []
    assert lexical.count() == 2


@pytest.mark.parametrize(
    "terms",
    [[], [""], ['"'], ["AND"], ["NEAR"], ["-"], ["*"], ["a:b"], ["(x"], ["🙂"], ["高血圧"], ['he said "no"']],
)
def test_lexical_hostile_terms_never_raise(lexical: LexicalIndex, terms: list[str]) -> None:
    _fill(lexical)
    assert isinstance(lexical.search(terms, 5, SearchFilters()), list)


def test_lexical_document_frequency_counts_chunks_across_namespaces(lexical: LexicalIndex) -> None:
    _fill(lexical)
    frequencies = lexical.document_frequency(["kidney", "hypertension", "amiodarone", "Treating", '"', "AND"])
    assert frequencies["kidney"] == 2 and frequencies["Treating"] == 1  # stemmed like the index: "treat"
    assert frequencies["hypertension"] == 2  # "Hypertension" and "hypertensive" share a porter stem
    assert frequencies["amiodarone"] == 0
    assert frequencies['"'] == 0
    assert frequencies["AND"] == 1  # the word "and" (quoted), never the operator
    assert lexical.document_frequency(["hypertens", "amioda", "kidn"], prefix=True) == {
        "hypertens": 2,
        "amioda": 0,
        "kidn": 2,
    }
    lexical.delete([2])
    assert lexical.document_frequency(["kidney"]) == {"kidney": 1}
