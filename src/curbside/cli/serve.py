"""`curbside serve`: the HTTP API."""

from __future__ import annotations

import click

__all__ = ["serve"]


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="TCP port to listen on.")
@click.option(
    "--log-level",
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
    default="info",
    show_default=True,
    help="The server's (uvicorn's) log level; Curbside's own is CURBSIDE_LOG_LEVEL.",
)
def serve(host: str, port: int, log_level: str) -> None:
    """Serve the HTTP API (OpenAPI docs at /docs). Models load before the first request."""
    import uvicorn

    from curbside.api import create_app
    from curbside.cli._common import app_context

    with app_context() as core:
        click.echo(f"Curbside API on http://{host}:{port} (docs: /docs); data in {core.settings.home}", err=True)
        click.echo(f"Answers: {core.llm_description()}", err=True)
        for warning in core.models.warnings:
            click.echo(f"warning: {warning}", err=True)
        # log_config=None keeps our redacting JSON handler on uvicorn's loggers
        uvicorn.run(create_app(core), host=host, port=port, log_level=log_level, log_config=None)
