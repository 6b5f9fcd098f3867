"""What coverage data is loaded (``curbside coverage status``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curbside.coverage.odb.passages import NAMESPACE as ODB_NAMESPACE
from curbside.coverage.odb.store import current_edition

if TYPE_CHECKING:
    from curbside.app import Curbside

__all__ = ["coverage_status"]


def coverage_status(app: Curbside) -> dict[str, Any]:
    """Each source's loaded edition, row counts and indexed passages (JSON-ready)."""
    edition = current_edition(app.db)
    docs = app.documents.list_current(ODB_NAMESPACE)
    odb: dict[str, Any] = {"source": "odb", "namespace": ODB_NAMESPACE, "loaded": edition is not None}
    if edition is None:
        odb["hint"] = "run `curbside coverage load DIR` with the ministry's odb*formulary*.xml in DIR"
    else:
        odb |= {
            "edition": edition.label,
            "edition_code": edition.edition_code,
            "formulary_date": edition.formulary_date,
            "file": edition.source_name,
            "sha256": edition.source_sha256,
            "loaded_at": edition.loaded_at,
            "counts": edition.counts,
        }
    odb["passages"] = {"documents": len(docs), "chunks": sum(d.chunk_count for d in docs)}
    return {"sources": [odb]}
