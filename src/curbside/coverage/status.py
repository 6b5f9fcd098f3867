"""What coverage data is loaded (``curbside coverage status``): each source's status, in one shape."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from curbside.app import Curbside

__all__ = ["coverage_status", "source_status"]


def coverage_status(app: Curbside) -> dict[str, Any]:
    """Each source's loaded edition, row counts and indexed passages (JSON-ready)."""
    # imported here: each source's status module imports this one for ``source_status``
    from curbside.coverage.adp.status import adp_status
    from curbside.coverage.odb.status import odb_status
    from curbside.coverage.ohip.status import ohip_status

    return {"sources": [odb_status(app), ohip_status(app), adp_status(app)]}


def source_status(
    app: Curbside, source: str, namespace: str, loaded: dict[str, Any] | None, hint: str
) -> dict[str, Any]:
    """One source's status: ``loaded`` (what its edition says; None: nothing loaded, say ``hint``) and passages."""
    docs = app.documents.list_current(namespace)
    out: dict[str, Any] = {"source": source, "namespace": namespace, "loaded": loaded is not None}
    if loaded is None:
        out["hint"] = hint
    else:
        out |= loaded
    out["passages"] = {"documents": len(docs), "chunks": sum(d.chunk_count for d in docs)}
    return out
