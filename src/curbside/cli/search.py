"""`curbside search`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from curbside.cli._common import app_context, echo_json, json_option

if TYPE_CHECKING:
    from curbside.types import SearchResponse

__all__ = ["search"]


@click.command()
@click.argument("query")
@click.option(
    "-k", "k", type=click.IntRange(1, 1000), default=None, help="Number of hits (default: CURBSIDE_SEARCH_TOP_K)."
)
@click.option(
    "--mode",
    type=click.Choice(["hybrid", "dense", "bm25"]),
    default="hybrid",
    show_default=True,
    help="hybrid fuses dense (embedding) and BM25 (keyword) rankings; dense or bm25 use one alone.",
)
@click.option("--source-type", help="Only this source type.")
@click.option("--specialty", help="Only this specialty (without it, specialty is only a ranking hint).")
@click.option("--doc-key", help="Only this document.")
@click.option(
    "--namespace", default="kb", show_default=True, help="'kb' (ingested documents) or 'odb' (formulary passages)."
)
@json_option
def search(
    query: str,
    k: int | None,
    mode: str,
    source_type: str | None,
    specialty: str | None,
    doc_key: str | None,
    namespace: str,
    as_json: bool,
) -> None:
    """Search the knowledge base (dense + BM25, fused). Recorded on the audit trail.

    With --json, the response of GET /v1/search: {query, expanded_query, mode, hits, …}.
    """
    from curbside.auth import operator_caller
    from curbside.cli._audit import CHANNEL
    from curbside.types import SearchFilters

    filters = SearchFilters(source_type=source_type, specialty=specialty, doc_key=doc_key, namespace=namespace)
    with app_context() as core:
        response = core.search(query, operator_caller(core.settings), channel=CHANNEL, k=k, mode=mode, filters=filters)
    if as_json:
        echo_json(response.model_dump(mode="json"))
    else:
        _print_hits(response)


def _print_hits(response: SearchResponse) -> None:
    if not response.hits:
        click.echo("No passage is relevant enough to this query.")
    for n, hit in enumerate(response.hits, 1):
        where = f"{hit.title}" + (f" > {hit.section_path}" if hit.section_path else "")
        page = f", p. {hit.page}" if hit.page else ""
        sim = f", sim {hit.similarity:.2f}" if hit.similarity is not None else ""
        click.echo(f"[{n}] {where}{page}  (score {hit.score:.4f}{sim})")
        click.echo(f"    {hit.excerpt(240)}")
        click.echo(f"    id: {hit.chunk_id}\n")
    for warning in response.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(
        f"{len(response.hits)} hits in {response.took_ms:.0f} ms ({response.mode}; reranker: {response.reranker})"
    )
