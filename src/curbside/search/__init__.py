"""Search: query enhancement, hybrid dense + BM25 retrieval with RRF, post-processing, reranking.

Importing this package loads no model runtime (torch, onnxruntime): embedders and
the cross-encoder import theirs on first use.
"""

from __future__ import annotations

from curbside.search.engine import MODES, USE_SETTINGS, SearchEngine
from curbside.search.enhance import ABBREVIATIONS, SPECIALTY_KEYWORDS, STOPWORDS, EnhancedQuery, enhance_query
from curbside.search.fusion import reciprocal_rank_fusion
from curbside.search.postprocess import dedupe, document_ranking, group_by_document, limit_per_document
from curbside.search.reranker import CrossEncoderReranker, Reranker, make_reranker

__all__ = [
    "ABBREVIATIONS",
    "MODES",
    "SPECIALTY_KEYWORDS",
    "STOPWORDS",
    "USE_SETTINGS",
    "CrossEncoderReranker",
    "EnhancedQuery",
    "Reranker",
    "SearchEngine",
    "dedupe",
    "document_ranking",
    "enhance_query",
    "group_by_document",
    "limit_per_document",
    "make_reranker",
    "reciprocal_rank_fusion",
]
