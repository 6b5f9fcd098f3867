"""Per-host pacing: at most ``limit`` requests to one host in any ``window_s`` seconds, across all
callers — the form services publish their limits in (NCBI: 3 per second; openFDA: 240 per minute).

A burst up to the limit goes at once (PubMed's esearch and efetch need not wait for each other);
beyond it, each request takes the first slot that keeps every window within the limit. Slots are
reserved in arrival order under a lock (no await inside), then the caller sleeps until its slot.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable

__all__ = ["HostPacer"]


class HostPacer:
    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._slots: dict[str, deque[float]] = {}
        self._paused_until: dict[str, float] = {}

    def reserve(self, host: str, limit: int, window_s: float) -> float:
        """Seconds to wait before sending to ``host``; the slot is taken at once."""
        with self._lock:
            now = self._clock()
            slots = self._slots.setdefault(host, deque(maxlen=limit))
            start = max(now, self._paused_until.get(host, now))
            if slots:
                start = max(start, slots[-1])  # first come, first served
            if len(slots) == limit:
                start = max(start, slots[0] + window_s)  # the limit-th slot back must have left the window
            slots.append(start)
            return start - now

    def push_back(self, host: str, seconds: float) -> None:
        """The host asked for a pause (Retry-After): no request to it before then."""
        with self._lock:
            now = self._clock()
            self._paused_until[host] = max(self._paused_until.get(host, now), now + seconds)

    async def wait(self, host: str, limit: int, window_s: float) -> float:
        delay = self.reserve(host, limit, window_s)
        if delay > 0:
            await asyncio.sleep(delay)
        return delay
