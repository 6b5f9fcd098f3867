"""The EHR read tools (#17) on the sandbox EHR loaded with the 17 shared Synthea adults.

    .venv/bin/python benchmarks/bench_ehr.py [--calls 30] [--json PATH]

Starts the sandbox (Medplum's FHIR router in Node, in memory, on loopback), loads every bundle of
``../shared/data/fhir/synthea-adults`` and reports the load time; then runs ``ehr.get_patient_chart``
``--calls`` times through a tool executor (in-memory hooks: the audit trail's fsync is measured in
bench_audit.py) for the patient with the most resources, after one untimed warm-up call (connection
set-up). Figures: latency p50 / p95 / max, FHIR requests per chart, summary size in bytes (compact
JSON, as the caller receives it) and in tokens. Tokens are counted with the all-MiniLM-L6-v2 WordPiece
tokenizer when its package is installed (the one the search embedders count with; an LLM's own
tokenizer will differ a little), else as characters / 4, and the table says which. A second table
gives one chart per adult: latency and size over the 17.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ADULTS = ROOT.parent / "shared" / "data" / "fhir" / "synthea-adults"

from curbside.settings import Settings  # noqa: E402
from curbside.tools import ToolExecutor, ToolRegistry  # noqa: E402
from curbside.tools.ehr.deps import EhrDeps  # noqa: E402
from curbside.tools.ehr.fhir_client import HttpFhirClient  # noqa: E402
from curbside.tools.ehr.read_tools import register_read_tools  # noqa: E402
from curbside.tools.ehr.sandbox import EhrSandbox  # noqa: E402
from curbside.tools.ehr.sandbox.launcher import default_install_dir  # noqa: E402
from curbside.types import ToolCaller  # noqa: E402


def _install_dir() -> Path:
    """The tests' Node cache when it is there (no second 300 MB install), else the product's default."""
    configured = os.environ.get("CURBSIDE_EHR_SANDBOX_CACHE")
    if configured:
        return Path(configured)
    cache = Path.home() / ".cache" / "curbside-ehr-sandbox"
    return cache if (cache / "node_modules").exists() else default_install_dir()


def _token_counter() -> tuple[Callable[[str], int], str]:
    try:
        from curbside.search.embedders.tokenizer import minilm_token_counter

        minilm_token_counter(["warm"])
        return (lambda text: minilm_token_counter([text])[0]), "MiniLM WordPiece"
    except Exception as exc:  # noqa: BLE001 - any failure to load means: fall back, and say so
        print(f"(MiniLM tokenizer unavailable: {exc}; tokens are characters / 4)")
        return (lambda text: len(text) // 4), "characters / 4"


def _largest_patient() -> tuple[str, str, int]:
    """(patient id, bundle file, resources) of the bundle with the most resources."""
    best = ("", "", -1)
    for path in sorted(ADULTS.glob("*.json")):
        entries = json.loads(path.read_text(encoding="utf-8"))["entry"]
        patient = next(e["resource"]["id"] for e in entries if e["resource"]["resourceType"] == "Patient")
        if len(entries) > best[2]:
            best = (patient, path.name, len(entries))
    return best


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def _charts(executor: ToolExecutor, client: HttpFhirClient, patient_ids: list[str]) -> dict[str, Any]:
    durations, sizes, texts, sent = [], [], [], []
    for pid in patient_ids:
        before = client.stats.sent
        started = time.perf_counter()
        result = await executor.call("ehr.get_patient_chart", {"patient_id": pid})
        durations.append((time.perf_counter() - started) * 1000)
        if not result.ok:
            raise SystemExit(f"get_patient_chart failed for {pid}: {result.error}")
        text = json.dumps(result.result, separators=(",", ":"), ensure_ascii=False)
        texts.append(text)
        sizes.append(len(text.encode()))
        sent.append(client.stats.sent - before)
    return {"ms": durations, "bytes": sizes, "texts": texts, "requests": sent}


async def _bench(url: str, calls: int, chart_bytes: int | None) -> dict[str, Any]:
    home = Path(tempfile.mkdtemp(prefix="bench-ehr-"))
    extra = {"ehr_chart_bytes": chart_bytes} if chart_bytes else {}
    settings = Settings(home=home, fhir_url=url, tool_ehr_rate_limit=None, **extra)
    client = HttpFhirClient.from_settings(settings)
    registry = ToolRegistry()
    register_read_tools(registry, EhrDeps(settings, client=lambda: client))
    executor = ToolExecutor(registry, default_caller=ToolCaller(user="bench", role="clinician"))
    largest, bundle, resources = _largest_patient()
    warm = await _charts(executor, client, [largest])  # connection set-up: not counted
    timed = await _charts(executor, client, [largest] * calls)
    everyone = [json.loads(p.read_text())["entry"] for p in sorted(ADULTS.glob("*.json"))]
    ids = [
        next(e["resource"]["id"] for e in entries if e["resource"]["resourceType"] == "Patient") for entries in everyone
    ]
    each = await _charts(executor, client, ids)
    await client.aclose()
    return {
        "largest": {"patient_id": largest, "bundle": bundle, "resources": resources},
        "limit_bytes": settings.ehr_chart_bytes,
        "cold_ms": warm["ms"][0],
        "timed": timed,
        "each": each,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=30, help="timed charts of the largest patient (default 30)")
    parser.add_argument("--chart-bytes", type=int, default=None, help="ehr_chart_bytes (default: the setting's)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    if not ADULTS.is_dir():
        raise SystemExit(f"missing {ADULTS}")
    count, counter = _token_counter()

    with EhrSandbox(install_dir=_install_dir()) as sandbox:
        report = sandbox.load(ADULTS)
        if report.failures:
            raise SystemExit(f"load failed: {report.failures}")
        figures = asyncio.run(_bench(sandbox.base_url, args.calls, args.chart_bytes))

    timed, each = figures["timed"], figures["each"]
    tokens = [count(t) for t in timed["texts"]]
    each_tokens = [count(t) for t in each["texts"]]
    largest = figures["largest"]
    print(
        f"Sandbox EHR: started in {sandbox.start_seconds:.2f} s; loaded {report.bundles} bundles, "
        f"{report.entries:,} resources in {report.seconds:.2f} s ({report.entries / report.seconds:,.0f} resources/s)\n"
    )
    print(
        f"ehr.get_patient_chart, largest patient ({largest['bundle']}: {largest['resources']:,} resources), "
        f"{args.calls} calls after one warm-up ({figures['cold_ms']:.1f} ms); limit {figures['limit_bytes']:,} bytes; "
        f"tokens: {counter}\n"
    )
    print("| what | p50 ms | p95 ms | max ms | requests/chart | bytes | tokens | chars/4 |")
    print("|---|---|---|---|---|---|---|---|")
    print(
        f"| largest patient x{args.calls} | {statistics.median(timed['ms']):.1f} | {_pct(timed['ms'], 0.95):.1f} "
        f"| {max(timed['ms']):.1f} | {statistics.median(timed['requests']):.0f} | {timed['bytes'][0]:,} "
        f"| {tokens[0]:,} | {len(timed['texts'][0]) // 4:,} |"
    )
    print(
        f"| each of {len(each['ms'])} adults once | {statistics.median(each['ms']):.1f} | {_pct(each['ms'], 0.95):.1f} "
        f"| {max(each['ms']):.1f} | {statistics.median(each['requests']):.0f} "
        f"| {min(each['bytes']):,}–{max(each['bytes']):,} (median {statistics.median(each['bytes']):,.0f}) "
        f"| {min(each_tokens):,}–{max(each_tokens):,} "
        f"| {min(len(t) for t in each['texts']) // 4:,}–{max(len(t) for t in each['texts']) // 4:,} |"
    )
    trimmed = sum("Trimmed to fit" in t for t in each["texts"])
    print(f"\nCharts trimmed to the limit: {trimmed} of {len(each['texts'])}")
    if args.json:
        out = {
            "sandbox_start_s": sandbox.start_seconds,
            "load": {"bundles": report.bundles, "entries": report.entries, "seconds": report.seconds},
            "largest": largest,
            "tokens_by": counter,
            "chart": {
                "p50_ms": statistics.median(timed["ms"]),
                "p95_ms": _pct(timed["ms"], 0.95),
                "max_ms": max(timed["ms"]),
                "bytes": timed["bytes"][0],
                "tokens": tokens[0],
                "requests": statistics.median(timed["requests"]),
            },
            "each": {"ms": each["ms"], "bytes": each["bytes"], "tokens": each_tokens},
        }
        args.json.write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    sys.exit(main())
