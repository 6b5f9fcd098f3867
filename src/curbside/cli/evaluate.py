"""`curbside eval`: measure retrieval quality on a BEIR-format dataset."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from curbside.cli._common import echo_json, json_option, stderr_is_tty

__all__ = ["eval_group"]


@click.group("eval")
def eval_group() -> None:
    """Evaluate Curbside on labelled data."""


@eval_group.command("retrieval")
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--limit-queries", type=click.IntRange(1), help="Only the first N queries that have relevant documents.")
@click.option("--limit-docs", type=click.IntRange(1), help="At most N documents, always keeping every relevant one.")
@click.option("--modes", default="bm25,dense,hybrid", show_default=True, help="Comma-separated search modes.")
@click.option("--split", default="test", show_default=True, help="Qrels file: qrels/SPLIT.tsv.")
@click.option(
    "--home",
    type=click.Path(path_type=Path, file_okay=False),
    help="Scratch home for the index, kept and reused across runs (default: a temporary directory).",
)
@json_option
def retrieval(
    directory: Path,
    limit_queries: int | None,
    limit_docs: int | None,
    modes: str,
    split: str,
    home: Path | None,
    as_json: bool,
) -> None:
    """Ingest a BEIR dataset's corpus into a scratch home and report nDCG@10,
    Recall@10, Recall@100 and MRR@10 per search mode.

    DIRECTORY holds corpus.jsonl, queries.jsonl and qrels/test.tsv. The embedder
    and search settings come from CURBSIDE_* (e.g. CURBSIDE_EMBEDDER=minilm);
    CURBSIDE_HOME is never touched.
    """
    from curbside.cli._common import app_context
    from curbside.evaluation.retrieval import evaluate_retrieval

    with app_context() as app:  # validated settings, and the same error translation as every command
        settings = app.settings
    from curbside.cli._progress import EvalProgress

    with EvalProgress(enabled=stderr_is_tty() and not as_json) as progress:
        result = evaluate_retrieval(
            directory,
            settings=settings,
            home=home,
            limit_queries=limit_queries,
            limit_docs=limit_docs,
            modes=modes.split(","),
            split=split,
            progress=progress,
        )
    if as_json:
        echo_json(result)
    else:
        click.echo(format_result(result))


def format_result(result: dict[str, Any]) -> str:
    """The side-by-side table: one row per mode, one column per metric."""
    runs: dict[str, dict[str, float]] = result["runs"]
    metrics = list(next(iter(runs.values())))
    ingest = result["ingest"]
    lines = [
        (
            f"{result['dataset']}: {result['docs']} documents ({ingest['chunks']} chunks), "
            f"{result['queries']} queries; embedder {result['embedder']} ({result['model']}, {result['backend']})"
        ),
        "",
        f"{'mode':<8}" + "".join(f"{m:>12}" for m in metrics) + f"{'p50 ms':>10}{'p95 ms':>10}",
    ]
    for mode, scores in runs.items():
        lat = result["latency_ms"][mode]
        lines.append(f"{mode:<8}" + "".join(f"{scores[m]:>12.4f}" for m in metrics) + f"{lat['p50']:>10.1f}{lat['p95']:>10.1f}")
    if "bm25" in runs and "hybrid" in runs and runs["bm25"]["ndcg@10"]:
        lines.append(f"\nhybrid / bm25 nDCG@10: {runs['hybrid']['ndcg@10'] / runs['bm25']['ndcg@10']:.3f}")
    done = f"ingested {ingest['ingested']}, unchanged {ingest['unchanged']}, failed {ingest['failed']}"
    lines.append(f"\ningest: {done} in {ingest['seconds']:.1f} s (encoder {ingest['embed_seconds']:.1f} s); "
                 f"total {result['seconds']['total']:.1f} s")
    lines.extend(f"note: {note}" for note in result["notes"])
    return "\n".join(lines)
