"""Pending confirmations: a call that needs approval waits by id; approved it runs as asked,
denied or expired it does not; only its caller may decide or see it; every outcome is audited."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import BaseModel

from curbside.errors import NotFoundError
from curbside.tools import InMemoryAuditSink, ToolContext, ToolExecutor, ToolHooks, ToolRegistry, ToolSpec
from curbside.tools.confirmations import ConfirmationStore
from curbside.types import ToolCaller

DR_A = ToolCaller(user="dr-a", role="clinician", channel="http")
DR_B = ToolCaller(user="dr-b", role="clinician", channel="http")


class NoteArgs(BaseModel):
    text: str


class Saved(BaseModel):
    resource_type: str
    id: str
    text: str


def _executor(clock: list[float]) -> tuple[ToolExecutor, list[str], InMemoryAuditSink]:
    saved: list[str] = []

    async def save(ctx: ToolContext, args: NoteArgs) -> Saved:
        saved.append(args.text)
        return Saved(resource_type="DocumentReference", id=f"doc-{len(saved)}", text=args.text)

    registry = ToolRegistry()
    registry.register(
        ToolSpec(
            name="test.save_note",
            description="Save a note.",
            args_model=NoteArgs,
            result_model=Saved,
            handler=save,
            category="test",
            requires_phi=True,
            timeout_s=2.0,
            requires_confirmation=True,
            risk_level="medium",
            describe=lambda args: f"Save a clinical note of {len(args.text)} characters",
            audit_fields=("resource_type", "id"),
        )
    )
    sink = InMemoryAuditSink()
    executor = ToolExecutor(
        registry,
        default_caller=DR_A,
        hooks=ToolHooks(audit=sink),
        confirmations=ConfirmationStore(ttl_s=60, clock=lambda: clock[0]),
    )
    return executor, saved, sink


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_a_write_waits_then_runs_once_approved_with_its_resource_on_the_trail() -> None:
    clock = [1000.0]
    executor, saved, sink = _executor(clock)
    asked = _run(executor.call("test.save_note", {"text": "Seen today; BP 150/95."}))
    assert asked.status == "needs_confirmation" and saved == [] and asked.confirmation is not None
    assert asked.confirmation.summary == "Save a clinical note of 22 characters"
    assert [p.id for p in executor.pending_confirmations(DR_A)] == [asked.confirmation.id]
    assert executor.pending_confirmations(DR_B) == []  # another user's waiting calls are not shown
    done = _run(executor.decide(asked.confirmation.id, approve=True, caller=DR_A))
    assert done.status == "ok" and saved == ["Seen today; BP 150/95."]
    asked_row, done_row = sink.events
    assert asked_row.status == "needs_confirmation" and done_row.confirmed
    assert asked_row.confirmation_id == done_row.confirmation_id == asked.confirmation.id
    assert done_row.result_refs == {"resource_type": "DocumentReference", "id": "doc-1"}
    # the note's content never reaches the trail ("BP" alone can occur in a random confirmation id)
    assert "Seen today" not in str(done_row) and "150/95" not in str(done_row)
    with pytest.raises(NotFoundError):  # decided once only
        _run(executor.decide(asked.confirmation.id, approve=True, caller=DR_A))


def test_a_denied_write_does_nothing_and_is_recorded() -> None:
    executor, saved, sink = _executor([0.0])
    asked = _run(executor.call("test.save_note", {"text": "x"}))
    assert asked.confirmation is not None
    denied = _run(executor.decide(asked.confirmation.id, approve=False, caller=DR_A))
    assert denied.status == "denied" and denied.error is not None and denied.error.code == "CONFIRMATION_DENIED"
    assert saved == [] and sink.events[-1].error_code == "CONFIRMATION_DENIED"


def test_expiry_denies_and_is_recorded_even_when_nobody_decides() -> None:
    clock = [0.0]
    executor, saved, sink = _executor(clock)
    late = _run(executor.call("test.save_note", {"text": "late"}))
    forgotten = _run(executor.call("test.save_note", {"text": "forgotten"}))
    assert late.confirmation is not None and forgotten.confirmation is not None
    clock[0] = 61.0
    expired = _run(executor.decide(late.confirmation.id, approve=True, caller=DR_A))
    assert expired.status == "denied" and expired.error is not None and expired.error.code == "CONFIRMATION_EXPIRED"
    assert saved == []
    codes = [(e.confirmation_id, e.error_code) for e in sink.events if e.error_code == "CONFIRMATION_EXPIRED"]
    assert sorted(codes) == sorted(
        [(late.confirmation.id, "CONFIRMATION_EXPIRED"), (forgotten.confirmation.id, "CONFIRMATION_EXPIRED")]
    )


def test_only_the_caller_may_decide() -> None:
    executor, saved, _ = _executor([0.0])
    asked = _run(executor.call("test.save_note", {"text": "mine"}))
    assert asked.confirmation is not None
    with pytest.raises(NotFoundError):
        _run(executor.decide(asked.confirmation.id, approve=True, caller=DR_B))
    assert saved == [] and len(executor.pending_confirmations(DR_A)) == 1


def test_a_scripted_run_confirms_up_front_and_is_audited_as_confirmed() -> None:
    executor, saved, sink = _executor([0.0])
    done = _run(executor.call("test.save_note", {"text": "scripted"}, confirm=True))
    assert done.status == "ok" and saved == ["scripted"] and sink.events[-1].confirmed
    assert executor.pending_confirmations(DR_A) == []


def test_prepare_checks_before_asking_and_names_what_it_found() -> None:
    from dataclasses import replace

    from curbside.errors import ValidationError

    executor, saved, sink = _executor([0.0])
    spec = executor.registry.get("test.save_note")

    async def prepare(ctx: ToolContext, args: NoteArgs) -> str:
        if args.text == "nobody":
            raise ValidationError("There is no such patient.")
        return f"Save a note for Jane Doe, born 1950-01-01 ({ctx.caller.user} asking)"

    registry = ToolRegistry()
    registry.register(replace(spec, prepare=prepare))
    executor.registry = registry
    refused = _run(executor.call("test.save_note", {"text": "nobody"}))
    assert refused.status == "error" and refused.confirmation is None
    assert executor.pending_confirmations(DR_A) == [] and saved == []
    asked = _run(executor.call("test.save_note", {"text": "fine"}))
    assert asked.confirmation is not None
    assert asked.confirmation.summary == "Save a note for Jane Doe, born 1950-01-01 (dr-a asking)"
