"""Fit the answer/no-answer model of ``ask`` (src/curbside/ask/abstain.py) and write abstention.toml.

    nice .venv/bin/python benchmarks/bench_answers.py --json /tmp/answers.json   # with CURBSIDE_ABSTAIN=false
    .venv/bin/python benchmarks/fit_abstention.py /tmp/answers.json [--min-precision 0.9] [--folds 5]
        [--exclude-split held_out] [--features a,b,…] [--write]

Each question ``bench_answers.py`` asked carries the evidence ``ask`` judged (metadata
"abstention") and whether it is answerable from the corpus: the guideline QA set's labels,
and BioASQ questions whose gold snippets were kept out of the corpus. A logistic regression
over those features predicts "answerable"; out-of-fold probabilities (stratified k-fold,
repeated with 5 seeds) choose the threshold: the highest no_source recall whose no_source
precision stays at or above --min-precision. The figures printed are those out-of-fold
ones — what the model does on questions it was not fitted on. --write stores the model
fitted on every question, with the threshold and the figures, beside abstain.py.

--exclude-split held_out leaves the guideline QA questions of the held-out split (``split_of`` in
_answers_eval.py) out of the fit, so bench_answers.py's held-out figures stay out of sample.
--features fits a subset (the others get weight 0), to see what each piece of evidence adds.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from curbside.ask.abstain import FEATURES  # noqa: E402

OUT = ROOT / "src" / "curbside" / "ask" / "abstention.toml"
SEEDS = 5


def load_rows(paths: list[Path], exclude_split: str | None = None) -> list[dict[str, Any]]:
    rows = []
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        for part in ("guideline_qa", "bioasq"):
            for item in data.get(part, {}).get("items", []):
                evidence = item.get("abstention") or {}
                if exclude_split and item.get("split") == exclude_split:
                    continue
                if all(name in evidence for name in FEATURES):
                    rows.append({"part": part, "answerable": bool(item["answerable"]), "evidence": evidence})
    return rows


def matrix(rows: list[dict[str, Any]], features: tuple[str, ...] = FEATURES) -> tuple[np.ndarray, np.ndarray]:
    x = np.array([[float(r["evidence"][name]) for name in features] for r in rows])
    y = np.array([1 if r["answerable"] else 0 for r in rows])
    return x, y


def out_of_fold(x: np.ndarray, y: np.ndarray, folds: int, c: float) -> np.ndarray:
    """Mean out-of-fold P(answerable) over SEEDS shuffles."""
    total = np.zeros(len(y))
    for seed in range(SEEDS):
        for train, test in StratifiedKFold(folds, shuffle=True, random_state=seed).split(x, y):
            model = LogisticRegression(C=c, class_weight="balanced", max_iter=1000).fit(x[train], y[train])
            total[test] += model.predict_proba(x[test])[:, 1]
    return total / SEEDS


def no_source_figures(p: np.ndarray, y: np.ndarray, threshold: float) -> tuple[float, float, int, int]:
    abstain = p < threshold
    tp = int(np.sum(abstain & (y == 0)))
    fp = int(np.sum(abstain & (y == 1)))
    negatives = int(np.sum(y == 0))
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / negatives if negatives else 0.0
    return precision, recall, tp, fp


def choose_threshold(p: np.ndarray, y: np.ndarray, min_precision: float) -> float:
    """The threshold with the best no_source recall at precision >= min_precision (0: never abstain)."""
    best, best_recall = 0.0, -1.0
    for t in sorted(set(np.round(p, 4)) | {0.0}):
        threshold = float(t) + 1e-4
        precision, recall, tp, _ = no_source_figures(p, y, threshold)
        if tp and precision >= min_precision and recall > best_recall:
            best, best_recall = threshold, recall
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", type=Path, help="bench_answers.py --json outputs (run with CURBSIDE_ABSTAIN=false)")
    parser.add_argument("--min-precision", type=float, default=0.9, help="no_source precision to keep (default 0.9)")
    parser.add_argument("--folds", type=int, default=5, help="cross-validation folds (default 5)")
    parser.add_argument("--c", type=float, default=1.0, help="inverse regularisation strength (default 1.0)")
    parser.add_argument(
        "--exclude-split", help="leave this guideline QA split out of the fit (held_out keeps its figures out of sample)"
    )
    parser.add_argument("--features", help=f"comma-separated subset of {', '.join(FEATURES)} (default all)")
    parser.add_argument("--write", action="store_true", help=f"write the fitted model to {OUT.relative_to(ROOT)}")
    args = parser.parse_args()

    rows = load_rows(args.runs, args.exclude_split)
    used = tuple(f.strip() for f in args.features.split(",")) if args.features else FEATURES
    if not set(used) <= set(FEATURES):
        parser.error(f"--features takes names among {', '.join(FEATURES)}")
    x, y = matrix(rows, used)
    if len(set(y)) < 2:
        raise SystemExit("need answerable and unanswerable questions with abstention evidence")
    p = out_of_fold(x, y, args.folds, args.c)
    threshold = choose_threshold(p, y, args.min_precision)
    print(f"{len(rows)} questions ({int(np.sum(y == 0))} unanswerable), features {', '.join(used)}")
    print(f"threshold on out-of-fold P(answerable): {threshold:.4f} (no_source precision >= {args.min_precision})")
    print(f"{'part':<16}{'questions':>10}{'unanswerable':>14}{'precision':>11}{'recall':>8}{'false no_source':>17}")
    figures: dict[str, dict[str, float]] = {}
    for part in ("guideline_qa", "bioasq", "all"):
        mask = np.array([part == "all" or r["part"] == part for r in rows])
        if not mask.any():
            continue
        precision, recall, tp, fp = no_source_figures(p[mask], y[mask], threshold)
        figures[part] = {"questions": int(mask.sum()), "unanswerable": int(np.sum(y[mask] == 0)),
                         "precision": round(precision, 3), "recall": round(recall, 3), "false_no_source": fp}
        print(f"{part:<16}{int(mask.sum()):>10}{int(np.sum(y[mask] == 0)):>14}{precision:>11.3f}{recall:>8.3f}{fp:>17}")
    final = LogisticRegression(C=args.c, class_weight="balanced", max_iter=1000).fit(x, y)
    fitted = dict(zip(used, (round(float(w), 6) for w in final.coef_[0]), strict=True))
    weights = [fitted.get(name, 0.0) for name in FEATURES]
    print("weights:", fitted, "intercept", round(float(final.intercept_[0]), 6))
    if args.write:
        lines = [
            "# Answer/no-answer model of ask (ask/abstain.py), written by benchmarks/fit_abstention.py.",
            "",
            "[model]",
            f"features = {json.dumps(list(FEATURES))}",
            f"intercept = {float(final.intercept_[0]):.6f}",
            f"weights = {json.dumps(weights)}",
            f"threshold = {threshold:.4f}",
            f'fitted = "{date.today().isoformat()}: {len(rows)} questions ({int(np.sum(y == 0))} unanswerable) from '
            f'{", ".join(p.name for p in args.runs)}'
            + (f" without the {args.exclude_split} split" if args.exclude_split else "")
            + f'; threshold for no_source precision >= {args.min_precision} '
            f'out of fold ({args.folds}-fold x {SEEDS} seeds)"',
        ]
        for part, f in figures.items():
            lines.append(f"out_of_fold.{part} = {{ " + ", ".join(f"{k} = {v}" for k, v in f.items()) + " }")
        OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
