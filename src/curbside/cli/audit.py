"""`curbside audit`: verify the keyed audit trail, export it as JSON Lines, acknowledge a known break."""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import click

from curbside.cli._common import app_context, echo_json, json_option
from curbside.cli._exit import exit_code_for

if TYPE_CHECKING:
    from curbside.app import Curbside

__all__ = ["audit_group"]


@click.group("audit")
def audit_group() -> None:
    """The audit trail: every ask, search, passage lookup, tool call, document or coverage change,
    user change and audit read, chained with an HMAC key kept outside the database
    (CURBSIDE_HOME/audit.key). Back that key up off this machine."""


@audit_group.command("verify")
@json_option
def verify(as_json: bool) -> None:
    """Check every row's MAC and chain link and the head anchor; name the first bad row.

    Exit code 0 when the trail is intact, 6 when it is not.
    """
    from curbside.errors import AuditIntegrityError

    with app_context() as core:
        report = core.audit.verify()
        _record(core, "audit.verify", outcome="ok" if report.ok else "failed", rows=report.rows)
    if as_json:
        echo_json(report.model_dump())
    else:
        if report.ok:
            click.echo(f"OK: {report.rows} rows; every MAC, link and the head anchor hold.")
            click.echo(
                f"Last row {report.last_row}, MAC {report.last_mac}, key fingerprint {report.key_fingerprint} "
                "(note them elsewhere: a later rollback or a replaced key then shows)."
            )
        for warning in report.warnings:
            click.echo(f"warning: {warning}", err=True)
    if not report.ok:
        if as_json:
            sys.exit(exit_code_for(AuditIntegrityError.code))
        where = f"row {report.first_bad_row}: " if report.first_bad_row is not None else ""
        raise AuditIntegrityError(f"The audit trail fails verification at {where}{report.problem}")


@audit_group.command("export")
@click.option("--since", required=True, help="Start, ISO 8601 (2025-03-01 or 2025-03-01T08:30:00Z; UTC if no zone).")
@click.option("--until", default=None, help="End (exclusive), same format; default: now.")
@click.option(
    "-o", "--output", default="-", metavar="FILE", help="Write JSON Lines here (created 0600); default: stdout."
)
def export(since: str, until: str | None, output: str) -> None:
    """Write the rows recorded between --since and --until as JSON Lines, one row per line.

    The trail is verified first; if it fails, the rows are still written, a warning names
    the first bad row, and the exit code is 6.
    """
    from curbside.audit import utc_text
    from curbside.audit.timeparse import parse_range
    from curbside.errors import AuditIntegrityError

    start, end = parse_range(since, until)
    end = end or datetime.now(UTC)  # the rows up to now, not the row recording this export
    with app_context() as core:
        report = core.audit.verify()
        count = _write(core.audit.export(start, end), output)
        window = {"since": utc_text(start), "until": utc_text(end)}
        _record(core, "audit.export", outcome="ok", rows=count, verified=report.ok, **window)
    where = "stdout" if output == "-" else output
    click.echo(f"Exported {count} rows to {where}.", err=True)
    if not report.ok:
        at = f" at row {report.first_bad_row}" if report.first_bad_row is not None else ""
        click.echo(f"warning: the trail fails verification{at}: {report.problem}", err=True)
        sys.exit(exit_code_for(AuditIntegrityError.code))


@audit_group.command("acknowledge")
@click.option("--reason", required=True, help="What happened and who checked it (recorded on the trail).")
def acknowledge(reason: str) -> None:
    """Resume recording after rows were lost from the trail's end, or its head file was lost or replaced.

    A new row records the problem found and the head it replaces, and the head is
    re-anchored at the table's end. Rows edited in the middle still fail verify.
    """
    from curbside.auth import operator_caller

    with app_context() as core:
        caller = operator_caller(core.settings)
        row = core.audit.acknowledge(reason, user=caller.user, role=caller.role, channel="cli")
    problem = row["details"].get("problem") or "none: the trail's end matched its head"
    click.echo(f"Row {row['seq']} records the acknowledgement. Problem found: {problem}")


def _write(rows: Any, output: str) -> int:
    count = 0
    if output == "-":
        for row in rows:
            click.echo(json.dumps(row, ensure_ascii=False))
            count += 1
        return count
    try:
        descriptor = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    except OSError as exc:
        raise click.BadParameter(f"cannot write {output!r}: {exc.strerror}", param_hint="--output") from exc
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    return count


def _record(core: Curbside, action: str, *, outcome: str, **details: Any) -> None:
    """Record an operator's read of the trail; a broken trail must stay readable, so a refusal is only reported."""
    from curbside.audit import AuditEntry
    from curbside.auth import operator_caller
    from curbside.errors import AuditIntegrityError

    caller = operator_caller(core.settings)
    entry = AuditEntry(
        action=action, user=caller.user, role=caller.role, channel="cli", outcome=outcome, details=details
    )
    try:
        core.audit.append(entry)
    except AuditIntegrityError:
        pass  # verify reports the trail's state itself
