"""The CLI's audit rows: what a command changes or reads is recorded as the machine's operator.

Every such command runs its work inside ``operator_audited``, the same ``audited``
scope the HTTP routes use: the trail is checked before the work starts (a trail
that cannot record stops the command with AUDIT_INTEGRITY, exit 6, before anything
is changed), and the row is written after, with the outcome the work reports
through ``scope.update`` or the error's stable code. Ctrl-C in a long ingest or load
is recorded as ``INTERRUPTED``: whatever finished before it is on the trail.

Listings (``status``, ``jobs list|show``, ``tool --list``, ``coverage status``,
``users list``) read no clinical content and are not recorded, as the README says.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from curbside.app import Curbside
    from curbside.audit import AuditEntry, AuditScope
    from curbside.kb.ingest import IngestReport, Status

__all__ = ["CHANNEL", "operator_audited", "operator_entry", "record_ingest"]

CHANNEL = "cli"
_STATUSES: tuple[Status, ...] = ("ingested", "unchanged", "skipped", "failed")


def operator_entry(core: Curbside, action: str, *, sources: Iterable[str] = (), **details: Any) -> AuditEntry:
    """A row for ``action`` by the local operator, before the work (outcome ``started``)."""
    from curbside.audit import AuditEntry
    from curbside.auth import operator_caller

    caller = operator_caller(core.settings)
    return AuditEntry(
        action=action,
        user=caller.user,
        role=caller.role,
        channel=CHANNEL,
        sources=tuple(sources),
        outcome="started",
        details={k: v for k, v in details.items() if v is not None},
    )


@contextmanager
def operator_audited(core: Curbside, entry: AuditEntry) -> Iterator[AuditScope]:
    """``audited(core.audit, entry)``, and a row for Ctrl-C too (KeyboardInterrupt is not an Exception)."""
    from curbside.audit import audited

    with audited(core.audit, entry) as scope:
        try:
            yield scope
        except KeyboardInterrupt:
            core.audit.append(replace(scope.entry, outcome="INTERRUPTED"))
            raise


def record_ingest(scope: AuditScope, report: IngestReport) -> None:
    """Finish an ingest run's row: the doc keys it wrote or failed on, counts per status and error codes."""
    touched = tuple(o.doc_key for o in report.outcomes if o.status in ("ingested", "failed"))
    details: dict[str, Any] = {**scope.entry.details, **{status: report.count(status) for status in _STATUSES}}
    codes = sorted({o.error_code for o in report.failed if o.error_code})
    if codes:
        details["error_codes"] = codes
    scope.update(sources=touched, outcome="failed" if report.failed else "ok", details=details)
