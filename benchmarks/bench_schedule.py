"""``schedule.get`` latency over the golden questions, no LLM: p50 / p95 / p99 of the whole call and of each path.

    .venv/bin/python benchmarks/bench_schedule.py [--embedder auto] [--rounds 20] [--json out.json]

The whole Schedule of Benefits text (../shared/data/ontario) is loaded once
into a scratch home under --home-root through ``coverage load``'s own OHIP
loader (tables and passages: ~2,900 MiniLM chunks, minutes on two cores), and
reused by later runs (the load is idempotent). Each golden request runs
--rounds times after one warm-up round through ``OhipService.get`` — the
function the tools layer, CLI, HTTP and MCP call — with both paths live: SQL on
the Schedule tables, hybrid search on the Schedule passages. Also prints the
parse report's share of codes with an aligned fee. Targets: p50 <= 50 ms,
p95 <= 150 ms.
"""

from __future__ import annotations

import json
from typing import Any

from _coverage_bench import ONTARIO_DATA, Bench, print_target, print_tool_table, time_tool

DEFAULT_FILE = ONTARIO_DATA / "ohip-schedule-of-benefits-2025-03-03.txt"

# the golden questions of tests/coverage/ohip/test_ohip_get.py
GOLDEN: list[dict[str, Any]] = [
    {"q": "Which codes apply for a Thursday discharge?"},
    {"q": "Can I bill C124 if the patient was discharged 36 hours after admission?"},
    {"codes": ["C124"], "context": {"mrp": True, "hours_since_admission": 72}},
    {"q": "I was not the MRP; can I bill C124 for the day of discharge after a 5 day stay?"},
    {"codes": ["C124"], "specialty": "01"},
    {"q": "What does an anaesthesiologist get for C012?"},
    {"q": "What is the fee for A005?"},
    {"q": "How much does a cardiologist get for a consultation?"},
    {"q": "What is the fee for X001?"},
    {"q": "What is the E083 premium and when can I claim it?"},
    {"codes": ["E084"], "context": {"day": "sunday"}},
    {"q": "What is the fee for C002?"},
    {"codes": ["C999"]},
    {"q": "?"},
    {"codes": ["C124"], "specialty": "00", "section": "Anaesthesia (01)"},
]


def main() -> None:
    bench = Bench.open(__doc__, "ohip", ("--file", DEFAULT_FILE, "the Schedule of Benefits text"), rounds=20)
    args, app = bench.args, bench.app

    from curbside.coverage.ohip.load import load_ohip
    from curbside.coverage.ohip.store import current_edition
    from curbside.coverage.ohip.tool import ScheduleGetArgs

    try:
        source, load_seconds = bench.load(args.file, lambda: load_ohip(app.coverage_store, args.file))
        print(f"{source.status}: {source.message} in {load_seconds} s; {source.passages}", flush=True)
        edition = current_edition(app.db)
        report = edition.report if edition is not None else {}
        app.coverage_service("ohip").warm_up()
        requests = [ScheduleGetArgs(**g) for g in GOLDEN]
        timing = bench.measure(lambda: time_tool(lambda a: app.coverage_service("ohip").get(a), requests, GOLDEN, args.rounds))
    finally:
        app.close()

    bench.print_header("schedule.get", len(GOLDEN))
    print_tool_table(timing, "schedule.get", 16)
    if report:
        print(
            f"\nparse report: {report['codes_found']:,} codes found, {report['codes_with_fee']:,} with an aligned fee "
            f"({report['aligned_share']:.1%}; {report.get('codes_fee_read', 0):,} read, "
            f"{report.get('codes_no_fee', 0):,} I.C), {report['codes_fee_unknown']:,} fee unknown; listings "
            f"{report['listings_with_fee']:,} of {report['listings']:,} with a fee ({report['listing_share']:.1%})"
        )
    print_target(timing["call_ms"])
    if args.json_path:
        out = {
            "embedder": bench.embedder,
            "rounds": args.rounds,
            "load_seconds": load_seconds,
            "load": {"status": source.status, "message": source.message, "passages": source.passages},
            "parse_report": report,
            **timing,
        }
        args.json_path.write_text(json.dumps(out, indent=2) + "\n")
        print(f"wrote {args.json_path}")


if __name__ == "__main__":
    main()
