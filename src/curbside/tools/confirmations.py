"""Pending confirmations: a call that needs a clinician's approval waits here, by id, until they
approve it, deny it, or it expires (a default 60 s; expiry is a denial).

What waits is the validated call (tool, caller, arguments) in memory only: it is never written
anywhere, since its arguments may be clinical content. A person sees it through ``summary``
("Prescribe metformin 500 mg by mouth twice daily for Jane Doe (Patient/123)") and decides by id;
only the user who made the call may decide it or see it.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field

from curbside.errors import NotFoundError
from curbside.types import ToolCaller

__all__ = ["ConfirmationInfo", "ConfirmationStore", "PendingCall"]

class ConfirmationInfo(BaseModel):
    """A call waiting for approval, as its caller sees it."""

    id: str = Field(description="Approve or deny with this id (POST /v1/confirmations/{id}).")
    tool: str
    summary: str = Field(description="What the call will do, in words, for the clinician to check.")
    expires_at: datetime = Field(description="After this, the call is denied.")


@dataclass(frozen=True)
class PendingCall:
    id: str
    tool: str
    caller: ToolCaller
    arguments: dict[str, Any]
    summary: str
    expires_at: float  # wall clock (time.time)

    def info(self) -> ConfirmationInfo:
        return ConfirmationInfo(
            id=self.id, tool=self.tool, summary=self.summary, expires_at=datetime.fromtimestamp(self.expires_at, UTC)
        )


class ConfirmationStore:
    """In memory, per process: a confirmation is answered by the server that asked for it."""

    def __init__(self, *, ttl_s: float = 60.0, clock: Callable[[], float] = time.time) -> None:
        self.ttl_s = ttl_s
        self._clock = clock
        self._lock = threading.Lock()
        self._pending: dict[str, PendingCall] = {}

    def create(self, caller: ToolCaller, tool: str, arguments: dict[str, Any], summary: str) -> PendingCall:
        pending = PendingCall(
            id=f"cf_{secrets.token_urlsafe(12)}",
            tool=tool,
            caller=caller,
            arguments=arguments,
            summary=summary,
            expires_at=self._clock() + self.ttl_s,
        )
        with self._lock:
            self._sweep()
            self._pending[pending.id] = pending
        return pending

    def pending(self, caller: ToolCaller) -> list[PendingCall]:
        """The caller's own calls still waiting, oldest first."""
        with self._lock:
            self._sweep()
            return sorted(
                (p for p in self._pending.values() if p.caller.user == caller.user), key=lambda p: p.expires_at
            )

    def take(self, confirmation_id: str, caller: ToolCaller) -> PendingCall:
        """Remove and return the call to decide (expired or not: the executor records either);
        an unknown id, or another user's, is not found."""
        with self._lock:
            pending = self._pending.get(confirmation_id)
            if pending is None or pending.caller.user != caller.user:
                raise NotFoundError(
                    f"No confirmation {confirmation_id!r} is waiting for you: it was decided or expired already, "
                    "or never existed. GET /v1/confirmations lists yours."
                )
            del self._pending[confirmation_id]
            return pending

    def is_expired(self, pending: PendingCall) -> bool:
        return self._clock() >= pending.expires_at

    def expired(self) -> list[PendingCall]:
        """Remove and return the calls whose time ran out: each is a denial for the executor to record."""
        with self._lock:
            now = self._clock()
            gone = [p for p in self._pending.values() if now >= p.expires_at]
            for p in gone:
                del self._pending[p.id]
            return gone

    def _sweep(self) -> None:
        # the executor collects expired calls (and records their denial) before it lists or decides;
        # a store nobody collects from still drops them after an hour
        now = self._clock()
        for key in [k for k, p in self._pending.items() if now >= p.expires_at + 3600]:
            del self._pending[key]
