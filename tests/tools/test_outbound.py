"""The shared outbound client against a real loopback server: PHI screen, pacing, cache, retries
honouring Retry-After, the circuit breaker, size caps, and the errors a caller reads."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from curbside.errors import PhiRefusedError, RateLimitedError, UpstreamError
from curbside.settings import Settings
from curbside.tools.outbound import OutboundClient, PhiScreen, Screened, Service
from curbside.tools.outbound.cache import TtlCache
from curbside.tools.outbound.client import _parse_retry_after
from curbside.tools.outbound.pacing import HostPacer
from tests.tools.evidence.replay import Fault, ReplayServer, Reply

FAST = Service("Test service", "CURBSIDE_TEST_URL", 1000)


@pytest.fixture
def server() -> ReplayServer:
    replay = ReplayServer()
    replay.route("GET", "/ok", lambda r: Reply.of_json({"echo": r.arg("q")}))
    replay.route("GET", "/missing", lambda r: Reply.of_json({"error": {"message": "No matches found!"}}, 404))
    replay.route("GET", "/bad-request", lambda r: Reply.of_json({"error": {"message": "Invalid search syntax"}}, 400))
    replay.route("GET", "/big", lambda r: Reply(200, b"x" * 5000, "text/plain"))
    replay.route("GET", "/file", lambda r: Reply(200, b"archive-bytes" * 100, "application/gzip"))
    yield replay
    replay.close()


def _settings(tmp_path: Path, **extra: object) -> Settings:
    values: dict[str, object] = {"home": tmp_path / "home", "outbound_backoff_s": 0.01, "outbound_timeout_s": 1.0}
    values.update(extra)
    return Settings(**values)  # type: ignore[arg-type]


def _client(tmp_path: Path, detect=lambda text: [], **extra: object) -> OutboundClient:  # noqa: ANN001
    settings = _settings(tmp_path, **extra)
    return OutboundClient(settings, screen=PhiScreen(settings, detect=detect))


def _get(client: OutboundClient, url: str, **kwargs: object):  # noqa: ANN202
    return asyncio.run(client.get(url, service=FAST, **kwargs))  # type: ignore[arg-type]


def test_a_plain_answer_and_its_cached_repeat(server: ReplayServer, tmp_path: Path) -> None:
    client = _client(tmp_path)
    first = _get(client, f"{server.url}/ok", params={"q": "statin myopathy"})
    again = _get(client, f"{server.url}/ok", params={"q": "statin myopathy"})
    assert first.json() == {"echo": "statin myopathy"} and not first.from_cache
    assert again.from_cache and again.json() == first.json()
    assert len(server.calls("/ok")) == 1
    counts = client.stats.by_service[FAST.name]
    assert (counts.sent, counts.cache_hits) == (1, 1)


def test_no_cache_when_its_time_to_live_is_zero(server: ReplayServer, tmp_path: Path) -> None:
    client = _client(tmp_path, outbound_cache_ttl_s=0)
    _get(client, f"{server.url}/ok", params={"q": "a"})
    _get(client, f"{server.url}/ok", params={"q": "a"})
    assert len(server.calls("/ok")) == 2


def test_a_query_with_phi_is_refused_and_never_sent(server: ReplayServer, tmp_path: Path) -> None:
    client = _client(tmp_path, detect=lambda text: ["PERSON"] if "Smith" in text else [])
    with pytest.raises(PhiRefusedError) as caught:
        _get(client, f"{server.url}/ok", params={"q": "John Smith"}, screened=[Screened("query", "John Smith")])
    assert "PERSON" in caught.value.message and "Smith" not in caught.value.message
    assert server.calls("/ok") == [] and client.stats.by_service[FAST.name].refused == 1


def test_a_field_may_allow_a_type_that_does_not_identify_there(server: ReplayServer, tmp_path: Path) -> None:
    client = _client(tmp_path, detect=lambda text: ["LOCATION"])
    fetched = _get(
        client,
        f"{server.url}/ok",
        params={"q": "Toronto"},
        screened=[Screened("location", "Toronto", frozenset({"LOCATION"}))],
    )
    assert fetched.status == 200


def test_a_failing_detector_counts_as_phi(server: ReplayServer, tmp_path: Path) -> None:
    def broken(text: str) -> list[str]:
        raise RuntimeError("model missing")

    client = _client(tmp_path, detect=broken)
    with pytest.raises(PhiRefusedError, match="could not be checked"):
        _get(client, f"{server.url}/ok", screened=[Screened("query", "anything")])
    assert server.calls("/ok") == []


def test_the_real_detector_refuses_a_name_and_passes_a_drug(server: ReplayServer, tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    client = OutboundClient(settings, screen=PhiScreen(settings))
    assert _get(client, f"{server.url}/ok", screened=[Screened("query", "clarithromycin simvastatin")]).status == 200
    with pytest.raises(PhiRefusedError):
        _get(client, f"{server.url}/ok", screened=[Screened("query", "Mr. Jones DOB 1950-03-02 warfarin")])
    assert len(server.calls("/ok")) == 1


def test_429_with_retry_after_is_honoured_then_answered(server: ReplayServer, tmp_path: Path) -> None:
    server.fail_next("/ok", Fault("status", 429, retry_after="0.3"))
    client = _client(tmp_path)
    started = time.monotonic()
    fetched = _get(client, f"{server.url}/ok", params={"q": "x"})
    assert fetched.json() == {"echo": "x"} and time.monotonic() - started >= 0.3
    assert len(server.calls("/ok")) == 2 and client.stats.by_service[FAST.name].retries == 1


def test_a_retry_after_longer_than_the_wait_allowed_ends_as_rate_limited(server: ReplayServer, tmp_path: Path) -> None:
    server.fail_next("/ok", Fault("status", 429, retry_after="120"))
    with pytest.raises(RateLimitedError) as caught:
        _get(_client(tmp_path), f"{server.url}/ok")
    assert caught.value.retry_after == 120 and "Test service" in caught.value.message
    assert len(server.calls("/ok")) == 1


def test_5xx_is_retried_and_a_lasting_one_is_a_clear_error(server: ReplayServer, tmp_path: Path) -> None:
    server.fail_next("/ok", Fault("status", 503))
    client = _client(tmp_path)
    assert _get(client, f"{server.url}/ok", params={"q": "y"}).json() == {"echo": "y"}
    server.fail_next("/ok", *[Fault("status", 500)] * 3)
    with pytest.raises(UpstreamError) as caught:
        _get(client, f"{server.url}/ok", params={"q": "z"})
    assert (
        caught.value.code == "UPSTREAM_ERROR"
        and "HTTP 500" in caught.value.message
        and "injected" in caught.value.message
    )
    assert len(server.calls("/ok")) == 2 + 3


def test_a_4xx_is_reported_with_the_services_own_words_and_not_retried(server: ReplayServer, tmp_path: Path) -> None:
    with pytest.raises(UpstreamError, match="Invalid search syntax"):
        _get(_client(tmp_path), f"{server.url}/bad-request")
    assert len(server.calls("/bad-request")) == 1


def test_a_status_the_caller_reads_is_returned_not_raised(server: ReplayServer, tmp_path: Path) -> None:
    fetched = _get(_client(tmp_path), f"{server.url}/missing", readable=frozenset({200, 404}))
    assert fetched.status == 404 and fetched.json()["error"]["message"] == "No matches found!"


def test_a_timeout_is_retried_then_reported(server: ReplayServer, tmp_path: Path) -> None:
    server.fail_next("/ok", Fault("delay", delay_s=1.5), Fault("delay", delay_s=1.5))
    client = _client(tmp_path, outbound_timeout_s=0.5, outbound_retries=1)
    with pytest.raises(UpstreamError) as caught:
        _get(client, f"{server.url}/ok")
    assert caught.value.code == "UPSTREAM_TIMEOUT"


def test_a_dropped_connection_is_retried(server: ReplayServer, tmp_path: Path) -> None:
    server.fail_next("/ok", Fault("drop"))
    assert _get(_client(tmp_path), f"{server.url}/ok", params={"q": "w"}).json() == {"echo": "w"}


def test_a_malformed_body_is_an_upstream_error_not_a_crash(server: ReplayServer, tmp_path: Path) -> None:
    server.fail_next("/ok", Fault("malformed"))
    fetched = _get(_client(tmp_path), f"{server.url}/ok")
    with pytest.raises(UpstreamError, match="not JSON"):
        fetched.json()


def test_an_unreachable_service_names_the_setting(tmp_path: Path) -> None:
    from tests.live_server import free_port

    client = _client(tmp_path, outbound_retries=0)
    with pytest.raises(UpstreamError) as caught:
        _get(client, f"http://127.0.0.1:{free_port()}/x")
    assert caught.value.code == "UPSTREAM_UNAVAILABLE" and "CURBSIDE_TEST_URL" in caught.value.message


def test_the_circuit_opens_after_failures_and_skips_the_host(server: ReplayServer, tmp_path: Path) -> None:
    server.fail_next("/ok", *[Fault("status", 500)] * 2)
    client = _client(tmp_path, outbound_retries=0, outbound_breaker_failures=2, outbound_breaker_open_s=30)
    for _ in range(2):
        with pytest.raises(UpstreamError):
            _get(client, f"{server.url}/ok", cache=False)
    with pytest.raises(UpstreamError) as caught:
        _get(client, f"{server.url}/ok", cache=False)
    assert caught.value.code == "UPSTREAM_UNAVAILABLE" and "tried again in" in caught.value.message
    assert len(server.calls("/ok")) == 2 and client.breaker_state(server.url) == "open"


def test_a_body_over_the_cap_is_dropped(server: ReplayServer, tmp_path: Path) -> None:
    with pytest.raises(UpstreamError, match="more than 1,024 bytes"):
        _get(_client(tmp_path, outbound_max_response_bytes=1024), f"{server.url}/big")


def test_download_writes_whole_or_not_at_all(server: ReplayServer, tmp_path: Path) -> None:
    client = _client(tmp_path)
    dest = tmp_path / "book.tar.gz"
    size = asyncio.run(client.download(f"{server.url}/file", dest, service=FAST, max_bytes=10_000))
    assert size == 1300 and dest.read_bytes() == b"archive-bytes" * 100
    small = tmp_path / "small.tar.gz"
    with pytest.raises(UpstreamError, match="larger than 100 bytes"):
        asyncio.run(client.download(f"{server.url}/file", small, service=FAST, max_bytes=100))
    assert not small.exists() and not (tmp_path / "small.tar.gz.part").exists()


def test_requests_to_one_host_are_paced_at_its_rate(server: ReplayServer, tmp_path: Path) -> None:
    client = _client(tmp_path, outbound_cache_ttl_s=0)
    paced = Service("Paced", "CURBSIDE_X_URL", 2, 0.5)  # 2 per half second: the 3rd and 4th wait

    async def burst() -> None:
        await asyncio.gather(*(client.get(f"{server.url}/ok", service=paced, params={"q": str(i)}) for i in range(4)))

    started = time.monotonic()
    asyncio.run(burst())
    assert time.monotonic() - started >= 0.5
    assert client.stats.by_service["Paced"].paced_s >= 0.9  # two requests waited about 0.5 s each


def test_pacer_lets_a_burst_up_to_the_limit_go_then_keeps_every_window_within_it() -> None:
    now = [100.0]
    pacer = HostPacer(clock=lambda: now[0])
    assert [pacer.reserve("h", 3, 1.0) for _ in range(5)] == [0.0, 0.0, 0.0, 1.0, 1.0]
    assert pacer.reserve("other", 3, 1.0) == 0.0
    now[0] = 110.0
    pacer.push_back("h", 5.0)
    assert pacer.reserve("h", 3, 1.0) == 5.0


def test_cache_expires_and_evicts_the_least_recently_used() -> None:
    now = [0.0]
    cache: TtlCache[int] = TtlCache(ttl_s=10, entries=2, clock=lambda: now[0])
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1
    cache.put("c", 3)  # "b" was used least recently
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)
    now[0] = 11.0
    assert cache.get("a") is None


@pytest.mark.parametrize(("header", "seconds"), [("3", 3.0), ("0.5", 0.5), ("soon", None), (None, None)])
def test_retry_after_in_seconds(header: str | None, seconds: float | None) -> None:
    assert _parse_retry_after(header) == seconds


def test_retry_after_as_an_http_date() -> None:
    from email.utils import formatdate

    parsed = _parse_retry_after(formatdate(time.time() + 30, usegmt=True))
    assert parsed is not None and 25 <= parsed <= 31


def test_a_garbled_body_is_not_cached(server: ReplayServer, tmp_path: Path) -> None:
    server.fail_next("/ok", Fault("truncate"))
    client = _client(tmp_path)
    broken = _get(client, f"{server.url}/ok", params={"q": "truncated"})
    with pytest.raises(UpstreamError):
        broken.json()
    assert _get(client, f"{server.url}/ok", params={"q": "truncated"}).json() == {"echo": "truncated"}
    assert len(server.calls("/ok")) == 2


def test_a_caller_can_forget_an_answer_it_could_not_read(server: ReplayServer, tmp_path: Path) -> None:
    client = _client(tmp_path)
    first = _get(client, f"{server.url}/ok", params={"q": "a"})
    client.forget(first)
    assert not _get(client, f"{server.url}/ok", params={"q": "a"}).from_cache
