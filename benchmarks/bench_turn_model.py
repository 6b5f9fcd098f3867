"""The consult turn with a local model (#18): time to the first answer token and to the result, model calls
per route against the budget, and how often the model's wording passed its checks.

    .venv/bin/python benchmarks/bench_turn_model.py --url http://127.0.0.1:8080/v1 [--rounds 3]

Lookup turns that need no EHR (calculators, the knowledge base over the bundled samples), each run with
the model allowed and with it kept out (``use_llm: false``), in process with the turn's own event stream:
the first ``token`` event is what a reader sees first. The model is whatever serves --url (e.g.
``curbside models serve``); its name is printed. Target (#18): lookup turns with no model p50/p95 ≤ 1 s;
with the local model, report.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MESSAGES = (
    "BMI for weight 80 kg, height 180 cm?",
    "creatinine clearance for a 72 year old woman, 58 kg, creatinine 110 umol/L",
    "What are the first-line drug classes for hypertension?",
    "CHA2DS2-VASc for a 76 year old man with hypertension and diabetes",
)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def one(core: Any, message: str, use_llm: bool) -> dict[str, Any]:
    from curbside.agent.models import TurnRequest
    from curbside.types import ToolCaller

    caller = ToolCaller(user="bench-turn", role="clinician", channel="cli")
    began = time.perf_counter()
    first: list[float] = []

    async def sink(kind: str, data: dict[str, Any]) -> None:
        if kind == "token" and not first:
            first.append(time.perf_counter() - began)

    result = await core.turns.run(TurnRequest(message=message, use_llm=use_llm), caller, on_event=sink)
    total = time.perf_counter() - began
    usage = result.usage
    return {
        "message": message,
        "route": result.route,
        "first_token_s": first[0] if first else total,
        "total_s": total,
        "calls": usage.llm_calls if usage else 0,
        "budget": usage.max_llm_calls if usage else 0,
        "worded": any(w.startswith("Worded by") for w in result.warnings),
        "refused": next((w for w in result.warnings if "wording was not used" in w), None),
        "answer": result.final_response,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="OpenAI-compatible base URL of the local model (…/v1)")
    parser.add_argument("--model", default="local", help="model name sent to it")
    parser.add_argument("--rounds", type=int, default=3, help="times each message is asked, per mode")
    args = parser.parse_args()

    from curbside.app import Curbside
    from curbside.cli.demo import sample_paths
    from curbside.settings import Settings

    home = Path(tempfile.mkdtemp(prefix="bench-turn-"))
    core = Curbside(Settings(home=home, local_llm_url=args.url, local_llm_model=args.model))
    try:
        core.ingestor.ingest(sample_paths())
        for message in MESSAGES:  # warm-up: the embedder, the PHI detector ask screens with, the calculators
            asyncio.run(one(core, message, False))
        rows: dict[bool, list[dict[str, Any]]] = {False: [], True: []}
        for use_llm in (False, True):
            for _ in range(args.rounds):
                for message in MESSAGES:
                    rows[use_llm].append(asyncio.run(one(core, message, use_llm)))
    finally:
        core.close()

    print(f"consult turns, {len(MESSAGES)} lookup messages × {args.rounds} rounds; model at {args.url}\n")
    print("| mode | turns | first token p50 s | p95 s | total p50 s | p95 s | model calls (max per turn / budget) |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for use_llm, label in ((False, "no model"), (True, "local model")):
        got = rows[use_llm]
        first = [r["first_token_s"] for r in got]
        total = [r["total_s"] for r in got]
        calls = max((r["calls"] for r in got), default=0)
        budget = min((r["budget"] for r in got), default=0)
        print(
            f"| {label} | {len(got)} | {statistics.median(first):.3f} | {pct(first, 0.95):.3f} | "
            f"{statistics.median(total):.3f} | {pct(total, 0.95):.3f} | {calls} / {budget} |"
        )
    with_model = rows[True]
    worded = sum(r["worded"] for r in with_model)
    refused = [r["refused"] for r in with_model if r["refused"]]
    over = sum(r["calls"] > r["budget"] for r in with_model)
    print(f"\nwith the model: worded by it {worded}/{len(with_model)}, refused {len(refused)}, over budget {over}")
    for reason in sorted(set(refused)):
        print(f"  refused: {reason}")
    print("\nexamples (model):")
    for r in with_model[: len(MESSAGES)]:
        print(f"  {r['message']}\n    -> {r['answer'][:300]}")


if __name__ == "__main__":
    main()
