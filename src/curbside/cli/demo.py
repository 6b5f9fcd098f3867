"""`curbside demo`: the main job on the embedded default, on sample documents."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import click

from curbside.cli._common import app_context, stderr_is_tty

if TYPE_CHECKING:
    from curbside.types import AskRequest

__all__ = ["demo"]


def _questions() -> tuple[AskRequest, ...]:
    from curbside.types import AskRequest

    return (
        AskRequest(question="can I start metformin if eGFR is 35?"),
        AskRequest(condition="malaria", findings=["pregnant", "first trimester"]),
    )


def sample_paths() -> list[Path]:
    folder = resources.files("curbside") / "samples"
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.startswith("sample-"))


@click.command()
@click.option("--home", type=click.Path(path_type=Path), help="Data directory for the demo (default: CURBSIDE_HOME/demo).")
def demo(home: Path | None) -> None:
    """Ingest the bundled SAMPLE documents (not clinical advice) and answer two questions from them."""
    import asyncio
    import os

    from curbside.auth import operator_caller
    from curbside.cli._audit import operator_audited, operator_entry, record_ingest
    from curbside.cli._progress import RichProgress
    from curbside.cli.ask import print_answer
    from curbside.settings import Settings

    base = Settings().home
    os.environ["CURBSIDE_HOME"] = str(home or base / "demo")
    with app_context() as core:
        click.echo(f"Curbside demo — data in {core.settings.home}")
        click.echo("Ingesting sample documents (SAMPLES, not clinical advice):")
        # a document change like `curbside ingest`: one audit row, and nothing ingested unrecorded
        with operator_audited(core, operator_entry(core, "documents.ingest", source_type="sample")) as scope:
            with RichProgress(enabled=stderr_is_tty()) as progress:
                report = core.ingestor.ingest(sample_paths(), progress=progress)
            record_ingest(scope, report)
        for outcome in report.outcomes:
            click.echo(f"  {outcome.status:<9} {Path(outcome.path).name}: {outcome.message}")
        for request in _questions():
            shown = request.question or f"{request.condition} + " + " + ".join(request.findings)
            click.echo(f"\nQ: {shown}")
            # audited as the machine's operator, like `curbside ask`
            print_answer(asyncio.run(core.ask(request, operator_caller(core.settings), channel="cli")))
        click.echo(
            "\nNext: ingest your own files with `curbside ingest PATH…` (PDF, DOCX, HTML, .nxml, Markdown, text),"
            "\nthen `curbside ask \"your question\"` (or `curbside serve` for the HTTP API)."
            "\nData lives in CURBSIDE_HOME (default ~/.curbside)."
        )
        if report.failed:
            raise SystemExit(1)
