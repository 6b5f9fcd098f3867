"""Hybrid search: query enhancement, dense + BM25 retrieval, RRF fusion, threshold, dedup, rerank.

Pipeline of ``SearchEngine.search``:

1. validate the request (``ValidationError`` with the fix in the message);
2. ``enhance_query``: the dense side embeds the abbreviation-expanded text, BM25
   gets quoted keyword terms, and a specialty hint is inferred;
3. dense top-``candidates`` and BM25 top-``candidates``, both with the caller's
   metadata filters pushed down;
4. reciprocal rank fusion of the ranks (``Passage.score``), plus
   ``specialty_boost / (rrf_k + 1)`` for hits whose stored specialty matches the
   hint — it reorders, it never filters;
5. relevance threshold on the dense cosine similarity (``Passage.similarity``;
   hits only BM25 found get theirs from ``VectorIndex.similarities``);
6. near-duplicate removal, optional reranking, at most N hits per document, top k.

Mode ``"bm25"`` embeds nothing, so its hits have ``similarity=None`` and no
similarity threshold applies; a hybrid search where no hit has a vector (a
namespace indexed for keywords only) ranks by keywords the same way. Mode ``"dense"`` works for queries with no
keywords at all (only stopwords or punctuation), where BM25 returns nothing.
"""

from __future__ import annotations

import enum
import re
import time
from collections.abc import Sequence
from typing import Final, Literal

import numpy as np

from curbside.errors import ModelMismatchError, ValidationError
from curbside.search.embedders.base import Embedder
from curbside.search.enhance import enhance_query
from curbside.search.fusion import reciprocal_rank_fusion
from curbside.search.normalize import normalize_query
from curbside.search.postprocess import dedupe, limit_per_document
from curbside.search.relevance import Evidence, keyword_coverage, relevance_model
from curbside.search.reranker import Reranker
from curbside.settings import Settings
from curbside.store.documents import DocumentStore
from curbside.store.protocols import LexicalIndex, VectorIndex
from curbside.store.unit_vectors import UnitVectorStore
from curbside.types import Passage, SearchFilters, SearchResponse

__all__ = ["MAX_K", "MODES", "USE_SETTINGS", "SearchEngine"]

MODES: Final = ("hybrid", "dense", "bm25")
MAX_K: Final = 1000
MAX_CANDIDATES: Final = 5000
# the reranker re-scores this many of the best fused hits (at least 3k)
RERANK_POOL: Final = 30


class _Default(enum.Enum):
    USE_SETTINGS = "use-settings"


#: Default of ``search(min_similarity=...)``: take ``Settings.min_similarity``, or when that is
#: unset the embedder's calibrated ``relevance_threshold``.
#: Pass a float to override it, or ``None`` to turn the threshold off.
USE_SETTINGS: Final = _Default.USE_SETTINGS


def _norm_specialty(value: str) -> str:
    return re.sub(r"[\s\-/]+", "_", value.strip().casefold())


class SearchEngine:
    def __init__(
        self,
        *,
        embedder: Embedder,
        vectors: VectorIndex,
        lexical: LexicalIndex,
        documents: DocumentStore,
        settings: Settings,
        reranker: Reranker | None = None,
    ) -> None:
        self.embedder = embedder
        self.vectors = vectors
        self.lexical = lexical
        self.documents = documents
        self.settings = settings
        self.reranker = reranker

    def warm_up(self) -> None:
        """Load the query encoder now, so the first search meets its timeout."""
        self.embedder.warm_up()

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        mode: str = "hybrid",
        filters: SearchFilters | None = None,
        min_similarity: float | None | Literal[_Default.USE_SETTINGS] = USE_SETTINGS,
        dedup: bool = True,
        max_per_document: int | None = None,
        candidates: int | None = None,
    ) -> SearchResponse:
        """Search the knowledge base; see the module docstring for the pipeline.

        ``k``: hits to return (default ``search_top_k``); ``candidates``: depth of
        each retriever before fusion (default ``max(search_candidates, k)``);
        ``min_similarity``: ``USE_SETTINGS`` (default), a float, or ``None`` for no
        threshold; ``max_per_document``: cap on hits sharing a ``doc_key``.
        """
        started = time.perf_counter()
        s = self.settings
        text = self._check_query(query)
        mode = self._check_mode(mode)
        k = _check_int("k", s.search_top_k if k is None else k, MAX_K)
        depth = max(s.search_candidates, k) if candidates is None else candidates
        depth = _check_int("candidates", depth, MAX_CANDIDATES)
        if max_per_document is not None:
            max_per_document = _check_int("max_per_document", max_per_document, MAX_K)
        if min_similarity is USE_SETTINGS:
            threshold = self.default_threshold(mode)
        else:
            threshold = min_similarity
        if threshold is not None and not (isinstance(threshold, int | float) and -1.0 <= threshold <= 1.0):
            raise ValidationError(f"min_similarity must be a number from -1 to 1, or None; got {threshold!r}.")
        if filters is None:
            filters = SearchFilters()
        elif not isinstance(filters, SearchFilters):
            raise ValidationError("filters must be a SearchFilters.")

        enhanced = enhance_query(text)
        warnings: list[str] = []

        # --- retrieve ------------------------------------------------------------------
        query_vector: np.ndarray | None = None
        dense: list[tuple[int, float]] = []
        if mode != "bm25":
            query_vector = self.embedder.embed_query(enhanced.expanded)
            dim = self.vectors.dim
            if dim is None:
                warnings.append("The vector index is empty; nothing has been indexed yet.")
            elif query_vector.shape[-1] != dim:
                raise ModelMismatchError(
                    f"The index holds {dim}-dimensional vectors but the embedder {self.embedder.model_id} makes "
                    f"{query_vector.shape[-1]}-dimensional ones; reindex or switch CURBSIDE_EMBEDDER back."
                )
            else:
                dense = self.vectors.search(query_vector, depth, filters)
        lexical: list[tuple[int, float]] = []
        if mode != "dense":
            if enhanced.terms:
                lexical = self.lexical.search(enhanced.terms, depth, filters)
            else:
                warnings.append(
                    "The query has no keywords (only stopwords or punctuation); keyword search was skipped."
                )

        # a namespace indexed for keywords only (the coverage sources' by default) has no vector to rank or to
        # judge relevance by: its keyword hits stand, rather than all falling below the similarity threshold
        keywords_only = mode == "hybrid" and not dense and bool(lexical)
        if keywords_only:
            warnings.append("No passage found here has a vector (indexed for keywords only): ranked by keywords.")

        # --- fuse, threshold -----------------------------------------------------------
        rankings = {"hybrid": [dense, lexical], "dense": [dense], "bm25": [lexical]}[mode]
        fused = reciprocal_rank_fusion([[rowid for rowid, _ in r] for r in rankings], k=s.rrf_k)
        similarity: dict[int, float] = dict(dense)
        if query_vector is not None:
            missing = [rowid for rowid, _ in fused if rowid not in similarity]
            if missing:
                similarity.update(self.vectors.similarities(query_vector, missing))
            if threshold is not None and not keywords_only:
                # a hit without a stored vector cannot show it is relevant enough
                fused = [(r, sc) for r, sc in fused if similarity.get(r, -np.inf) >= threshold]

        # --- specialty hint: a bonus worth specialty_boost of a first place ----------------
        passages = self.documents.passages([rowid for rowid, _ in fused])
        hint = {_norm_specialty(name) for name in enhanced.specialties}
        bonus = s.specialty_boost / (s.rrf_k + 1)
        scored: list[tuple[float, int, int, Passage]] = []
        for position, (rowid, score) in enumerate(fused):
            passage = passages.get(rowid)
            if passage is None:  # indexed but no longer a chunk row; never cite it
                continue
            if hint and passage.specialty and _norm_specialty(passage.specialty) in hint:
                score += bonus
            scored.append((score, position, rowid, passage))
        scored.sort(key=lambda item: (-round(item[0], 12), item[1]))  # ties keep the fusion order
        dense_rank = {rowid: n for n, (rowid, _) in enumerate(dense, start=1)}
        lexical_rank = {rowid: n for n, (rowid, _) in enumerate(lexical, start=1)}
        calibration = relevance_model(self.embedder.model_id) if mode == "hybrid" and not keywords_only else None
        hits = []
        for score, _, rowid, p in scored:
            evidence = Evidence(
                similarity.get(rowid), dense_rank.get(rowid), lexical_rank.get(rowid),
                keyword_coverage(enhanced.terms, p.text),
            )
            relevance = round(calibration.probability(evidence), 4) if calibration is not None else None
            hits.append(
                p.model_copy(
                    update={
                        "score": score, "similarity": similarity.get(rowid), "relevance": relevance,
                        "dense_rank": evidence.dense_rank, "lexical_rank": evidence.lexical_rank,
                    }
                )
            )

        # --- post-process ----------------------------------------------------------------
        if dedup and len(hits) > 1:
            hits = dedupe(hits, vectors=self._stored_vectors(scored), threshold=s.dedup_similarity)
        if self.reranker is not None and hits:
            hits = self._rerank(enhanced.expanded, hits[: max(3 * k, RERANK_POOL)])
        if max_per_document is not None:
            hits = limit_per_document(hits, max_per_document)
        hits = hits[:k]

        return SearchResponse(
            query=text,
            expanded_query=enhanced.expanded,
            mode=mode,
            hits=hits,
            specialty_hint=enhanced.specialties,
            reranker=self.reranker.name if self.reranker is not None else "none",
            warnings=warnings,
            took_ms=(time.perf_counter() - started) * 1000.0,
        )

    def outline(self, doc_key: str, version: int) -> list[str]:
        """The section paths of a document version, in order: what its sections are about."""
        return self.documents.section_paths(doc_key, version)

    def neighbours(self, passage: Passage, span: int = 1) -> list[Passage]:
        """The chunks up to ``span`` before and after ``passage`` in its document version that sit in the same
        section, in document order (score 0): a section split into chunks keeps its opening lines in one and the
        rest in the next, and a search may find either."""
        doc, _, ordinal = passage.chunk_id.rpartition(":")
        if not ordinal.isdigit():
            return []
        near = [int(ordinal) + d for d in range(-span, span + 1) if d and int(ordinal) + d >= 0]
        rowids = self.documents.rowids_for_chunk_ids([f"{doc}:{n}" for n in near])
        found = self.documents.passages(list(rowids.values()))
        by_id = {p.chunk_id: p for p in found.values()}
        return [
            p for n in near if (p := by_id.get(f"{doc}:{n}")) is not None and p.section_path == passage.section_path
        ]

    def unit_similarities(self, question: str, texts: list[str]) -> list[float | None]:
        """The cosine of each answer unit's stored embedding (written at ingest) to the question's, None for a unit
        without one; the question is embedded only when some unit has a vector."""
        found = UnitVectorStore(self.documents.db).vectors(self.embedder.model_id, texts)
        if not found:
            return [None] * len(texts)
        query = np.asarray(self.embedder.embed_query(question), dtype=np.float32)
        return [float(found[t] @ query) if t in found else None for t in texts]

    def word_frequencies(self, words: Sequence[str], *, prefix: bool = False) -> tuple[dict[str, int], int]:
        """How many chunks hold each word (with ``prefix``, a word beginning with it), and how many chunks
        there are (for rarity weights)."""
        return self.lexical.document_frequency(words, prefix=prefix), self.lexical.count()

    def default_threshold(self, mode: str = "hybrid") -> float | None:
        """``Settings.min_similarity``, else the embedder's calibrated threshold; bm25 applies none."""
        if self.settings.min_similarity is not None:
            return self.settings.min_similarity
        if mode == "bm25":  # nothing is embedded: don't ask the embedder
            return None
        return self.embedder.relevance_threshold

    # --- helpers -----------------------------------------------------------------------------
    def _check_query(self, query: object) -> str:
        if not isinstance(query, str):
            raise ValidationError("Enter a question or keywords.")
        text = normalize_query(query)
        if not text:
            raise ValidationError("Enter a question or keywords.")
        limit = self.settings.max_query_chars
        if len(text) > limit:
            raise ValidationError(
                f"The query is {len(text)} characters long; the limit is {limit} characters "
                "(CURBSIDE_MAX_QUERY_CHARS). Shorten the question."
            )
        return text

    @staticmethod
    def _check_mode(mode: object) -> str:
        value = mode.strip().lower() if isinstance(mode, str) else mode
        if value not in MODES:
            raise ValidationError(f"Unknown search mode {mode!r}; valid modes: {', '.join(MODES)}.")
        return str(value)

    def _stored_vectors(self, scored: list[tuple[float, int, int, Passage]]) -> dict[str, np.ndarray]:
        """Stored vectors by chunk_id."""
        by_rowid = {rowid: p.chunk_id for _, _, rowid, p in scored}
        return {by_rowid[rowid]: vec for rowid, vec in self.vectors.vectors(list(by_rowid)).items()}

    def _rerank(self, query: str, hits: list[Passage]) -> list[Passage]:
        """Order by the reranker's score (it becomes ``Passage.score``); ties keep the fused order."""
        assert self.reranker is not None
        scores = self.reranker.rerank(query, hits)
        if len(scores) != len(hits):
            raise RuntimeError(f"reranker {self.reranker.name} returned {len(scores)} scores for {len(hits)} passages")
        order = sorted(range(len(hits)), key=lambda i: -scores[i])
        return [hits[i].model_copy(update={"score": float(scores[i])}) for i in order]


def _check_int(name: str, value: object, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise ValidationError(f"{name} must be a whole number from 1 to {maximum}; got {value!r}.")
    return value
