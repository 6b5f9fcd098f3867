"""One coverage source's status, in the shape every source shares (``curbside coverage status``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from curbside.coverage.reports import CoverageStore

__all__ = ["source_status"]


def source_status(
    store: CoverageStore, source: str, namespace: str, loaded: dict[str, Any] | None, hint: str
) -> dict[str, Any]:
    """One source's status: ``loaded`` (what its edition says; None: nothing loaded, say ``hint``) and passages."""
    docs = store.documents.list_current(namespace)
    out: dict[str, Any] = {"source": source, "namespace": namespace, "loaded": loaded is not None}
    if loaded is None:
        out["hint"] = hint
    else:
        out |= loaded
    out["passages"] = {"documents": len(docs), "chunks": sum(d.chunk_count for d in docs)}
    return out
