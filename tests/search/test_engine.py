from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from curbside.errors import ConfigError, ModelMismatchError, ValidationError
from curbside.search import (
    USE_SETTINGS,
    CrossEncoderReranker,
    SearchEngine,
    document_ranking,
    make_reranker,
)
from curbside.search.embedders.onnx_minilm import OnnxMiniLMEmbedder
from curbside.settings import Settings
from curbside.store.database import Database
from curbside.store.documents import ChunkRow, DocumentStore, NewVersion
from curbside.store.sqlite_indexes import Fts5Index, SqliteVecIndex
from curbside.types import Passage, SearchFilters

# doc_key, namespace, title, source_type, specialty, chunk bodies
CORPUS: list[tuple[str, str, str, str, str, list[str]]] = [
    ("htn-ckd", "kb", "Blood Pressure in Kidney Disease", "guideline", "nephrology", [
        "Hypertension in chronic kidney disease: aim for a systolic blood pressure below 120 mmHg when "
        "tolerated. ACE inhibitors or angiotensin receptor blockers are first-line when albuminuria is present.",
    ]),
    ("af-anticoag", "kb", "Atrial Fibrillation", "guideline", "cardiology", [
        "Atrial fibrillation: assess stroke risk with the CHA2DS2-VASc score. Direct oral anticoagulants such as "
        "apixaban are preferred over warfarin for most patients.",
    ]),
    ("cap", "kb", "Pneumonia", "textbook", "infectious_disease", [
        "Community-acquired pneumonia: outpatient adults without comorbidities receive amoxicillin or "
        "doxycycline; inpatients receive ceftriaxone plus azithromycin.",
    ]),
    ("dka", "kb", "Diabetic Emergencies", "textbook", "endocrinology", [
        "Diabetic ketoacidosis: give intravenous isotonic fluids, start an insulin infusion and replace "
        "potassium; continue until the anion gap closes.",
    ]),
    ("hf", "kb", "Heart Failure", "guideline", "cardiology", [
        "Heart failure with reduced ejection fraction: start sacubitril-valsartan, a beta blocker, a "
        "mineralocorticoid receptor antagonist and an SGLT2 inhibitor.",
        "Heart failure with congestion: loop diuretics such as furosemide relieve fluid overload; monitor "
        "potassium and creatinine during diuresis.",
    ]),
    ("copd", "kb", "COPD", "textbook", "pulmonology", [
        "COPD exacerbation: short-acting bronchodilators, a five-day course of oral prednisone, and antibiotics "
        "when sputum is purulent.",
    ]),
    # a verbatim duplicate under another title
    ("dup-a", "dup", "Hyperkalemia Handbook", "textbook", "nephrology", [
        "Hyperkalemia: give intravenous calcium gluconate, then insulin with glucose, and a potassium binder.",
    ]),
    ("dup-b", "dup", "Electrolytes Pocket Guide", "textbook", "nephrology", [
        "Hyperkalemia: give intravenous calcium gluconate, then insulin with glucose, and a potassium binder.",
    ]),
    # identical text, different specialty: only the specialty hint can separate them
    ("tie-neph", "tie", "Monitoring", "guideline", "nephrology", [
        "Potassium monitoring: check serum potassium and creatinine within one week of starting therapy.",
    ]),
    ("tie-card", "tie", "Monitoring", "guideline", "cardiology", [
        "Potassium monitoring: check serum potassium and creatinine within one week of starting therapy.",
    ]),
]

HTN_QUESTION = "What blood pressure target should I use for hypertension in a patient with kidney disease?"


@pytest.fixture(scope="module")
def embedder() -> OnnxMiniLMEmbedder:
    model = OnnxMiniLMEmbedder(threads=2)
    model.warm_up()
    return model


def build_corpus(path: Path, embedder: OnnxMiniLMEmbedder) -> tuple[SqliteVecIndex, Fts5Index, DocumentStore]:
    db = Database(path)
    vectors, lexical = SqliteVecIndex(db), Fts5Index(db)
    vectors.reset(embedder.dim)
    store = DocumentStore(db, vectors, lexical)
    for doc_key, namespace, title, source_type, specialty, bodies in CORPUS:
        texts = [f"{title} > Section {i}\n\n{body}" for i, body in enumerate(bodies)]
        chunks = [ChunkRow(i, (title, f"Section {i}"), t, len(t.split()), None, None) for i, t in enumerate(texts)]
        new = NewVersion(
            doc_key=doc_key, namespace=namespace, content_hash=hashlib.sha256(doc_key.encode()).hexdigest(),
            title=title, format="text", source_type=source_type, specialty=specialty,
            original_name=f"{doc_key}.txt", original_path=f"/tmp/{doc_key}.txt", size_bytes=1,
            page_count=None, warnings=(),
        )
        store.publish_version(new, chunks, embedder.embed_passages(texts))
    return vectors, lexical, store


@pytest.fixture(scope="module")
def corpus(
    tmp_path_factory: pytest.TempPathFactory, embedder: OnnxMiniLMEmbedder
) -> tuple[SqliteVecIndex, Fts5Index, DocumentStore]:
    return build_corpus(tmp_path_factory.mktemp("search") / "kb.sqlite3", embedder)


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    return Settings(home=tmp_path_factory.mktemp("home"))


@pytest.fixture(scope="module")
def engine(corpus: tuple[SqliteVecIndex, Fts5Index, DocumentStore], embedder: OnnxMiniLMEmbedder, settings: Settings) -> SearchEngine:
    vectors, lexical, store = corpus
    return SearchEngine(embedder=embedder, vectors=vectors, lexical=lexical, documents=store, settings=settings)


def keys(hits: Sequence[Passage]) -> list[str]:
    return [h.doc_key for h in hits]


def search_kb(engine: SearchEngine, query: str, **kwargs: object) -> list[Passage]:
    return engine.search(query, **kwargs).hits  # type: ignore[arg-type]


# --- ranking ------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["hybrid", "dense", "bm25"])
def test_hypertension_question_ranks_hypertension_passage_first(engine: SearchEngine, mode: str) -> None:
    response = engine.search(HTN_QUESTION, mode=mode)
    assert response.mode == mode
    assert keys(response.hits)[0] == "htn-ckd"
    assert all(h.score > 0 for h in response.hits)
    assert [h.score for h in response.hits] == sorted((h.score for h in response.hits), reverse=True)
    assert response.reranker == "none"
    assert response.took_ms > 0
    if mode == "bm25":
        assert all(h.similarity is None for h in response.hits)
    else:
        assert all(h.similarity is not None and h.similarity >= 0.2 for h in response.hits)


@pytest.mark.parametrize("mode", ["hybrid", "dense", "bm25"])
def test_abbreviation_only_query_found_through_expansion(engine: SearchEngine, mode: str) -> None:
    response = engine.search("HTN mgmt in CKD", mode=mode)
    assert response.expanded_query == "HTN (hypertension) mgmt (management) in CKD (chronic kidney disease)"
    assert keys(response.hits)[0] == "htn-ckd"
    assert "nephrology" in response.specialty_hint


def test_expansion_is_what_makes_the_dense_match(engine: SearchEngine, embedder: OnnxMiniLMEmbedder) -> None:
    hit = engine.search("HTN mgmt in CKD", mode="dense").hits[0]
    raw = float(embedder.embed_query("HTN mgmt in CKD") @ embedder.embed_passages([hit.text])[0])
    assert hit.similarity is not None and hit.similarity > raw + 0.2


def test_passages_carry_citation_fields(engine: SearchEngine) -> None:
    hit = engine.search(HTN_QUESTION).hits[0]
    assert hit.chunk_id == "htn-ckd:v1:0"
    assert hit.title == "Blood Pressure in Kidney Disease"
    assert hit.source_type == "guideline" and hit.specialty == "nephrology" and hit.namespace == "kb"


def test_hit_found_only_by_bm25_gets_a_similarity(
    engine: SearchEngine, corpus: tuple[SqliteVecIndex, Fts5Index, DocumentStore], embedder: OnnxMiniLMEmbedder
) -> None:
    query = "sugar emergency acid warfarin"
    dense_only = keys(search_kb(engine, query, mode="dense", candidates=1, min_similarity=None))
    bm25_only = keys(search_kb(engine, query, mode="bm25", candidates=1))
    assert dense_only != bm25_only  # the precondition: the retrievers disagree
    hits = {h.doc_key: h for h in search_kb(engine, query, candidates=1, min_similarity=None)}
    lexical_hit = hits[bm25_only[0]]
    vectors, _, store = corpus
    rowid = store.rowids_for_chunk_ids([lexical_hit.chunk_id])[lexical_hit.chunk_id]
    expected = vectors.similarities(embedder.embed_query(query), [rowid])[rowid]
    assert lexical_hit.similarity == pytest.approx(expected)
    # and the threshold applies to it like to any other hit
    above = search_kb(engine, query, candidates=1, min_similarity=expected + 0.001)
    assert lexical_hit.chunk_id not in [h.chunk_id for h in above]


def test_hybrid_hits_carry_calibrated_relevance_and_retriever_ranks(engine: SearchEngine) -> None:
    hits = engine.search(HTN_QUESTION, min_similarity=None).hits
    top, rest = hits[0], hits[1:]
    assert top.doc_key == "htn-ckd" and top.dense_rank == 1 and top.lexical_rank == 1
    assert top.relevance is not None and top.relevance >= 0.7
    # the off-topic tail is found, but the model does not call it relevant
    assert all(h.relevance is not None and h.relevance < top.relevance for h in rest)
    assert min(h.relevance for h in rest if h.relevance is not None) < 0.2
    # pure keyword search has no similarity to calibrate from, so it claims no probability
    assert all(h.relevance is None for h in engine.search(HTN_QUESTION, mode="bm25").hits)


# --- threshold ----------------------------------------------------------------------------------
def test_threshold_drops_unrelated_query(engine: SearchEngine) -> None:
    assert engine.search("recipe for banana bread", min_similarity=0.3).hits == []
    # it is the threshold that dropped them
    assert engine.search("recipe for banana bread", min_similarity=None).hits


def test_threshold_defaults_to_settings(engine: SearchEngine, settings: Settings) -> None:
    default = engine.search(HTN_QUESTION)
    explicit = engine.search(HTN_QUESTION, min_similarity=USE_SETTINGS)
    assert keys(default.hits) == keys(explicit.hits)
    threshold = settings.min_similarity
    if threshold is None:
        threshold = engine.embedder.relevance_threshold
    assert all(h.similarity is not None and h.similarity >= threshold for h in default.hits)
    assert len(engine.search(HTN_QUESTION, min_similarity=None).hits) > len(default.hits)


def test_threshold_comes_from_the_embedder_unless_set(engine: SearchEngine) -> None:
    calibrated = engine.embedder.relevance_threshold
    assert engine.search("recipe for banana bread").hits == []  # off-topic: below MiniLM's 0.40
    loose = engine.settings.model_copy(update={"min_similarity": -1.0})
    permissive = SearchEngine(
        embedder=engine.embedder, vectors=engine.vectors, lexical=engine.lexical,
        documents=engine.documents, settings=loose,
    )
    assert permissive.search("recipe for banana bread").hits
    assert calibrated == 0.40


def test_bm25_mode_embeds_nothing_and_applies_no_threshold(
    corpus: tuple[SqliteVecIndex, Fts5Index, DocumentStore], embedder: OnnxMiniLMEmbedder, settings: Settings
) -> None:
    class Counting:
        model_id, dim, calls = embedder.model_id, embedder.dim, 0
        relevance_threshold = embedder.relevance_threshold

        def embed_query(self, text: str) -> np.ndarray:
            Counting.calls += 1
            return embedder.embed_query(text)

    vectors, lexical, store = corpus
    engine = SearchEngine(
        embedder=Counting(), vectors=vectors, lexical=lexical, documents=store, settings=settings  # type: ignore[arg-type]
    )
    hits = engine.search("patients", mode="bm25", min_similarity=0.99).hits
    assert hits and Counting.calls == 0
    engine.search("patients", mode="hybrid")
    assert Counting.calls == 1


# --- filters ------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["hybrid", "dense", "bm25"])
def test_filters_restrict_both_retrievers(engine: SearchEngine, mode: str) -> None:
    def run(query: str, **filters: str) -> list[Passage]:
        return search_kb(engine, query, mode=mode, min_similarity=None, filters=SearchFilters(**filters))

    cardiology = run(HTN_QUESTION, specialty="cardiology")
    assert cardiology and all(h.specialty == "cardiology" for h in cardiology)
    textbooks = run("diabetic ketoacidosis insulin", source_type="textbook")
    assert textbooks and {h.source_type for h in textbooks} == {"textbook"}
    assert keys(textbooks)[0] == "dka"
    one_doc = run("heart failure potassium", doc_key="hf")
    assert one_doc and set(keys(one_doc)) == {"hf"}
    assert run(HTN_QUESTION, specialty="dermatology") == []


def test_namespace_filter(engine: SearchEngine) -> None:
    query = "hyperkalemia calcium gluconate potassium binder"
    assert not {"dup-a", "dup-b"} & set(keys(search_kb(engine, query, min_similarity=None)))
    assert set(keys(search_kb(engine, query, filters=SearchFilters(namespace="dup")))) <= {"dup-a", "dup-b"}
    assert search_kb(engine, query, filters=SearchFilters(namespace="dup"))


# --- post-processing ----------------------------------------------------------------------------
def test_dedup_removes_verbatim_duplicate_document(engine: SearchEngine) -> None:
    dup = SearchFilters(namespace="dup")
    both = search_kb(engine, "hyperkalemia treatment", filters=dup, dedup=False)
    assert sorted(keys(both)) == ["dup-a", "dup-b"]
    kept = search_kb(engine, "hyperkalemia treatment", filters=dup)
    assert [h.chunk_id for h in kept] == [both[0].chunk_id]  # the better-ranked copy


def test_max_per_document(engine: SearchEngine) -> None:
    hits = search_kb(engine, "heart failure treatment", min_similarity=None)
    assert keys(hits).count("hf") == 2
    capped = search_kb(engine, "heart failure treatment", min_similarity=None, max_per_document=1)
    assert keys(capped).count("hf") == 1
    assert document_ranking(hits) == keys(capped)


def test_k_limits_hits(engine: SearchEngine) -> None:
    assert len(search_kb(engine, HTN_QUESTION, k=1, min_similarity=None)) == 1
    assert len(search_kb(engine, HTN_QUESTION, k=3, min_similarity=None)) == 3


# --- specialty hint -----------------------------------------------------------------------------
def test_specialty_boost_reorders_tied_hits_but_never_filters(engine: SearchEngine, settings: Settings) -> None:
    tie = SearchFilters(namespace="tie")
    heart = engine.search("potassium monitoring in heart patients", filters=tie, dedup=False, min_similarity=None)
    assert heart.specialty_hint == ["cardiology"]
    assert keys(heart.hits) == ["tie-card", "tie-neph"]
    kidney = engine.search("potassium monitoring in kidney patients", filters=tie, dedup=False, min_similarity=None)
    assert keys(kidney.hits) == ["tie-neph", "tie-card"]
    bonus = settings.specialty_boost / (settings.rrf_k + 1)
    assert heart.hits[0].score - heart.hits[1].score == pytest.approx(bonus)
    # without the boost the heart query ties; the fusion's deterministic tie-break decides
    flat = SearchEngine(
        embedder=engine.embedder, vectors=engine.vectors, lexical=engine.lexical, documents=engine.documents,
        settings=settings.model_copy(update={"specialty_boost": 0.0}),
    )
    unboosted = flat.search("potassium monitoring in heart patients", filters=tie, dedup=False, min_similarity=None)
    assert unboosted.hits[0].score == pytest.approx(unboosted.hits[1].score)
    assert keys(unboosted.hits) == ["tie-neph", "tie-card"]


# --- queries that must not break anything -------------------------------------------------------
TORTURE = [
    '"unbalanced quote',
    '"hypertension" AND (kidney',
    "NEAR(heart failure, 5)",
    "-ckd +htn hyper* col:umn ^start {a b} [c]",
    "OR AND NOT",
    "😀🫀💊",
    "高血压 治疗 и гипертония",
    "'; DROP TABLE chunks; --",
    "\\ \x00 %_ @#$ ~ | & ! ? …",
]


@pytest.mark.parametrize("query", TORTURE)
@pytest.mark.parametrize("mode", ["hybrid", "dense", "bm25"])
def test_punctuation_torture_does_not_raise(engine: SearchEngine, query: str, mode: str) -> None:
    response = engine.search(query, mode=mode)
    assert response.mode == mode


def test_operators_are_plain_words(engine: SearchEngine) -> None:
    assert keys(search_kb(engine, '"hypertension" AND (kidney', mode="bm25"))[0] == "htn-ckd"


def test_stopword_only_query(engine: SearchEngine) -> None:
    assert search_kb(engine, "what is the", mode="dense", min_similarity=None)
    response = engine.search("what is the ?!", mode="bm25")
    assert response.hits == [] and response.warnings
    engine.search("what is the", mode="hybrid")


# --- bad input ----------------------------------------------------------------------------------
@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_empty_query(engine: SearchEngine, query: str) -> None:
    with pytest.raises(ValidationError, match="Enter a question or keywords"):
        engine.search(query)


def test_query_too_long(engine: SearchEngine, settings: Settings) -> None:
    limit = settings.max_query_chars
    engine.search("a" * limit, mode="bm25")
    with pytest.raises(ValidationError, match=str(limit)):
        engine.search("a" * (limit + 1))


def test_unknown_mode(engine: SearchEngine) -> None:
    with pytest.raises(ValidationError, match="hybrid, dense, bm25"):
        engine.search("hypertension", mode="semantic")


@pytest.mark.parametrize("k", [0, -1, 1001, True, 2.5])
def test_k_out_of_range(engine: SearchEngine, k: object) -> None:
    with pytest.raises(ValidationError, match="1 to 1000"):
        engine.search("hypertension", k=k)  # type: ignore[arg-type]


def test_other_bad_arguments(engine: SearchEngine) -> None:
    with pytest.raises(ValidationError):
        engine.search("hypertension", candidates=0)
    with pytest.raises(ValidationError):
        engine.search("hypertension", min_similarity=1.5)
    with pytest.raises(ValidationError):
        engine.search("hypertension", max_per_document=0)


# --- index states -------------------------------------------------------------------------------
def test_empty_index(tmp_path: Path, embedder: OnnxMiniLMEmbedder, settings: Settings) -> None:
    db = Database(tmp_path / "empty.sqlite3")
    vectors, lexical = SqliteVecIndex(db), Fts5Index(db)
    engine = SearchEngine(
        embedder=embedder, vectors=vectors, lexical=lexical, documents=DocumentStore(db, vectors, lexical),
        settings=settings,
    )
    response = engine.search(HTN_QUESTION)
    assert response.hits == [] and response.warnings


def test_embedder_dimension_mismatch(
    corpus: tuple[SqliteVecIndex, Fts5Index, DocumentStore], settings: Settings
) -> None:
    class Tiny:
        model_id, dim, relevance_threshold = "tiny", 8, 0.0

        def embed_query(self, text: str) -> np.ndarray:
            return np.full(8, 8**-0.5, dtype=np.float32)

    vectors, lexical, store = corpus
    engine = SearchEngine(
        embedder=Tiny(), vectors=vectors, lexical=lexical, documents=store, settings=settings  # type: ignore[arg-type]
    )
    with pytest.raises(ModelMismatchError, match="384"):
        engine.search("hypertension")
    assert engine.search("hypertension", mode="bm25").hits  # keyword search needs no vectors


# --- reranker -----------------------------------------------------------------------------------
class KeywordReranker:
    name = "keyword-test"

    def __init__(self, word: str) -> None:
        self.word = word

    def rerank(self, query: str, passages: Sequence[Passage]) -> list[float]:
        return [1.0 if self.word in p.text.lower() else 0.0 for p in passages]


def test_reranker_reorders_and_is_reported(engine: SearchEngine, settings: Settings) -> None:
    reranked = SearchEngine(
        embedder=engine.embedder, vectors=engine.vectors, lexical=engine.lexical, documents=engine.documents,
        settings=settings, reranker=KeywordReranker("furosemide"),
    )
    response = reranked.search(HTN_QUESTION, min_similarity=None)
    assert response.reranker == "keyword-test"
    assert response.hits[0].chunk_id == "hf:v1:1"
    assert response.hits[0].score == 1.0 and response.hits[1].score == 0.0
    assert response.hits[1].chunk_id == "htn-ckd:v1:0"  # ties keep the fused order


def test_make_reranker(tmp_path: Path, settings: Settings) -> None:
    assert make_reranker(settings) is None
    missing = tmp_path / "no-such-model"
    with pytest.raises(ConfigError, match="no-such-model"):
        make_reranker(settings.model_copy(update={"reranker_model_path": missing}))
    model_dir = tmp_path / "my-cross-encoder"
    model_dir.mkdir()
    reranker = make_reranker(settings.model_copy(update={"reranker_model_path": model_dir}))
    assert isinstance(reranker, CrossEncoderReranker)  # weights load lazily, on first rerank
    assert reranker.name == "cross-encoder:my-cross-encoder"


# --- neighbouring chunks ------------------------------------------------------------------------
def test_neighbours_are_the_adjacent_chunks_of_the_same_section(
    tmp_path: Path, embedder: OnnxMiniLMEmbedder, settings: Settings
) -> None:
    db = Database(tmp_path / "kb.sqlite3")
    vectors, lexical = SqliteVecIndex(db), Fts5Index(db)
    vectors.reset(embedder.dim)
    store = DocumentStore(db, vectors, lexical)
    sections = [("Crisis lines",), ("Crisis lines",), ("Crisis lines",), ("Referral",)]
    bodies = [
        "Crisis Line: 1-866-996-0991 (all ages) open 24/7",
        "9-8-8 Suicide Crisis Helpline: open 24/7",
        "Kids Help Phone: 1-800-668-6868",
        "Send the referral form with recent notes attached.",
    ]
    texts = [f"Guide > {s[0]}\n\n{b}" for s, b in zip(sections, bodies, strict=True)]
    chunks = [ChunkRow(i, ("Guide", *s), t, len(t.split()), None, None) for i, (s, t) in enumerate(zip(sections, texts, strict=True))]
    new = NewVersion(
        doc_key="guide", namespace="kb", content_hash="c" * 64, title="Guide", format="text", source_type="guideline",
        specialty=None, original_name="guide.txt", original_path="/tmp/guide.txt", size_bytes=1, page_count=None,
        warnings=(),
    )
    store.publish_version(new, chunks, embedder.embed_passages(texts))
    engine = SearchEngine(embedder=embedder, vectors=vectors, lexical=lexical, documents=store, settings=settings)
    by_ordinal = {int(p.chunk_id.rsplit(":", 1)[1]): p for p in store.passages(list(range(1, 100))).values()}

    assert [p.body for p in engine.neighbours(by_ordinal[1])] == [bodies[0], bodies[2]]
    assert [p.body for p in engine.neighbours(by_ordinal[0])] == [bodies[1]]
    # the next chunk opens another section: not a neighbour
    assert [p.body for p in engine.neighbours(by_ordinal[2])] == [bodies[1]]
    assert engine.neighbours(by_ordinal[3]) == []
