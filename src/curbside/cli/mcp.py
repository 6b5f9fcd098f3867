"""`curbside mcp`: serve every tool over MCP (stdio for local clients, or streamable HTTP)."""

from __future__ import annotations

import click

from curbside.cli._common import app_context

__all__ = ["mcp"]


@click.command("mcp")
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio: a client starts this command; http: streamable HTTP at http://HOST:PORT/mcp.",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    envvar="CURBSIDE_MCP_HOST",
    help="HTTP bind address.",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8765,
    show_default=True,
    envvar="CURBSIDE_MCP_PORT",
    help="HTTP port.",
)
def mcp(transport: str, host: str, port: int) -> None:
    """Serve Curbside's tools (source.passages, odb.get, …) to MCP clients.

    Models and indexes load before the server accepts calls, so first calls meet
    their timeouts. With stdio, stdout carries only the protocol; messages go to stderr.
    """
    import asyncio

    from curbside.mcp_server import run_http, run_stdio

    with app_context() as core:
        core.warm_up()
        names = ", ".join(core.tools.registry.names())
        if transport == "stdio":
            click.echo(f"Curbside MCP server on stdio; tools: {names}", err=True)
            asyncio.run(run_stdio(core))
        else:
            click.echo(
                f"Curbside MCP server at http://{host}:{port}/mcp; tools: {names}",
                err=True,
            )
            asyncio.run(run_http(core, host=host, port=port))
