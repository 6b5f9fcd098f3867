"""`curbside turn "…"`: one consult turn — the answer with its sources, the writes it proposes,
and the timeline of what it did."""

from __future__ import annotations

import sys
from datetime import datetime
from typing import TYPE_CHECKING

import click

from curbside.cli._common import JsonCommand, app_context, echo_json

if TYPE_CHECKING:
    from curbside.agent.models import TurnResult

__all__ = ["turn"]


@click.command("turn", cls=JsonCommand)
@click.argument("message")
@click.option("--patient", "patient_id", metavar="ID", help="The active patient's FHIR id (CURBSIDE_FHIR_URL).")
@click.option("--session", "session_id", metavar="ID", help="Continue this conversation.")
@click.option(
    "--now",
    type=click.DateTime(formats=["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M:%S%z"]),
    help="Reference time (replaying a recorded case), e.g. 2024-02-01T09:00:00+00:00.",
)
@click.option("--yes", "-y", "approve", is_flag=True, help="Approve the writes this turn proposes (audited).")
@click.option("--json", "as_json", is_flag=True, help="Print the whole result: timeline, tool calls, writes.")
def turn(
    message: str, patient_id: str | None, session_id: str | None, now: datetime | None, approve: bool, as_json: bool
) -> None:
    """Answer MESSAGE as a consult: read the chart (--patient), call the tools it needs, cite them.

    Writes to the chart are proposed, not made: at a terminal you are asked to approve each; with
    --yes they are approved (a scripted run, audited as confirmed); otherwise they wait and are listed.
    Exit 0 answered, 3 a write waits or a question comes back, 5 nothing could answer.

      curbside turn "last HbA1c?" --patient a59944cf-1153-25c3-cc82-e5bfa70d63c2

      curbside turn "CHA2DS2-VASc for this patient" --patient ID --json
    """
    import asyncio

    from curbside.agent.models import TurnRequest
    from curbside.auth.access import operator_caller

    with app_context() as core:
        caller = operator_caller(core.settings, channel="cli")
        request = TurnRequest(
            message=message, patient_id=patient_id, session_id=session_id, now=now, approve_writes=approve
        )
        result = asyncio.run(core.turn(request, caller, channel="cli"))
        if not as_json and not approve and result.proposed_writes and _interactive():
            result = _ask_each(core, result, caller)
    if as_json:
        echo_json(result.model_dump(mode="json"))
    else:
        _print(result)
    code = _exit_code(result)
    if code:
        sys.exit(code)


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stderr.isatty()


def _ask_each(core: object, result: TurnResult, caller: object) -> TurnResult:
    """At a terminal: put each waiting write to the clinician, in this process (the confirmation lives here)."""
    import asyncio

    tools = core.tools  # type: ignore[attr-defined]
    for write in result.proposed_writes:
        if write.outcome != "waiting" or write.confirmation is None:
            continue
        approve = click.confirm(f"{write.summary}\nApprove?", default=False, err=True)
        decided = asyncio.run(tools.decide(write.confirmation.id, approve=approve, caller=caller))
        write.outcome = "approved" if decided.ok else "denied"
        if decided.ok and decided.result:
            write.resource = decided.result.get("reference") or decided.result.get("uid")
    return result


def _print(result: TurnResult) -> None:
    click.echo(result.final_response)
    if result.sources_used:
        click.echo("\nSources:")
        for source in result.sources_used:
            where = f" — {source.url}" if source.url else (f" — {source.id}" if source.id else "")
            click.echo(f"  [{source.n}] {source.title}{where}")
    for write in result.proposed_writes:
        click.echo(f"\nWrite {write.outcome}: {write.summary}" + (f" ({write.resource})" if write.resource else ""))
    for warning in result.warnings:
        click.echo(f"\nwarning: {warning}", err=True)
    click.echo("\nTimeline:", err=True)
    for step in result.reasoning_timeline:
        tool = f" {step.tool}" if step.tool else ""
        outcome = f" → {step.outcome}" if step.outcome else ""
        click.echo(f"  {step.step}{tool}: {step.what}{outcome} ({step.ms:.0f} ms)", err=True)


def _exit_code(result: TurnResult) -> int:
    if result.status == "cannot":
        return 5
    if result.status == "clarify" or any(w.outcome == "waiting" for w in result.proposed_writes):
        return 3
    return 0
