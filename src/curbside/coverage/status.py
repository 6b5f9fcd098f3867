"""What coverage data is loaded (``curbside coverage status``): each source's status, in one shape."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from curbside.coverage.reports import CoverageStore

__all__ = ["coverage_status"]


def coverage_status(store: CoverageStore) -> dict[str, Any]:
    """Each source's loaded edition, row counts and indexed passages (JSON-ready)."""
    from curbside.coverage.sources import SOURCES

    return {"sources": [source.status(store) for source in SOURCES]}
