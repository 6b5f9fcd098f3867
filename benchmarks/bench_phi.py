"""PHI detection: recall / precision / F2 and recall per type on both labelled sets, the same per
patient fold and with every gold string swapped for a stranger's, detector throughput and per-note
latency, CPU time against text length (realistic and pathological), and how often text without
PHI is flagged.

    .venv/bin/python benchmarks/bench_phi.py [--passages 500] [--folds 5] [--linear 10000,100000,1000000]
        [--skip swap,linear] [--json out.json]

Surrogate swap: each gold PERSON / LOCATION word of the dev notes is replaced by a random census
name or GeoNames town (case kept), each numeric date by another date of the same shape, each phone
digit by another digit; the rest of the note is untouched. Rules that learnt the dev notes'
strings lose recall here; rules that read context do not. (Our CEO's held-out half, which we do
not have, scored recall 0.900 before issue #11; the swap put the same code at 0.92-0.955.)

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
import random
import re
import statistics
import time
from importlib import resources
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
    parser.add_argument("--folds", type=int, default=5, help="Patient folds of the dev notes (seed 0).")
    parser.add_argument("--linear", default="10000,100000,1000000", help="Text lengths for the CPU-time figures.")
    parser.add_argument("--skip", default="", help="Comma-separated sections to skip: folds, swap, linear.")
    parser.add_argument("--json", type=Path, help="Also write the results here.")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))

    from curbside.phi import get_detector
    from curbside.phi.evaluate import evaluate_phi, load_phi_dataset
    from curbside.phi.folds import cross_validate, patient_folds

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
    notes, _ = load_phi_dataset(DEV)
    if "folds" not in skip:
        results["folds"] = cross_validate(notes, detector.detect, k=args.folds, seed=0)
    if "swap" not in skip:
        from curbside.phi.scoring import score_notes

        swapped = []
        for number, fold in enumerate(patient_folds(notes, args.folds, seed=0)):
            rng = random.Random(number)
            run = score_notes([_swap(n, rng) for n in fold if n.spans], detector.detect)
            swapped.append(
                {"fold": number, "recall": run["recall"], "precision": run["precision"], "by_type": run["by_type"]}
            )
        results["swap"] = swapped
    if "linear" not in skip:
        results["linear"] = _linear(detector, "\n".join(texts), [int(n) for n in args.linear.split(",")])
    if args.passages:
        results["pubmed-passages"] = _passages(detector, args.passages)
    print(_table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


# --- surrogate swap --------------------------------------------------------------------------------
def _swap_lists() -> tuple[list[str], list[str], list[str]]:
    root = resources.files("names")

    def read(name: str) -> list[str]:
        return [line.split()[0].lower() for line in root.joinpath(name).read_text().splitlines() if line.strip()]

    towns = []
    for line in resources.files("geotext").joinpath("data", "cities15000.txt").read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if len(fields) > 8 and fields[8] in {"US", "CA"} and fields[2].isascii() and " " not in fields[2]:
            towns.append(fields[2].lower())
    return read("dist.female.first") + read("dist.male.first"), read("dist.all.last"), towns


_SWAP_LISTS: tuple[list[str], list[str], list[str]] | None = None


def _swap(note: Any, rng: random.Random) -> Any:
    """``note`` with every gold string replaced as the module docstring says, offsets moved."""
    from curbside.phi.scoring import GoldNote, GoldSpan

    global _SWAP_LISTS
    given, surnames, towns = _SWAP_LISTS = _SWAP_LISTS or _swap_lists()
    out, spans, last, shift = [], [], 0, 0
    for gold in sorted(note.spans, key=lambda g: g.start):
        if gold.start < last:
            continue
        old = note.text[gold.start : gold.end]
        if gold.phi_type == "PERSON":
            new = _swap_words(old, rng, given if rng.random() < 0.5 else surnames, surnames)
        elif gold.phi_type == "LOCATION":
            new = _swap_words(old, rng, towns if rng.random() < 0.5 else surnames, towns)
        elif gold.phi_type == "DATE" and (m := re.fullmatch(r"\d{1,2}/\d{1,2}(/\d{2}|/\d{4})?", old)):
            year = m.group(1) or ""
            year = year and "/" + (
                "".join(str(rng.randint(0, 9)) for _ in range(2)) if len(year) == 3 else str(rng.randint(1950, 2015))
            )
            new = f"{rng.randint(1, 12)}/{rng.randint(1, 28)}{year}"
        elif gold.phi_type == "DATE" and re.fullmatch(r"(?:19|20)\d\d", old):
            new = str(rng.randint(1950, 2015))
        elif gold.phi_type in {"PHONE", "ID"}:
            new = re.sub(r"\d", lambda d: str(rng.randint(2 if d.start() == 0 else 0, 9)), old)
        else:
            new = old
        out += [note.text[last : gold.start], new]
        spans.append(GoldSpan(gold.start + shift, gold.start + shift + len(new), gold.type, gold.phi_type))
        shift += len(new) - len(old)
        last = gold.end
    out.append(note.text[last:])
    return GoldNote("".join(out), spans, patient=note.patient)


def _swap_words(old: str, rng: random.Random, first: list[str], rest: list[str]) -> str:
    parts, out = re.split(r"(\W+)", old), []
    for part in parts:
        if re.fullmatch(r"[A-Za-z]+", part):
            word = rng.choice(first if not out or all(not re.fullmatch(r"[A-Za-z]+", p) for p in out) else rest)
            word = word if len(part) > 1 else rng.choice("abcdefghjklmnoprstw")
            out.append(
                word.upper() if part.isupper() and len(part) > 1 else word.capitalize() if part[0].isupper() else word
            )
        else:
            out.append(part)
    return "".join(out)


# --- CPU time against text length -----------------------------------------------------------------
def _linear(detector: Any, notes: str, sizes: list[int]) -> dict[str, Any]:
    """CPU seconds of ``detect`` on realistic text of each size, and on pathological texts at the two
    largest sizes up to 400k (a linear detector takes about 4x as long on 4x the text)."""

    def cpu(text: str) -> float:
        t0 = time.process_time()
        detector.detect(text)
        return round(time.process_time() - t0, 2)

    realistic = {n: cpu((notes * (n // len(notes) + 1))[:n]) for n in sizes}
    pathological = {
        "one huge word": lambda n: "a" * n,
        "no spaces": lambda n: re.sub(r"\s", "", notes * 2)[:n],
        "repeated names": lambda n: ("Dr. Marder spoke with son Quentin Labowich and Dr. Ronayne. " * (n // 50 + 1))[
            :n
        ],
        "many dates": lambda n: ("7/22/2019 on Jan 3, 1992 and 12-Mar-2001; " * (n // 30 + 1))[:n],
        "many addresses": lambda n: ("12 Main St. " * (n // 12 + 1))[:n],
        "1-1-1-1 run": lambda n: ("1-" * n)[:n],
    }
    small, large = 100_000, 400_000
    return {
        "realistic": realistic,
        "pathological": {
            name: {small: cpu(make(small)), large: cpu(make(large))} for name, make in pathological.items()
        },
    }


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
    if "folds" in results:
        from curbside.cli.evaluate import format_phi_folds

        lines += ["", format_phi_folds({"dataset": "physionet-deid-dev", "format": "jsonl", **results["folds"]})]
    if "swap" in results:
        lines += ["", "surrogate swap (every gold string replaced): recall and precision per fold"]
        for run in results["swap"]:
            types = ", ".join(f"{k} {v:.3f}" for k, v in run["by_type"].items() if k in SWAP_TYPES)
            lines.append(f"  fold {run['fold']}: {run['recall']:.4f} / {run['precision']:.4f}   {types}")
    if "linear" in results:
        lin = results["linear"]
        lines += ["", "CPU seconds of detect by text length"]
        lines.append("  realistic (dev notes): " + ", ".join(f"{n:,} chars {s} s" for n, s in lin["realistic"].items()))
        for name, runs in lin["pathological"].items():
            (n1, s1), (n2, s2) = runs.items()
            lines.append(f"  {name:<16} {n1:,}: {s1} s, {n2:,}: {s2} s (x{s2 / s1 if s1 else float('nan'):.1f})")
    return "\n".join(lines)


SWAP_TYPES = ("HCPName", "Location", "RelativeProxyName", "PTName", "Date", "Phone")


if __name__ == "__main__":
    main()
