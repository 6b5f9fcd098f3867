"""What every outbound HTTP client here keeps per event loop and per host: a connection pool for each
loop (an ``httpx.AsyncClient`` must not cross loops: the CLI runs a fresh loop per call, the server
one), and a circuit breaker for each host. Shared by the public-services client and the FHIR client."""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from collections.abc import Callable
from email.utils import parsedate_to_datetime

import httpx

from curbside.llm.breaker import CircuitBreaker

__all__ = ["HostBreakers", "LoopClients", "parse_retry_after", "read_capped"]


class LoopClients:
    """One ``httpx.AsyncClient`` per running event loop, built by ``build`` on first use."""

    def __init__(self, build: Callable[[], httpx.AsyncClient]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient] = (
            weakref.WeakKeyDictionary()
        )

    def get(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        with self._lock:
            client = self._clients.get(loop)
            if client is None or client.is_closed:
                client = self._build()
                self._clients[loop] = client
            return client

    async def aclose(self) -> None:
        with self._lock:
            clients = list(self._clients.values())
            self._clients.clear()
        for client in clients:
            await client.aclose()


class HostBreakers:
    """A circuit breaker per host, all with the same threshold and open time."""

    def __init__(self, *, failures: int, open_s: float) -> None:
        self.failures = failures
        self.open_s = open_s
        self._lock = threading.Lock()
        self._breakers: dict[str, CircuitBreaker] = {}

    def get(self, host: str) -> CircuitBreaker:
        with self._lock:
            breaker = self._breakers.get(host)
            if breaker is None:
                breaker = CircuitBreaker(failure_threshold=self.failures, open_seconds=self.open_s)
                self._breakers[host] = breaker
            return breaker


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header: a number of seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


async def read_capped(response: httpx.Response, cap: int, too_big: Callable[[], Exception]) -> bytes:
    """A streamed response's body, read whole unless it passes ``cap`` bytes (then ``too_big()`` is raised);
    the response is closed either way."""
    try:
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > cap:
                raise too_big()
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        await response.aclose()
