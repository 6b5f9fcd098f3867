"""The clinician's page on loopback (#19): first paint, a turn's first event and token, the shipped assets.

    .venv/bin/python benchmarks/bench_page.py [--loads 10] [--turns 5] [--embedder minilm]

A real `curbside serve` over a fresh home with the bundled sample documents (no model configured:
extractive answers) on a loopback port, and Debian's Chromium driven by Playwright
(/usr/bin/chromium; never a downloaded browser).

- first paint: `performance.getEntriesByType('paint')` (first-paint, first-contentful-paint) of `/`,
  each load in a new browser context (an empty cache), median and worst of --loads;
- a turn: the page's own marks (consult.js): from sending POST /v1/turns to its first server-sent
  event, its first `token` event, and its `final` result, for a knowledge question and a calculator
  question, median of --turns each (the first turn of each is a warm-up and not counted);
- the assets: every file the package ships in curbside/web/static, raw and gzip-compressed.

Target (#19): first paint < 1 s on loopback.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import tempfile
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUESTIONS = {
    "knowledge (kb.ask)": "What are the first-line drug classes for hypertension?",
    "calculator (calc.bmi)": "BMI for weight 80 kg height 180 cm",
}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def assets() -> list[tuple[str, int, int]]:
    folder = resources.files("curbside.web") / "static"
    rows = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.is_file():
            data = entry.read_bytes()
            rows.append((entry.name, len(data), len(gzip.compress(data, 9))))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--loads", type=int, default=10, help="page loads for first paint")
    parser.add_argument("--turns", type=int, default=5, help="turns per question (plus one warm-up)")
    parser.add_argument("--embedder", default="minilm", help="CURBSIDE_EMBEDDER of the server")
    args = parser.parse_args()
    os.environ["CURBSIDE_EMBEDDER"] = args.embedder

    from playwright.sync_api import expect, sync_playwright

    from curbside.app import Curbside
    from curbside.cli.demo import sample_paths
    from curbside.settings import Settings
    from tests.live_server import LiveServer

    with tempfile.TemporaryDirectory(prefix="bench-page-") as tmp:
        home = Path(tmp) / "home"
        core = Curbside(Settings(home=home))
        try:
            assert not core.ingestor.ingest(sample_paths()).failed
            key = core.users.add("bench-clinician", "clinician").key
        finally:
            core.close()
        server = LiveServer(home, env={"CURBSIDE_RATE_LIMIT": "100000/minute"})
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                paints: dict[str, list[float]] = {"first-paint": [], "first-contentful-paint": []}
                for _ in range(args.loads):
                    context = browser.new_context()
                    page = context.new_page()
                    page.goto(server.url + "/", wait_until="load")
                    page.get_by_test_id("api-key").wait_for()
                    for entry in page.evaluate(
                        "() => performance.getEntriesByType('paint').map(e => [e.name, e.startTime])"
                    ):
                        paints[entry[0]].append(entry[1])
                    context.close()

                context = browser.new_context()
                page = context.new_page()
                page.goto(server.url + "/")
                page.get_by_test_id("api-key").fill(key)
                page.get_by_test_id("sign-in").click()
                page.get_by_test_id("message").wait_for()
                timings: dict[str, dict[str, list[float]]] = {}
                for label, question in QUESTIONS.items():
                    timings[label] = {"first event": [], "first token": [], "final": []}
                    for i in range(args.turns + 1):
                        page.get_by_test_id("new-conversation").click()
                        page.get_by_test_id("message").fill(question)
                        page.get_by_test_id("send").click()
                        expect(page.get_by_test_id("turn-state")).to_have_text("Answered (answered).", timeout=60_000)
                        marks = dict(
                            page.evaluate("() => performance.getEntriesByType('mark').map(m => [m.name, m.startTime])")
                        )
                        if i == 0:
                            continue  # warm-up
                        sent = marks["turn-sent"]
                        for name, mark in (
                            ("first event", "turn-first-event"),
                            ("first token", "turn-first-token"),
                            ("final", "turn-final"),
                        ):
                            if mark in marks:
                                timings[label][name].append(marks[mark] - sent)
                context.close()
                browser.close()
        finally:
            server.stop()

    print(f"\nFirst paint of / on loopback ({args.loads} cold loads, new context each; target < 1000 ms)")
    print(f"{'metric':<26}{'median ms':>12}{'worst ms':>12}")
    for name, values in paints.items():
        if values:
            print(f"{name:<26}{statistics.median(values):>12.0f}{max(values):>12.0f}")

    print(f"\nA turn from the page (POST /v1/turns as server-sent events; median of {args.turns}, no model)")
    print(f"{'question':<26}{'first event ms':>16}{'first token ms':>16}{'final ms':>12}")
    for label, series in timings.items():
        cells = [
            f"{statistics.median(series[n]):.0f}" if series[n] else "-" for n in ("first event", "first token", "final")
        ]
        print(f"{label:<26}{cells[0]:>16}{cells[1]:>16}{cells[2]:>12}")

    rows = assets()
    print("\nShipped assets (curbside/web/static)")
    print(f"{'file':<16}{'bytes':>10}{'gzip':>10}")
    for name, size, packed in rows:
        print(f"{name:<16}{size:>10,}{packed:>10,}")
    print(f"{'total':<16}{sum(r[1] for r in rows):>10,}{sum(r[2] for r in rows):>10,}")


if __name__ == "__main__":
    main()
