"""Retrieval evaluation on a BEIR dataset: ingest its corpus into a scratch home,
search every query in each mode, score the document rankings.

The corpus goes through the real pipeline (``Ingestor.ingest_prepared``: chunker,
embedder, both indexes) and queries through ``SearchEngine.search`` with the
relevance threshold and near-duplicate removal off, so the figures measure
the ranking the product serves, not a reimplementation.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from curbside.errors import ValidationError
from curbside.evaluation.beir import BeirDataset, CorpusRow, doc_key_for, load_beir
from curbside.evaluation.metrics import evaluate_run
from curbside.kb.ingest import ProgressReporter
from curbside.search.embedders import resolve_embedder_name
from curbside.search.postprocess import document_ranking
from curbside.settings import Settings

if TYPE_CHECKING:
    from curbside.kb.ingest import Ingestor, PreparedDocument
    from curbside.search.embedders.base import Embedder
    from curbside.search.engine import SearchEngine
    from curbside.store.documents import DocumentStore


class RetrievalSystem(Protocol):
    """What an evaluation runs on: the application's parts over a scratch home (``curbside.app.scratch``)."""

    settings: Settings

    @property
    def documents(self) -> DocumentStore: ...

    @property
    def ingestor(self) -> Ingestor: ...

    @property
    def search_engine(self) -> SearchEngine: ...

    @property
    def embedder(self) -> Embedder: ...


OpenSystem = Callable[[Settings, "Path | None"], AbstractContextManager[RetrievalSystem]]

__all__ = [
    "MODES",
    "EvalProgress",
    "evaluate_retrieval",
    "ingest_corpus",
    "metric_names",
    "OpenSystem",
    "RetrievalSystem",
    "prepared_documents",
    "rank_documents",
]

MODES = ("bm25", "dense", "hybrid")


class EvalProgress(ProgressReporter, Protocol):
    """Ingest progress plus one bar per search mode."""

    def queries(self, mode: str, total: int) -> None: ...

    def query_done(self) -> None: ...


def metric_names(k_eval: int = 100) -> tuple[str, ...]:
    return ("ndcg@10", "recall@10", f"recall@{k_eval}", "mrr@10")


def evaluate_retrieval(
    directory: Path,
    *,
    open_system: OpenSystem,
    settings: Settings,
    home: Path | None = None,
    limit_queries: int | None = None,
    limit_docs: int | None = None,
    modes: Sequence[str] = MODES,
    k_eval: int = 100,
    split: str = "test",
    progress: EvalProgress | None = None,
) -> dict[str, Any]:
    """Evaluate ``modes`` on the BEIR dataset in ``directory``; returns the JSON-ready result.

    ``settings`` chooses the embedder and the search knobs; its ``home`` is never
    touched. ``open_system(settings, home)`` opens the parts to run on (the CLI passes
    ``curbside.app.scratch.open_scratch``). The corpus is ingested into ``home`` (a temporary
    directory when None). A home that already holds this corpus with the same embedder is
    reused: unchanged rows are skipped, and documents not in the corpus are
    removed so the index is exactly the corpus. A home indexed with another
    embedder raises ``ModelMismatchError``.
    """
    modes = _check_modes(modes)
    if not 10 <= k_eval <= 1000:
        raise ValidationError(f"k_eval must be from 10 to 1000, got {k_eval}.")
    started = time.perf_counter()
    dataset = load_beir(Path(directory), split=split, limit_queries=limit_queries, limit_docs=limit_docs)
    seconds: dict[str, float] = {"load": time.perf_counter() - started}
    with open_system(settings, home) as core:
        ingest = ingest_corpus(core, dataset, progress)
        seconds["ingest"] = ingest["seconds"]
        runs: dict[str, dict[str, float]] = {}
        latency: dict[str, dict[str, float]] = {}
        errors: dict[str, int] = {}
        for mode in modes:
            t0 = time.perf_counter()
            rankings, took, errors[mode] = rank_documents(core, dataset, mode, k_eval, progress)
            seconds[mode] = time.perf_counter() - t0
            runs[mode] = {m: round(v, 4) for m, v in evaluate_run(rankings, dataset.qrels, metric_names(k_eval)).items()}
            latency[mode] = {"p50": round(_percentile(took, 50), 2), "p95": round(_percentile(took, 95), 2)}
        embedder = core.embedder
        result: dict[str, Any] = {
            "dataset": dataset.name,
            "split": split,
            "docs": len(dataset.corpus),
            "queries": len(dataset.queries),
            "embedder": resolve_embedder_name(core.settings.embedder),
            "model": embedder.model_id,
            "backend": embedder.backend,
            "home": str(home) if home is not None else None,
            "search": {"rrf_k": core.settings.rrf_k, "candidates": max(core.settings.search_candidates, k_eval), "k": k_eval},
            "runs": runs,
            "latency_ms": latency,
            "ingest": ingest,
            "seconds": {k: round(v, 2) for k, v in seconds.items()} | {"total": round(time.perf_counter() - started, 2)},
            "notes": list(dataset.notes),
        }
    if dataset.missing_relevant:
        result["notes"].append(f"{dataset.missing_relevant} relevant documents named in the qrels are not in the corpus")
    if ingest["failed"]:
        result["notes"].append(f"{ingest['failed']} corpus rows failed to ingest (e.g. {ingest['errors'][0]})")
    if any(errors.values()):
        result["notes"].append(f"queries the engine refused (scored 0): {errors}")
    return result




def ingest_corpus(core: RetrievalSystem, dataset: BeirDataset, progress: ProgressReporter | None = None) -> dict[str, Any]:
    """Make ``core``'s index hold exactly ``dataset.corpus``: one document per row, doc key = the row id
    (or ``doc_key_for`` it when the id is not a valid key). Returns ingest counts and times."""
    started = time.perf_counter()
    keys: dict[str, str] = {}
    for row in dataset.corpus:
        key = doc_key_for(row.id)
        if keys.setdefault(key, row.id) != row.id:
            raise ValidationError(f"corpus ids {keys[key]!r} and {row.id!r} map to the same doc key {key!r}.")
    stale = [r.doc_key for r in core.documents.list_current() if r.doc_key not in keys]
    for key in stale:
        core.ingestor.remove(key)
    # a row with no text has nothing to index; ingest would only record a failed job for it
    rows = [r for r in dataset.corpus if r.title.strip() or r.text.strip()]
    report = core.ingestor.ingest_prepared(prepared_documents(rows), progress=progress, total=len(rows))
    failed = report.failed
    return {
        "ingested": report.count("ingested"),
        "unchanged": report.count("unchanged"),
        "failed": len(failed),
        "empty_rows": len(dataset.corpus) - len(rows),
        "removed_stale": len(stale),
        "chunks": sum(o.chunks for o in report.outcomes if o.status in ("ingested", "unchanged")),
        "chunks_embedded": sum(o.chunks for o in report.outcomes if o.status == "ingested"),
        "seconds": round(time.perf_counter() - started, 2),
        "embed_seconds": round(report.embed_seconds, 2),
        "errors": [f"{o.doc_key}: {o.message}" for o in failed[:5]],
    }


def prepared_documents(rows: Iterable[CorpusRow]) -> Iterator[PreparedDocument]:
    """One ``PreparedDocument`` per corpus row: title = the row title, one block of text."""
    from curbside.kb.document import Block, LoadedDocument, Section
    from curbside.kb.ingest import PreparedDocument

    for row in rows:
        key = doc_key_for(row.id)
        # an empty title gives chunks with no title-path line, just the text
        text = row.text if row.text.strip() else row.title
        data = f"{row.title}\n\n{row.text}" if row.title else row.text
        loaded = LoadedDocument(title=row.title, root=Section(title=None, blocks=[Block(text)]), format="text")
        yield PreparedDocument(key, f"{key}.txt", data.encode("utf-8"), loaded)


def rank_documents(
    core: RetrievalSystem, dataset: BeirDataset, mode: str, k: int = 100, progress: EvalProgress | None = None
) -> tuple[dict[str, list[str]], list[float], int]:
    """Search every query; returns (query id → corpus ids best first, per-query ms, refused queries).

    A document counts at its best chunk. The engine returns ``k`` chunks, so a
    corpus split into many chunks per row yields fewer than ``k`` documents.
    """
    back = {doc_key_for(r.id): r.id for r in dataset.corpus}
    engine = core.search_engine
    if progress is not None:
        progress.queries(mode, len(dataset.queries))
    rankings: dict[str, list[str]] = {}
    took: list[float] = []
    refused = 0
    for qid, text in dataset.queries.items():
        try:
            response = engine.search(text, k=k, mode=mode, min_similarity=None, dedup=False)
        except ValidationError:  # e.g. an empty or over-long query: it scores 0, and the result says so
            refused += 1
            rankings[qid] = []
        else:
            took.append(response.took_ms)
            rankings[qid] = [back.get(key, key) for key in document_ranking(response.hits)]
        if progress is not None:
            progress.query_done()
    return rankings, took, refused


def _check_modes(modes: Sequence[str]) -> tuple[str, ...]:
    cleaned = tuple(dict.fromkeys(m.strip().lower() for m in modes if m.strip()))
    unknown = [m for m in cleaned if m not in MODES]
    if unknown or not cleaned:
        raise ValidationError(f"Unknown mode(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(MODES)}.")
    return cleaned


def _percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (0.0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]
