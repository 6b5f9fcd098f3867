"""`curbside eval`: measure retrieval quality on a BEIR-format dataset, and PHI detection on labelled notes."""

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
    from curbside.app.scratch import open_scratch
    from curbside.cli._common import app_context
    from curbside.evaluation.retrieval import evaluate_retrieval

    with app_context() as core:  # validated settings, and the same error translation as every command
        settings = core.settings
    from curbside.cli._progress import EvalProgress

    with EvalProgress(enabled=stderr_is_tty() and not as_json) as progress:
        result = evaluate_retrieval(
            directory,
            open_system=open_scratch,
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


@eval_group.command("phi")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "jsonl", "presidio-synth"]),
    default="auto",
    show_default=True,
    help=(
        "jsonl: one note per line, {text, phi: [{start, end, type, text}]} (PhysioNet deid dev notes). "
        "presidio-synth: Presidio's synth_dataset_v2.json list; its labels are mapped to Curbside's PHI types "
        "(PERSON; STREET_ADDRESS, ZIP_CODE -> ADDRESS; GPE -> LOCATION; DATE_TIME -> DATE; PHONE_NUMBER -> PHONE; "
        "EMAIL_ADDRESS -> EMAIL; US_SSN -> SIN_SSN; CREDIT_CARD, IBAN_CODE, US_DRIVER_LICENSE -> ID; AGE -> AGE "
        "when over 89) and the rest (ORGANIZATION, TITLE, NRP, DOMAIN_NAME, IP_ADDRESS, ages up to 89) are not "
        "scored. auto: a file that starts with '[' is presidio-synth."
    ),
)
@click.option(
    "--folds",
    type=click.IntRange(2),
    help=(
        "Cross-validate: split the notes into this many folds by patient (a jsonl note's \"patient\"; "
        "a note without one stands alone) and report every fold, their mean and the worst."
    ),
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the patient shuffle for --folds.")
@json_option
def phi(file: Path, fmt: str, folds: int | None, seed: int, as_json: bool) -> None:
    """Score the PHI detector on FILE: span recall, precision and F2, and recall per gold type.

    A gold span is found when a detected span overlaps it; a detected span is correct when it
    overlaps a gold span; F2 = 5PR/(4P+R) weighs recall four times as much as precision. Types
    are ignored overall. The detector's settings come from CURBSIDE_PHI_*.

    With --folds K the same figures come for each of K patient folds (the same split for the
    same --seed): develop on some folds, read only their misses, and judge on the others.
    """
    from pydantic import ValidationError as PydanticValidationError
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from curbside.errors import ConfigError
    from curbside.phi import get_detector
    from curbside.phi.evaluate import evaluate_phi, load_phi_dataset
    from curbside.phi.folds import patient_folds
    from curbside.settings import Settings

    # a missing or malformed file, or too few patients for --folds, fails before the model loads
    notes, _ = load_phi_dataset(file, fmt)  # type: ignore[arg-type]
    if folds is not None:
        patient_folds(notes, folds, seed)
    try:
        settings = Settings()
    except PydanticValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'settings'}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"Invalid CURBSIDE_* settings: {problems}") from exc
    detector = get_detector(settings)
    progress = Progress(
        TextColumn("notes"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=as_json or not stderr_is_tty(),
        transient=True,
    )
    with progress:
        task = progress.add_task("notes", total=None)
        result = evaluate_phi(
            file,
            detector.detect,
            fmt=fmt,  # type: ignore[arg-type]
            folds=folds,
            seed=seed,
            on_start=lambda total: progress.update(task, total=total),
            on_note=lambda: progress.advance(task),
        )
    if as_json:
        echo_json(result)
    elif folds is not None:
        click.echo(format_phi_folds(result))
    else:
        click.echo(format_phi_result(result))


def format_phi_result(result: dict[str, Any]) -> str:
    """Overall figures, then one row per gold type."""
    clean = result["notes_without_phi"]
    lines = [
        f"{result['dataset']} ({result['format']}): {result['notes']} notes, {result['gold']} gold spans, "
        f"{result['detected']} detected",
        "",
        f"recall {result['recall']:.4f}   precision {result['precision']:.4f}   F2 {result['f2']:.4f}",
        "",
        f"{'gold type':<20}{'gold':>7}{'found':>7}{'recall':>9}",
    ]
    for kind, counts in result["by_type_counts"].items():
        lines.append(f"{kind:<20}{counts['gold']:>7}{counts['found']:>7}{result['by_type'][kind]:>9.4f}")
    lines.append("")
    if clean["count"]:
        lines.append(f"notes without PHI: {clean['count']}, of which flagged: {clean['flagged']}")
    latency = result["latency_ms"]
    lines.append(
        f"{result['notes_per_second']} notes/s; detect per note p50 {latency['p50']} ms, p95 {latency['p95']} ms"
    )
    return "\n".join(lines)


def format_phi_folds(result: dict[str, Any]) -> str:
    """One row per fold (recall, precision, F2, then recall per gold type), then the mean and the worst."""
    runs = result["runs"]
    kinds = list(result["summary"]["by_type"])
    width = {k: max(7, len(k) + 1) for k in kinds}
    lines = [
        f"{result['dataset']} ({result['format']}): {result['folds']} patient folds, seed {result['seed']}",
        "",
        f"{'fold':<6}{'notes':>6}{'gold':>6}{'recall':>8}{'prec.':>8}{'F2':>8}{'flagged':>9}"
        + "".join(f"{k:>{width[k]}}" for k in kinds),
    ]
    for run in runs:
        clean = run["notes_without_phi"]
        lines.append(
            f"{run['fold']:<6}{run['notes']:>6}{run['gold']:>6}{run['recall']:>8.4f}{run['precision']:>8.4f}"
            f"{run['f2']:>8.4f}{clean['flagged']:>4}/{clean['count']:<4}"
            + "".join(f"{run['by_type'][k]:>{width[k]}.4f}" if k in run["by_type"] else f"{'-':>{width[k]}}" for k in kinds)
        )
    summary = result["summary"]
    for label in ("mean", "min"):
        lines.append(
            f"{label:<18}{summary['recall'][label]:>8.4f}{summary['precision'][label]:>8.4f}"
            f"{summary['f2'][label]:>8.4f}{'':>9}"
            + "".join(f"{summary['by_type'][k][label]:>{width[k]}.4f}" for k in kinds)
        )
    return "\n".join(lines)
