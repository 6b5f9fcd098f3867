"""The checks around every tool call, as small protocols with working defaults.

The defaults are real, not stubs: a role check, a per-(user, tool) sliding-window
limiter, confirmation that only the caller can give, and an audit sink that keeps
recent calls in memory and logs them. The application replaces them
(``application_hooks``): the caller's real role (``curbside.auth``), the shared
``limits``-based rate limiter, and the keyed audit trail (``curbside.audit``).
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from curbside.errors import PermissionDeniedError, RateLimitedError
from curbside.tools.base import ToolSpec
from curbside.types import ToolAuditEvent, ToolCaller

__all__ = [
    "AuditSink",
    "ConfirmationPolicy",
    "ExplicitConfirmation",
    "InMemoryAuditSink",
    "PermissionPolicy",
    "CallLimiter",
    "RolePermissionPolicy",
    "SlidingWindowRateLimiter",
    "ToolHooks",
]

log = logging.getLogger("curbside.tools.audit")


class PermissionPolicy(Protocol):
    def authorize(self, caller: ToolCaller, spec: ToolSpec[Any, Any]) -> None:
        """Return if ``caller`` may call ``spec``; raise ``PermissionDeniedError`` otherwise."""


class CallLimiter(Protocol):
    def acquire(self, caller: ToolCaller, spec: ToolSpec[Any, Any]) -> None:
        """Count one call; raise ``RateLimitedError`` (with ``retry_after``) when over the tool's limit."""


class ConfirmationPolicy(Protocol):
    def prompt(self, caller: ToolCaller, spec: ToolSpec[Any, Any], arguments: dict[str, Any]) -> str | None:
        """The question to put to the user before this call runs, or None when no confirmation is needed.

        The policy only asks; the answer comes from the caller (``confirm=True``), so no
        policy can confirm on the user's behalf.
        """


class AuditSink(Protocol):
    def record(self, event: ToolAuditEvent) -> None:
        """Keep one finished call. Must not raise: a failing sink is logged by the executor."""


class RolePermissionPolicy:
    """A tool's ``allowed_roles`` decides; a tool that names none is open to every role."""

    def authorize(self, caller: ToolCaller, spec: ToolSpec[Any, Any]) -> None:
        if spec.allowed_roles is None or caller.role in spec.allowed_roles:
            return
        roles = ", ".join(sorted(spec.allowed_roles))
        raise PermissionDeniedError(
            f"Role {caller.role!r} may not call tool {spec.name!r}; it is open to: {roles}. "
            "Ask an administrator for one of those roles."
        )


class SlidingWindowRateLimiter:
    """At most ``spec.rate_limit`` calls per (user, tool) in any ``window_s`` seconds.

    A log of call times per key, trimmed on each call: exact where a token bucket
    would allow bursts at a window's edge, and small at these limits (tens per minute).
    In memory, so per process; #4 brings the shared one.
    """

    def __init__(self, window_s: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        if window_s <= 0:
            raise ValueError("window_s must be above 0")
        self.window_s = window_s
        self._clock = clock
        self._calls: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()  # HTTP worker threads and event loops may share one limiter

    def acquire(self, caller: ToolCaller, spec: ToolSpec[Any, Any]) -> None:
        limit = spec.rate_limit
        if limit is None:
            return
        now = self._clock()
        with self._lock:
            calls = self._calls.setdefault((caller.user, spec.name), deque())
            while calls and calls[0] <= now - self.window_s:
                calls.popleft()
            if len(calls) >= limit:
                retry_after = max(calls[0] + self.window_s - now, 0.0)
                raise RateLimitedError(
                    f"Rate limit reached for tool {spec.name!r}: {limit} calls per {self.window_s:g} s per user. "
                    f"Try again in {retry_after:.1f} s.",
                    retry_after=round(retry_after, 3),
                )
            calls.append(now)


class ExplicitConfirmation:
    """Every ``requires_confirmation`` tool asks, every time; nothing is confirmed by default."""

    def prompt(self, caller: ToolCaller, spec: ToolSpec[Any, Any], arguments: dict[str, Any]) -> str | None:
        if not spec.requires_confirmation:
            return None
        names = ", ".join(sorted(arguments)) or "no arguments"
        return f"Tool {spec.name!r} ({spec.risk_level} risk) with arguments: {names}"


class InMemoryAuditSink:
    """The latest ``keep`` calls in memory, each also logged (user id hashed)."""

    def __init__(self, keep: int = 1000) -> None:
        self.events: deque[ToolAuditEvent] = deque(maxlen=keep)
        self._lock = threading.Lock()

    def record(self, event: ToolAuditEvent) -> None:
        with self._lock:
            self.events.append(event)
        log.info(
            "tool_call call_id=%s tool=%s status=%s code=%s duration_ms=%.1f user=%s phi=%s",
            event.call_id,
            event.tool,
            event.status,
            event.error_code or "-",
            event.duration_ms,
            hashlib.sha256(event.user.encode()).hexdigest()[:12],
            event.requires_phi,
        )


@dataclass
class ToolHooks:
    """The four checks one executor uses; each replaceable on its own."""

    permissions: PermissionPolicy = field(default_factory=RolePermissionPolicy)
    rate_limiter: CallLimiter = field(default_factory=SlidingWindowRateLimiter)
    confirmation: ConfirmationPolicy = field(default_factory=ExplicitConfirmation)
    audit: AuditSink = field(default_factory=InMemoryAuditSink)
