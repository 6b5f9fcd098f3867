"""Run a tool call: validate, permit, confirm, rate-limit, time out, measure, audit.

``ToolExecutor.call`` never raises to its caller (cancellation aside): every outcome
is a ``ToolResult``. The order of the checks follows the spec's invocation flow,
with one choice of ours: confirmation is asked before the rate limit is counted, so
the round trip "needs_confirmation, then confirmed" spends one call, not two.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from curbside.errors import (
    CurbsideError,
    PermissionDeniedError,
    RateLimitedError,
    ValidationError,
)
from curbside.tools.base import ToolContext, ToolErrorDetail, ToolResult, ToolSpec
from curbside.tools.confirmations import ConfirmationStore, PendingCall
from curbside.tools.hooks import ToolHooks
from curbside.tools.metrics import ToolMetrics
from curbside.tools.registry import ToolRegistry
from curbside.types import ToolAuditEvent, ToolCaller, ToolStatus

__all__ = ["UNKNOWN_TOOL_LABEL", "ToolExecutor"]

log = logging.getLogger("curbside.tools")

# metrics label for names that are not registered: keeps label cardinality bounded
UNKNOWN_TOOL_LABEL = "_unknown"
_MAX_LISTED_ERRORS = 5


class ToolExecutor:
    """The one way tools run, whichever interface asked."""

    def __init__(
        self,
        registry: ToolRegistry,
        *,
        default_caller: ToolCaller,
        hooks: ToolHooks | None = None,
        metrics: ToolMetrics | None = None,
        confirmations: ConfirmationStore | None = None,
    ) -> None:
        self.registry = registry
        self.default_caller = default_caller
        self.hooks = hooks or ToolHooks()
        self.metrics = metrics or ToolMetrics()
        self.confirmations = confirmations or ConfirmationStore()
        self._warmed: set[str] = set()  # tools whose warm-up has run (once, even when it could not warm)

    async def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | BaseModel | None = None,
        *,
        caller: ToolCaller | None = None,
        confirm: bool = False,
        confirmation_id: str | None = None,
    ) -> ToolResult:
        """Run tool ``name``; ``confirm=True`` is the user's explicit approval of this call (a scripted
        run's ``--yes``); without it, a tool that needs confirmation leaves a pending call to decide."""
        started = time.perf_counter()
        call = _Call(
            name=name,
            caller=caller or self.default_caller,
            confirmed=confirm,
            started=started,
            confirmation_id=confirmation_id,
        )
        try:
            spec = self.registry.get(name)
        except CurbsideError as exc:
            return await self._finish(call, None, "error", _detail(exc))
        try:
            args = _validate(spec, arguments, call)
            self.hooks.permissions.authorize(call.caller, spec)
            prompt = self.hooks.confirmation.prompt(call.caller, spec, call.argument_dict)
            if prompt is not None and not confirm:
                return await self._ask_confirmation(call, spec, args, prompt)
            self.hooks.rate_limiter.acquire(call.caller, spec)
        except PermissionDeniedError as exc:
            return await self._finish(call, spec, "denied", _detail(exc))
        except RateLimitedError as exc:
            return await self._finish(call, spec, "rate_limited", _detail(exc))
        except CurbsideError as exc:
            return await self._finish(call, spec, "error", _detail(exc))
        except Exception:
            # a failing check (e.g. a limiter whose store is down) fails closed: the tool does not run
            log.exception("checks for tool %s failed (call_id=%s)", name, call.call_id)
            return await self._finish(call, spec, "error", _internal(spec, call))
        return await self._run(spec, args, call)

    async def _ask_confirmation(
        self, call: _Call, spec: ToolSpec[Any, Any], args: BaseModel, prompt: str
    ) -> ToolResult:
        await self.record_expired()
        summary = spec.describe(args) if spec.describe is not None else prompt
        if spec.prepare is not None:
            ctx = ToolContext(deps=spec.deps, caller=call.caller, call_id=call.call_id, tool=spec.name)
            try:
                async with asyncio.timeout(spec.timeout_s):
                    summary = await spec.prepare(ctx, args)
            except TimeoutError:
                detail = ToolErrorDetail(
                    code="TIMEOUT", message=f"Tool {spec.name!r} could not check the call within {spec.timeout_s:g} s."
                )
                return await self._finish(call, spec, "timeout", detail)
            except CurbsideError as exc:  # refused before anyone is asked to approve it
                return await self._finish(call, spec, "error", _detail(exc))
        pending = self.confirmations.create(call.caller, spec.name, args.model_dump(mode="json"), summary)
        call.confirmation_id = pending.id
        if call.caller.channel == "cli":  # the waiting call ends with the process: say what works there
            how = "run it at a terminal to be asked, or again with --yes after reviewing it"
        else:
            how = (
                f"approve or deny {pending.id} (POST /v1/confirmations/{pending.id}; over MCP, confirmations.decide) "
                f"within {self.confirmations.ttl_s:g} s, or it is denied"
            )
        message = f"{summary} — needs your confirmation: {how}."
        detail = ToolErrorDetail(code="CONFIRMATION_REQUIRED", message=message)
        return await self._finish(call, spec, "needs_confirmation", detail, confirmation=pending)

    def pending_confirmations(self, caller: ToolCaller) -> list[PendingCall]:
        return self.confirmations.pending(caller)

    async def decide(self, confirmation_id: str, *, approve: bool, caller: ToolCaller | None = None) -> ToolResult:
        """The clinician's answer to a waiting call: approved, it runs as it was asked (checks again);
        denied or expired, it does not run. Either way the outcome is on the audit trail."""
        who = caller or self.default_caller
        pending = self.confirmations.take(confirmation_id, who)  # NotFoundError: not waiting for this user
        await self.record_expired()  # the others whose time ran out
        if self.confirmations.is_expired(pending):
            return await self._refuse(pending, "CONFIRMATION_EXPIRED", "expired before it was approved")
        if not approve:
            return await self._refuse(pending, "CONFIRMATION_DENIED", f"was denied by {who.user}")
        return await self.call(
            pending.tool, pending.arguments, caller=pending.caller, confirm=True, confirmation_id=pending.id
        )

    async def record_expired(self) -> None:
        """Record a denial for every waiting call whose time ran out."""
        for pending in self.confirmations.expired():
            await self._refuse(pending, "CONFIRMATION_EXPIRED", "expired before it was approved")

    async def _refuse(self, pending: PendingCall, code: str, why: str) -> ToolResult:
        call = _Call(
            name=pending.tool,
            caller=pending.caller,
            confirmed=False,
            started=time.perf_counter(),
            argument_dict=pending.arguments,
            confirmation_id=pending.id,
        )
        spec = self.registry.get(pending.tool)
        detail = ToolErrorDetail(code=code, message=f"The call to {pending.tool} {why}; nothing was done.")
        return await self._finish(call, spec, "denied", detail)

    async def _run(self, spec: ToolSpec[Any, Any], args: BaseModel, call: _Call) -> ToolResult:
        ctx = ToolContext(deps=spec.deps, caller=call.caller, call_id=call.call_id, tool=spec.name)
        self._warm_once(spec)  # a process that did not warm up at start (the agent's CLI turn): not on the clock
        ran = time.perf_counter()
        try:
            async with asyncio.timeout(spec.timeout_s):
                output = await spec.handler(ctx, args)
            result = _result_dict(spec, output)
        except TimeoutError:
            # asyncio.timeout turns its own cancellation into TimeoutError; a handler's own
            # TimeoutError (e.g. from a socket) lands here too and means the same to a caller
            detail = ToolErrorDetail(
                code="TIMEOUT",
                message=f"Tool {spec.name!r} did not finish within {spec.timeout_s:g} s; try again or narrow the request.",
            )
            return await self._finish(call, spec, "timeout", detail, ran=ran)
        except CurbsideError as exc:
            return await self._finish(call, spec, "error", _detail(exc), ran=ran)
        except asyncio.CancelledError:
            # cancelled by whoever awaited the call (an orchestrator's total timeout): no result, but a row
            detail = ToolErrorDetail(code="CANCELLED", message=f"Tool {spec.name!r} was cancelled by its caller.")
            self._audit(call, spec, self._outcome(call, "timeout", detail, None))
            raise
        except Exception:
            # a bug or an unforeseen failure: the traceback stays in the server log, keyed by call id
            log.exception("tool %s failed unexpectedly (call_id=%s)", spec.name, call.call_id)
            return await self._finish(call, spec, "error", _internal(spec, call), ran=ran)
        return await self._finish(call, spec, "ok", None, result=result, ran=ran)

    async def _finish(
        self,
        call: _Call,
        spec: ToolSpec[Any, Any] | None,
        status: ToolStatus,
        error: ToolErrorDetail | None,
        *,
        result: dict[str, Any] | None = None,
        ran: float | None = None,
        confirmation: PendingCall | None = None,
    ) -> ToolResult:
        ended = time.perf_counter()
        label = spec.name if spec is not None else UNKNOWN_TOOL_LABEL
        self.metrics.count(label, status)
        if ran is not None:
            self.metrics.observe(label, ended - ran)
        outcome = self._outcome(call, status, error, result, ended=ended)
        if confirmation is not None:
            outcome.confirmation = confirmation.info()
        if spec is not None and result is not None and spec.audit_fields:
            call.result_refs = {k: str(result[k]) for k in spec.audit_fields if result.get(k) is not None}
        # the trail's write ends in an fsync: off the event loop, so concurrent calls do not queue behind it
        await asyncio.to_thread(self._audit, call, spec, outcome)
        return outcome

    @staticmethod
    def _outcome(
        call: _Call,
        status: ToolStatus,
        error: ToolErrorDetail | None,
        result: dict[str, Any] | None,
        *,
        ended: float | None = None,
    ) -> ToolResult:
        ended = time.perf_counter() if ended is None else ended
        return ToolResult(
            tool=call.name,
            status=status,
            result=result,
            error=error,
            duration_ms=round((ended - call.started) * 1000, 3),
            call_id=call.call_id,
        )

    def _audit(self, call: _Call, spec: ToolSpec[Any, Any] | None, outcome: ToolResult) -> None:
        canonical = json.dumps(call.argument_dict, sort_keys=True, default=str, ensure_ascii=False)
        event = ToolAuditEvent(
            call_id=call.call_id,
            tool=call.name,
            user=call.caller.user,
            role=call.caller.role,
            session=call.caller.session,
            status=outcome.status,
            error_code=outcome.error.code if outcome.error else None,
            duration_ms=outcome.duration_ms,
            requires_phi=spec.requires_phi if spec is not None else True,  # unknown: assume PHI
            confirmed=call.confirmed,
            argument_names=tuple(sorted(call.argument_dict)),
            arguments_sha256=hashlib.sha256(canonical.encode()).hexdigest(),
            channel=call.caller.channel,
            confirmation_id=call.confirmation_id,
            result_refs=call.result_refs,
        )
        try:
            self.hooks.audit.record(event)
        except CurbsideError as exc:  # e.g. AUDIT_INTEGRITY: the trail says why; one line, no traceback
            log.error("tool call %s was not recorded on the audit trail: [%s] %s", call.call_id, exc.code, exc.message)
        except Exception:
            # the call already happened; losing its audit row must be loud, not fatal to the caller
            log.exception("audit sink failed to record tool call %s", call.call_id)

    def warm_up(self, names: Iterable[str] | None = None) -> dict[str, str]:
        """Run the warm-up of the named tools (default: all); returns those that could not warm, with why."""
        wanted = None if names is None else set(names)
        problems: dict[str, str] = {}
        for spec in self.registry:
            if spec.warm_up is None or (wanted is not None and spec.name not in wanted):
                continue
            self._warmed.add(spec.name)
            try:
                spec.warm_up()
            except CurbsideError as exc:  # e.g. its data is not loaded: calls will say so themselves
                problems[spec.name] = f"[{exc.code}] {exc.message}"
                log.warning("tool %s did not warm up: %s", spec.name, exc.message)
        return problems

    def _warm_once(self, spec: ToolSpec[Any, Any]) -> None:
        """Warm a tool before its first call, outside its timeout: loading a model or building an index never
        counts against a call's budget, whichever interface forgot to warm up first."""
        if spec.warm_up is not None and spec.name not in self._warmed:
            try:
                self.warm_up([spec.name])
            except Exception:  # the call itself will meet the problem and say so
                log.exception("tool %s failed to warm up", spec.name)


@dataclass
class _Call:
    """Per-call bookkeeping shared by the checks and the audit record."""

    name: str
    caller: ToolCaller
    confirmed: bool
    started: float
    call_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    argument_dict: dict[str, Any] = field(default_factory=dict)
    confirmation_id: str | None = None
    result_refs: dict[str, str] | None = None


def _validate(
    spec: ToolSpec[Any, Any],
    arguments: Mapping[str, Any] | BaseModel | None,
    call: _Call,
) -> BaseModel:
    if isinstance(arguments, spec.args_model):
        call.argument_dict = arguments.model_dump(mode="json")
        return arguments
    if isinstance(arguments, BaseModel):
        arguments = arguments.model_dump(mode="json")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, Mapping):
        raise ValidationError(
            f"Arguments for tool {spec.name!r} must be a JSON object of named fields, not {type(arguments).__name__}."
        )
    raw = {str(k): v for k, v in arguments.items()}
    call.argument_dict = raw
    try:
        return spec.args_model.model_validate(raw)
    except PydanticValidationError as exc:
        raise ValidationError(_validation_message(spec.name, exc)) from None


def _validation_message(tool: str, exc: PydanticValidationError) -> str:
    errors = exc.errors(include_url=False)
    parts = []
    for err in errors[:_MAX_LISTED_ERRORS]:
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        parts.append(f"{where}: {err['msg'].rstrip('.')}")
    more = f" (and {len(errors) - _MAX_LISTED_ERRORS} more)" if len(errors) > _MAX_LISTED_ERRORS else ""
    return f"Invalid arguments for tool {tool!r}: " + "; ".join(parts) + more + "."


def _result_dict(spec: ToolSpec[Any, Any], output: object) -> dict[str, Any]:
    if not isinstance(output, spec.result_model):
        # the declared output is part of the tool's contract: a mismatch is a bug in the tool
        raise TypeError(f"tool {spec.name} returned {type(output).__name__}, not {spec.result_model.__name__}")
    return output.model_dump(mode="json")


def _internal(spec: ToolSpec[Any, Any], call: _Call) -> ToolErrorDetail:
    return ToolErrorDetail(
        code="INTERNAL_ERROR",
        message=f"Tool {spec.name!r} failed unexpectedly; the server log has the details under call id {call.call_id}.",
    )


def _detail(exc: CurbsideError) -> ToolErrorDetail:
    retry_after = exc.retry_after if isinstance(exc, RateLimitedError) else None
    return ToolErrorDetail(code=exc.code, message=exc.message, retry_after=retry_after)
