"""``FhirHttp``: one request to the FHIR server (or its token endpoint), retried and circuit-broken the
way the outbound client treats public services — but with none of its PHI screen or shared cache:
this traffic carries the chart and stays between Curbside and the clinic's own server.

Retries: 429 and 503 always (the server says it did nothing); 500/502/504, read timeouts and
dropped connections only for requests that are safe to repeat (GET, PUT) — a create or a
transaction that timed out may have been applied, and sending it again could write it twice.
A connection that never opened is retried for any method. ``Retry-After`` is honoured up to
``max_wait_s``; past that the answer is handed back at once (the caller reports RATE_LIMITED).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from curbside.errors import ConfigError, UpstreamError
from curbside.llm.breaker import CircuitBreaker
from curbside.tools.ehr.fhir_config import FhirConfig

# one reading of Retry-After for every outside call; to be made public in tools/outbound (it is private there now)
from curbside.tools.outbound.pools import HostBreakers, LoopClients, parse_retry_after, read_capped

__all__ = ["Answer", "FhirHttp", "FhirStats", "parse_retry_after"]

_ALWAYS_RETRIED = frozenset({429, 503})
_RETRIED_WHEN_SAFE = frozenset({500, 502, 504})
_SAFE_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE"})
_USER_AGENT = "curbside (clinical consult engine; FHIR R4 client)"

Params = Sequence[tuple[str, str]]


@dataclass(frozen=True)
class Answer:
    """The final answer to a request after its retries: any status, the caller decides what it means."""

    status: int
    body: bytes
    headers: httpx.Headers
    url: str
    attempts: int

    @property
    def retry_after(self) -> float | None:
        return parse_retry_after(self.headers.get("retry-after"))


@dataclass
class FhirStats:
    """Counters for benchmarks and status pages (asyncio code: no lock needed within one loop)."""

    sent: int = 0  # requests that went out (retries included)
    retries: int = 0
    waited_s: float = 0.0  # seconds spent waiting before retries (backoff or Retry-After)
    token_fetches: int = 0
    failures: int = 0  # requests that ended without a usable answer (transport errors, breaker open)


class FhirHttp:
    """Requests to the FHIR server and its token endpoint; one per client, safe across event loops."""

    def __init__(self, config: FhirConfig, *, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.config = config
        self.stats = FhirStats()
        self._transport = transport
        self._breakers = HostBreakers(failures=config.breaker_failures, open_s=config.breaker_open_s)
        self._clients = LoopClients(self._new_client)

    async def exchange(
        self,
        method: str,
        url: str,
        *,
        params: Params | None = None,
        headers: Mapping[str, str] | None = None,
        content: bytes | None = None,
        form: Mapping[str, str] | None = None,
        what: str = "the FHIR server",
        repeatable: bool | None = None,
    ) -> Answer:
        """Send until an answer worth reading arrives or the retries run out; raise only when none came.

        ``what`` names the far end in messages ('the FHIR server', 'the SMART token endpoint');
        ``repeatable`` overrides the method's own safety (a conditional create may be sent twice).
        """
        host = _host(url)
        breaker = self._breaker(host)
        safe = method.upper() in _SAFE_METHODS if repeatable is None else repeatable
        retries = self.config.retries
        for attempt in range(retries + 1):
            if not breaker.allow():
                self.stats.failures += 1
                raise UpstreamError(
                    f"{_capital(what)} at {host} is being skipped: its last {breaker.failure_threshold} requests "
                    f"failed; it is tried again in {breaker.retry_in():.0f} s.",
                    code="UPSTREAM_UNAVAILABLE",
                )
            self.stats.sent += 1
            try:
                status, body, answer_headers = await self._once(method, url, params, headers, content, form)
            except (asyncio.CancelledError, UpstreamError):
                breaker.abandon()  # no verdict on the server's health (cancelled, or an oversized answer)
                raise
            except httpx.TransportError as exc:
                never_sent = isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout)
                if (safe or never_sent) and attempt < retries:
                    await self._pause(None, attempt)
                    continue
                breaker.record_failure()
                self.stats.failures += 1
                raise _transport_error(what, host, method, safe or never_sent, exc) from exc
            answer = Answer(status, body, answer_headers, url, attempt + 1)
            retryable = status in _ALWAYS_RETRIED or (safe and status in _RETRIED_WHEN_SAFE)
            if retryable and attempt < retries:
                asked = answer.retry_after
                if status == 429 and asked is not None and asked > self.config.max_wait_s:
                    breaker.record_success()  # up, only busy: the caller reports RATE_LIMITED
                    return answer
                await self._pause(asked, attempt)
                continue
            if status >= 500:
                breaker.record_failure()
            else:
                breaker.record_success()  # a 4xx is about the request, not the server's health
            return answer
        raise AssertionError("unreachable")

    async def aclose(self) -> None:
        await self._clients.aclose()

    def breaker_state(self, url: str) -> str:
        return self._breaker(_host(url)).state

    # --- the machinery --------------------------------------------------------------------------

    async def _once(
        self,
        method: str,
        url: str,
        params: Params | None,
        headers: Mapping[str, str] | None,
        content: bytes | None,
        form: Mapping[str, str] | None,
    ) -> tuple[int, bytes, httpx.Headers]:
        client = self._client()
        request = client.build_request(
            method, url, params=list(params) if params else None, headers=headers, content=content, data=form
        )
        response = await client.send(request, stream=True)
        cap = self.config.max_response_bytes
        body = await read_capped(
            response,
            cap,
            lambda: UpstreamError(
                f"{urlsplit(url).netloc} sent more than {cap:,} bytes (CURBSIDE_FHIR_MAX_RESPONSE_BYTES); "
                "the answer was dropped. Ask for fewer resources (a smaller _count) or raise the limit."
            ),
        )
        return response.status_code, body, response.headers

    async def _pause(self, asked: float | None, attempt: int) -> None:
        self.stats.retries += 1
        if asked is not None:
            wait = min(asked, self.config.max_wait_s)
        else:
            wait = min(self.config.backoff_s * (2**attempt), self.config.max_wait_s) * random.uniform(0.8, 1.2)
        self.stats.waited_s += wait
        await asyncio.sleep(wait)

    def _breaker(self, host: str) -> CircuitBreaker:
        return self._breakers.get(host)

    def _client(self) -> httpx.AsyncClient:
        """This event loop's connection pool (an AsyncClient must not cross loops)."""
        return self._clients.get()

    def _new_client(self) -> httpx.AsyncClient:
        timeout = self.config.timeout_s
        return httpx.AsyncClient(
            transport=self._transport,
            timeout=httpx.Timeout(timeout, connect=min(timeout, 5.0)),
            # a redirect could carry the bearer token elsewhere: report it instead (the URL setting is stale)
            follow_redirects=False,
            headers={"User-Agent": _USER_AGENT},
        )


def _host(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"{url!r} is not an http(s) address; check CURBSIDE_FHIR_URL.")
    return parts.netloc.lower()


def _transport_error(what: str, host: str, method: str, repeatable: bool, exc: Exception) -> UpstreamError:
    kind = type(exc).__name__
    unsure = (
        ""
        if repeatable
        else f" The {method} may or may not have been applied: check the chart before sending it again."
    )
    if isinstance(exc, httpx.TimeoutException):
        return UpstreamError(
            f"{_capital(what)} at {host} did not answer in time ({kind}; CURBSIDE_FHIR_TIMEOUT_S).{unsure}",
            code="UPSTREAM_TIMEOUT",
        )
    return UpstreamError(
        f"Could not reach {what} at {host} ({kind}); is it running, and is CURBSIDE_FHIR_URL right?{unsure}",
        code="UPSTREAM_UNAVAILABLE",
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
