"""`curbside demo`: the main job on the embedded default, on sample documents."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import click

from curbside.cli._common import app_context, stderr_is_tty

__all__ = ["demo"]

DEMO_QUESTIONS = (
    "treatment of uncomplicated malaria in the first trimester of pregnancy",
    "can I start metformin if eGFR is 35?",
)


def sample_paths() -> list[Path]:
    folder = resources.files("curbside") / "samples"
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.startswith("sample-"))


@click.command()
@click.option("--home", type=click.Path(path_type=Path), help="Data directory for the demo (default: CURBSIDE_HOME/demo).")
def demo(home: Path | None) -> None:
    """Ingest the bundled SAMPLE documents (not clinical advice) and search them."""
    import os

    from curbside.cli._progress import RichProgress
    from curbside.settings import Settings

    base = Settings().home
    os.environ["CURBSIDE_HOME"] = str(home or base / "demo")
    with app_context() as app:
        click.echo(f"Curbside demo — data in {app.settings.home}")
        click.echo("Ingesting sample documents (SAMPLES, not clinical advice):")
        with RichProgress(enabled=stderr_is_tty()) as progress:
            report = app.ingestor.ingest(sample_paths(), progress=progress)
        for outcome in report.outcomes:
            click.echo(f"  {outcome.status:<9} {Path(outcome.path).name}: {outcome.message}")
        for question in DEMO_QUESTIONS:
            click.echo(f"\nQ: {question}")
            response = app.search_engine.search(question, k=2)
            for n, hit in enumerate(response.hits, 1):
                where = hit.title + (f" > {hit.section_path}" if hit.section_path else "")
                click.echo(f"  [{n}] {where}  (similarity {hit.similarity:.2f})")
                click.echo(f"      {hit.excerpt(220)}")
            if not response.hits:
                click.echo("  No passage is relevant enough.")
        click.echo(
            "\nNext: ingest your own files with `curbside ingest PATH…` (PDF, DOCX, HTML, .nxml, Markdown, text),"
            "\nthen `curbside search \"your question\"`. Data lives in CURBSIDE_HOME (default ~/.curbside)."
        )
        if report.failed:
            raise SystemExit(1)
