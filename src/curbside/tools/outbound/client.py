"""``OutboundClient``: screened, paced, cached, retried, circuit-broken requests to outside services."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx

from curbside.errors import RateLimitedError, UpstreamError
from curbside.llm.breaker import CircuitBreaker
from curbside.tools.outbound.cache import TtlCache
from curbside.tools.outbound.pacing import HostPacer
from curbside.tools.outbound.pools import HostBreakers, LoopClients, parse_retry_after, read_capped
from curbside.tools.outbound.screen import PhiScreen, Screened

if TYPE_CHECKING:
    from pathlib import Path

    from curbside.settings import Settings

__all__ = ["Fetched", "OutboundClient", "OutboundStats", "Service"]

_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_USER_AGENT = "curbside (clinical consult engine; +https://github.com/curbside)"


@dataclass(frozen=True)
class Service:
    """An outside service as the client treats it: its name in messages, the setting holding its
    address, and its published rate limit: ``limit`` requests in any ``window_s`` seconds, per host."""

    name: str
    setting: str
    limit: int
    window_s: float = 1.0


@dataclass(frozen=True)
class Fetched:
    """One answer: its status (200, or a status the caller said it reads, such as 404), its body,
    and whether it came from the cache."""

    status: int
    body: bytes
    content_type: str
    url: str
    from_cache: bool
    service: str
    cache_key: str = ""

    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except (ValueError, UnicodeDecodeError) as exc:
            raise UpstreamError(
                f"{self.service} sent a body that is not JSON ({len(self.body):,} bytes, starts {self.body[:60]!r})."
            ) from exc


@dataclass
class ServiceCounts:
    sent: int = 0  # requests that went out on the wire (retries included)
    cache_hits: int = 0
    retries: int = 0
    refused: int = 0  # queries the PHI screen stopped
    failures: int = 0  # calls that ended in an error after their retries
    wire_s: float = 0.0  # seconds spent sending and receiving (benchmarks: the rest of a call is ours)
    screen_s: float = 0.0  # seconds spent screening queries for PHI
    paced_s: float = 0.0  # seconds spent waiting for the host's rate limit or its Retry-After


@dataclass
class OutboundStats:
    """Counters per service name, for benchmarks and ``status`` pages."""

    by_service: dict[str, ServiceCounts] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, service: str, **counts: float) -> None:
        with self._lock:
            row = self.by_service.setdefault(service, ServiceCounts())
            for name, n in counts.items():
                setattr(row, name, getattr(row, name) + n)

    def total(self, name: str) -> float:
        with self._lock:
            return sum(getattr(row, name) for row in self.by_service.values())


class OutboundClient:
    """Requests to outside services for every tool family; one per application.

    ``transport`` replaces the network (tests); ``screen`` the PHI check (default: the detector).
    Safe to share across event loops and threads: each loop gets its own connection pool.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        screen: PhiScreen | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.settings = settings
        self.screen = screen if screen is not None else PhiScreen(settings)
        self._transport = transport
        self.cache: TtlCache[Fetched] = TtlCache(
            ttl_s=settings.outbound_cache_ttl_s, entries=settings.outbound_cache_entries
        )
        self.pacer = HostPacer()
        self.stats = OutboundStats()
        self._breakers = HostBreakers(
            failures=settings.outbound_breaker_failures, open_s=settings.outbound_breaker_open_s
        )
        self._clients = LoopClients(self._new_client)

    # --- the public calls -------------------------------------------------------------------------

    async def get(
        self,
        url: str,
        *,
        service: Service,
        params: Mapping[str, Any] | None = None,
        screened: Iterable[Screened] = (),
        headers: Mapping[str, str] | None = None,
        readable: frozenset[int] = frozenset({200}),
        cache: bool = True,
    ) -> Fetched:
        """GET ``url``; ``screened`` is the free text in it (checked for PHI before anything is sent);
        ``readable`` the statuses the caller interprets itself (e.g. 404 as "nothing found")."""
        return await self._request("GET", url, service, params, None, screened, headers, readable, cache)

    async def post_json(
        self,
        url: str,
        *,
        service: Service,
        payload: Mapping[str, Any],
        screened: Iterable[Screened] = (),
        headers: Mapping[str, str] | None = None,
        readable: frozenset[int] = frozenset({200}),
        cache: bool = True,
    ) -> Fetched:
        return await self._request("POST", url, service, None, payload, screened, headers, readable, cache)

    async def download(self, url: str, dest: Path, *, service: Service, max_bytes: int) -> int:
        """Stream ``url`` into ``dest`` (written whole or not at all); returns its size in bytes."""
        host = _host(url)
        self._admit(service, host)
        tmp = dest.with_name(dest.name + ".part")
        for attempt in range(self.settings.outbound_retries + 1):
            await self.pacer.wait(host, service.limit, service.window_s)
            self.stats.add(service.name, sent=1)
            try:
                size = 0
                async with self._client().stream("GET", url) as response:
                    if response.status_code in _RETRY_STATUSES and attempt < self.settings.outbound_retries:
                        await self._pause(
                            service, host, response.headers.get("retry-after"), attempt, response.status_code
                        )
                        continue
                    if response.status_code != 200:
                        if response.status_code < 500:
                            self._breaker(host).record_success()  # about our request, not the host
                        else:
                            self._breaker(host).record_failure()
                        raise self._status_error(service, url, response.status_code, b"")
                    with tmp.open("wb") as out:
                        async for chunk in response.aiter_bytes():
                            size += len(chunk)
                            if size > max_bytes:
                                raise UpstreamError(f"{url} is larger than {max_bytes:,} bytes; it was not kept.")
                            out.write(chunk)
                tmp.replace(dest)
                self._breaker(host).record_success()
                return size
            except (httpx.TimeoutException, httpx.TransportError) as exc:
                tmp.unlink(missing_ok=True)
                if attempt < self.settings.outbound_retries:
                    await self._pause(service, host, None, attempt, None)
                    continue
                raise self._transport_error(service, host, url, exc) from exc
            except BaseException:
                tmp.unlink(missing_ok=True)
                raise
        raise AssertionError("unreachable")

    async def aclose(self) -> None:
        await self._clients.aclose()

    # --- the machinery ----------------------------------------------------------------------------

    async def _request(
        self,
        method: str,
        url: str,
        service: Service,
        params: Mapping[str, Any] | None,
        payload: Mapping[str, Any] | None,
        screened: Iterable[Screened],
        headers: Mapping[str, str] | None,
        readable: frozenset[int],
        cache: bool,
    ) -> Fetched:
        began = time.perf_counter()
        texts = [item for item in screened if item.text.strip()]
        try:
            if texts:
                await asyncio.to_thread(self.screen.check, texts, service=service.name)
        except Exception:
            self.stats.add(service.name, refused=1)
            raise
        finally:
            self.stats.add(service.name, screen_s=time.perf_counter() - began)
        clean = {k: v for k, v in (params or {}).items() if v is not None}
        key = _cache_key(method, url, clean, payload)
        if cache and (hit := self.cache.get(key)) is not None:
            self.stats.add(service.name, cache_hits=1)
            return Fetched(hit.status, hit.body, hit.content_type, hit.url, True, hit.service, key)
        host = _host(url)
        self._admit(service, host)
        try:
            fetched = await self._send(method, url, service, host, clean, payload, headers, readable)
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                self._breaker(host).abandon()
            else:
                self.stats.add(service.name, failures=1)
            raise
        if cache and _well_formed(fetched):  # a truncated or garbled body is not served again for an hour
            self.cache.put(key, fetched)
        return fetched

    def forget(self, fetched: Fetched) -> None:
        """Drop ``fetched`` from the cache: its caller could not read it (the next call asks again)."""
        if fetched.cache_key:
            self.cache.drop(fetched.cache_key)

    async def _send(
        self,
        method: str,
        url: str,
        service: Service,
        host: str,
        params: Mapping[str, Any],
        payload: Mapping[str, Any] | None,
        headers: Mapping[str, str] | None,
        readable: frozenset[int],
    ) -> Fetched:
        breaker = self._breaker(host)
        retries = self.settings.outbound_retries
        for attempt in range(retries + 1):
            waited = await self.pacer.wait(host, service.limit, service.window_s)
            self.stats.add(service.name, sent=1, paced_s=waited)
            began = time.perf_counter()
            try:
                status, body, content_type, answer_headers = await self._exchange(method, url, params, payload, headers)
            except (httpx.TimeoutException, httpx.TransportError) as exc:
                self.stats.add(service.name, wire_s=time.perf_counter() - began)
                if attempt < retries:
                    await self._pause(service, host, None, attempt, None)
                    continue
                breaker.record_failure()
                raise self._transport_error(service, host, url, exc) from exc
            self.stats.add(service.name, wire_s=time.perf_counter() - began)
            if status in readable:
                breaker.record_success()
                return Fetched(
                    status, body, content_type, url, False, service.name, _cache_key(method, url, params, payload)
                )
            if status in _RETRY_STATUSES:
                retry_after = _parse_retry_after(answer_headers.get("retry-after"))
                if status == 429 and retry_after is not None and retry_after > self.settings.outbound_max_wait_s:
                    breaker.record_success()  # the host is up; it only asks us to wait
                    raise _rate_limited(service, retry_after)
                if attempt < retries:
                    await self._pause(service, host, answer_headers.get("retry-after"), attempt, status)
                    continue
                if status == 429:
                    breaker.record_success()
                    raise _rate_limited(service, retry_after)
                breaker.record_failure()
                raise self._status_error(service, url, status, body)
            breaker.record_success()  # a 4xx is about our request, not the host's health
            raise self._status_error(service, url, status, body)
        raise AssertionError("unreachable")

    async def _exchange(
        self,
        method: str,
        url: str,
        params: Mapping[str, Any],
        payload: Mapping[str, Any] | None,
        headers: Mapping[str, str] | None,
    ) -> tuple[int, bytes, str, httpx.Headers]:
        cap = self.settings.outbound_max_response_bytes
        request = self._client().build_request(method, url, params=params or None, json=payload, headers=headers)
        response = await self._client().send(request, stream=True)
        body = await read_capped(
            response,
            cap,
            lambda: UpstreamError(
                f"{urlsplit(url).netloc} sent more than {cap:,} bytes (CURBSIDE_OUTBOUND_MAX_RESPONSE_BYTES); "
                "the answer was dropped."
            ),
        )
        return response.status_code, body, response.headers.get("content-type", ""), response.headers

    async def _pause(
        self, service: Service, host: str, retry_after: str | None, attempt: int, status: int | None
    ) -> None:
        self.stats.add(service.name, retries=1)
        asked = _parse_retry_after(retry_after)
        wait = asked if asked is not None else self.settings.outbound_backoff_s * (2**attempt)
        wait = min(wait, self.settings.outbound_max_wait_s) * (1.0 if asked is not None else random.uniform(0.8, 1.2))
        if asked is not None:
            self.pacer.push_back(host, wait)
        self.stats.add(service.name, paced_s=wait)
        await asyncio.sleep(wait)

    def _admit(self, service: Service, host: str) -> None:
        breaker = self._breaker(host)
        if not breaker.allow():
            raise UpstreamError(
                f"{service.name} is being skipped: its last {breaker.failure_threshold} calls failed; it is tried "
                f"again in {breaker.retry_in():.0f} s.",
                code="UPSTREAM_UNAVAILABLE",
            )

    def _breaker(self, host: str) -> CircuitBreaker:
        return self._breakers.get(host)

    def breaker_state(self, url: str) -> str:
        return self._breaker(_host(url)).state

    def _client(self) -> httpx.AsyncClient:
        return self._clients.get()

    def _new_client(self) -> httpx.AsyncClient:
        timeout = self.settings.outbound_timeout_s
        return httpx.AsyncClient(
            transport=self._transport,
            timeout=httpx.Timeout(timeout, connect=min(timeout, 5.0)),
            follow_redirects=True,
            headers={"User-Agent": _USER_AGENT, "Accept-Encoding": "gzip"},
        )

    @staticmethod
    def _transport_error(service: Service, host: str, url: str, exc: Exception) -> UpstreamError:
        if isinstance(exc, httpx.TimeoutException):
            return UpstreamError(
                f"{service.name} at {host} did not answer in time ({type(exc).__name__}); try again later.",
                code="UPSTREAM_TIMEOUT",
            )
        return UpstreamError(
            f"Could not reach {service.name} at {host} ({type(exc).__name__}). Without a network, this tool cannot "
            f"answer; {service.setting} sets the address (a mirror or proxy).",
            code="UPSTREAM_UNAVAILABLE",
        )

    @staticmethod
    def _status_error(service: Service, url: str, status: int, body: bytes) -> UpstreamError:
        said = _service_message(body)
        return UpstreamError(f"{service.name} answered HTTP {status}" + (f": {said}" if said else "."))


def _host(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UpstreamError(f"{url!r} is not an http(s) address; check the service's URL setting.", code="CONFIG_ERROR")
    return parts.netloc.lower()


def _cache_key(method: str, url: str, params: Mapping[str, Any], payload: Mapping[str, Any] | None) -> str:
    return json.dumps(
        [method, url, sorted((k, str(v)) for k, v in params.items()), payload], sort_keys=True, default=str
    )


def _well_formed(fetched: Fetched) -> bool:
    """Does a JSON or XML body parse? Other bodies are taken as they are."""
    head = fetched.body[:64].lstrip()
    kind = fetched.content_type.lower()
    if "json" in kind or head[:1] in (b"{", b"["):
        try:
            json.loads(fetched.body)
        except (ValueError, UnicodeDecodeError):
            return False
        return True
    if "xml" in kind or head.startswith(b"<?xml"):
        import xml.parsers.expat

        parser = xml.parsers.expat.ParserCreate()
        try:
            parser.Parse(fetched.body, True)
        except xml.parsers.expat.ExpatError:
            return False
    return True


_parse_retry_after = parse_retry_after  # the name the tests know


def _rate_limited(service: Service, retry_after: float | None) -> RateLimitedError:
    when = f" for {retry_after:.0f} s" if retry_after is not None else ""
    return RateLimitedError(
        f"{service.name} asks us to wait{when} (HTTP 429); try again then.", retry_after=retry_after
    )


def _service_message(body: bytes) -> str:
    """The error text a service put in its body (openFDA: ``{"error": {"message": …}}``), kept short."""
    if not body:
        return ""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        text = body[:200].decode("utf-8", errors="replace").strip()
        return " ".join(text.split())[:200]
    if isinstance(data, dict):
        error = data.get("error")
        if isinstance(error, dict):
            return str(error.get("message") or error.get("code") or "")[:200]
        if isinstance(error, str):
            return error[:200]
        message = data.get("message") or data.get("errorMessage")
        if isinstance(message, str):
            return message[:200]
    return ""
