"""Result post-processing: near-duplicate removal and grouping by document.

Pure functions over best-first ``Passage`` lists; the input order is the ranking.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

import numpy as np

from curbside.types import Passage

__all__ = ["dedupe", "document_ranking", "group_by_document", "limit_per_document", "normalised_body"]

_NON_WORD = re.compile(r"[\W_]+")


def normalised_body(passage: Passage) -> str:
    """The chunk body (its leading title-path line removed), case-folded, punctuation and spacing collapsed.

    The title path names the document, so two copies of one text under different
    titles still compare equal.
    """
    text = passage.text
    head, sep, rest = text.partition("\n\n")
    title = passage.title.strip()
    if sep and title and head.strip().startswith(title):
        text = rest
    text = unicodedata.normalize("NFKC", text).casefold()
    return _NON_WORD.sub(" ", text).strip()


def dedupe(
    passages: Sequence[Passage],
    *,
    vectors: Mapping[str, np.ndarray] | None = None,
    threshold: float = 0.97,
) -> list[Passage]:
    """Drop near-duplicates, keeping the better-ranked (earlier) one.

    Two passages are duplicates when their normalised bodies are equal, or when
    both have a vector in ``vectors`` (keyed by ``chunk_id``) and their cosine
    similarity is >= ``threshold``.
    """
    kept: list[Passage] = []
    bodies: set[str] = set()
    kept_vectors: list[np.ndarray] = []
    for passage in passages:
        body = normalised_body(passage)
        if body in bodies:
            continue
        vector = vectors.get(passage.chunk_id) if vectors is not None else None
        if vector is not None:
            unit = np.asarray(vector, dtype=np.float32)
            unit = unit / max(float(np.linalg.norm(unit)), 1e-12)
            if kept_vectors and float(np.max(np.stack(kept_vectors) @ unit)) >= threshold:
                continue
            kept_vectors.append(unit)
        bodies.add(body)
        kept.append(passage)
    return kept


def limit_per_document(passages: Sequence[Passage], max_per_document: int) -> list[Passage]:
    """At most ``max_per_document`` passages per ``doc_key``, order kept."""
    if max_per_document < 1:
        raise ValueError(f"max_per_document must be >= 1, got {max_per_document}")
    counts: dict[str, int] = {}
    out: list[Passage] = []
    for passage in passages:
        n = counts.get(passage.doc_key, 0)
        if n < max_per_document:
            counts[passage.doc_key] = n + 1
            out.append(passage)
    return out


def group_by_document(passages: Sequence[Passage]) -> list[tuple[str, list[Passage]]]:
    """``(doc_key, its passages)`` pairs, documents ordered by their best-ranked passage."""
    groups: dict[str, list[Passage]] = {}
    for passage in passages:
        groups.setdefault(passage.doc_key, []).append(passage)
    return list(groups.items())


def document_ranking(passages: Sequence[Passage]) -> list[str]:
    """Distinct ``doc_key``s in the order of their first hit — a document-level ranking for evaluation."""
    return [doc_key for doc_key, _ in group_by_document(passages)]
