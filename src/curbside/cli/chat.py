"""`curbside chat`: a conversation at the terminal — each message a consult turn in one session, the
timeline printed as it happens, each proposed write put to you before it is made."""

from __future__ import annotations

from typing import Any

import click

from curbside.cli._common import app_context

__all__ = ["chat"]

_HELP = "Commands: /patient ID (set the active patient), /patient (clear it), /new (a new conversation), /quit."


@click.command("chat")
@click.option("--patient", "patient_id", metavar="ID", help="The active patient's FHIR id (CURBSIDE_FHIR_URL).")
@click.option("--session", "session_id", metavar="ID", help="Continue this conversation (default: a new one).")
def chat(patient_id: str | None, session_id: str | None) -> None:
    """Talk to Curbside: type a question, see what it does step by step, approve its writes.

    The conversation is kept (CURBSIDE_HOME/sessions.db, for CURBSIDE_SESSION_TTL_DAYS) under its session
    id; `curbside sessions purge ID` removes it."""
    import asyncio

    from curbside.agent.models import TurnRequest
    from curbside.auth.access import operator_caller
    from curbside.sessions import new_session_id

    session = session_id or new_session_id()
    click.echo(f"Curbside consult — session {session}. {_HELP}", err=True)
    with app_context() as core:
        caller = operator_caller(core.settings, channel="cli")
        while True:
            try:
                message = click.prompt("you", prompt_suffix="> ", err=True).strip()
            except (EOFError, click.Abort):
                click.echo("", err=True)
                break
            if message in ("/quit", "/exit"):
                break
            if message.startswith("/patient"):
                patient_id = message.removeprefix("/patient").strip() or None
                click.echo(f"active patient: {patient_id or 'none'}", err=True)
                continue
            if message == "/new":
                session = new_session_id()
                click.echo(f"new conversation: {session}", err=True)
                continue
            if not message:
                continue
            request = TurnRequest(message=message, patient_id=patient_id, session_id=session)
            result = asyncio.run(core.turn(request, caller, channel="cli", on_event=_show))
            patient_id = patient_id or _found_patient(result)
            click.echo(f"\n{result.final_response}\n")
            for source in result.sources_used:
                click.echo(f"  [{source.n}] {source.title}" + (f" — {source.url}" if source.url else ""))
            for write in result.proposed_writes:
                if write.outcome == "waiting" and write.confirmation is not None:
                    approve = click.confirm(f"{write.summary}\nApprove?", default=False, err=True)
                    decided = asyncio.run(core.tools.decide(write.confirmation.id, approve=approve, caller=caller))
                    click.echo(f"  {'written' if decided.ok else decided.status}: {write.summary}", err=True)


async def _show(kind: str, data: dict[str, Any]) -> None:
    if kind == "step":
        tool = f" {data['tool']}" if data.get("tool") else ""
        outcome = f" → {data['outcome']}" if data.get("outcome") else ""
        click.echo(f"  · {data['step']}{tool}: {data['what']}{outcome}", err=True)


def _found_patient(result: Any) -> str | None:
    for fact in result.facts:
        if fact.get("tool") == "ehr.search_patient" and (fact.get("values") or {}).get("patient_id"):
            return str(fact["values"]["patient_id"])
    return None
