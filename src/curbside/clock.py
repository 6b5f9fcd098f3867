"""The reference time: the clock, unless a recorded case is being replayed.

A consult turn given a time (``--now``) runs inside ``reference_time(moment)``; everything that asks
``clock.now()`` in that call — a chart's "age today", a write's "not in the future", an order's "not
in the past" — then agrees with the case, not with the machine's clock.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime

__all__ = ["now", "reference_time"]

_REFERENCE: ContextVar[datetime | None] = ContextVar("curbside_reference_time", default=None)


def now() -> datetime:
    """The reference time if one is set for this call, else the clock (UTC, aware)."""
    return _REFERENCE.get() or datetime.now(UTC)


@contextmanager
def reference_time(moment: datetime | None) -> Iterator[None]:
    """Within this block (and the tasks it starts), ``now()`` is ``moment``; None keeps the clock."""
    token = _REFERENCE.set(moment)
    try:
        yield
    finally:
        _REFERENCE.reset(token)
