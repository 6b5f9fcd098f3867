"""PHI detection: recall / precision / F2 and recall per type on both labelled sets, detector
throughput and per-note latency, and how often text without PHI is flagged.

    .venv/bin/python benchmarks/bench_phi.py [--passages 500] [--json out.json]

Data (../shared/data): phi/physionet-deid-dev/notes.jsonl (1,450 ICU nursing notes, surrogate
PHI, odd-numbered patients), phi/presidio-synth-v2.json (1,500 synthetic sentences; labels
mapped as in ``curbside.phi.evaluate.PRESIDIO_SYNTH_TYPES``), and --passages rows of
retrieval/bioasq-snippets-dev/corpus.jsonl (PubMed snippets: no patient PHI at all; every flag
there is a false alarm that would keep a prompt with such passages off the cloud model).
Reference: PhysioNet's own ``deid`` scores recall 0.967, precision 0.744 on the dev notes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
DEV = DATA / "phi" / "physionet-deid-dev" / "notes.jsonl"
SYNTH = DATA / "phi" / "presidio-synth-v2.json"
PASSAGES = DATA / "retrieval" / "bioasq-snippets-dev" / "corpus.jsonl"
REFERENCE = {"recall": 0.967, "precision": 0.744}  # PhysioNet deid on the same dev notes (issue #4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=500, help="PubMed snippets to screen (0: skip).")
    parser.add_argument("--json", type=Path, help="Also write the results here.")
    args = parser.parse_args()

    from curbside.phi import get_detector
    from curbside.phi.evaluate import evaluate_phi

    started = time.perf_counter()
    detector = get_detector()
    detector.detect("warm-up: Dr. Marder saw pt on 7/22.")
    load_s = time.perf_counter() - started

    results: dict[str, Any] = {"load_seconds": round(load_s, 2)}
    for name, path in (("physionet-deid-dev", DEV), ("presidio-synth-v2", SYNTH)):
        results[name] = evaluate_phi(path, detector.detect)
    texts = [json.loads(line)["text"] for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]
    dev = results["physionet-deid-dev"]
    dev["mean_note_chars"] = round(statistics.mean(len(t) for t in texts))
    dev["characters_per_second"] = round(sum(len(t) for t in texts) / dev["seconds"])
    if args.passages:
        results["pubmed-passages"] = _passages(detector, args.passages)
    print(_table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


def _passages(detector: Any, count: int) -> dict[str, Any]:
    texts = []
    with PASSAGES.open(encoding="utf-8") as rows:
        for line in rows:
            texts.append(json.loads(line)["text"])
            if len(texts) == count:
                break
    flagged: dict[str, int] = {}
    n_flagged = 0
    for text in texts:
        spans = detector.detect(text)
        n_flagged += bool(spans)
        for span in spans:
            flagged[span.type] = flagged.get(span.type, 0) + 1
    return {"passages": len(texts), "flagged": n_flagged, "spans_by_type": flagged}


def _table(results: dict[str, Any]) -> str:
    dev, synth = results["physionet-deid-dev"], results["presidio-synth-v2"]
    lines = [f"detector load {results['load_seconds']} s", ""]
    lines.append(f"{'dataset':<22}{'notes':>7}{'gold':>7}{'recall':>9}{'precision':>11}{'F2':>8}"
                 f"{'notes/s':>9}{'p50 ms':>8}{'p95 ms':>8}")  # fmt: skip
    for name, r in (("physionet-deid-dev", dev), ("presidio-synth-v2", synth)):
        lines.append(
            f"{name:<22}{r['notes']:>7}{r['gold']:>7}{r['recall']:>9.4f}{r['precision']:>11.4f}{r['f2']:>8.4f}"
            f"{r['notes_per_second']:>9}{r['latency_ms']['p50']:>8}{r['latency_ms']['p95']:>8}"
        )
    lines.append(f"{'PhysioNet deid (ref.)':<22}{'':>14}{REFERENCE['recall']:>9.4f}{REFERENCE['precision']:>11.4f}")
    for name, r in (("physionet-deid-dev", dev), ("presidio-synth-v2", synth)):
        lines += ["", f"{name}: recall per gold type"]
        for kind, counts in r["by_type_counts"].items():
            lines.append(f"  {kind:<20}{counts['found']:>5} / {counts['gold']:<5}{r['by_type'][kind]:>8.4f}")
    clean = dev["notes_without_phi"]
    lines += ["", f"dev notes without PHI flagged: {clean['flagged']} of {clean['count']} "
                  f"({clean['flagged'] / clean['count']:.1%})"]  # fmt: skip
    if "pubmed-passages" in results:
        p = results["pubmed-passages"]
        lines.append(f"PubMed passages (no PHI) flagged: {p['flagged']} of {p['passages']} "
                     f"({p['flagged'] / p['passages']:.1%}); spans by type {p['spans_by_type']}")  # fmt: skip
    lines.append(f"dev notes: {dev['characters_per_second']:,} characters/s (mean note {dev['mean_note_chars']} chars)")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
