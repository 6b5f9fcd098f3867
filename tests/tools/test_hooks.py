"""The default hooks on their own: roles, the sliding window, confirmation, the audit sink."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from pydantic import BaseModel

from curbside.errors import PermissionDeniedError, RateLimitedError
from curbside.tools import (
    ExplicitConfirmation,
    InMemoryAuditSink,
    RolePermissionPolicy,
    SlidingWindowRateLimiter,
    ToolContext,
    ToolSpec,
)
from curbside.types import ToolAuditEvent, ToolCaller


class Args(BaseModel):
    q: str = ""


async def handler(ctx: ToolContext, args: Args) -> Args:
    return args


def spec(name: str = "test.hook", **changes: Any) -> ToolSpec[Any, Any]:
    fields: dict[str, Any] = {
        "name": name,
        "description": "Hook test tool.",
        "args_model": Args,
        "result_model": Args,
        "handler": handler,
        "category": "test",
        "requires_phi": False,
        "timeout_s": 1.0,
    }
    return ToolSpec(**(fields | changes))


CLINICIAN = ToolCaller(user="dr-a", role="clinician")


def test_role_policy_opens_undeclared_tools_to_everyone_and_guards_declared_ones() -> None:
    policy = RolePermissionPolicy()
    policy.authorize(ToolCaller(user="x", role="anyone"), spec())
    guarded = spec(allowed_roles=frozenset({"pharmacist"}))
    policy.authorize(ToolCaller(user="p", role="pharmacist"), guarded)
    with pytest.raises(PermissionDeniedError, match="Role 'clinician' may not call tool 'test.hook'"):
        policy.authorize(CLINICIAN, guarded)


def test_sliding_window_counts_per_user_and_tool_and_frees_slots_as_calls_age() -> None:
    now = [0.0]
    limiter = SlidingWindowRateLimiter(window_s=10, clock=lambda: now[0])
    a, b = spec("test.a", rate_limit=3), spec("test.b", rate_limit=3)
    for t in (0.0, 1.0, 2.0):
        now[0] = t
        limiter.acquire(CLINICIAN, a)
    with pytest.raises(RateLimitedError) as caught:
        limiter.acquire(CLINICIAN, a)
    assert caught.value.retry_after == 8.0
    limiter.acquire(CLINICIAN, b)  # another tool
    limiter.acquire(ToolCaller(user="dr-b", role="clinician"), a)  # another user
    now[0] = 10.0  # the call at t=0 has left the window; t=1 and t=2 remain
    limiter.acquire(CLINICIAN, a)
    with pytest.raises(RateLimitedError):
        limiter.acquire(CLINICIAN, a)


def test_tools_without_a_rate_limit_are_never_limited() -> None:
    limiter = SlidingWindowRateLimiter(window_s=60, clock=lambda: 0.0)
    for _ in range(500):
        limiter.acquire(CLINICIAN, spec(rate_limit=None))


def test_refused_calls_do_not_use_up_the_window() -> None:
    now = [0.0]
    limiter = SlidingWindowRateLimiter(window_s=10, clock=lambda: now[0])
    limited = spec(rate_limit=1)
    limiter.acquire(CLINICIAN, limited)
    for t in (1.0, 5.0, 9.0):
        now[0] = t
        with pytest.raises(RateLimitedError):
            limiter.acquire(CLINICIAN, limited)
    now[0] = 10.0
    limiter.acquire(CLINICIAN, limited)


def test_explicit_confirmation_asks_only_for_tools_that_require_it() -> None:
    policy = ExplicitConfirmation()
    assert policy.prompt(CLINICIAN, spec(), {"q": "x"}) is None
    prompt = policy.prompt(CLINICIAN, spec(requires_confirmation=True, risk_level="medium"), {"q": "x"})
    assert prompt == "Tool 'test.hook' (medium risk) with arguments: q"


def test_audit_sink_keeps_the_latest_events_and_logs_a_hashed_user(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sink = InMemoryAuditSink(keep=2)
    for n in range(3):
        event = ToolAuditEvent(
            call_id=f"c{n}",
            tool="test.hook",
            user="dr-alice",
            role="clinician",
            session=None,
            status="ok",
            error_code=None,
            duration_ms=1.0,
            requires_phi=True,
            confirmed=False,
            argument_names=("q",),
            arguments_sha256="0" * 64,
        )
        with caplog.at_level(logging.INFO, logger="curbside.tools.audit"):
            sink.record(event)
    assert [e.call_id for e in sink.events] == ["c1", "c2"]
    assert "call_id=c2 tool=test.hook status=ok" in caplog.text
    assert "dr-alice" not in caplog.text
