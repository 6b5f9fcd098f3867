"""Knowledge-base commands: ingest, remove, reindex, status. Changes are recorded on the audit trail."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from curbside.cli._common import app_context, echo_json, json_option, stderr_is_tty

__all__ = ["ingest", "outcome_dict", "print_report", "reindex", "remove", "status"]


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--source-type", help="Kind of source, e.g. guideline, textbook, journal, formulary.")
@click.option("--specialty", help="Specialty tag, e.g. cardiology (a filter and ranking hint).")
@click.option("--doc-key", help="Stable key for a single file (default: from its file name).")
@json_option
def ingest(paths: tuple[Path, ...], source_type: str | None, specialty: str | None, doc_key: str | None, as_json: bool) -> None:
    """Ingest files or directories (PDF, DOCX, HTML, .nxml, Markdown, text).

    Unchanged files are skipped; changed ones become a new version. The run is one
    audit row (the documents it wrote, counts per outcome). Exit code 1 when any
    file failed (see `curbside jobs list --state failed`), 6 when the audit trail
    cannot record (nothing is ingested).
    """
    from curbside.cli._audit import operator_audited, operator_entry, record_ingest
    from curbside.cli._progress import RichProgress
    from curbside.kb.ingest import IngestOptions

    with app_context() as core:
        options = IngestOptions(doc_key=doc_key, source_type=source_type, specialty=specialty)
        entry = operator_entry(core, "documents.ingest", source_type=source_type, specialty=specialty)
        with operator_audited(core, entry) as scope:
            with RichProgress(enabled=stderr_is_tty() and not as_json) as progress:
                report = core.ingestor.ingest(list(paths), options, progress)
            record_ingest(scope, report)
    if as_json:
        echo_json(
            {
                "outcomes": [outcome_dict(o) for o in report.outcomes],
                "sizes": report.sizes.to_dict() if report.sizes else None,
                "seconds": round(report.seconds, 3),
            }
        )
    else:
        print_report(report)
    if report.failed:
        raise SystemExit(1)


def outcome_dict(outcome: Any) -> dict[str, Any]:
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


def print_report(report: Any) -> None:
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
    """Take a document out of search (its rows stay for audit; the removal is an audit row)."""
    from curbside.cli._audit import operator_audited, operator_entry

    with app_context() as core:
        with operator_audited(core, operator_entry(core, "documents.remove", sources=(doc_key,))) as scope:
            version = core.ingestor.remove(doc_key)
            scope.update(outcome="ok", details={"removed_version": version})
    click.echo(f"removed {doc_key} (version {version})")


@click.command()
def reindex() -> None:
    """Re-embed every current document with the configured embedding model (one audit row)."""
    from curbside.cli._audit import operator_audited, operator_entry, record_ingest
    from curbside.cli._progress import RichProgress

    with app_context() as core:
        model = core.embedder.model_id
        with operator_audited(core, operator_entry(core, "documents.reindex", model=model)) as scope:
            with RichProgress(enabled=stderr_is_tty()) as progress:
                report = core.ingestor.reindex(progress)
            rechunked = report.rechunked
            scope.update(details={**scope.entry.details, "reembedded": report.reembedded, "chunks": report.chunks})
            record_ingest(scope, rechunked)
        click.echo(f"re-embedded {report.chunks} chunks of {report.reembedded} documents with {model}")
        if rechunked.outcomes:
            click.echo(f"re-chunked from their originals (chunks over the new {core.chunker.max_tokens}-token cap):")
            print_report(rechunked)
    if rechunked.failed:
        raise SystemExit(1)


@click.command()
@json_option
def status(as_json: bool) -> None:
    """What the knowledge base holds and which model indexed it (not recorded: no content is read)."""
    with app_context() as core:
        model = core.ingestor.guard.indexed_model()
        data = {
            "home": str(core.settings.home),
            **core.documents.stats(),
            "indexed_model": model[0] if model else None,
            "indexed_dim": model[1] if model else None,
            "configured_model": core.embedder.model_id,
            "schema_version": core.db.schema_version(),
        }
        if as_json:
            echo_json(data)
        else:
            for key, value in data.items():
                click.echo(f"{key:>17}: {value}")
