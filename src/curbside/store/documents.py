"""Documents, versions and chunks: the SQL behind versioned, idempotent ingest.

``publish_version`` is the one place a document's searchable content changes:
the new version's rows, its chunks in both indexes, and the old version's
retirement happen in one transaction, so search never sees a half-indexed
document.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np

from curbside.store.database import Database
from curbside.store.protocols import ChunkMeta, LexicalIndex, VectorIndex
from curbside.types import Passage

__all__ = ["ChunkRow", "DocumentStore", "NewVersion", "VersionRecord", "now_iso"]

SECTION_SEPARATOR = " > "


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class ChunkRow:
    """A chunk ready to store (text already starts with its title path)."""

    ordinal: int
    section_path: tuple[str, ...]
    text: str
    token_count: int
    page: int | None
    page_end: int | None


@dataclass(frozen=True, slots=True)
class NewVersion:
    doc_key: str
    namespace: str
    content_hash: str
    title: str
    format: str
    source_type: str | None
    specialty: str | None
    original_name: str
    original_path: str
    size_bytes: int
    page_count: int | None
    warnings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VersionRecord:
    version_id: int
    doc_key: str
    namespace: str
    version: int
    content_hash: str
    title: str
    format: str
    source_type: str | None
    specialty: str | None
    original_name: str
    original_path: str
    chunk_count: int
    status: str
    created_at: str
    warnings: tuple[str, ...]


_VERSION_COLUMNS = (
    "v.id, d.doc_key, d.namespace, v.version, v.content_hash, v.title, v.format, v.source_type, v.specialty, "
    "v.original_name, v.original_path, v.chunk_count, v.status, v.created_at, v.warnings"
)


def _version(row: tuple[Any, ...]) -> VersionRecord:
    *head, warnings = row
    return VersionRecord(*head, warnings=tuple(json.loads(warnings)))  # type: ignore[misc]  # head: the 14 columns before it


class DocumentStore:
    def __init__(self, db: Database, vectors: VectorIndex, lexical: LexicalIndex) -> None:
        self.db = db
        self.vectors = vectors
        self.lexical = lexical

    # --- reads -------------------------------------------------------------------------------
    def current(self, doc_key: str) -> VersionRecord | None:
        row = self.db.one(
            f"SELECT {_VERSION_COLUMNS} FROM documents d JOIN document_versions v ON v.id = d.current_version_id "
            "WHERE d.doc_key = ?",
            (doc_key,),
        )
        return _version(row) if row else None

    def list_current(self, namespace: str | None = None) -> list[VersionRecord]:
        sql = (
            f"SELECT {_VERSION_COLUMNS} FROM documents d JOIN document_versions v ON v.id = d.current_version_id"
        )
        params: list[object] = []
        if namespace is not None:
            sql += " WHERE d.namespace = ?"
            params.append(namespace)
        return [_version(r) for r in self.db.rows(sql + " ORDER BY d.doc_key", params)]

    def versions(self, doc_key: str) -> list[VersionRecord]:
        return [
            _version(r)
            for r in self.db.rows(
                f"SELECT {_VERSION_COLUMNS} FROM documents d JOIN document_versions v ON v.document_id = d.id "
                "WHERE d.doc_key = ? ORDER BY v.version",
                (doc_key,),
            )
        ]

    def chunk_rows(self, version_id: int) -> list[tuple[int, str]]:
        """(rowid, text) of a version's chunks, in order."""
        return [
            (int(r), t)
            for r, t in self.db.rows("SELECT id, text FROM chunks WHERE version_id = ? ORDER BY ordinal", (version_id,))
        ]

    def passages(self, rowids: Sequence[int]) -> dict[int, Passage]:
        """Chunk rows as passages (score 0; the caller sets scores)."""
        if not rowids:
            return {}
        marks = ",".join("?" * len(rowids))
        rows = self.db.rows(
            "SELECT c.id, c.chunk_id, d.doc_key, v.title, c.section_path, c.page, c.page_end, c.text, "
            "v.source_type, v.specialty, v.version, d.namespace "
            "FROM chunks c JOIN document_versions v ON v.id = c.version_id JOIN documents d ON d.id = v.document_id "
            f"WHERE c.id IN ({marks})",
            list(rowids),
        )
        out: dict[int, Passage] = {}
        for rowid, chunk_id, doc_key, title, path, page, page_end, text, stype, spec, version, ns in rows:
            out[int(rowid)] = Passage(
                chunk_id=chunk_id,
                doc_key=doc_key,
                title=title,
                section_path=path,
                page=page,
                page_end=page_end,
                score=0.0,
                text=text,
                source_type=stype,
                specialty=spec,
                version=version,
                namespace=ns,
            )
        return out

    def section_paths(self, doc_key: str, version: int) -> list[str]:
        """The distinct section paths of one document version's chunks, in document order."""
        rows = self.db.rows(
            "SELECT c.section_path FROM chunks c JOIN document_versions v ON v.id = c.version_id "
            "JOIN documents d ON d.id = v.document_id WHERE d.doc_key = ? AND v.version = ? ORDER BY c.ordinal",
            (doc_key, version),
        )
        return list(dict.fromkeys(path for (path,) in rows))

    def rowids_for_chunk_ids(self, chunk_ids: Sequence[str]) -> dict[str, int]:
        if not chunk_ids:
            return {}
        marks = ",".join("?" * len(chunk_ids))
        rows = self.db.rows(f"SELECT chunk_id, id FROM chunks WHERE chunk_id IN ({marks})", list(chunk_ids))
        return {cid: int(rid) for cid, rid in rows}

    def stats(self) -> dict[str, int]:
        return {
            "documents": int(self.db.scalar("SELECT COUNT(*) FROM documents WHERE current_version_id IS NOT NULL")),
            "chunks": int(self.db.scalar("SELECT COUNT(*) FROM chunks WHERE superseded = 0")),
            "vectors": self.vectors.count(),
            "lexical": self.lexical.count(),
        }

    # --- writes ------------------------------------------------------------------------------
    def publish_version(self, new: NewVersion, chunks: Sequence[ChunkRow], vectors: np.ndarray) -> VersionRecord:
        """Store a new version and make it the searchable one, retiring the old, atomically. ``vectors`` with no
        columns: the version is indexed for keyword search only."""
        if len(chunks) != len(vectors):
            raise ValueError(f"{len(chunks)} chunks but {len(vectors)} vectors")
        stamp = now_iso()
        with self.db.transaction():
            document_id = self._document_id(new.doc_key, new.namespace, stamp)
            previous = self.db.one(
                "SELECT current_version_id, (SELECT COALESCE(MAX(version), 0) FROM document_versions "
                "WHERE document_id = ?) FROM documents WHERE id = ?",
                (document_id, document_id),
            )
            assert previous is not None
            old_version_id, last_version = previous
            version = int(last_version) + 1
            self.db.execute(
                "INSERT INTO document_versions(document_id, version, content_hash, title, format, source_type, "
                "specialty, original_name, original_path, size_bytes, page_count, chunk_count, warnings, status, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'current', ?)",
                (
                    document_id, version, new.content_hash, new.title, new.format, new.source_type,
                    new.specialty, new.original_name, new.original_path, new.size_bytes, new.page_count,
                    len(chunks), json.dumps(list(new.warnings)), stamp,
                ),
            )
            version_id = self.db.last_rowid()
            rowids = self._insert_chunks(new.doc_key, version, version_id, chunks)
            meta = ChunkMeta(new.namespace, new.doc_key, new.source_type, new.specialty)
            if vectors.shape[-1]:
                self.vectors.add(rowids, vectors, [meta] * len(rowids))
            self.lexical.add(rowids, [c.text for c in chunks], [meta] * len(rowids))
            if old_version_id is not None:
                self._retire(int(old_version_id), "superseded", stamp)
            self.db.execute(
                "UPDATE documents SET current_version_id = ?, updated_at = ? WHERE id = ?",
                (version_id, stamp, document_id),
            )
        record = self.current(new.doc_key)
        assert record is not None
        return record

    def remove(self, doc_key: str) -> VersionRecord | None:
        """Take a document out of search; its rows stay for audit. None if it was not current."""
        record = self.current(doc_key)
        if record is None:
            return None
        with self.db.transaction():
            self._retire(record.version_id, "removed", now_iso())
            self.db.execute(
                "UPDATE documents SET current_version_id = NULL, updated_at = ? WHERE doc_key = ?",
                (now_iso(), doc_key),
            )
        return record

    def replace_vectors(self, version_id: int, vectors: np.ndarray) -> None:
        """Re-embed a version in place (reindex): same chunks, new vectors."""
        rows = self.chunk_rows(version_id)
        if len(rows) != len(vectors):
            raise ValueError(f"{len(rows)} chunks but {len(vectors)} vectors")
        record = self.db.one(
            "SELECT d.namespace, d.doc_key, v.source_type, v.specialty FROM document_versions v "
            "JOIN documents d ON d.id = v.document_id WHERE v.id = ?",
            (version_id,),
        )
        assert record is not None
        meta = ChunkMeta(*record)
        rowids = [r for r, _ in rows]
        with self.db.transaction():
            self.vectors.delete(rowids)
            self.vectors.add(rowids, vectors, [meta] * len(rowids))

    def _document_id(self, doc_key: str, namespace: str, stamp: str) -> int:
        row = self.db.one("SELECT id FROM documents WHERE doc_key = ?", (doc_key,))
        if row is not None:
            return int(row[0])
        self.db.execute(
            "INSERT INTO documents(doc_key, namespace, created_at, updated_at) VALUES (?, ?, ?, ?)",
            (doc_key, namespace, stamp, stamp),
        )
        return self.db.last_rowid()

    def _insert_chunks(self, doc_key: str, version: int, version_id: int, chunks: Sequence[ChunkRow]) -> list[int]:
        rowids: list[int] = []
        for chunk in chunks:
            self.db.execute(
                "INSERT INTO chunks(chunk_id, version_id, ordinal, section_path, page, page_end, token_count, text) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    f"{doc_key}:v{version}:{chunk.ordinal}", version_id, chunk.ordinal,
                    SECTION_SEPARATOR.join(chunk.section_path), chunk.page, chunk.page_end,
                    chunk.token_count, chunk.text,
                ),
            )
            rowids.append(self.db.last_rowid())
        return rowids

    def _retire(self, version_id: int, status: str, stamp: str) -> None:
        rowids = [r for r, _ in self.chunk_rows(version_id)]
        self.vectors.delete(rowids)
        self.lexical.delete(rowids)
        self.db.execute("UPDATE chunks SET superseded = 1 WHERE version_id = ?", (version_id,))
        self.db.execute(
            "UPDATE document_versions SET status = ?, superseded_at = ? WHERE id = ?", (status, stamp, version_id)
        )
