"""The latency PHI screening adds to ``ask``: the same questions with and without the screen.

    .venv/bin/python benchmarks/bench_ask_phi.py [--notes 300] [--embedder minilm]

Each of the first --notes PhysioNet dev notes (../shared/data/phi/physionet-deid-dev) is the
patient context of one ``ask`` ("first-line options for depression?") over a knowledge base of the
CEP page and the samples, with no model configured (extractive answers: the screen of the
question and the context is the only PHI work). The baseline runs the same requests with a
screen whose detector finds nothing instantly. Reported: ask p50/p95 both ways, the screen's own
time from ``metadata.phi_screen_ms``, and the ratio. A generated answer adds one more screen of
the passages, which the cache answers after the first question.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
NOTES = DATA / "phi" / "physionet-deid-dev" / "notes.jsonl"
CEP = DATA / "guidelines" / "html" / "cep-anxiety-and-depression.html"
QUESTION = "What are the first-line medication options for depression?"


class _NothingFound:
    def detect(self, text: str) -> list:
        return []


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=300)
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--home", type=Path, default=Path("/tmp/curbside-bench/ask-phi"))
    args = parser.parse_args()

    from curbside.app import Curbside
    from curbside.ask.screening import PromptScreen
    from curbside.cli.demo import sample_paths
    from curbside.settings import Settings
    from curbside.types import AskRequest

    notes = [json.loads(line)["text"] for line in NOTES.read_text(encoding="utf-8").splitlines()[: args.notes]]
    app = Curbside(Settings(home=args.home, embedder=args.embedder))
    try:
        app.ingestor.ingest([CEP, *sample_paths()])  # unchanged files are skipped on later runs
        app.warm_up()
        requests = [AskRequest(question=QUESTION, patient_context=note) for note in notes]

        def run() -> tuple[list[float], list[float]]:
            took, screen = [], []
            for request in requests:
                started = time.perf_counter()
                answer = asyncio.run(app.asker.ask(request))
                took.append((time.perf_counter() - started) * 1000)
                screen.append(float(answer.metadata.get("phi_screen_ms") or 0.0))
            return took, screen

        screened, screen_ms = run()
        real = app.asker.screen
        app.asker.screen = PromptScreen(lambda: _NothingFound())
        baseline, _ = run()
        app.asker.screen = real
    finally:
        app.close()

    print(
        f"ask with a patient context (dev note, mean {statistics.mean(map(len, notes)):.0f} chars), "
        f"{len(notes)} requests, {args.embedder}, extractive"
    )
    print(f"{'':24}{'p50 ms':>10}{'p95 ms':>10}")
    for label, values in (("without PHI screen", baseline), ("with PHI screen", screened), ("screen alone", screen_ms)):
        print(f"{label:24}{_pct(values, 0.5):10.1f}{_pct(values, 0.95):10.1f}")
    added50 = _pct(screened, 0.5) - _pct(baseline, 0.5)
    added95 = _pct(screened, 0.95) - _pct(baseline, 0.95)
    print(
        f"added by screening: p50 +{added50:.1f} ms, p95 +{added95:.1f} ms "
        f"(ratio with/without at p50 {_pct(screened, 0.5) / _pct(baseline, 0.5):.2f})"
    )


if __name__ == "__main__":
    main()
