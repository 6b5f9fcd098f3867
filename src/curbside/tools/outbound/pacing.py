"""Per-host pacing: requests to one host are spaced at its published rate, across all callers.

A slot is reserved under a lock (no await inside), then the caller sleeps until its slot, so
bursts from concurrent tool calls queue in order instead of drawing 429s.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

__all__ = ["HostPacer"]


class HostPacer:
    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._next: dict[str, float] = {}

    def reserve(self, host: str, per_second: float) -> float:
        """Seconds to wait before sending to ``host``; the slot after it is taken at once."""
        interval = 1.0 / per_second
        with self._lock:
            now = self._clock()
            slot = max(now, self._next.get(host, now))
            self._next[host] = slot + interval
            return slot - now

    def push_back(self, host: str, seconds: float) -> None:
        """The host asked for a pause (Retry-After): no request to it before then."""
        with self._lock:
            now = self._clock()
            self._next[host] = max(self._next.get(host, now), now + seconds)

    async def wait(self, host: str, per_second: float) -> float:
        delay = self.reserve(host, per_second)
        if delay > 0:
            await asyncio.sleep(delay)
        return delay
