"""Stopping a running ingest job: its time limit, and an administrator's cancel.

A thread cannot be killed safely, so the job stops itself: ingest calls ``check()`` between
its steps (after parsing, every chunk it cuts, before every group it embeds) and the check
raises ``JobStoppedError`` once the deadline has passed or a cancel was requested. One step
that runs long inside a library (a parser's single call) is stopped when it returns.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from curbside.errors import JobStoppedError

__all__ = ["JobControl"]

_POLL_S = 1.0  # how often the cancel flag is read from the database


class JobControl:
    def __init__(
        self,
        job_id: int,
        *,
        timeout_s: float | None,
        cancel_requested: Callable[[int], bool],
        shutdown: threading.Event | None = None,
    ) -> None:
        self.job_id = job_id
        self._shutdown = shutdown
        self.timeout_s = timeout_s
        self._deadline = None if timeout_s is None else time.monotonic() + timeout_s
        self._cancel_requested = cancel_requested
        self._next_poll = 0.0

    def check(self) -> None:
        """Raise JobStoppedError if the job should stop now."""
        now = time.monotonic()
        if self._shutdown is not None and self._shutdown.is_set():
            raise JobStoppedError.interrupted(self.job_id)
        if self._deadline is not None and now > self._deadline:
            assert self.timeout_s is not None
            raise JobStoppedError.timed_out(self.job_id, self.timeout_s)
        if now >= self._next_poll:
            self._next_poll = now + _POLL_S
            if self._cancel_requested(self.job_id):
                raise JobStoppedError.cancelled(self.job_id)
