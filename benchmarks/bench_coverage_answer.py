"""``coverage.answer`` latency over golden questions, no LLM: p50 / p95 / p99 of the call and of each tool.

    .venv/bin/python benchmarks/bench_coverage_answer.py [--embedder auto] [--rounds 10] [--json out.json]

The official files (../shared/data/ontario: the ODB formulary extract, the Schedule of
Benefits text, the two ADP manuals) are loaded once into a scratch home under --home-root
through ``curbside coverage load``'s own code, and reused by later runs (the loads are
idempotent). Each golden request runs --rounds times after one warm-up round through the
application's tool executor — what the CLI, HTTP and MCP call — so every sub-call pays its
checks, rate-limit count and audit row. Rows: the whole coverage.answer call; each domain
tool as coverage.answer called it (its trace entry); the orchestration overhead (the call
less its slowest sub-call: routing, the formulary name lookup, merging, the executor around
coverage.answer). Targets, per tool: p50 <= 50 ms, p95 <= 150 ms.
"""

from __future__ import annotations

import json
import time
from typing import Any

from _coverage_bench import ONTARIO_DATA, TARGET_P50_MS, TARGET_P95_MS, Bench, counted_summary, met, percentile

TOOLS = ("schedule.get", "adp.get", "odb.get")

GOLDEN: list[dict[str, Any]] = [
    {"question": "Can I bill C124 as MRP?"},
    {"question": "What is the fee for C124 in family practice?"},
    {"question": "Which codes apply for a Thursday discharge?"},
    {"question": "Can I bill C124 if the patient was discharged 36 hours after admission?"},
    {"question": "What premiums apply with E083?"},
    {"question": "What does ADP pay for a walker?"},
    {"question": "Are scooter batteries covered under ADP?"},
    {"question": "Power wheelchair for a patient on ODSP: what does ADP pay?"},
    {"question": "Is Ozempic covered for diabetes?"},
    {"question": "Is there a generic for Januvia?"},
    {"question": "cheapest covered atorvastatin 20 mg"},
    {
        "question": "My 75yo patient is being discharged after 3 days. Can I bill C124 as MRP? Also needs a walker "
        "- what's covered?"
    },
    {"question": "patient discharged today on apixaban, needs a walker — what can I bill and what's covered?"},
    {"question": "Patient on ODSP needs a power wheelchair; is Ozempic covered for her diabetes?"},
    {
        "question": "What is covered?",
        "hints": {"codes": ["C124"], "device": {"category": "mobility", "type": "walker"}, "drug": "apixaban"},
        "patient": {"income": 24000, "plan": "ODB"},
    },
    {"question": ""},
]


async def time_calls(app: Any, rounds: int) -> dict[str, Any]:
    from curbside.types import ToolCaller

    calls: list[float] = []
    tools: dict[str, list[float]] = {name: [] for name in TOOLS}
    # a tool alone, and a tool beside others: concurrent sub-calls share the machine's cores
    alone: dict[str, list[float]] = {name: [] for name in TOOLS}
    beside: dict[str, list[float]] = {name: [] for name in TOOLS}
    overhead: list[float] = []
    per_question: dict[int, list[float]] = {i: [] for i in range(len(GOLDEN))}
    statuses: dict[str, int] = {}
    decisions: dict[int, str] = {}
    n = 0
    for round_no in range(rounds + 1):  # round 0 warms caches and the encoder; it is not timed
        for i, request in enumerate(GOLDEN):
            n += 1
            # a caller per call: the per-user rate limits (60 a minute) would otherwise throttle the benchmark
            caller = ToolCaller(user=f"bench-{n}", role="clinician")
            started = time.perf_counter()
            outcome = await app.tools.call("coverage.answer", request, caller=caller)
            elapsed = (time.perf_counter() - started) * 1000.0
            if outcome.status != "ok" or outcome.result is None:
                raise SystemExit(f"coverage.answer failed on {request}: {outcome.error}")
            if round_no == 0:
                decisions[i] = outcome.result["decision"]
                continue
            calls.append(elapsed)
            per_question[i].append(elapsed)
            trace = outcome.result["trace"]
            for entry in trace:
                key = f"{entry['tool']}:{entry['status']}"
                statuses[key] = statuses.get(key, 0) + 1
                if entry["status"] == "ok":
                    tools[entry["tool"]].append(entry["duration_ms"])
                    (alone if len(trace) == 1 else beside)[entry["tool"]].append(entry["duration_ms"])
            slowest = max((entry["duration_ms"] for entry in trace), default=0.0)
            overhead.append(elapsed - slowest)
    return {
        "calls": len(calls),
        "call_ms": counted_summary(calls),
        "tool_ms": {name: counted_summary(values) for name, values in tools.items()},
        "tool_alone_ms": {name: counted_summary(values) for name, values in alone.items()},
        "tool_beside_others_ms": {name: counted_summary(values) for name, values in beside.items()},
        "overhead_ms": counted_summary(overhead),
        "per_question_p50_ms": {json.dumps(GOLDEN[i]): round(percentile(v, 50), 1) for i, v in per_question.items()},
        "decisions": {json.dumps(GOLDEN[i]): d for i, d in decisions.items()},
        "sub_call_statuses": statuses,
    }


def main() -> None:
    bench = Bench.open(__doc__, "coverage", ("--data", ONTARIO_DATA, "folder with the ODB, OHIP and ADP files"), 10)
    data, app = bench.args.data, bench.app

    from curbside.coverage.loading import load_directory

    try:
        report, load_seconds = bench.load(data, lambda: load_directory(app.coverage_store, data))
        for source in report.sources:
            print(f"  {source.source}: {source.status}: {source.message}", flush=True)
        problems = app.tools.warm_up()
        if problems:
            print(f"warm-up problems: {problems}")
        timing = bench.measure(lambda: time_calls(app, bench.args.rounds))
    finally:
        app.close()

    bench.print_header("coverage.answer", len(GOLDEN), f"; data loaded in {load_seconds} s")
    print(f"{'':<22}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'mean':>8}{'n':>6}  target")
    rows = [("coverage.answer call", timing["call_ms"])]
    for name in TOOLS:
        rows += [
            (f"  {name}", timing["tool_ms"][name]),
            ("    asked alone", timing["tool_alone_ms"][name]),
            ("    beside others", timing["tool_beside_others_ms"][name]),
        ]
    rows += [("  orchestration", timing["overhead_ms"])]
    for name, s in rows:
        verdict = "met" if met(s) else "MISSED"
        print(f"{name:<22}{s['p50']:>8.1f}{s['p95']:>8.1f}{s['p99']:>8.1f}{s['mean']:>8.1f}{s['n']:>6}  {verdict}")
    print("\np50 per request (ms), and the decision:")
    for request, p50 in timing["per_question_p50_ms"].items():
        print(f"  {p50:>7.1f}  {timing['decisions'][request]:<16} {request}")
    print(f"\nsub-call statuses: {timing['sub_call_statuses']}")
    print(f"\nTargets per tool: p50 <= {TARGET_P50_MS:.0f} ms, p95 <= {TARGET_P95_MS:.0f} ms.")
    bench.write_json("coverage_answer_latency", {"load_seconds": load_seconds}, timing)


if __name__ == "__main__":
    main()
