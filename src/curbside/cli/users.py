"""`curbside users`: API keys for the HTTP API and MCP over HTTP (add, list, remove)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from curbside.auth.roles import ROLES
from curbside.cli._common import app_context, echo_json, json_option

if TYPE_CHECKING:
    from curbside.app import Curbside
    from curbside.audit import AuditEntry

__all__ = ["users_group"]


@click.group("users")
def users_group() -> None:
    """API users and their keys. Roles: clinician (ask, search, passages, tools, MCP),
    admin (those, plus documents, jobs, metrics), auditor (audit export and verify).

    Only a hash of each key is stored: a lost key cannot be shown again; remove the user and add them anew.
    """


@users_group.command("add")
@click.argument("name")
@click.option(
    "--role",
    required=True,
    type=click.Choice(ROLES, case_sensitive=False),
    help="What the key may reach: clinician, admin or auditor.",
)
@json_option
def add(name: str, role: str, as_json: bool) -> None:
    """Add user NAME with a new API key, printed once."""
    from curbside.audit import audited

    with app_context() as core:
        with audited(core.audit, _entry(core, "user.add", name, role=role.lower())) as scope:
            new = core.users.add(name, role)
            scope.update(
                outcome="ok", details={"name": new.user.name, "role": new.user.role, "key": new.user.key_prefix}
            )
    if as_json:
        echo_json({**new.user.to_dict(), "key": new.key})
        return
    click.echo(f"Added {new.user.name} ({new.user.role}). The API key, shown only this once:", err=True)
    click.echo(new.key)
    click.echo("Send it as 'Authorization: Bearer <key>' (or 'X-API-Key: <key>').", err=True)


@users_group.command("list")
@click.option("--all", "include_revoked", is_flag=True, help="Include removed (revoked) users.")
@json_option
def list_users(include_revoked: bool, as_json: bool) -> None:
    """List users: name, role, the first characters of their key, and when it was issued or revoked."""
    with app_context() as core:
        users = core.users.list(include_revoked=include_revoked)
    if as_json:
        echo_json([u.to_dict() for u in users])
        return
    if not users:
        click.echo("No API users. Add one with: curbside users add NAME --role clinician")
        return
    for u in users:
        state = f"revoked {u.revoked_at[:19]}" if u.revoked_at else "active"
        warning = "  TAMPERED: this row was edited outside Curbside; its key is refused" if not u.intact else ""
        click.echo(f"{u.name:<24} {u.role:<10} {u.key_prefix}…  issued {u.created_at[:19]}  {state}{warning}")


@click.command("remove")
@click.argument("name")
def remove(name: str) -> None:
    """Revoke NAME's key at once (the user stays listed with --all, so old audit rows still name them)."""
    from curbside.audit import audited

    with app_context() as core, audited(core.audit, _entry(core, "user.revoke", name)) as scope:
        user = core.users.revoke(name)
        scope.update(outcome="ok", details={"name": user.name, "role": user.role, "key": user.key_prefix})
    click.echo(f"Revoked the key of {user.name} ({user.role}); requests with it now get 401 UNAUTHENTICATED.")


users_group.add_command(remove)
users_group.add_command(remove, "revoke")


@users_group.command("anchor")
def anchor() -> None:
    """Vouch for the users table as it stands, after a refused anchor check (read `users list --all` first).

    Every change Curbside makes keeps the anchor (CURBSIDE_HOME/users.anchor) in step; a table edited
    or restored by hand no longer matches it, and then no key is accepted until this is run.
    """
    from curbside.audit import audited

    with app_context() as core, audited(core.audit, _entry(core, "user.anchor", "*")) as scope:
        users = core.users.list(include_revoked=True)
        tampered = [u.name for u in users if not u.intact]
        scope.update(outcome="ok", details={"users": len(users), "tampered": tampered})
        core.users.reanchor()
    click.echo(f"Anchored {len(users)} user rows" + (f"; rows failing their MAC: {', '.join(tampered)}" if tampered else "."))


def _entry(core: Curbside, action: str, name: str, **details: str) -> AuditEntry:
    from curbside.audit import AuditEntry
    from curbside.auth import operator_caller

    caller = operator_caller(core.settings)
    return AuditEntry(
        action=action,
        user=caller.user,
        role=caller.role,
        channel="cli",
        outcome="started",
        details={"name": name, **details},
    )
