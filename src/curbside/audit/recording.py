"""Recording an action around the work it names, whichever interface runs it.

The trail is checked before the work starts (a trail that cannot record stops the
request before anything happens unrecorded), and the row is written after, with the
outcome: the result's status, or the error's stable code.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from curbside.audit.entries import outcome_of
from curbside.audit.trail import AuditEntry, AuditTrail

if TYPE_CHECKING:
    pass

__all__ = ["AuditScope", "audited", "audited_async"]


class AuditScope:
    """The row being built; ``update`` fills in what the work found (sources, outcome …)."""

    def __init__(self, entry: AuditEntry) -> None:
        self.entry = entry

    def update(self, **changes: Any) -> None:
        self.entry = replace(self.entry, **changes)


@contextmanager
def audited(trail: AuditTrail, entry: AuditEntry) -> Iterator[AuditScope]:
    trail.check_writable()
    scope = AuditScope(entry)
    try:
        yield scope
    except Exception as exc:
        trail.append(replace(scope.entry, outcome=outcome_of(exc)))
        raise
    trail.append(scope.entry)


@asynccontextmanager
async def audited_async(trail: AuditTrail, entry: AuditEntry) -> AsyncIterator[AuditScope]:
    """``audited`` for async code: the trail's file and database work runs off the event loop."""
    await asyncio.to_thread(trail.check_writable)
    scope = AuditScope(entry)
    try:
        yield scope
    except Exception as exc:
        await asyncio.to_thread(trail.append, replace(scope.entry, outcome=outcome_of(exc)))
        raise
    await asyncio.to_thread(trail.append, scope.entry)
