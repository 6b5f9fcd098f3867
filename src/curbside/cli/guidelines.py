"""``curbside guidelines fetch``: guideline books from NCBI Bookshelf into the knowledge base.

The pipeline lives in ``curbside.tools.evidence.bookshelf_fetch``; this command picks the books from
its options, draws the progress bars, and gives the pipeline the application's ingestor (source
type ``guideline``), the same call ``curbside ingest`` makes, inside one audit row.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from curbside.cli._common import app_context, echo_json, json_option, stderr_is_tty

if TYPE_CHECKING:
    from collections.abc import Callable

    from curbside.app import Curbside
    from curbside.kb.ingest import IngestReport, ProgressReporter
    from curbside.tools.evidence.bookshelf import Selection
    from curbside.tools.evidence.bookshelf_fetch import FetchReport, Ingest

__all__ = ["guidelines_group"]


@click.group("guidelines")
def guidelines_group() -> None:
    """Clinical guidelines from NCBI Bookshelf's open-access books (WHO by default)."""


@guidelines_group.command("fetch")
@click.option(
    "--publisher",
    help="Only books whose publisher contains this text (any case). "
    "Default: 'World Health Organization', or any publisher when --accession is given.",
)
@click.option("--any-publisher", is_flag=True, help="Books of every publisher.")
@click.option(
    "--title", help="Only books whose title matches this regular expression (or contains this text), any case."
)
@click.option(
    "--accession", "accessions", multiple=True, metavar="NBK…", help="Only this book (repeatable), e.g. NBK1116."
)
@click.option("--limit", type=click.IntRange(1, None), help="At most this many books (the first in the list's order).")
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Where the downloaded .tar.gz packages are kept (default: CURBSIDE_HOME/guidelines/archives).",
)
@click.option("--prune-archives", is_flag=True, help="Delete each package once its .nxml files are extracted.")
@click.option("--no-ingest", is_flag=True, help="Download and extract only; ingest later (a re-run ingests them).")
@click.option("--dry-run", is_flag=True, help="List what would be fetched and what is unchanged; download no book.")
@json_option
def fetch(
    publisher: str | None,
    any_publisher: bool,
    title: str | None,
    accessions: tuple[str, ...],
    limit: int | None,
    cache_dir: Path | None,
    prune_archives: bool,
    no_ingest: bool,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Fetch guideline books from NCBI Bookshelf and ingest them (source type guideline).

    Reads Bookshelf's open-access file_list.csv (CURBSIDE_BOOKSHELF_URL), keeps the books
    matching the filters, downloads each package at NCBI's rate limit, verifies it, extracts
    its chapter .nxml files (no front matter, reference lists or acknowledgements) into
    CURBSIDE_HOME/guidelines/nxml/<accession>/ and ingests them. A re-run skips books whose
    Last Updated is unchanged. Examples:

      curbside guidelines fetch --title malaria --dry-run

      curbside guidelines fetch --limit 20

      curbside guidelines fetch --accession NBK1116 --no-ingest

    Exit code 1 when a book failed, 5 when Bookshelf cannot be reached.
    """
    import asyncio

    from curbside.tools.evidence.bookshelf_fetch import GuidelinePaths, fetch_guidelines

    selection = _selection(publisher, any_publisher, title, accessions, limit)
    ingesting = not (no_ingest or dry_run)
    with app_context() as core:
        settings = core.settings
        paths = GuidelinePaths.under(settings.home, cache_dir)

        async def run(ingest: Ingest | None, progress: Any) -> FetchReport:
            client = core.outbound  # the application's one client: its pacing spans every tool
            try:
                return await fetch_guidelines(
                    client,
                    base_url=settings.bookshelf_url,
                    paths=paths,
                    selection=selection,
                    ingest=ingest,
                    dry_run=dry_run,
                    prune_archives=prune_archives,
                    progress=progress,
                )
            finally:
                await client.aclose()

        with _bars(enabled=stderr_is_tty() and not as_json, ingesting=ingesting) as progress:
            if ingesting:
                report = _fetch_and_ingest(core, lambda ingest: asyncio.run(run(ingest, progress)), progress)
            else:
                report = asyncio.run(run(None, progress))
    if as_json:
        echo_json(report.to_dict())
    else:
        _print(report)
    code = _exit_code(report)
    if code:
        raise SystemExit(code)


def _selection(
    publisher: str | None, any_publisher: bool, title: str | None, accessions: tuple[str, ...], limit: int | None
) -> Selection:
    from curbside.errors import ValidationError
    from curbside.tools.evidence.bookshelf import DEFAULT_PUBLISHER, Selection, normalize_accession, title_pattern

    if any_publisher and publisher:
        raise click.UsageError("Give --publisher or --any-publisher, not both.")
    try:
        wanted = tuple(dict.fromkeys(normalize_accession(a) for a in accessions))
    except ValidationError as exc:
        raise click.BadParameter(exc.message, param_hint="--accession") from exc
    if title is not None and not title.strip():
        raise click.BadParameter("the title pattern is empty", param_hint="--title")
    if publisher is not None and not publisher.strip():
        raise click.BadParameter(
            "the publisher is empty; use --any-publisher for every publisher", param_hint="--publisher"
        )
    chosen = publisher.strip() if publisher else (None if any_publisher or wanted else DEFAULT_PUBLISHER)
    return Selection(
        publisher=chosen, title=title_pattern(title.strip()) if title else None, accessions=wanted, limit=limit
    )


def _fetch_and_ingest(core: Curbside, run: Callable[[Ingest], FetchReport], progress: ProgressReporter) -> FetchReport:
    """The run with the application's ingestor, as one audit row (the documents written, counts per outcome)."""
    from curbside.cli._audit import operator_audited, operator_entry, record_ingest
    from curbside.kb.ingest import IngestReport

    combined = IngestReport()
    entry = operator_entry(core, "documents.ingest", source_type="guideline", origin="ncbi-bookshelf")
    with operator_audited(core, entry) as scope:
        report = run(_ingester(core, progress, combined))
        record_ingest(scope, combined)
        books = {"books_fetched": report.count("fetched"), "books_skipped": report.count("skipped")}
        books["books_failed"] = report.count("failed")
        scope.update(details={**scope.entry.details, **books})
    return report


def _ingester(core: Curbside, progress: ProgressReporter, combined: IngestReport) -> Ingest:
    from curbside.kb.ingest import IngestOptions
    from curbside.tools.evidence.bookshelf_fetch import IngestCounts

    options = IngestOptions(source_type="guideline")

    def ingest(files: Any) -> IngestCounts:
        done = core.ingestor.ingest(list(files), options, progress)
        combined.outcomes.extend(done.outcomes)
        return IngestCounts(
            ingested=done.count("ingested"),
            unchanged=done.count("unchanged"),
            failed=tuple(f"{o.doc_key}: {o.message}" for o in done.failed),
        )

    return ingest


def _bars(*, enabled: bool, ingesting: bool) -> Any:
    """The ingest bars (files, chunks) under one for the books (built here: rich loads only for a fetch)."""
    from curbside.cli._progress import RichProgress

    class FetchBars(RichProgress):
        def __init__(self) -> None:
            super().__init__(enabled=enabled)
            self._books = self._progress.add_task("books ", total=0)
            if not ingesting:
                self._progress.update(self._files, visible=False)
                self._progress.update(self._chunks, visible=False)

        def files(self, total: int) -> None:
            # one ingest per book: the files bar counts every book's files, not the last book's
            task = self._progress.tasks[self._files]
            self._progress.update(self._files, total=(task.total or 0) + total)

        def books(self, total: int) -> None:
            self._progress.update(self._books, total=total)

        def book_done(self, accession: str, status: str) -> None:
            self._progress.advance(self._books)

    return FetchBars()


_MARKS = {"fetched": "+", "skipped": "=", "failed": "!", "planned": "~"}


def _print(report: FetchReport) -> None:
    for r in report.results:
        title = r.title if len(r.title) <= 70 else r.title[:69] + "…"
        line = f"{_MARKS[r.status]} {r.accession} {title}: {r.message}"
        if r.ingested or r.unchanged:
            line += f"; ingested {r.ingested}" + (f", {r.unchanged} unchanged" if r.unchanged else "")
        click.echo(line, err=r.status == "failed")
        for failure in r.ingest_failed:
            click.echo(f"    ingest failed: {failure}", err=True)
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    if report.not_listed:
        click.echo(f"warning: not in Bookshelf's file list: {', '.join(report.not_listed)}", err=True)
    if report.filtered_out:
        click.echo(f"warning: listed, but excluded by the other filters: {', '.join(report.filtered_out)}", err=True)
    if report.stopped:
        click.echo(f"stopped early: {report.stopped}", err=True)
    matched = len(report.results)
    click.echo(f"\n{report.listed:,} books in Bookshelf's list; {matched} selected ({report.selection}).")
    if report.dry_run:
        click.echo(
            f"dry run: {report.count('planned')} to fetch, {report.count('skipped')} unchanged; nothing downloaded."
        )
        return
    failed_ingest = sum(len(r.ingest_failed) for r in report.results)
    click.echo(
        f"{report.count('fetched')} fetched, {report.count('skipped')} skipped, {report.count('failed')} failed; "
        f"{report.extracted} .nxml files extracted, {report.ingested} ingested"
        + (f", {failed_ingest} failed to ingest" if failed_ingest else "")
        + f" in {report.seconds:.1f} s"
    )


def _exit_code(report: FetchReport) -> int:
    from curbside.cli._exit import exit_code_for

    if report.stop_code:
        return exit_code_for(report.stop_code)
    if report.failed or report.not_listed or any(r.ingest_failed for r in report.results):
        return 1
    return 0
