"""Extractive answer quality on PubMedQA: does ``ask`` pick the sentences that answer?

    .venv/bin/python benchmarks/bench_answer_quality.py [--embedder minilm] [--limit 500] [--json out.json]

Data: ../shared/data/qa/pubmedqa-pqal-dev.json — 500 expert-labelled questions,
each with its abstract's labelled context paragraphs (BACKGROUND, METHODS,
RESULTS …) and the authors' conclusion as the long answer. The conclusion is
not in the contexts, so an answer can only quote the evidence it rests on.

Every abstract becomes one document (title "PubMed <id>", one section per
label) in a fresh home; every question goes through ``Asker.ask`` (no LLM,
default k and threshold). Figures:

* retrieval: the question's own abstract is the first citation (hit@1), or any;
* answer: token F1 and recall of the answer text against the conclusion
  (lower-cased words, stop words kept, markers removed), for the extractive
  answer and, at the same number of words, the baseline "show the top
  passages": the opening words of the retrieved passages' bodies in rank order
  (what a search page would show). Equal length matters: F1 rewards short
  texts, recall long ones. Ratio: extractive / baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "qa" / "pubmedqa-pqal-dev.json"
_WORD = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    return _WORD.findall(re.sub(r"\[\d+\]", " ", text).lower())


def f1_recall(candidate: str, gold: str) -> tuple[float, float]:
    c, g = Counter(tokens(candidate)), Counter(tokens(gold))
    overlap = sum((c & g).values())
    if not overlap:
        return 0.0, 0.0
    precision, recall = overlap / sum(c.values()), overlap / sum(g.values())
    return 2 * precision * recall / (precision + recall), recall


def prepared(entries: dict[str, Any]) -> list[Any]:
    from curbside.kb.document import Block, LoadedDocument, Section
    from curbside.kb.ingest import PreparedDocument

    docs = []
    for pmid, entry in entries.items():
        contexts, labels = entry["CONTEXTS"], entry["LABELS"]
        sections = [Section(title=label.title(), blocks=[Block(text)]) for label, text in zip(labels, contexts, strict=True)]
        loaded = LoadedDocument(title=f"PubMed {pmid}", root=Section(title=None, children=sections), format="text")
        data = "\n\n".join(contexts).encode()
        docs.append(PreparedDocument(f"pubmed-{pmid}", f"pubmed-{pmid}.txt", data, loaded))
    return docs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--limit", type=int, default=500)
    parser.add_argument("--home", type=Path, default=Path("/tmp/curbside-bench/pubmedqa"))
    parser.add_argument("--json", type=Path, dest="json_path")
    args = parser.parse_args()

    from curbside.app import Curbside
    from curbside.search.embedders import resolve_embedder_name
    from curbside.settings import Settings
    from curbside.types import AskRequest

    embedder = resolve_embedder_name(args.embedder)
    entries = dict(list(json.loads(args.data.read_text()).items())[: args.limit])
    app = Curbside(Settings(home=args.home / embedder, embedder=embedder))
    started = time.perf_counter()
    report = app.ingestor.ingest_prepared(prepared(entries), total=len(entries))
    print(f"{embedder}: {len(entries)} abstracts, {report.count('ingested')} ingested in "
          f"{time.perf_counter() - started:.0f} s ({report.count('unchanged')} unchanged)")

    statuses: Counter[str] = Counter()
    hit1 = hit_any = 0
    scores: dict[str, list[tuple[float, float]]] = {"extractive": [], "top passages": []}
    lengths: list[int] = []

    async def run() -> None:
        nonlocal hit1, hit_any
        for pmid, entry in entries.items():
            answer = await app.asker.ask(AskRequest(question=entry["QUESTION"], use_llm=False))
            statuses[answer.status] += 1
            if answer.status != "answered":
                continue
            own = f"pubmed-{pmid}"
            hit1 += answer.citations[0].doc_key == own
            hit_any += any(c.doc_key == own for c in answer.citations)
            gold = entry["LONG_ANSWER"]
            lengths.append(len(re.findall(r"\[\d+\]", answer.answer)))
            words = len(tokens(answer.answer))
            hits = app.search_engine.search(entry["QUESTION"], k=app.settings.answer_passages).hits
            lead = " ".join(h.text.split("\n\n", 1)[-1] for h in hits)
            scores["extractive"].append(f1_recall(answer.answer, gold))
            scores["top passages"].append(f1_recall(" ".join(tokens(lead)[:words]), gold))

    asyncio.run(run())
    app.close()
    answered = statuses["answered"]
    print(f"\nstatuses {dict(statuses)}; own abstract cited first {hit1}/{answered} "
          f"({hit1 / max(answered, 1):.3f}), cited at all {hit_any}/{answered}; "
          f"sentences per answer: median {statistics.median(lengths) if lengths else 0}\n")
    print(f"{'answer':<12}{'token F1':>10}{'recall':>10}{'F1 ratio':>10}")
    base = {name: statistics.mean(f for f, _ in vals) for name, vals in scores.items() if vals}
    for name, vals in scores.items():
        if not vals:
            continue
        f1 = statistics.mean(f for f, _ in vals)
        recall = statistics.mean(r for _, r in vals)
        ratio = base["extractive"] / f1 if name != "extractive" and f1 else 1.0
        print(f"{name:<12}{f1:>10.4f}{recall:>10.4f}{ratio:>10.3f}")
    if args.json_path:
        args.json_path.write_text(json.dumps({
            "benchmark": "answer_quality", "embedder": embedder, "statuses": dict(statuses),
            "hit_at_1": hit1, "hit_any": hit_any, "answered": answered,
            "scores": {k: {"f1": statistics.mean(f for f, _ in v), "recall": statistics.mean(r for _, r in v)}
                       for k, v in scores.items() if v},
        }, indent=2))


if __name__ == "__main__":
    main()
