"""Rate limits: per user over HTTP (429, Retry-After, RATE_LIMITED), per tool through the same limiter."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel
from pydantic import ValidationError as SettingsError

from curbside.api import create_app
from curbside.app import Curbside
from curbside.auth import RateLimiter
from curbside.errors import ConfigError, RateLimitedError
from curbside.settings import Settings
from curbside.tools import ToolContext, ToolSpec
from curbside.types import ToolCaller


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[tuple[Curbside, TestClient, dict[str, str]]]:
    core = Curbside(Settings(home=tmp_path / "home", rate_limit="3/minute"))
    keys = {role: core.users.add(f"u-{role}", role).key for role in ("clinician", "admin")}
    with TestClient(create_app(core, warm_up=False)) as client:
        yield core, client, keys


def test_the_fourth_request_in_a_minute_is_429_with_retry_after(
    limited: tuple[Curbside, TestClient, dict[str, str]],
) -> None:
    _, client, keys = limited
    bearer = {"Authorization": f"Bearer {keys['clinician']}"}
    assert [client.get("/v1/tools", headers=bearer).status_code for _ in range(3)] == [200, 200, 200]
    refused = client.get("/v1/tools", headers=bearer)
    assert refused.status_code == 429
    error = refused.json()["error"]
    assert error["code"] == "RATE_LIMITED" and "3 requests per minute per user" in error["message"]
    assert 55 <= int(refused.headers["retry-after"]) <= 60 and 0 < error["retry_after"] <= 60
    # the limit is per user: another key is unaffected, and the public route is never limited
    assert client.get("/v1/tools", headers={"Authorization": f"Bearer {keys['admin']}"}).status_code == 200
    assert all(client.get("/healthz").status_code == 200 for _ in range(5))


def test_refused_roles_count_against_the_limit(limited: tuple[Curbside, TestClient, dict[str, str]]) -> None:
    _, client, keys = limited
    bearer = {"Authorization": f"Bearer {keys['clinician']}"}
    assert [client.get("/metrics", headers=bearer).status_code for _ in range(4)] == [403, 403, 403, 429]


def test_no_limit_when_the_setting_is_empty(tmp_path: Path) -> None:
    assert Settings(home=tmp_path, rate_limit="").rate_limit is None
    limiter = RateLimiter(api_limit=None)
    for _ in range(500):
        limiter.hit_api("someone")


@pytest.mark.parametrize("value", ["lots", "3 per fortnight", "/minute"])
def test_a_malformed_rate_limit_setting_is_refused(tmp_path: Path, value: str) -> None:
    with pytest.raises(SettingsError, match="is not a rate limit; write e.g. '120/minute'"):
        Settings(home=tmp_path, rate_limit=value)


def test_several_windows_each_hold(tmp_path: Path) -> None:
    limiter = RateLimiter(api_limit="5/minute;2/second")
    limiter.hit_api("a")
    limiter.hit_api("a")
    with pytest.raises(RateLimitedError, match="2 requests per second per user") as caught:
        limiter.hit_api("a")
    assert caught.value.retry_after is not None and 0 < caught.value.retry_after <= 1


@pytest.mark.parametrize(
    ("uri", "message"),
    [("redis://127.0.0.1:6379", "with the redis package installed"), ("carrier-pigeon://", "unknown storage scheme")],
)
def test_an_unusable_storage_is_a_config_error(uri: str, message: str) -> None:
    with pytest.raises(ConfigError, match="CURBSIDE_RATE_LIMIT_STORAGE") as caught:
        RateLimiter(uri)
    assert message in caught.value.message


class Note(BaseModel):
    text: str


async def _echo(ctx: ToolContext, args: Note) -> Note:
    return args


def test_per_tool_limits_run_through_the_shared_limiter(tmp_path: Path) -> None:
    core = Curbside(Settings(home=tmp_path / "home"))
    try:
        spec = ToolSpec(
            name="test.limited",
            description="A tool allowed twice a minute (test).",
            args_model=Note,
            result_model=Note,
            handler=_echo,
            category="test",
            requires_phi=False,
            timeout_s=1.0,
            rate_limit=2,
        )
        core.tools.registry.register(spec)
        alice = ToolCaller(user="alice", role="clinician")

        async def calls() -> list[str]:
            outcomes = []
            for caller in (alice, alice, alice, ToolCaller(user="bob", role="clinician")):
                result = await core.tools.call("test.limited", {"text": "hi"}, caller=caller)
                outcomes.append(result.status if result.error is None else f"{result.status}:{result.error.code}")
            return outcomes

        assert asyncio.run(calls()) == ["ok", "ok", "rate_limited:RATE_LIMITED", "ok"]
        # the counters are the application's limiter: resetting it frees alice at once
        core.rate_limiter.reset()
        assert asyncio.run(core.tools.call("test.limited", {"text": "again"}, caller=alice)).status == "ok"
        last = list(core.audit.export(__import__("datetime").datetime(2000, 1, 1)))
        assert [r["outcome"] for r in last] == ["ok", "ok", "RATE_LIMITED", "ok", "ok"]
        assert last[2]["details"]["status"] == "rate_limited"
    finally:
        core.close()
