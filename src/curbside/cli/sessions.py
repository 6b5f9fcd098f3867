"""`curbside sessions`: the conversations kept for follow-up questions (list, show, purge)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from curbside.cli._common import app_context, echo_json, json_option

if TYPE_CHECKING:
    from curbside.app import Curbside
    from curbside.audit import AuditEntry
    from curbside.sessions import Session, SessionStore

__all__ = ["sessions_group"]

user_option = click.option(
    "--user", metavar="NAME", help="Whose sessions (default: the local operator, CURBSIDE_OPERATOR_NAME)."
)


@click.group("sessions")
def sessions_group() -> None:
    """Conversations kept so a follow-up question has its context: the last messages, the case's
    clinical facts, the active patient and the answer preferences, per user.

    They are PHI and live only in CURBSIDE_HOME/sessions.db (owner-only). A session expires a set
    number of days after its last use (CURBSIDE_SESSION_TTL_DAYS, default 7); `show` is audited,
    and `purge` deletes for good.
    """


@sessions_group.command("list")
@user_option
@json_option
def list_sessions(user: str | None, as_json: bool) -> None:
    """List live sessions, the most recently used first: id, last use, expiry, messages kept, and
    whether a patient is set (no clinical content, so not audited)."""
    with app_context() as core, _store(core) as store:
        whose = user or _operator(core)
        infos = store.list(whose)
    if as_json:
        echo_json([info.model_dump(mode="json") for info in infos])
        return
    if not infos:
        click.echo(f"No live sessions for {whose}.")
        return
    for info in infos:
        patient = "patient set" if info.has_patient else "no patient"
        click.echo(
            f"{info.session_id:<28} used {_when(info.updated_at.isoformat())}  "
            f"expires {_when(info.expires_at.isoformat())}  {info.messages:>3} messages  {patient}"
        )


@sessions_group.command("show")
@click.argument("session_id", metavar="ID")
@user_option
@json_option
def show(session_id: str, user: str | None, as_json: bool) -> None:
    """Show session ID whole: preferences, patient, clinical context and the kept messages (audited)."""
    with app_context() as core, _store(core) as store:
        whose = user or _operator(core)
        entry = _entry(core, "session.show", session_id=session_id, details={"user": whose})
        with _audited(core, entry) as scope:
            session = store.get(whose, session_id)
            scope.update(outcome="ok", details={"user": whose, "messages": len(session.messages)})
    if as_json:
        echo_json(session.model_dump(mode="json"))
        return
    _print_session(session)


@sessions_group.command("purge")
@click.argument("session_id", metavar="[ID]", required=False)
@click.option("--all", "purge_all", is_flag=True, help="Every session (of --user, or of every user).")
@click.option(
    "--older-than",
    type=click.FloatRange(min=0),
    metavar="DAYS",
    help="Sessions unused for DAYS days or more (of --user, or of every user).",
)
@user_option
@click.option("--yes", is_flag=True, help="Do not ask before purging every session.")
@json_option
def purge(
    session_id: str | None, purge_all: bool, older_than: float | None, user: str | None, yes: bool, as_json: bool
) -> None:
    """Delete sessions for good: session ID (of --user, default the operator), --all, or those unused
    for --older-than DAYS. Expired sessions are deleted on every purge."""
    if [session_id is not None, purge_all, older_than is not None].count(True) != 1:
        raise click.UsageError("Give exactly one of ID, --all or --older-than DAYS.")
    if purge_all and not yes:
        click.confirm(f"Delete every session of {user or 'every user'}?", abort=True)
    from curbside.errors import NotFoundError

    with app_context() as core, _store(core) as store:
        whose = user or (_operator(core) if session_id is not None else None)
        scope_name = "one" if session_id is not None else "all" if purge_all else "older_than"
        details: dict[str, Any] = {"scope": scope_name, "user": whose, "older_than_days": older_than}
        entry = _entry(core, "session.purge", session_id=session_id, details=details)
        with _audited(core, entry) as scope:
            deleted = store.purge(user=whose, session_id=session_id, older_than_days=older_than)
            scope.update(outcome="ok", details={**scope.entry.details, "deleted": deleted})
            if session_id is not None and deleted == 0:
                raise NotFoundError(f"No live session with this id for {whose}: nothing was purged.")
    if as_json:
        echo_json({"deleted": deleted})
        return
    click.echo(f"Purged {deleted} session{'' if deleted == 1 else 's'}.")


# --- helpers -----------------------------------------------------------------------------------
@contextmanager
def _store(core: Curbside) -> Iterator[SessionStore]:
    yield core.sessions  # the application closes it


def _operator(core: Curbside) -> str:
    return core.settings.operator_name


def _entry(core: Curbside, action: str, *, session_id: str | None, details: dict[str, Any]) -> AuditEntry:
    """The row, with the session id as its keyed digest: a client may have written anything in an id."""
    from curbside.audit import AuditEntry
    from curbside.auth import operator_caller
    from curbside.auth.access import session_token

    caller = operator_caller(core.settings)
    return AuditEntry(
        action=action,
        user=caller.user,
        role=caller.role,
        channel="cli",
        session=session_token(core.audit.key, session_id) if session_id is not None else None,
        outcome="started",
        details={k: v for k, v in details.items() if v is not None},
    )


@contextmanager
def _audited(core: Curbside, entry: AuditEntry) -> Iterator[Any]:
    from curbside.cli._audit import operator_audited

    with operator_audited(core, entry) as scope:
        yield scope


def _print_session(session: Session) -> None:
    prefs = session.preferences
    click.echo(f"Session {session.session_id} of {session.user}")
    click.echo(f"  created {_when(session.created_at.isoformat())}, used {_when(session.updated_at.isoformat())}, "
               f"expires {_when(session.expires_at.isoformat())}")  # fmt: skip
    click.echo(
        f"  preferences: citations {prefs.citation_style}, answers {prefs.answer_length}, "
        f"specialty {prefs.specialty or '-'}"
    )
    click.echo(f"  patient: {session.patient_id or '-'}")
    if session.context:
        click.echo("  clinical context: " + json.dumps(session.context, ensure_ascii=False, sort_keys=True))
    if not session.messages:
        click.echo("  no messages")
    for message in session.messages:
        click.echo(f"\n[{_when(message.at.isoformat())}] {message.role}:")
        click.echo(message.text)


def _when(iso: str) -> str:
    return iso[:19].replace("T", " ")
