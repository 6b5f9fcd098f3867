"""`curbside jobs`: indexing jobs (list, show, retry, cancel). Retries and cancels are recorded on the audit
trail; listings are not."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from curbside.cli._common import app_context, echo_json, json_option

if TYPE_CHECKING:
    from curbside.app import Curbside
    from curbside.kb.jobs import Job, JobState

__all__ = ["jobs"]

STATES = ("pending", "running", "completed", "failed", "superseded")


@click.group(invoke_without_command=True)
@click.pass_context
def jobs(ctx: click.Context) -> None:
    """Indexing jobs: list (the default), show ID, retry ID, cancel ID."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(jobs_list)


@jobs.command("list")
@click.option("--state", type=click.Choice(STATES), help="Only jobs in this state, e.g. failed.")
@click.option("--doc-key", help="Only the jobs of this document.")
@click.option(
    "--limit", default=50, show_default=True, type=click.IntRange(1, 10_000), help="Most jobs to list, newest first."
)
@json_option
def jobs_list(state: str | None, doc_key: str | None, limit: int, as_json: bool) -> None:
    """List recent jobs, newest first (the filters of GET /v1/jobs; with --json its shape, {"jobs": [...]})."""
    from curbside.kb.jobs import JobState

    wanted = JobState(state) if state else None
    with app_context() as core:
        found = core.jobs.list(state=wanted, doc_key=doc_key, limit=limit + 1)
        more = _count(core, wanted, doc_key) - limit if len(found) > limit else 0
    found = found[:limit]
    if as_json:
        echo_json({"jobs": [j.to_dict() for j in found]})
        return
    if not found:
        click.echo("no jobs" + (" match" if state or doc_key else ""))
    for j in found:
        click.echo(_line(j))
    if more:
        click.echo(f"… and {more} more; narrow with --state or --doc-key, or raise --limit.")


def _count(core: Curbside, state: JobState | None, doc_key: str | None) -> int:
    return core.jobs.count(state=state, doc_key=doc_key)


def _line(job: Job) -> str:
    progress = f"{job.processed_chunks}/{job.total_chunks}" if job.total_chunks is not None else "-"
    error = f"  {job.error_message}" if job.error_message else ""
    return f"{job.id:>6}  {job.state.value:<10} {progress:>9}  {job.doc_key}{error}"


@jobs.command("show")
@click.argument("job_id", type=int)
@json_option
def jobs_show(job_id: int, as_json: bool) -> None:
    """Show one job."""
    with app_context() as core:
        job = core.jobs.get(job_id).to_dict()
    if as_json:
        echo_json(job)
    else:
        for key, value in job.items():
            click.echo(f"{key:>17}: {value}")


@jobs.command("retry")
@click.argument("job_id", type=int)
@json_option
def jobs_retry(job_id: int, as_json: bool) -> None:
    """Retry a failed job from its stored original, now (an audit row; exit 1 when it fails again)."""
    from curbside.cli._audit import operator_audited, operator_entry
    from curbside.cli.kb import outcome_dict

    with app_context() as core:
        with operator_audited(core, operator_entry(core, "jobs.retry", job_id=job_id)) as scope:
            outcome = core.ingestor.retry(job_id)
            if outcome is None:  # a server's worker claimed the pending job first: it runs there
                scope.update(outcome="ok", details={**scope.entry.details, "status": "queued"})
                click.echo(f"Job {job_id} is queued again and another process took it; follow it: curbside jobs show {job_id}")
                return
            failed = outcome.status == "failed"
            scope.update(
                sources=(outcome.doc_key,),
                outcome=(outcome.error_code or "failed") if failed else "ok",
                details={**scope.entry.details, "status": outcome.status, "version": outcome.version},
            )
    if as_json:
        echo_json(outcome_dict(outcome))
    else:
        click.echo(f"{outcome.doc_key}: {outcome.status}: {outcome.message}")
    if failed:
        raise SystemExit(1)


@jobs.command("cancel")
@click.argument("job_id", type=int)
@json_option
def jobs_cancel(job_id: int, as_json: bool) -> None:
    """Cancel a job: a pending one fails now (CANCELLED); a running one, e.g. in `curbside serve`, stops at
    its next step. Retry it later with `curbside jobs retry ID`."""
    from curbside.cli._audit import operator_audited, operator_entry

    with app_context() as core:
        with operator_audited(core, operator_entry(core, "jobs.cancel", job_id=job_id)) as scope:
            job = core.jobs.cancel(job_id)
            scope.update(sources=(job.doc_key,), outcome="ok")
    if as_json:
        echo_json(job.to_dict())
    elif job.state.value == "failed":
        click.echo(f"Job {job_id} ({job.doc_key}) is cancelled.")
    else:
        click.echo(f"Job {job_id} ({job.doc_key}) will stop at its next step; follow it: curbside jobs show {job_id}")
