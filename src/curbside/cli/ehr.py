"""`curbside ehr sandbox`: a sandbox FHIR R4 server on loopback (not yet registered in ``cli/__init__``)."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import click

__all__ = ["ehr_group"]


@click.group("ehr")
def ehr_group() -> None:
    """The patient's chart over FHIR."""


@ehr_group.command("sandbox")
@click.option(
    "--load",
    "load_dirs",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Load the Synthea bundles (transaction or batch) in this directory; repeatable.",
)
@click.option(
    "--record-writes", is_flag=True, help="Answer writes without applying them; list them at /$recorded-writes."
)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8090, show_default=True, help="Loopback port (0: any free one)."
)
@click.option(
    "--install-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the Node packages are installed (default CURBSIDE_HOME/ehr-sandbox).",
)
def sandbox(load_dirs: tuple[Path, ...], record_writes: bool, port: int, install_dir: Path | None) -> None:
    """Start a sandbox EHR (Medplum's FHIR router in Node, in memory) until Ctrl-C."""
    from curbside.tools.ehr.sandbox import EhrSandbox

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with EhrSandbox(
        install_dir=install_dir, port=port, record_writes=record_writes, progress=lambda m: click.echo(m, err=True)
    ) as ehr:
        click.echo(f"Sandbox EHR on {ehr.base_url} (started in {ehr.start_seconds:.1f} s)", err=True)
        for folder in load_dirs:
            report = ehr.load(folder)
            click.echo(
                f"Loaded {report.bundles} bundles, {report.entries} resources from {folder} in {report.seconds:.1f} s",
                err=True,
            )
            for failure in report.failures:
                click.echo(f"warning: {failure}", err=True)
        if record_writes:
            click.echo(f"Writes are recorded, not applied: {ehr.base_url}/$recorded-writes", err=True)
        click.echo(ehr.base_url)
        try:
            while not stop.wait(0.5):
                if not ehr.running:
                    raise click.ClickException("the sandbox EHR stopped unexpectedly")
        except KeyboardInterrupt:
            pass
