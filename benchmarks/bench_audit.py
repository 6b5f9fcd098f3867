"""What the audit trail and API keys cost per request.

    .venv/bin/python benchmarks/bench_audit.py [--rows 2000] [--threads 4] [--json out.json]

In a fresh home under a temporary directory: ``--rows`` appends one at a time
(p50 / p95 / p99 of ``AuditTrail.append``: lock, head check, immediate transaction,
HMAC, commit, head rewrite with fsync; a stand-in redactor, so the PHI detector's own
time is not in these figures), then the same number from ``--threads`` threads
(rows/s), then ``verify`` and ``export`` over the whole trail (rows/s), then key
authentication with the per-user rate limit (``UserStore.authenticate`` +
``RateLimiter.hit_api``, p50 / p95).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"p50": round(pick(0.50), 3), "p95": round(pick(0.95), 3), "p99": round(pick(0.99), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    from curbside.app import Curbside
    from curbside.audit import AuditEntry
    from curbside.settings import Settings

    results: dict[str, Any] = {"rows": args.rows, "threads": args.threads}
    with tempfile.TemporaryDirectory(prefix="curbside-bench-audit-") as root:
        core = Curbside(Settings(home=Path(root) / "home", rate_limit="1000000/minute"))
        trail = core.audit
        trail.redact = lambda text: text  # the trail's own cost; the detector is measured in tests/phi
        entry = AuditEntry(
            action="ask", user="dr-a", role="clinician", outcome="answered", question="metformin and eGFR 35?"
        )
        timings = []
        for _ in range(args.rows):
            started = time.perf_counter()
            trail.append(entry)
            timings.append((time.perf_counter() - started) * 1000)
        results["append_ms"] = percentiles(timings)

        per_thread = max(1, args.rows // args.threads)
        workers = [
            threading.Thread(target=lambda: [trail.append(entry) for _ in range(per_thread)])
            for _ in range(args.threads)
        ]
        started = time.perf_counter()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        results["append_threads_rows_per_s"] = round(per_thread * args.threads / (time.perf_counter() - started))

        started = time.perf_counter()
        report = trail.verify()
        elapsed = time.perf_counter() - started
        assert report.ok, report.problem
        results["verify_rows"] = report.rows
        results["verify_rows_per_s"] = round(report.rows / elapsed)
        started = time.perf_counter()
        exported = sum(1 for _ in trail.export(datetime(2000, 1, 1)))
        results["export_rows_per_s"] = round(exported / (time.perf_counter() - started))

        key = core.users.add("dr-a", "clinician").key
        auth = []
        for _ in range(1000):
            started = time.perf_counter()
            user = core.users.authenticate(key)
            core.rate_limiter.hit_api(user.name)
            auth.append((time.perf_counter() - started) * 1000)
        results["auth_ms"] = percentiles(auth)
        core.close()

    print(f"{'measure':<34} {'value':>24}")
    print(f"{'append (ms) p50 / p95 / p99':<34} {'{p50} / {p95} / {p99}'.format(**results['append_ms']):>24}")
    print(f"{'append, ' + str(args.threads) + ' threads (rows/s)':<34} {results['append_threads_rows_per_s']:>24}")
    print(f"{'verify (rows/s)':<34} {results['verify_rows_per_s']:>24}")
    print(f"{'export (rows/s)':<34} {results['export_rows_per_s']:>24}")
    print(f"{'key check + rate limit (ms) p50/p95':<34} {'{p50} / {p95}'.format(**results['auth_ms']):>24}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
