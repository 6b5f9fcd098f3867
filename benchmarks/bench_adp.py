"""``adp.get`` latency over the golden questions, no LLM: p50 / p95 / p99 of the whole call and of each path.

    .venv/bin/python benchmarks/bench_adp.py [--embedder auto] [--rounds 20] [--json out.json]

The two ADP manuals (../shared/data/ontario/adp, July 2023) are loaded once into
a scratch home under --home-root through ``curbside coverage load``'s own code
(parse, rule check, tables, passages), and reused by later runs (the load is
idempotent). Each golden request runs --rounds times after one warm-up round,
through ``AdpService.get`` — the function the tools layer, CLI, HTTP and MCP call —
with both paths live: SQL on the ADP rule tables, hybrid search on the ADP
passages. Targets: p50 <= 50 ms, p95 <= 150 ms (the spec's own: p50 < 0.8 s,
p95 < 1.5 s).
"""

from __future__ import annotations

from typing import Any

from _coverage_bench import ONTARIO_DATA, Bench, print_target, print_tool_table, time_tool

# the golden questions of tests/coverage/adp/test_adp_get.py, plus the bad input a clerk sends
GOLDEN: list[dict[str, Any]] = [
    {"q": "What does ADP pay for a walker?"},
    {"q": "Does ADP cover power wheelchair batteries?"},
    {"q": "My patient is on ODSP, what do they pay for a wheelchair?"},
    {"q": "My patient on Ontario Works needs a hearing aid: what does ADP pay?"},
    {"q": "Does ADP cover hearing aids?"},
    {"q": "3-year-old scooter needs motor repair - what's covered?"},
    {"q": "Does ADP cover a stairlift?"},
    {"q": "Patient income $19,000, are they CEP eligible?"},
    {
        "device": {"category": "mobility", "type": "scooter"},
        "use_case": {"daily": True, "location": "home+entry_exit", "independent_transfer": False},
    },
    {"q": "My patient wants a scooter only for outings to the mall, is that funded?"},
    {"q": "Is a power tilt wheelchair covered for a patient on Ontario Works?"},
    {"q": "How often will ADP fund new wheelchair seating?"},
    {"q": "Is an insulin pump for a child covered?"},
    {"q": "What does ADP pay for a flux capacitor?"},
    {"device": {"category": "hearing_devices", "type": "walker"}},
    {"q": "walker", "patient_income": -5000},
]


def main() -> None:
    manuals = ("--data", ONTARIO_DATA / "adp", "folder with the ADP manuals (*adp*manual*.pdf)")
    bench = Bench.open(__doc__, "adp", manuals, rounds=20)
    data, app = bench.args.data, bench.app

    from curbside.coverage.adp.tool import AdpGetArgs
    from curbside.coverage.loading import load_directory

    try:
        every, load_seconds = bench.load(data, lambda: load_directory(app.coverage_store, data).sources)
        sources = [s for s in every if s.source == "adp"]
        for source in sources:
            print(f"{source.status}: {source.message}; {source.passages}", flush=True)
        print(f"load: {load_seconds} s", flush=True)
        app.coverage_service("adp").warm_up()
        requests = [AdpGetArgs(**g) for g in GOLDEN]
        timing = bench.measure(lambda: time_tool(lambda a: app.coverage_service("adp").get(a), requests, GOLDEN, bench.args.rounds))
    finally:
        app.close()

    bench.print_header("adp.get", len(GOLDEN))
    print_tool_table(timing, "adp.get call", 14)
    print_target(timing["call_ms"])
    loaded = {"seconds": load_seconds, "sources": [s.to_dict() for s in sources]}
    bench.write_json("adp_get_latency", {"load": loaded}, timing)


if __name__ == "__main__":
    main()
