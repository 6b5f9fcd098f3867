"""What ODB formulary edition is loaded (``curbside coverage status``), in the shape of the other sources."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curbside.coverage.odb.passages import NAMESPACE
from curbside.coverage.odb.store import current_edition
from curbside.coverage.source_status import source_status

if TYPE_CHECKING:
    from curbside.coverage.reports import CoverageStore

__all__ = ["odb_status"]


def odb_status(store: CoverageStore) -> dict[str, Any]:
    """The loaded edition, its row counts and its indexed passages (JSON-ready)."""
    edition = current_edition(store.db)
    loaded = None
    if edition is not None:
        loaded = {
            "edition": edition.label,
            "edition_code": edition.edition_code,
            "formulary_date": edition.formulary_date,
            "file": edition.source_name,
            "sha256": edition.source_sha256,
            "loaded_at": edition.loaded_at,
            "counts": edition.counts,
        }
    hint = "run `curbside coverage load DIR` with the ministry's odb*formulary*.xml in DIR"
    return source_status(store, "odb", NAMESPACE, loaded, hint)
