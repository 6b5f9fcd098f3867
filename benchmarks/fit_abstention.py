"""Fit the answer/no-answer model of ``ask`` (src/curbside/ask/abstain.py) and write abstention.toml.

    for f in guideline_qa guideline_qa_blind …; do CURBSIDE_ABSTAIN=false nice .venv/bin/python \\
        benchmarks/bench_answers.py --parts qa --qa benchmarks/data/$f.jsonl --json /tmp/abst-$f.json; done
    CURBSIDE_ABSTAIN=false nice .venv/bin/python benchmarks/bench_answers.py --parts bioasq --json /tmp/abst-bioasq.json
    .venv/bin/python benchmarks/fit_abstention.py /tmp/abst-*.json [--rule precision|f1|cost] [--c 1.0]
        [--features a,b,…] [--drop-rule NAME] [--compare] [--auc] [--write]

Each question ``bench_answers.py`` asked carries the evidence ``ask`` judged (metadata "abstention"), the
rule guard that withholds it outright if any ("rule": run with CURBSIDE_ABSTAIN=false, nothing is withheld
but every verdict is recorded) and whether it is answerable from the corpus: a guideline QA set's labels,
and BioASQ questions whose gold snippets were kept out of the corpus. A question with no evidence found
no passage above the search's relevance threshold: it is no_source whatever the model says.

The decision ``ask`` makes is: no passage, or a rule guard, or P(answerable) below the threshold. A logistic
regression over the evidence gives P(answerable); it is fitted on the questions no rule withholds (those are
the ones it decides). The threshold is chosen on the training questions' out-of-fold probabilities
(stratified 5-fold x 5 seeds) for the whole decision, rules included, by --rule:

* precision: the highest no_source recall while the questions the model withholds (beyond the rule guards) are
  unanswerable at a share >= --min-precision (issue #13's 0.90);
* f1: the highest no_source F1;
* cost: the fewest withheld answerable questions + --cost x answered unanswerable ones;
* legacy: the rule used until 2026-11 (the model alone, fitted and thresholded on every question with evidence,
  BioASQ included, at precision >= --min-precision), for comparison.

Every guideline QA set is a development set, and the model is judged on a set it was not fitted on:
leave-one-set-out fits on all sets but one (plus BioASQ), chooses the threshold on those, and reports
precision, recall, false no_source and gold share on the one left out. --compare prints that pooled
figure for candidate regularisation strengths, threshold rules, feature sets and rule guards dropped.
--write stores the model fitted on every set (threshold chosen the same way) beside abstain.py.
--auc prints each recorded feature's separating power alone (ROC AUC, answerable high) per set, on the questions
the model decides and on those each rule guard withholds: measure a candidate feature there before building on it.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from curbside.ask.abstain import FEATURES  # noqa: E402

OUT = ROOT / "src" / "curbside" / "ask" / "abstention.toml"
SEEDS = 5
FOLDS = 5
BIOASQ = "bioasq"
RULES = ("lacking_subject", "value_untyped", "value_population", "unnamed", "payment")


@dataclass(frozen=True)
class Setup:
    """One candidate decision: what the model sees and how its threshold is chosen."""

    features: tuple[str, ...] = FEATURES
    c: float = 1.0
    rule: str = "precision"
    min_precision: float = 0.9
    cost: float = 2.0
    dropped: frozenset[str] = frozenset()  # rule guards that no longer withhold (the model decides instead)
    bioasq: bool = True  # fit on the BioASQ questions too (the threshold is always chosen on guideline QA)

    def label(self) -> str:
        extra = [f for f in self.features if f not in FEATURES]
        less = [f for f in FEATURES if f not in self.features]
        parts = [f"C={self.c:g}", self.rule + (f"{self.cost:g}" if self.rule == "cost" else "")]
        parts += [f"+{f}" for f in extra] + [f"-{f}" for f in less] + [f"no {r}" for r in sorted(self.dropped)]
        parts += [] if self.bioasq else ["without BioASQ"]
        return " ".join(parts)


def set_name(path: Path, part: str) -> str:
    """The labelled set a run holds: BioASQ, or the guideline QA file (the run's file name without its prefix)."""
    if part == BIOASQ:
        return BIOASQ
    stem = path.stem
    return stem[stem.index("guideline_qa") :] if "guideline_qa" in stem else stem


def load_rows(paths: list[Path]) -> list[dict[str, Any]]:
    rows = []
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        for part in ("guideline_qa", BIOASQ):
            for item in data.get(part, {}).get("items", []):
                evidence = item.get("abstention") or {}
                judged = all(name in evidence for name in FEATURES)
                rows.append(
                    {
                        "set": set_name(path, part),
                        "answerable": bool(item["answerable"]),
                        "evidence": evidence | (evidence.get("extra") or {}),
                        "judged": judged,  # not judged: no passage passed the relevance threshold, or a clarification
                        "forced": not judged and item["status"] == "no_source",  # no_source whatever the model says
                        "rule": evidence.get("rule"),
                        "hit": bool(item.get("hit") or item.get("score", 0) > 0),
                        "unwarned_wrong": bool(item.get("wrong_condition") and not item.get("warned")),
                    }
                )
    return rows


class Rows:
    """The rows as arrays, for one setup's features and rule guards."""

    def __init__(self, rows: list[dict[str, Any]], setup: Setup) -> None:
        self.rows = rows
        self.y = np.array([r["answerable"] for r in rows], dtype=bool)
        self.forced = np.array([r["forced"] for r in rows], dtype=bool)
        self.ruled = np.array([r["rule"] is not None and r["rule"] not in setup.dropped for r in rows], dtype=bool)
        self.hit = np.array([r["hit"] for r in rows], dtype=bool)
        self.unwarned = np.array([r["unwarned_wrong"] for r in rows], dtype=bool)
        self.sets = np.array([r["set"] for r in rows])
        self.x = np.array(
            [
                [float(r["evidence"].get(f, 0.0)) for f in setup.features]
                if r["judged"]
                else [0.0] * len(setup.features)
                for r in rows
            ]
        )
        # the questions the model is fitted on: a passage found and no rule guard withholding it (legacy: a passage)
        judged = np.array([r["judged"] for r in rows], dtype=bool)
        self.open = judged if setup.rule == "legacy" else judged & ~self.ruled


def logistic(setup: Setup) -> LogisticRegression:
    return LogisticRegression(C=setup.c, class_weight="balanced", max_iter=2000)


def out_of_fold(data: Rows, idx: np.ndarray, setup: Setup) -> np.ndarray:
    """Mean out-of-fold P(answerable) over SEEDS shuffles for the rows ``idx`` (NaN where the model does not decide)."""
    p = np.full(len(data.y), np.nan)
    fit = idx[data.open[idx]]
    total = np.zeros(len(fit))
    for seed in range(SEEDS):
        for train, test in StratifiedKFold(FOLDS, shuffle=True, random_state=seed).split(data.x[fit], data.y[fit]):
            model = logistic(setup).fit(data.x[fit][train], data.y[fit][train])
            total[test] += model.predict_proba(data.x[fit][test])[:, 1]
    p[fit] = total / SEEDS
    return p


def withheld(data: Rows, p: np.ndarray, threshold: float) -> np.ndarray:
    """The whole decision: no passage, a rule guard, or the model below the threshold."""
    below = np.where(np.isnan(p), False, p < threshold)
    return data.forced | data.ruled | below


def figures(data: Rows, idx: np.ndarray, abstain: np.ndarray) -> dict[str, Any]:
    y, a = data.y[idx], abstain[idx]
    tp, fp = int(np.sum(a & ~y)), int(np.sum(a & y))
    fn = int(np.sum(~a & ~y))
    answerable = int(np.sum(y))
    return {
        "questions": len(idx),
        "unanswerable": int(np.sum(~y)),
        "precision": tp / (tp + fp) if tp + fp else 1.0,
        "recall": tp / (tp + fn) if tp + fn else 0.0,
        "tp": tp,
        "false_no_source": fp,
        "missed_no_source": fn,
        "gold": float(np.sum(data.hit[idx] & y & ~a)) / answerable if answerable else 0.0,
        "unwarned_wrong": int(np.sum(data.unwarned[idx] & ~a)),
    }


def choose_threshold(data: Rows, idx: np.ndarray, p: np.ndarray, setup: Setup) -> float:
    """The threshold the setup's rule prefers for the whole decision on the rows ``idx`` (0: the model never abstains)."""
    candidates = sorted({0.0} | {float(v) + 1e-4 for v in np.round(p[idx][~np.isnan(p[idx])], 4)})
    best, best_score = 0.0, -np.inf
    decided = idx[~np.isnan(p[idx])]
    for t in candidates:
        f = figures(data, idx, withheld(data, p, t))
        if setup.rule == "precision":  # the model's own abstentions: the rule guards' precision is not its to mend
            own = decided[p[decided] < t]
            precise = not len(own) or float(np.mean(~data.y[own])) >= setup.min_precision
            score = f["recall"] if precise else -1.0
        elif setup.rule == "f1":
            pr, rc = f["precision"], f["recall"]
            score = 2 * pr * rc / (pr + rc) if pr + rc else 0.0
        else:
            score = -(f["false_no_source"] + setup.cost * f["missed_no_source"])
        if score > best_score + 1e-12:
            best, best_score = t, score
    return best


def legacy_threshold(data: Rows, idx: np.ndarray, p: np.ndarray, min_precision: float) -> float:
    """The rule abstention.toml was fitted with until 2026-11: the model alone, over every question with evidence
    (BioASQ included, rule guards ignored), the best no_source recall at precision >= min_precision."""
    best, best_recall = 0.0, -1.0
    y = data.y[idx]
    for t in sorted({float(v) for v in np.round(p[idx], 4)} | {0.0}):
        below = p[idx] < t + 1e-4
        tp, fp = int(np.sum(below & ~y)), int(np.sum(below & y))
        recall = tp / max(1, int(np.sum(~y)))
        if tp and tp / (tp + fp) >= min_precision and recall > best_recall:
            best, best_recall = t + 1e-4, recall
    return best


def fit(data: Rows, train: np.ndarray, setup: Setup) -> tuple[LogisticRegression, float]:
    """The model fitted on ``train`` and the threshold chosen there (out of fold, on its guideline QA questions)."""
    if not setup.bioasq:
        train = train[data.sets[train] != BIOASQ]
    p = out_of_fold(data, train, setup)
    if setup.rule == "legacy":
        threshold = legacy_threshold(data, train[data.open[train]], p, setup.min_precision)
    else:
        threshold = choose_threshold(data, train[data.sets[train] != BIOASQ], p, setup)
    fitted = train[data.open[train]]
    return logistic(setup).fit(data.x[fitted], data.y[fitted]), threshold


def leave_one_set_out(rows: list[dict[str, Any]], setup: Setup) -> dict[str, dict[str, Any]]:
    """Each guideline QA set's figures under the model fitted and thresholded on the other sets and BioASQ."""
    data = Rows(rows, setup)
    out: dict[str, dict[str, Any]] = {}
    everything = np.arange(len(rows))
    names = sorted({s for s in data.sets if s != BIOASQ})
    abstain = np.zeros(len(rows), dtype=bool)
    for name in names:
        held = everything[data.sets == name]
        model, threshold = fit(data, everything[data.sets != name], setup)
        p = np.full(len(rows), np.nan)
        decided = held[data.open[held]]
        if len(decided):
            p[decided] = model.predict_proba(data.x[decided])[:, 1]
        abstain[held] = withheld(data, p, threshold)[held]
        out[name] = figures(data, held, abstain) | {"threshold": threshold}
    pooled = everything[data.sets != BIOASQ]
    out["pooled"] = figures(data, pooled, abstain)
    return out


def as_of_today(rows: list[dict[str, Any]], setup: Setup) -> dict[str, dict[str, Any]]:
    """Each set's figures under the model in abstention.toml (the p_answerable the runs recorded)."""
    data = Rows(rows, setup)
    p = np.array([r["evidence"].get("p_answerable", np.nan) if r["judged"] else np.nan for r in rows], dtype=float)
    threshold = next((r["evidence"]["threshold"] for r in rows if "threshold" in r["evidence"]), 0.0)
    abstain = withheld(data, p, float(threshold))
    everything = np.arange(len(rows))
    out = {name: figures(data, everything[data.sets == name], abstain) for name in sorted(set(data.sets))}
    out["pooled"] = figures(data, everything[data.sets != BIOASQ], abstain)
    return out


def print_table(title: str, table: dict[str, dict[str, Any]]) -> None:
    print(title)
    print(f"  {'set':<22}{'n':>5}{'unans':>7}{'P':>7}{'R':>7}{'fp':>5}{'fn':>5}{'gold':>7}{'wrong':>7}{'thresh':>8}")
    for name, f in table.items():
        t = f"{f['threshold']:.4f}" if "threshold" in f else ""
        print(
            f"  {name:<22}{f['questions']:>5}{f['unanswerable']:>7}{f['precision']:>7.3f}{f['recall']:>7.3f}"
            f"{f['false_no_source']:>5}{f['missed_no_source']:>5}{f['gold']:>7.3f}{f['unwarned_wrong']:>7}{t:>8}"
        )


def rule_counts(rows: list[dict[str, Any]]) -> None:
    """What each rule guard withholds, answerable / unanswerable, on each set."""
    names = sorted({r["set"] for r in rows})
    print("rule guards: withheld answerable / unanswerable per set")
    print(f"  {'rule':<18}" + "".join(f"{n.replace('guideline_qa', 'qa'):>13}" for n in names))
    for rule in (*RULES, "no passage"):
        cells = []
        for name in names:
            hit = [r for r in rows if r["set"] == name and (r["forced"] if rule == "no passage" else r["rule"] == rule)]
            cells.append(f"{sum(r['answerable'] for r in hit)} / {sum(not r['answerable'] for r in hit)}")
        print(f"  {rule:<18}" + "".join(f"{c:>13}" for c in cells))


def feature_auc(rows: list[dict[str, Any]], names: tuple[str, ...]) -> None:
    """Each feature's ROC AUC alone (answerable scoring high) per guideline set and pooled, on the questions the model
    decides, then pooled over the questions each rule guard withholds. 0.5 separates nothing; "-" is one class only."""
    sets = sorted({r["set"] for r in rows if r["set"] != BIOASQ})

    def auc(chosen: list[dict[str, Any]], name: str) -> str:
        held = [r for r in chosen if name in r["evidence"]]
        labels = [r["answerable"] for r in held]
        if len(set(labels)) < 2:
            return "-"
        return f"{roc_auc_score(labels, [float(r['evidence'][name]) for r in held]):.2f}"

    decided = [r for r in rows if r["judged"] and r["rule"] is None and r["set"] != BIOASQ]
    print("\nfeature AUC alone, on the questions the model decides (answerable / unanswerable per set):")
    labels = [[r["answerable"] for r in decided if r["set"] == s] for s in sets]
    counts = [f"{sum(held)}/{len(held) - sum(held)}" for held in labels]
    print(f"  {'feature':<24}" + "".join(f"{c:>9}" for c in counts) + f"{'pooled':>9}")
    for name in names:
        cells = [auc([r for r in decided if r["set"] == s], name) for s in sets] + [auc(decided, name)]
        print(f"  {name:<24}" + "".join(f"{c:>9}" for c in cells))
    ruled = [r for r in rows if r["rule"] is not None and r["set"] != BIOASQ]
    guards = sorted({r["rule"] for r in ruled})
    print("\nfeature AUC alone, on the questions each rule guard withholds (pooled over the guideline sets):")
    print(f"  {'feature':<24}" + "".join(f"{g[:14]:>15}" for g in guards))
    for name in names:
        print(f"  {name:<24}" + "".join(f"{auc([r for r in ruled if r['rule'] == g], name):>15}" for g in guards))


def candidates(base: Setup, extras: tuple[str, ...]) -> list[Setup]:
    """The setups --compare weighs: regularisation, threshold rule, features, rule guards."""
    out = [Setup(c=c, rule=base.rule, min_precision=base.min_precision, cost=base.cost) for c in (0.01, 0.1, 1.0, 10.0)]
    out += [
        Setup(rule="f1"),
        Setup(rule="cost", cost=2.0),
        Setup(rule="cost", cost=3.0),
        Setup(rule="precision", min_precision=0.85),
    ]
    out += [Setup(features=(*FEATURES, e)) for e in extras]
    out += [Setup(features=tuple(f for f in FEATURES if f != less)) for less in FEATURES]
    out += [Setup(dropped=frozenset({r})) for r in RULES]
    out += [Setup(bioasq=False), Setup(bioasq=False, rule="cost", cost=2.0)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "runs", nargs="+", type=Path, help="bench_answers.py --json outputs (run with CURBSIDE_ABSTAIN=false)"
    )
    parser.add_argument(
        "--rule", choices=("precision", "f1", "cost", "legacy"), default="precision", help="threshold rule"
    )
    parser.add_argument(
        "--min-precision", type=float, default=0.9, help="no_source precision to keep (--rule precision)"
    )
    parser.add_argument(
        "--cost", type=float, default=2.0, help="cost of answering an unanswerable question (--rule cost)"
    )
    parser.add_argument("--c", type=float, default=1.0, help="inverse regularisation strength (default 1.0)")
    parser.add_argument("--features", help=f"comma-separated features (default {', '.join(FEATURES)})")
    parser.add_argument("--drop-rule", action="append", default=[], choices=RULES, help="a rule guard to leave out")
    parser.add_argument("--compare", action="store_true", help="leave-one-set-out figures of candidate setups")
    parser.add_argument("--auc", action="store_true", help="each feature's AUC alone, per set and per rule guard")
    parser.add_argument("--write", action="store_true", help=f"write the fitted model to {OUT.relative_to(ROOT)}")
    args = parser.parse_args()

    rows = load_rows(args.runs)
    extras = tuple(sorted({k for r in rows for k in (r["evidence"].get("extra") or {})}))
    used = tuple(f.strip() for f in args.features.split(",")) if args.features else FEATURES
    if not set(used) <= set(FEATURES) | set(extras):
        parser.error(f"--features takes names among {', '.join(FEATURES + extras)}")
    setup = Setup(used, args.c, args.rule, args.min_precision, args.cost, frozenset(args.drop_rule))
    sets = sorted({r["set"] for r in rows})
    print(f"{len(rows)} questions in {', '.join(sets)}; {sum(not r['answerable'] for r in rows)} unanswerable")
    rule_counts(rows)
    if any("p_answerable" in r["evidence"] for r in rows):
        print_table("\nthe model in abstention.toml (as the runs recorded it):", as_of_today(rows, setup))
    if args.auc:
        feature_auc(rows, FEATURES + extras)
    print_table(f"\nleave one set out, {setup.label()}:", leave_one_set_out(rows, setup))
    if args.compare:
        print("\nleave one set out, pooled over the left-out sets:")
        print(f"  {'setup':<44}{'P':>7}{'R':>7}{'fp':>5}{'fn':>5}{'gold':>7}{'min P':>7}{'min R':>7}")
        for candidate in candidates(setup, extras):
            table = leave_one_set_out(rows, candidate)
            f = table.pop("pooled")
            low_p = min(t["precision"] for t in table.values())
            low_r = min(t["recall"] for t in table.values())
            print(
                f"  {candidate.label():<44}{f['precision']:>7.3f}{f['recall']:>7.3f}{f['false_no_source']:>5}"
                f"{f['missed_no_source']:>5}{f['gold']:>7.3f}{low_p:>7.3f}{low_r:>7.3f}"
            )
    if args.write:
        write(rows, setup, args.runs, sets)


def write(rows: list[dict[str, Any]], setup: Setup, runs: list[Path], sets: list[str]) -> None:
    """Fit on every set, choose the threshold the same way, and store it with its leave-one-set-out figures."""
    if set(setup.features) != set(FEATURES) or setup.dropped:
        raise SystemExit(
            "--write stores a model over abstain.FEATURES with every rule guard: add a feature there first"
        )
    data = Rows(rows, setup)
    model, threshold = fit(data, np.arange(len(rows)), setup)
    table = leave_one_set_out(rows, setup)
    fitted = dict(zip(setup.features, (round(float(w), 6) for w in model.coef_[0]), strict=True))
    lines = [
        "# Answer/no-answer model of ask (ask/abstain.py), written by benchmarks/fit_abstention.py.",
        "",
        "[model]",
        f"features = {json.dumps(list(FEATURES))}",
        f"intercept = {float(model.intercept_[0]):.6f}",
        f"weights = {json.dumps([fitted[name] for name in FEATURES])}",
        f"threshold = {threshold:.4f}",
        f'fitted = "{date.today().isoformat()}: {int(np.sum(data.open))} questions no rule withholds, of '
        f"{len(rows)} ({int(np.sum(~data.y))} unanswerable) in {', '.join(sets)}; C={setup.c:g}; threshold by "
        + _rule_words(setup)
        + f' on the guideline QA sets out of fold ({FOLDS}-fold x {SEEDS} seeds)"',
    ]
    for name, f in table.items():
        kept = {k: round(v, 3) if isinstance(v, float) else v for k, v in f.items()}
        lines.append(f"leave_one_set_out.{name} = {{ " + ", ".join(f"{k} = {v}" for k, v in kept.items()) + " }")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: threshold {threshold:.4f}, weights {fitted}")


def _rule_words(setup: Setup) -> str:
    if setup.rule == "precision":
        return f"the best no_source recall while the model's own abstentions keep precision >= {setup.min_precision:g}"
    if setup.rule == "legacy":
        return f"the model alone at no_source precision >= {setup.min_precision:g} (legacy)"
    if setup.rule == "f1":
        return "the best no_source F1"
    return f"the least cost (withheld answerable + {setup.cost:g} x answered unanswerable)"


if __name__ == "__main__":
    main()
