"""SQLite implementations of the index protocols: sqlite-vec (vec0) for dense
vectors and FTS5 (porter stemming) for BM25."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from curbside.store.database import Database
from curbside.store.protocols import ChunkMeta
from curbside.types import SearchFilters

__all__ = ["Fts5Index", "SqliteVecIndex"]

_VEC_TABLE = "chunk_vectors"
# vec0 metadata columns refuse NULL; store '' for "unset"
_UNSET = ""


def _filter_sql(filters: SearchFilters, prefix: str = "") -> tuple[str, list[object]]:
    clauses = [f"{prefix}namespace = ?"]
    params: list[object] = [filters.namespace]
    for column in ("source_type", "specialty", "doc_key"):
        value = getattr(filters, column)
        if value is not None:
            clauses.append(f"{prefix}{column} = ?")
            params.append(value)
    return " AND ".join(clauses), params


class SqliteVecIndex:
    """Brute-force cosine KNN in a vec0 virtual table, filterable by metadata columns."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @property
    def dim(self) -> int | None:
        value = self.db.get_meta("vector_dim")
        return int(value) if value is not None else None

    def reset(self, dim: int) -> None:
        with self.db.transaction():
            self.db.execute(f"DROP TABLE IF EXISTS {_VEC_TABLE}")
            self.db.execute(
                f"CREATE VIRTUAL TABLE {_VEC_TABLE} USING vec0("
                f"chunk_rowid INTEGER PRIMARY KEY, embedding float[{int(dim)}] distance_metric=cosine, "
                "namespace TEXT PARTITION KEY, doc_key TEXT, source_type TEXT, specialty TEXT)"
            )
            self.db.set_meta("vector_dim", str(int(dim)))

    def _require(self) -> int:
        dim = self.dim
        if dim is None:
            raise RuntimeError("vector index used before reset(dim)")
        return dim

    def add(self, rowids: Sequence[int], vectors: np.ndarray, metas: Sequence[ChunkMeta]) -> None:
        dim = self._require()
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[1] != dim or len(vectors) != len(rowids) != len(metas):
            raise ValueError(f"expected {len(rowids)} vectors of dimension {dim}, got shape {vectors.shape}")
        self.db.executemany(
            f"INSERT INTO {_VEC_TABLE}(chunk_rowid, embedding, namespace, doc_key, source_type, specialty) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                (rowid, vec.tobytes(), m.namespace, m.doc_key, m.source_type or _UNSET, m.specialty or _UNSET)
                for rowid, vec, m in zip(rowids, vectors, metas, strict=True)
            ),
        )

    def delete(self, rowids: Sequence[int]) -> None:
        if self.dim is None:
            return
        self.db.executemany(f"DELETE FROM {_VEC_TABLE} WHERE chunk_rowid = ?", ((r,) for r in rowids))

    def search(self, query: np.ndarray, k: int, filters: SearchFilters) -> list[tuple[int, float]]:
        if self.dim is None or k <= 0:
            return []
        where, params = _filter_sql(filters)
        rows = self.db.rows(
            f"SELECT chunk_rowid, distance FROM {_VEC_TABLE} "
            f"WHERE embedding MATCH ? AND k = ? AND {where} ORDER BY distance",
            [np.asarray(query, dtype=np.float32).tobytes(), int(k), *params],
        )
        return [(int(rowid), 1.0 - float(distance)) for rowid, distance in rows]

    def similarities(self, query: np.ndarray, rowids: Sequence[int]) -> dict[int, float]:
        stored = self.vectors(rowids)
        if not stored:
            return {}
        query = np.asarray(query, dtype=np.float32)
        return {rowid: float(vec @ query) for rowid, vec in stored.items()}  # both L2-normalised

    def vectors(self, rowids: Sequence[int]) -> dict[int, np.ndarray]:
        """Stored vectors by row id. One point lookup each: vec0 answers ``rowid = ?`` from its
        index but scans the whole table for ``IN (…)``."""
        if self.dim is None or not rowids:
            return {}
        out: dict[int, np.ndarray] = {}
        sql = f"SELECT embedding FROM {_VEC_TABLE} WHERE chunk_rowid = ?"
        for rowid in dict.fromkeys(rowids):
            row = self.db.one(sql, (rowid,))
            if row is not None:
                out[int(rowid)] = np.frombuffer(row[0], dtype=np.float32)
        return out

    def count(self) -> int:
        if self.dim is None:
            return 0
        return int(self.db.scalar(f"SELECT COUNT(*) FROM {_VEC_TABLE}"))


class Fts5Index:
    """BM25 over an FTS5 table with the porter stemmer; filters join a side table."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def add(self, rowids: Sequence[int], texts: Sequence[str], metas: Sequence[ChunkMeta]) -> None:
        self.db.executemany(
            "INSERT INTO chunks_fts(rowid, text) VALUES (?, ?)", zip(rowids, texts, strict=True)
        )
        self.db.executemany(
            "INSERT INTO chunks_fts_meta(rowid, namespace, doc_key, source_type, specialty) VALUES (?, ?, ?, ?, ?)",
            ((r, m.namespace, m.doc_key, m.source_type, m.specialty) for r, m in zip(rowids, metas, strict=True)),
        )

    def delete(self, rowids: Sequence[int]) -> None:
        self.db.executemany("DELETE FROM chunks_fts WHERE rowid = ?", ((r,) for r in rowids))
        self.db.executemany("DELETE FROM chunks_fts_meta WHERE rowid = ?", ((r,) for r in rowids))

    def search(self, terms: Sequence[str], k: int, filters: SearchFilters) -> list[tuple[int, float]]:
        match = fts_match_expression(terms)
        if not match or k <= 0:
            return []
        where, params = _filter_sql(filters, prefix="m.")
        rows = self.db.rows(
            "SELECT f.rowid, bm25(chunks_fts) AS rank FROM chunks_fts f "
            "JOIN chunks_fts_meta m ON m.rowid = f.rowid "
            f"WHERE chunks_fts MATCH ? AND {where} ORDER BY rank LIMIT ?",
            [match, *params, int(k)],
        )
        # FTS5's bm25() is negative, lower is better; flip it so higher is better
        return [(int(rowid), -float(rank)) for rowid, rank in rows]

    def count(self) -> int:
        return int(self.db.scalar("SELECT COUNT(*) FROM chunks_fts_meta"))

    def document_frequency(self, terms: Sequence[str], *, prefix: bool = False) -> dict[str, int]:
        """How many indexed chunks hold each term (after the index's own stemming); with ``prefix``, a word
        beginning with it ("atheroscler" finds "atherosclerotic")."""
        out: dict[str, int] = {}
        for term in dict.fromkeys(terms):
            match = fts_match_expression([term])
            if match and prefix:
                match += " *"  # FTS5: "a phrase" * matches tokens starting with its last word
            out[term] = int(self.db.scalar("SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (match,))) if match else 0
        return out


def fts_match_expression(terms: Sequence[str]) -> str:
    """Quote every term and OR them, so no punctuation or keyword (AND, NEAR, -) can break the query."""
    quoted = []
    seen: set[str] = set()
    for term in terms:
        clean = term.replace('"', " ").strip()
        if clean and clean.lower() not in seen:
            seen.add(clean.lower())
            quoted.append(f'"{clean}"')
    return " OR ".join(quoted)
