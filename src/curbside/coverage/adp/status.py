"""What ADP manuals are loaded (``curbside coverage status``), in the shape of the other sources."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curbside.coverage.adp.passages import NAMESPACE
from curbside.coverage.adp.store import current_editions, edition_label
from curbside.coverage.source_status import source_status

if TYPE_CHECKING:
    from curbside.coverage.reports import CoverageStore

__all__ = ["adp_status"]


def adp_status(store: CoverageStore) -> dict[str, Any]:
    """The loaded manuals, their rule counts and their indexed passages (JSON-ready)."""
    editions = current_editions(store.db)
    loaded = None
    if editions:
        core = editions[0]
        loaded = {
            "edition": edition_label(editions),
            "file": "; ".join(e.source_name for e in editions),
            "sha256": core.source_sha256,
            "loaded_at": core.loaded_at,
            "counts": {
                "manuals": len(editions),
                "paragraphs": sum(e.counts.get("paragraphs", 0) for e in editions),
                "rules": store.db.scalar("SELECT COUNT(*) FROM adp_rules"),
                "categories": store.db.scalar("SELECT COUNT(*) FROM adp_categories"),
                "devices": store.db.scalar("SELECT COUNT(*) FROM adp_devices"),
            },
            "manuals": [
                {"manual": e.manual, "edition": e.label, "file": e.source_name, "sha256": e.source_sha256}
                for e in editions
            ],
        }
    hint = "run `curbside coverage load DIR` with the ADP manuals (*adp*manual*.pdf) in DIR"
    return source_status(store, "adp", NAMESPACE, loaded, hint)
