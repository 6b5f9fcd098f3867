"""The executor through its public entry point, with small real tools and the real default hooks."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel, Field

from curbside.errors import UpstreamError
from curbside.tools import (
    InMemoryAuditSink,
    SlidingWindowRateLimiter,
    ToolContext,
    ToolExecutor,
    ToolHooks,
    ToolResult,
    ToolSpec,
)
from curbside.types import ToolAuditEvent, ToolCaller

ExecutorFactory = Callable[..., ToolExecutor]  # the make_executor fixture (tests/tools/conftest.py)


class EchoArgs(BaseModel):
    text: str = Field(min_length=1)
    times: int = Field(1, ge=1, le=3)


class EchoResult(BaseModel):
    echoed: list[str]
    caller: str


async def echo(ctx: ToolContext, args: EchoArgs) -> EchoResult:
    return EchoResult(echoed=[args.text] * args.times, caller=ctx.caller.user)


def tool(name: str, handler: Any = echo, **changes: Any) -> ToolSpec[Any, Any]:
    fields: dict[str, Any] = {
        "name": name,
        "description": f"Test tool {name}.",
        "args_model": EchoArgs,
        "result_model": EchoResult,
        "handler": handler,
        "category": "test",
        "requires_phi": False,
        "timeout_s": 1.0,
    }
    return ToolSpec(**(fields | changes))


def call(executor: Any, name: str, arguments: Any = None, **kwargs: Any) -> ToolResult:
    result: ToolResult = asyncio.run(executor.call(name, arguments, **kwargs))
    return result


def test_ok_result_is_the_dumped_result_model(make_executor: ExecutorFactory) -> None:
    executor = make_executor(tool("test.echo"))
    result = call(executor, "test.echo", {"text": "hi", "times": 2})
    assert result.status == "ok" and result.ok and result.error is None
    assert result.result == {"echoed": ["hi", "hi"], "caller": "dr-a"}
    assert result.tool == "test.echo" and len(result.call_id) == 32 and result.duration_ms >= 0
    # an already-built argument model is accepted as it is
    assert call(executor, "test.echo", EchoArgs(text="x")).result == {
        "echoed": ["x"],
        "caller": "dr-a",
    }


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({}, "Invalid arguments for tool 'test.echo': text: Field required."),
        (
            {"text": "hi", "times": 9},
            "Invalid arguments for tool 'test.echo': times: Input should be less than or equal to 3.",
        ),
        (
            {"text": 5},
            "Invalid arguments for tool 'test.echo': text: Input should be a valid string.",
        ),
        (
            ["hi"],
            "Arguments for tool 'test.echo' must be a JSON object of named fields, not list.",
        ),
    ],
)
def test_invalid_arguments_give_a_validation_error_naming_the_field(
    make_executor: ExecutorFactory, arguments: Any, message: str
) -> None:
    result = call(make_executor(tool("test.echo")), "test.echo", arguments)
    assert result.status == "error" and result.result is None
    assert result.error is not None
    assert (result.error.code, result.error.message) == ("VALIDATION_ERROR", message)


def test_a_slow_tool_times_out_and_is_cancelled(make_executor: ExecutorFactory) -> None:
    cancelled = []

    async def slow(ctx: ToolContext, args: EchoArgs) -> EchoResult:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.append(ctx.call_id)
            raise
        return EchoResult(echoed=[], caller="")

    executor = make_executor(tool("test.slow", slow, timeout_s=0.05))
    result = call(executor, "test.slow", {"text": "hi"})
    assert result.status == "timeout" and result.error is not None
    assert result.error.code == "TIMEOUT"
    assert result.error.message == "Tool 'test.slow' did not finish within 0.05 s; try again or narrow the request."
    assert cancelled == [result.call_id]


def test_an_unexpected_exception_becomes_internal_error_without_its_text(
    make_executor: ExecutorFactory, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(ctx: ToolContext, args: EchoArgs) -> EchoResult:
        raise RuntimeError("secret detail: patient Jane Roe, MRN 12345")

    result = call(make_executor(tool("test.broken", broken)), "test.broken", {"text": "hi"})
    assert result.status == "error" and result.error is not None
    assert result.error.code == "INTERNAL_ERROR"
    assert "secret" not in result.error.message and "Traceback" not in result.error.message
    assert result.call_id in result.error.message
    # the traceback goes to the server log, under the same call id
    assert any(result.call_id in r.getMessage() and r.exc_info for r in caplog.records)


def test_a_curbside_error_keeps_its_code_and_message(
    make_executor: ExecutorFactory,
) -> None:
    async def upstream(ctx: ToolContext, args: EchoArgs) -> EchoResult:
        raise UpstreamError("The formulary service did not answer.", code="UPSTREAM_TIMEOUT")

    result = call(make_executor(tool("test.upstream", upstream)), "test.upstream", {"text": "hi"})
    assert result.status == "error" and result.error is not None
    assert (result.error.code, result.error.message) == (
        "UPSTREAM_TIMEOUT",
        "The formulary service did not answer.",
    )


def test_a_result_of_the_wrong_type_is_an_internal_error(
    make_executor: ExecutorFactory,
) -> None:
    async def sloppy(ctx: ToolContext, args: EchoArgs) -> Any:
        return {"echoed": [], "caller": ""}

    result = call(make_executor(tool("test.sloppy", sloppy)), "test.sloppy", {"text": "hi"})
    assert result.status == "error" and result.error is not None and result.error.code == "INTERNAL_ERROR"


def test_unknown_tools_are_an_error_result_not_an_exception(
    make_executor: ExecutorFactory,
) -> None:
    executor = make_executor(tool("test.echo"))
    result = call(executor, "test.nope", {})
    assert result.status == "error" and result.error is not None
    assert (result.error.code, result.error.message) == (
        "NOT_FOUND",
        "No tool named 'test.nope'. Known tools: test.echo.",
    )
    assert executor.metrics.registry.get_sample_value("tool_calls_total", {"tool": "_unknown", "status": "error"}) == 1


def test_roles_outside_allowed_roles_are_denied(make_executor: ExecutorFactory) -> None:
    executor = make_executor(tool("test.admin", allowed_roles=frozenset({"admin", "pharmacist"})))
    result = call(executor, "test.admin", {"text": "hi"})
    assert result.status == "denied" and result.error is not None
    assert result.error.code == "PERMISSION_DENIED"
    assert result.error.message.startswith(
        "Role 'clinician' may not call tool 'test.admin'; it is open to: admin, pharmacist."
    )
    admin = ToolCaller(user="root", role="admin")
    assert call(executor, "test.admin", {"text": "hi"}, caller=admin).result == {
        "echoed": ["hi"],
        "caller": "root",
    }


def test_calls_over_the_rate_limit_are_refused_until_the_window_moves(
    make_executor: ExecutorFactory,
) -> None:
    now = [1000.0]
    limiter = SlidingWindowRateLimiter(window_s=60, clock=lambda: now[0])
    executor = make_executor(tool("test.limited", rate_limit=2), hooks=ToolHooks(rate_limiter=limiter))
    assert [call(executor, "test.limited", {"text": "a"}).status for _ in range(2)] == [
        "ok",
        "ok",
    ]
    now[0] += 20
    refused = call(executor, "test.limited", {"text": "a"})
    assert refused.status == "rate_limited" and refused.error is not None
    assert refused.error.code == "RATE_LIMITED" and refused.error.retry_after == 40.0
    # another user has a budget of their own
    other = ToolCaller(user="dr-b", role="clinician")
    assert call(executor, "test.limited", {"text": "a"}, caller=other).status == "ok"
    now[0] += 40
    assert call(executor, "test.limited", {"text": "a"}).status == "ok"


def test_confirmation_is_asked_and_only_an_explicit_confirm_runs_the_tool(
    make_executor: ExecutorFactory,
) -> None:
    runs = []

    async def change(ctx: ToolContext, args: EchoArgs) -> EchoResult:
        runs.append(args.text)
        return EchoResult(echoed=[args.text], caller=ctx.caller.user)

    limiter = SlidingWindowRateLimiter(window_s=60)
    spec = tool(
        "test.change",
        change,
        requires_confirmation=True,
        risk_level="high",
        rate_limit=1,
    )
    executor = make_executor(spec, hooks=ToolHooks(rate_limiter=limiter))
    asked = call(executor, "test.change", {"text": "hi"})
    assert asked.status == "needs_confirmation" and asked.result is None and asked.error is not None
    assert asked.error.code == "CONFIRMATION_REQUIRED"
    assert "needs your confirmation" in asked.error.message and asked.confirmation is not None
    assert asked.confirmation.id in asked.error.message and asked.confirmation.tool == "test.change"
    assert runs == []
    # asking did not spend the one call a minute this tool allows
    confirmed = call(executor, "test.change", {"text": "hi"}, confirm=True)
    assert confirmed.status == "ok" and runs == ["hi"]


def test_metrics_count_outcomes_and_time_executions(
    make_executor: ExecutorFactory,
) -> None:
    async def broken(ctx: ToolContext, args: EchoArgs) -> EchoResult:
        raise ValueError("boom")

    executor = make_executor(tool("test.echo"), tool("test.broken", broken))
    for arguments in ({"text": "a"}, {"text": "b"}, {}):
        call(executor, "test.echo", arguments)
    call(executor, "test.broken", {"text": "a"})
    sample = executor.metrics.registry.get_sample_value
    assert sample("tool_calls_total", {"tool": "test.echo", "status": "ok"}) == 2
    assert sample("tool_calls_total", {"tool": "test.echo", "status": "error"}) == 1
    assert sample("tool_calls_total", {"tool": "test.broken", "status": "error"}) == 1
    # the histogram times handlers that ran: the invalid call never reached one
    assert sample("tool_execution_duration_seconds_count", {"tool": "test.echo"}) == 2
    assert sample("tool_execution_duration_seconds_count", {"tool": "test.broken"}) == 1
    assert (
        sample(
            "tool_execution_duration_seconds_bucket",
            {"tool": "test.echo", "le": "+Inf"},
        )
        == 2
    )
    assert sample("tool_execution_duration_seconds_sum", {"tool": "test.echo"}) > 0


def test_each_application_has_its_own_metrics_registry(sample_app: Any, scratch_app: Any) -> None:
    from prometheus_client import REGISTRY

    assert sample_app.tools.metrics.registry is not scratch_app.tools.metrics.registry
    assert sample_app.tools.metrics.registry is not REGISTRY
    assert REGISTRY.get_sample_value("tool_calls_total", {"tool": "source.passages", "status": "ok"}) is None


def test_every_call_is_audited_without_argument_values(
    make_executor: ExecutorFactory,
) -> None:
    sink = InMemoryAuditSink(keep=10)
    executor = make_executor(
        tool("test.echo", allowed_roles=frozenset({"admin"})),
        hooks=ToolHooks(audit=sink),
    )
    denied = call(
        executor,
        "test.echo",
        {"text": "Jane Roe"},
        caller=ToolCaller(user="u1", role="clerk", session="s9"),
    )
    ok = call(
        executor,
        "test.echo",
        {"text": "Jane Roe"},
        caller=ToolCaller(user="u2", role="admin"),
    )
    first, second = sink.events
    assert (
        first.call_id,
        first.status,
        first.error_code,
        first.user,
        first.role,
        first.session,
    ) == (denied.call_id, "denied", "PERMISSION_DENIED", "u1", "clerk", "s9")
    assert (second.call_id, second.status, second.error_code, second.requires_phi) == (
        ok.call_id,
        "ok",
        None,
        False,
    )
    assert first.argument_names == ("text",) and first.arguments_sha256 == second.arguments_sha256
    assert "Jane Roe" not in repr(first)


def test_a_failing_audit_sink_does_not_fail_the_call(
    make_executor: ExecutorFactory, caplog: pytest.LogCaptureFixture
) -> None:
    class BrokenSink:
        def record(self, event: ToolAuditEvent) -> None:
            raise OSError("disk full")

    executor = make_executor(tool("test.echo"), hooks=ToolHooks(audit=BrokenSink()))
    result = call(executor, "test.echo", {"text": "hi"})
    assert result.status == "ok"
    assert any("audit sink failed" in r.getMessage() for r in caplog.records)


def test_warm_up_runs_each_tools_warm_up_and_reports_the_ones_that_fail(
    make_executor: ExecutorFactory,
) -> None:
    from curbside.errors import ConfigError

    warmed: list[str] = []

    def cold() -> None:
        raise ConfigError("The formulary is not loaded; run `curbside coverage load DIR`.")

    executor = make_executor(
        tool("test.warm", warm_up=lambda: warmed.append("warm")),
        tool("test.cold", warm_up=cold),
        tool("test.plain"),
    )
    assert executor.warm_up(["test.plain"]) == {} and warmed == []
    problems = executor.warm_up()
    assert warmed == ["warm"]
    assert problems == {"test.cold": "[CONFIG_ERROR] The formulary is not loaded; run `curbside coverage load DIR`."}


def test_a_tool_not_warmed_at_start_warms_before_its_first_call_outside_its_timeout(
    make_executor: ExecutorFactory,
) -> None:
    import time

    warmed: list[str] = []

    def slow_warm() -> None:  # longer than the tool's 1 s budget: loading a model, building an index
        time.sleep(1.2)
        warmed.append("warm")

    executor = make_executor(tool("test.echo", warm_up=slow_warm))
    first = call(executor, "test.echo", {"text": "hi"})
    assert first.status == "ok" and warmed == ["warm"]
    assert call(executor, "test.echo", {"text": "again"}).status == "ok" and warmed == ["warm"]  # once


def test_a_failing_check_fails_closed_without_raising(
    make_executor: ExecutorFactory, caplog: pytest.LogCaptureFixture
) -> None:
    runs: list[str] = []

    class DownLimiter:
        def acquire(self, caller: ToolCaller, spec: ToolSpec[Any, Any]) -> None:
            raise ConnectionError("redis://limiter:6379 refused the connection")

    async def counted(ctx: ToolContext, args: EchoArgs) -> EchoResult:
        runs.append(args.text)
        return EchoResult(echoed=[], caller="")

    executor = make_executor(tool("test.echo", counted), hooks=ToolHooks(rate_limiter=DownLimiter()))
    result = call(executor, "test.echo", {"text": "hi"})
    assert result.status == "error" and result.error is not None
    assert result.error.code == "INTERNAL_ERROR" and "redis" not in result.error.message
    assert runs == []
    assert any(result.call_id in r.getMessage() for r in caplog.records)


def test_a_call_cancelled_by_its_caller_still_leaves_an_audit_row(make_executor: ExecutorFactory) -> None:
    sink = InMemoryAuditSink(keep=10)

    async def slow(ctx: ToolContext, args: EchoArgs) -> EchoResult:
        await asyncio.sleep(5)
        raise AssertionError("not reached")

    executor = make_executor(tool("test.slow", slow, timeout_s=10.0), hooks=ToolHooks(audit=sink))

    async def outer() -> None:
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.05):  # the orchestrator's total budget, not the tool's own timeout
                await executor.call("test.slow", {"text": "x"})

    asyncio.run(outer())
    (event,) = sink.events
    assert event.tool == "test.slow" and event.status == "timeout" and event.error_code == "CANCELLED"


def test_a_tool_asks_for_corrected_arguments_with_tool_retry(make_executor: ExecutorFactory) -> None:
    """The control-flow signal an agent's validate → fix loop reads: the message says what to change."""
    from curbside.errors import ToolRetry

    async def picky(ctx: ToolContext[None], args: EchoArgs) -> EchoResult:
        if args.text != args.text.strip():
            raise ToolRetry("text has spaces at its ends; call again with the text trimmed.")
        return EchoResult(echoed=[args.text] * args.times, caller=ctx.caller.user)

    executor = make_executor(tool("test.picky", handler=picky))
    result = call(executor, "test.picky", {"text": " hi ", "times": 2})
    assert result.status == "error" and result.error is not None
    assert (result.error.code, result.error.message) == (
        "TOOL_RETRY",
        "text has spaces at its ends; call again with the text trimmed.",
    )
    assert call(executor, "test.picky", {"text": "hi", "times": 2}).ok
