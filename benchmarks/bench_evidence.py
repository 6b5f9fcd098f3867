"""Evidence and drug-safety tools (#16) over a replay server of the recorded real responses.

    .venv/bin/python benchmarks/bench_evidence.py [--calls 20]

Each tool is called ``--calls`` times through a tool executor (in-memory hooks: the audit trail's
fsync is measured in bench_audit.py), against a loopback server replaying ``../shared/data/
api-responses`` (PubMed E-utilities, Europe PMC, ClinicalTrials.gov, openFDA; the web search and
evidence service answer with the shapes written in the tests). The PHI screen is the real detector.

Each call is timed alone (the rate-limit window of earlier calls is cleared first), as one
clinician's question would be; a burst's waiting is the pacer's job and tests/tools/test_outbound.py's.

Per tool: latency p50 / p95; where the time went — on the wire (loopback: the server's reply), the
PHI screen, waiting for the host's published rate limit, and the rest: our own parsing, trimming
and validation; result size (max and p95 bytes of the result JSON) against the cap; requests sent
per call without the cache, and with it (the same call repeated: the first misses, the rest hit).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the replay server and its routes live with the tests

from curbside.settings import Settings  # noqa: E402
from curbside.tools import ToolExecutor, ToolRegistry  # noqa: E402
from curbside.tools.evidence import EvidenceDeps, register  # noqa: E402
from curbside.tools.outbound import OutboundClient  # noqa: E402
from curbside.tools.outbound.pacing import HostPacer  # noqa: E402
from curbside.types import ToolCaller  # noqa: E402
from tests.tools.evidence.literature_routes import EuropePmcRoutes, PubMedRoutes  # noqa: E402
from tests.tools.evidence.openfda_routes import install_openfda  # noqa: E402
from tests.tools.evidence.replay import ReplayServer  # noqa: E402
from tests.tools.evidence.trials_routes import (  # noqa: E402
    add_evidence_service_route,
    add_trials_routes,
    add_web_route,
)

DATA = ROOT.parent / "shared" / "data"

CALLS: dict[str, dict[str, Any]] = {
    "evidence.search_pubmed": {"query": "telomere length pancreatic cancer", "max_results": 5},
    "evidence.search_europepmc": {"query": "cancer screening", "max_results": 10},
    "evidence.find_clinical_trials": {"condition": "Crohn disease", "max_results": 10},
    "evidence.check_drug_safety": {"drug": "Humira"},
    "evidence.check_drug_interactions": {"drugs": ["Humira", "methotrexate", "warfarin"]},
    "evidence.adverse_events": {"drug": "adalimumab", "top": 10},
    "evidence.search_web": {"query": "amiodarone boxed warning"},
    "evidence.search_evidence_service": {"query": "beta blockers in heart failure"},
}


def _serve() -> ReplayServer:
    replay = ReplayServer()
    PubMedRoutes(replay, DATA)
    EuropePmcRoutes(replay, DATA)
    add_trials_routes(replay, DATA)
    install_openfda(replay, DATA)
    add_web_route(replay)
    add_evidence_service_route(replay)
    return replay


def _settings(replay: ReplayServer, home: Path, *, cache: bool) -> Settings:
    return Settings(
        home=home,
        pubmed_url=f"{replay.url}/eutils",
        europepmc_url=f"{replay.url}/europepmc",
        clinicaltrials_url=f"{replay.url}/ctgov",
        openfda_url=f"{replay.url}/openfda",
        web_search_url=f"{replay.url}/searx/search",
        evidence_service_url=f"{replay.url}/evidence/search",
        outbound_cache_ttl_s=3600.0 if cache else 0.0,
    )


def _executor(settings: Settings, client: OutboundClient) -> ToolExecutor:
    registry = ToolRegistry()
    register(registry, EvidenceDeps(settings, client=lambda: client))
    caller = ToolCaller(user="bench", role="clinician", channel="cli")
    # the benchmark's own calls must not be rate-limited per user: one executor per run, limits off
    for spec in registry:
        object.__setattr__(spec, "rate_limit", None)
    return ToolExecutor(registry, default_caller=caller)


def _totals(client: OutboundClient) -> dict[str, float]:
    names = ("sent", "cache_hits", "wire_s", "screen_s", "paced_s")
    return {name: client.stats.total(name) for name in names}


async def _run(
    executor: ToolExecutor, client: OutboundClient, name: str, args: dict[str, Any], n: int
) -> dict[str, Any]:
    durations: list[float] = []
    sizes: list[int] = []
    spent = {"wire_s": 0.0, "screen_s": 0.0, "paced_s": 0.0}
    sent = 0
    for _ in range(n):
        client.pacer = HostPacer()  # each call alone: the rate-limit window of the previous calls is cleared
        before = _totals(client)
        began = time.perf_counter()
        result = await executor.call(name, args)
        durations.append(time.perf_counter() - began)
        if not result.ok:
            raise SystemExit(f"{name} failed: {result.error}")
        after = _totals(client)
        sent += int(after["sent"] - before["sent"])
        for key in spent:
            spent[key] += after[key] - before[key]
        sizes.append(len(json.dumps(result.result, ensure_ascii=False).encode()))
    total = sum(durations)
    return {"durations": durations, "sizes": sizes, "spent": spent, "total": total, "sent": sent}


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def main_async(calls: int) -> None:
    import tempfile

    replay = _serve()
    home = Path(tempfile.mkdtemp(prefix="bench-evidence-"))
    cold = _settings(replay, home, cache=False)
    warm = _settings(replay, home, cache=True)
    cold_client, warm_client = OutboundClient(cold), OutboundClient(warm)
    cold_exec, warm_exec = _executor(cold, cold_client), _executor(warm, warm_client)
    cap = cold.evidence_result_bytes
    await cold_exec.call("evidence.search_pubmed", {"query": "warm up the PHI detector"})  # model load, not a call
    rows = []
    for name, args in CALLS.items():
        uncached = await _run(cold_exec, cold_client, name, args, calls)
        cached = await _run(warm_exec, warm_client, name, args, calls)
        rows.append((name, uncached, cached))
    replay.close()

    print(f"Evidence tools over the replay server: {calls} calls each; result cap {cap:,} bytes\n")
    head = (
        "| tool | p50 ms | p95 ms | wire | PHI screen | rate-limit wait | ours (parse, trim) "
        "| max bytes | p95 bytes | req/call | req/call cached | p50 ms cached |"
    )
    print(head)
    print("|" + "---|" * 12)
    for name, u, c in rows:
        total = u["total"]
        wire, screen, paced = (u["spent"][k] / total for k in ("wire_s", "screen_s", "paced_s"))
        outside = wire + screen + paced
        # a tool that sends its requests at once (interactions) spends more request-seconds than wall
        # seconds: its own share cannot be read off the difference
        ours = "n/a (concurrent)" if outside > 1.0 else f"{1.0 - outside:.0%}"
        ms = [d * 1000 for d in u["durations"]]
        print(
            f"| {name.removeprefix('evidence.')} | {statistics.median(ms):.1f} | {_pct(ms, 0.95):.1f} "
            f"| {wire:.0%} | {screen:.0%} | {paced:.0%} | {ours} "
            f"| {max(u['sizes']):,} | {_pct([float(s) for s in u['sizes']], 0.95):,.0f} "
            f"| {u['sent'] / calls:.2f} | {c['sent'] / calls:.2f} "
            f"| {statistics.median(d * 1000 for d in c['durations']):.1f} |"
        )
    over = [name for name, u, _ in rows if max(u["sizes"]) > cap]
    print(f"\nResults over the cap: {', '.join(over) if over else 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=20, help="calls per tool (default 20)")
    args = parser.parse_args()
    asyncio.run(main_async(args.calls))


if __name__ == "__main__":
    main()
