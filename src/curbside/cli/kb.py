"""Knowledge-base commands: ingest, remove, reindex, jobs, status."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from curbside.cli._common import app_context, echo_json, json_option, stderr_is_tty

__all__ = ["ingest", "jobs", "reindex", "remove", "status"]


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--source-type", help="Kind of source, e.g. guideline, textbook, journal, formulary.")
@click.option("--specialty", help="Specialty tag, e.g. cardiology (a filter and ranking hint).")
@click.option("--doc-key", help="Stable key for a single file (default: from its file name).")
@json_option
def ingest(paths: tuple[Path, ...], source_type: str | None, specialty: str | None, doc_key: str | None, as_json: bool) -> None:
    """Ingest files or directories (PDF, DOCX, HTML, .nxml, Markdown, text).

    Unchanged files are skipped; changed ones become a new version. Exit code 1
    when any file failed (see `curbside jobs list`).
    """
    from curbside.cli._progress import RichProgress
    from curbside.kb.ingest import IngestOptions

    with app_context() as app:
        options = IngestOptions(doc_key=doc_key, source_type=source_type, specialty=specialty)
        with RichProgress(enabled=stderr_is_tty() and not as_json) as progress:
            report = app.ingestor.ingest(list(paths), options, progress)
        if as_json:
            echo_json(
                {
                    "outcomes": [_outcome_dict(o) for o in report.outcomes],
                    "sizes": report.sizes.to_dict() if report.sizes else None,
                    "seconds": round(report.seconds, 3),
                }
            )
        else:
            _print_report(report)
        if report.failed:
            raise SystemExit(1)


def _outcome_dict(outcome: Any) -> dict[str, Any]:
    return {
        "path": outcome.path,
        "doc_key": outcome.doc_key,
        "status": outcome.status,
        "message": outcome.message,
        "version": outcome.version,
        "job_id": outcome.job_id,
        "chunks": outcome.chunks,
        "warnings": outcome.warnings,
        "error_code": outcome.error_code,
    }


def _print_report(report: Any) -> None:
    marks = {"ingested": "+", "unchanged": "=", "skipped": "-", "failed": "!"}
    for o in report.outcomes:
        line = f"{marks[o.status]} {o.doc_key}: {o.message}"
        click.echo(line, err=o.status == "failed")
        for warning in o.warnings:
            click.echo(f"    warning: {warning}")
    counts = ", ".join(f"{report.count(s)} {s}" for s in ("ingested", "unchanged", "skipped", "failed") if report.count(s))
    click.echo(f"\n{counts or 'nothing to do'} in {report.seconds:.1f} s")
    if report.sizes:
        click.echo("\nChunk sizes (model tokens, title path included):")
        click.echo(report.sizes.format_table())


@click.command()
@click.argument("doc_key")
def remove(doc_key: str) -> None:
    """Take a document out of search (its rows stay for audit)."""
    with app_context() as app:
        version = app.ingestor.remove(doc_key)
        click.echo(f"removed {doc_key} (version {version})")


@click.command()
def reindex() -> None:
    """Re-embed every current document with the configured embedding model."""
    from curbside.cli._progress import RichProgress

    with app_context() as app:
        with RichProgress(enabled=stderr_is_tty()) as progress:
            report = app.ingestor.reindex(progress)
        click.echo(f"re-embedded {report.chunks} chunks of {report.reembedded} documents with {app.embedder.model_id}")
        rechunked = report.rechunked
        if rechunked.outcomes:
            click.echo(f"re-chunked from their originals (chunks over the new {app.chunker.max_tokens}-token cap):")
            _print_report(rechunked)
        if rechunked.failed:
            raise SystemExit(1)


@click.group(invoke_without_command=True)
@click.pass_context
def jobs(ctx: click.Context) -> None:
    """Indexing jobs: list, show ID, retry ID."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(jobs_list)


@jobs.command("list")
@click.option("--state", type=click.Choice(["pending", "running", "completed", "failed", "superseded"]))
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 10_000))
@json_option
def jobs_list(state: str | None, limit: int, as_json: bool) -> None:
    """List recent jobs, newest first."""
    from curbside.kb.jobs import JobState

    with app_context() as app:
        found = app.jobs.list(state=JobState(state) if state else None, limit=limit)
        if as_json:
            echo_json([j.to_dict() for j in found])
            return
        if not found:
            click.echo("no jobs")
        for j in found:
            progress = f"{j.processed_chunks}/{j.total_chunks}" if j.total_chunks is not None else "-"
            error = f"  {j.error_message}" if j.error_message else ""
            click.echo(f"{j.id:>6}  {j.state.value:<10} {progress:>9}  {j.doc_key}{error}")


@jobs.command("show")
@click.argument("job_id", type=int)
@json_option
def jobs_show(job_id: int, as_json: bool) -> None:
    """Show one job."""
    with app_context() as app:
        job = app.jobs.get(job_id).to_dict()
        if as_json:
            echo_json(job)
        else:
            for key, value in job.items():
                click.echo(f"{key:>17}: {value}")


@jobs.command("retry")
@click.argument("job_id", type=int)
@json_option
def jobs_retry(job_id: int, as_json: bool) -> None:
    """Retry a failed job from its stored original."""
    with app_context() as app:
        outcome = app.ingestor.retry(job_id)
        if as_json:
            echo_json(_outcome_dict(outcome))
        else:
            click.echo(f"{outcome.doc_key}: {outcome.status}: {outcome.message}")
        if outcome.status == "failed":
            raise SystemExit(1)


@click.command()
@json_option
def status(as_json: bool) -> None:
    """What the knowledge base holds and which model indexed it."""
    with app_context() as app:
        model = app.ingestor.guard.indexed_model()
        data = {
            "home": str(app.settings.home),
            **app.documents.stats(),
            "indexed_model": model[0] if model else None,
            "indexed_dim": model[1] if model else None,
            "configured_model": app.embedder.model_id,
            "schema_version": app.db.schema_version(),
        }
        if as_json:
            echo_json(data)
        else:
            for key, value in data.items():
                click.echo(f"{key:>17}: {value}")
