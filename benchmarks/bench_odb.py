"""``odb.get`` latency over the golden questions, no LLM: p50 / p95 / p99 of the whole call and of each path.

    .venv/bin/python benchmarks/bench_odb.py [--embedder auto] [--rounds 20] [--json out.json]

The full ODB formulary extract (../shared/data/ontario) is loaded once into a
scratch home under --home-root through ``curbside coverage load``'s own code
(tables and passages), and reused by later runs (the load is idempotent).
Each golden request runs --rounds times after one warm-up round, through
``OdbService.get`` — the function the tools layer, CLI, HTTP and MCP call — with
both paths live: SQL on the formulary tables, hybrid search on the ODB
passages. Targets: p50 <= 50 ms, p95 <= 150 ms (the spec's own: p50 < 0.8 s,
p95 < 1.5 s).
"""

from __future__ import annotations

from typing import Any

from _coverage_bench import ONTARIO_DATA, Bench, print_target, print_tool_table, time_tool

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


def main() -> None:
    bench = Bench.open(__doc__, "odb", ("--data", ONTARIO_DATA, "folder with odb*formulary*.xml"), rounds=20)
    data, app = bench.args.data, bench.app

    from curbside.coverage.loading import load_directory
    from curbside.coverage.odb.tool import OdbGetArgs

    try:
        (source, *_), load_seconds = bench.load(data, lambda: load_directory(app.coverage_store, data).sources)
        print(f"{source.status}: {source.message} in {load_seconds} s; {source.passages}", flush=True)
        app.coverage_service("odb").warm_up()
        requests = [OdbGetArgs(**g) for g in GOLDEN]
        timing = bench.measure(lambda: time_tool(lambda a: app.coverage_service("odb").get(a), requests, GOLDEN, bench.args.rounds))
    finally:
        app.coverage_service("odb").close()
        app.close()

    bench.print_header("odb.get", len(GOLDEN))
    print_tool_table(timing, "odb.get call", 14)
    print_target(timing["call_ms"])
    loaded = {"status": source.status, "seconds": load_seconds, "passages": source.passages}
    bench.write_json("odb_get_latency", {"load": loaded}, timing)


if __name__ == "__main__":
    main()
