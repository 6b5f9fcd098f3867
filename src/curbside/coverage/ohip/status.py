"""What Schedule of Benefits edition is loaded, with its parse report (``curbside coverage status``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curbside.coverage.ohip.passages import NAMESPACE
from curbside.coverage.ohip.store import current_edition
from curbside.coverage.source_status import source_status

if TYPE_CHECKING:
    from curbside.coverage.reports import CoverageStore

__all__ = ["ohip_status"]

_COUNTS = ("codes_found", "codes_with_fee", "codes_fee_read", "codes_no_fee", "codes_fee_unknown", "listings")


def ohip_status(store: CoverageStore) -> dict[str, Any]:
    """The loaded edition, its parse report and its indexed passages (JSON-ready, the shape of the other sources)."""
    edition = current_edition(store.db)
    loaded = None
    if edition is not None:
        report = edition.report
        loaded = {
            "edition": edition.label,
            "published": edition.published,
            "effective": edition.effective,
            "amendment": edition.amendment,
            "file": edition.source_name,
            "sha256": edition.source_sha256,
            "loaded_at": edition.loaded_at,
            "counts": {k: report[k] for k in _COUNTS if k in report},
            "parse_report": report,
        }
    hint = "run `curbside coverage load DIR` with the schedule's text (ohip-schedule-of-benefits-*.txt) in DIR"
    return source_status(store, "ohip", NAMESPACE, loaded, hint)
