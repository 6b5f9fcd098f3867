"""A circuit breaker for the model endpoint (query-orchestrator.md, "Circuit Breaker Configuration").

After ``failure_threshold`` consecutive failures the circuit opens: answers skip
the model (and its timeout) for ``open_seconds`` and are extractive at once.
Then one trial call is let through (half-open); its success closes the circuit,
its failure opens it again. The spec's defaults: 5 failures, 60 s, one trial.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["CircuitBreaker"]


class CircuitBreaker:
    def __init__(
        self,
        *,
        failure_threshold: int = 5,
        open_seconds: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.failure_threshold = failure_threshold
        self.open_seconds = open_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at: float | None = None
        self._trial_running = False

    @property
    def state(self) -> str:
        with self._lock:
            return self._state()

    def _state(self) -> str:
        if self._opened_at is None:
            return "closed"
        return "half-open" if self._clock() - self._opened_at >= self.open_seconds else "open"

    def allow(self) -> bool:
        """May a call go to the model now? In half-open state only one trial call at a time."""
        with self._lock:
            state = self._state()
            if state == "closed":
                return True
            if state == "half-open" and not self._trial_running:
                self._trial_running = True
                return True
            return False

    def retry_in(self) -> float:
        """Seconds until a trial call is allowed (0 when closed)."""
        with self._lock:
            if self._opened_at is None:
                return 0.0
            return max(0.0, self.open_seconds - (self._clock() - self._opened_at))

    def record_success(self) -> None:
        with self._lock:
            self._failures = 0
            self._opened_at = None
            self._trial_running = False

    def record_failure(self) -> None:
        with self._lock:
            self._failures += 1
            if self._trial_running or self._failures >= self.failure_threshold:
                self._opened_at = self._clock()
            self._trial_running = False

    def abandon(self) -> None:
        """A call that ended without a verdict (cancelled): free the trial slot, count nothing."""
        with self._lock:
            self._trial_running = False

    @property
    def consecutive_failures(self) -> int:
        with self._lock:
            return self._failures
