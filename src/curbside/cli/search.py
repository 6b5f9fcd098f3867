"""`curbside search`."""

from __future__ import annotations

import click

from curbside.cli._common import app_context, echo_json, json_option

__all__ = ["search"]


@click.command()
@click.argument("query")
@click.option(
    "-k", "k", type=click.IntRange(1, 1000), default=None, help="Number of hits (default: CURBSIDE_SEARCH_TOP_K)."
)
@click.option("--mode", type=click.Choice(["hybrid", "dense", "bm25"]), default="hybrid", show_default=True)
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
    """Search the knowledge base (dense + BM25, fused)."""
    from curbside.types import SearchFilters

    with app_context() as app:
        filters = SearchFilters(source_type=source_type, specialty=specialty, doc_key=doc_key, namespace=namespace)
        response = app.search_engine.search(query, k=k, mode=mode, filters=filters)
        if as_json:
            echo_json(
                [
                    hit.model_dump(include={"chunk_id", "doc_key", "title", "section_path", "page", "score", "text"})
                    | {"similarity": hit.similarity}
                    for hit in response.hits
                ]
            )
            return
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
