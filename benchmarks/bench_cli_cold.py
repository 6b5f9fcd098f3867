"""A cold `curbside ask` from the command line, as a clinician runs it: a new process each time.

Ingests the SAMPLE documents into a scratch home once, then times `curbside ask QUESTION --no-llm`
as a whole process --runs times (minimum, median, maximum), with the same for `curbside --help` (the
interpreter and the CLI's own imports) as the floor. Target (#13): a cold answer in ≤ 3 s.

    nice .venv/bin/python benchmarks/bench_cli_cold.py [--runs 7] [--embedder auto|minilm] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUESTION = "can I start metformin if eGFR is 35?"


def timed(args: list[str], env: dict[str, str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "curbside.cli", *args], env=env, capture_output=True, text=True)
        times.append(time.perf_counter() - started)
        if done.returncode != 0:
            raise SystemExit(f"curbside {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="Processes timed per command.")
    parser.add_argument("--embedder", default="auto", help="CURBSIDE_EMBEDDER for the scratch home.")
    parser.add_argument("--json", type=Path, help="Also write the figures here.")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="curbside-cold-")) / "home"
    env = {**os.environ, "CURBSIDE_HOME": str(home), "CURBSIDE_EMBEDDER": args.embedder}
    samples = Path(__file__).resolve().parents[1] / "src" / "curbside" / "samples"
    subprocess.run([sys.executable, "-m", "curbside.cli", "ingest", str(samples)], env=env, check=True, capture_output=True)
    rows = {
        "curbside --help": timed(["--help"], env, args.runs),
        f'curbside ask "{QUESTION}" --no-llm': timed(["ask", QUESTION, "--no-llm"], env, args.runs),
    }
    print(f"{'command':<62} {'min':>6} {'median':>7} {'max':>6}  (seconds, {args.runs} cold processes)")
    for name, times in rows.items():
        print(f"{name:<62} {min(times):6.2f} {statistics.median(times):7.2f} {max(times):6.2f}")
    if args.json:
        args.json.write_text(json.dumps({k: sorted(v) for k, v in rows.items()}, indent=2))


if __name__ == "__main__":
    main()
