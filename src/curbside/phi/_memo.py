"""``remembered_detections``: within one piece of work, text analysed once is not analysed again.

Its own module, free of Presidio and spaCy, so a caller can open the scope before the detector loads.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curbside.phi._spans import PhiSpan

__all__ = ["MEMO", "remembered_detections"]

# the detections of one piece of work (an ask), shared by its threads: see remembered_detections
MEMO: ContextVar[dict[str, tuple[PhiSpan, ...]] | None] = ContextVar("curbside_phi_memo", default=None)


@contextmanager
def remembered_detections() -> Iterator[None]:
    """Within this block (and the threads it starts with ``asyncio.to_thread``), text analysed once
    is not analysed again. An ask screens its question, then its audit row redacts the same question:
    the second costs nothing. Scoped to one piece of work, so nothing is kept after it."""
    token = MEMO.set({})
    try:
        yield
    finally:
        MEMO.reset(token)
