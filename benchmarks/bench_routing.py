"""Triage (#18) on the routing set: route accuracy by rules alone, and with a local model for the cases the
rules are unsure of.

    .venv/bin/python benchmarks/bench_routing.py                       # rules alone, dev and test
    .venv/bin/python benchmarks/bench_routing.py --failures            # also list the dev split's misses
    .venv/bin/python benchmarks/bench_routing.py --model http://127.0.0.1:8080/v1   # + the model row

Data: ``data/routing_set.jsonl``: clinician messages written from the reference designs' use cases
(specs/agent-decision-tree.md, ontario-coverage-mcp-tools.md, semantic-search-and-tools.md) and the
EHR tasks of issue #18 (MedAgentBench's kinds: lookup by name and birth date, a vital recorded, the latest
lab in a window, conditional orders, referrals), each with ``has_patient``, its ``route``, the ``intents``
(kinds) it needs and, where one is plain, the key ``slots`` (lab, drug, calculator, program, window …).
40 rows (10 per route, a seeded draw) are ``split: test``: they were written with the rest, before any
rule, and never read while the rules were tuned; only the dev split's misses are ever listed.

Labelling conventions (the rules were written to these, not to the rows):
- direct: greetings, thanks, questions about Curbside itself; a clinical question is never direct
  (every clinical claim needs a source: it is a ``knowledge`` lookup).
- lookup: one tool answers it (coverage.answer counts as one tool however many programs it spans).
- reasoning: clinical judgement over tool results ("should I", "given her eGFR", "is it safe for her");
  its intents are the data it names (her labs, a drug being started), else ``knowledge``.
- multi_step: two or more subtasks (each write and each calculator counts), a write conditional on a
  value, or subtasks spelled out in order; a patient found by name before anything else is a subtask.

Figures, per split: route accuracy (4-way) overall and per gold route, the macro mean, a confusion table,
tool vs no tool (binary) accuracy, intent-set exact match and intent recall, accuracy on the labelled
slots, the share the rules mark unsure (and their accuracy there), and p50/p95 milliseconds per message.

``--model URL``: an OpenAI-compatible endpoint (e.g. ``python -m llama_cpp.server --model Qwen2.5-Coder-
1.5B-Instruct-Q4_K_M.gguf``). Each message the rules mark unsure is sent with a JSON schema for
{route, intents}; its answer replaces the rules' route there. The prompt and the schema are the turn's own
(``agent/triage_model.py``); the request is made here with a synchronous httpx client, in the shape
``tools/calculators/note_model.py`` uses (json_schema, falling back to json_object).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data" / "routing_set.jsonl"
sys.path.insert(0, str(ROOT / "src"))

from curbside.agent.intents import INTENT_KINDS, ROUTES, Triage  # noqa: E402
from curbside.agent.triage import triage  # noqa: E402
from curbside.agent.triage_model import TRIAGE_SYSTEM, triage_schema  # noqa: E402

Row = dict[str, Any]


def load(path: Path) -> list[Row]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _same(gold: Any, got: Any) -> bool:
    if isinstance(gold, list):
        return isinstance(got, list) and {str(x).lower() for x in gold} == {str(x).lower() for x in got}
    if isinstance(gold, float | int) and not isinstance(gold, bool):
        return isinstance(got, float | int) and abs(float(got) - float(gold)) < 1e-9
    return str(got).lower() == str(gold).lower()


def slot_hits(row: Row, result: Triage) -> tuple[int, int]:
    """Labelled slots found with the same value in some predicted intent."""
    gold = row.get("slots") or {}
    hits = 0
    for key, value in gold.items():
        if any(key in i.slots and _same(value, i.slots[key]) for i in result.intents):
            hits += 1
    return hits, len(gold)


# --- the model, for the rules' unsure cases -------------------------------------------------------------

class ModelRouter:
    def __init__(self, url: str, model: str, timeout_s: float) -> None:
        import httpx

        self.url = url.rstrip("/") + "/chat/completions"
        self.model = model
        self.client = httpx.Client(timeout=timeout_s)
        self.style = "json_schema"
        self.calls = 0
        self.failures = 0
        self.ms: list[float] = []

    def route(self, message: str, has_patient: bool, rules: Triage | None) -> tuple[str, list[str]] | None:
        """The model's route and intents; ``rules`` (their unsure guess) is shown to it when given."""
        import httpx

        user = f"Message: {message}\nA patient is {'active' if has_patient else 'not active'} in the session."
        if rules is not None:
            user += f"\nRules guessed route={rules.route} intents={list(rules.kinds)} but are unsure ({rules.reason})."
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": TRIAGE_SYSTEM}, {"role": "user", "content": user}],
            "max_tokens": 120,
            "temperature": 0,
        }
        if self.style == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "triage", "strict": True, "schema": triage_schema()},
            }
        else:
            body["response_format"] = {"type": "json_object", "schema": triage_schema()}
        started = time.perf_counter()
        self.calls += 1
        try:
            response = self.client.post(self.url, json=body)
            if response.status_code >= 400 and self.style == "json_schema":
                self.style = "json_object"
                return self.route(message, has_patient, rules)
            response.raise_for_status()
            content = response.json()["choices"][0]["message"]["content"]
            answer = json.loads(content)
            route = answer["route"]
            intents = [k for k in answer.get("intents", []) if k in INTENT_KINDS]
            if route not in ROUTES:
                raise ValueError(route)
        except (httpx.HTTPError, KeyError, ValueError, TypeError, IndexError):
            self.failures += 1
            return None
        finally:
            self.ms.append((time.perf_counter() - started) * 1000)
        return route, intents


# --- figures -------------------------------------------------------------------------------------------


def evaluate(rows: list[Row], router: ModelRouter | None) -> dict[str, Any]:
    confusion: Counter[tuple[str, str]] = Counter()
    per_route: dict[str, list[bool]] = defaultdict(list)
    binary = exact = 0
    intents_gold = intents_found = 0
    slots_hit = slots_all = 0
    unsure = unsure_right = 0
    model_right = model_used = 0
    ms: list[float] = []
    misses: list[str] = []
    for row in rows:
        started = time.perf_counter()
        result = triage(row["message"], has_patient=row["has_patient"])
        ms.append((time.perf_counter() - started) * 1000)
        gold, got = row["route"], result.route
        confusion[(gold, got)] += 1
        per_route[gold].append(gold == got)
        binary += (gold == "direct") == (got == "direct")
        got_kinds = set(result.kinds)
        exact += got_kinds == set(row["intents"])
        intents_gold += len(set(row["intents"]))
        intents_found += len(set(row["intents"]) & got_kinds)
        hit, total = slot_hits(row, result)
        slots_hit += hit
        slots_all += total
        final = got
        if not result.confident:
            unsure += 1
            unsure_right += gold == got
            if router is not None:
                answer = router.route(row["message"], row["has_patient"], result)
                if answer is not None:
                    final = answer[0]
                    model_used += 1
        model_right += gold == final
        if gold != got or got_kinds != set(row["intents"]):
            misses.append(
                f"  {gold:>10} -> {got:<10} {'' if result.confident else '(unsure) '}{row['message']!r}\n"
                f"{'':14}intents gold {sorted(row['intents'])} got {sorted(got_kinds)}; {result.reason}"
            )
    n = len(rows)
    return {
        "n": n,
        "route_accuracy": sum(g == p for (g, p), c in confusion.items() for _ in range(c)) / n,
        "per_route": {r: (sum(v) / len(v), len(v)) for r, v in per_route.items()},
        "macro": statistics.mean(sum(v) / len(v) for v in per_route.values()),
        "binary": binary / n,
        "intent_exact": exact / n,
        "intent_recall": intents_found / intents_gold if intents_gold else 1.0,
        "slots": (slots_hit / slots_all if slots_all else 1.0, slots_all),
        "unsure": (unsure, unsure_right),
        "with_model": model_right / n if router is not None else None,
        "model_used": model_used,
        "p50_ms": statistics.median(ms),
        "p95_ms": sorted(ms)[max(0, int(0.95 * n) - 1)],
        "confusion": confusion,
        "misses": misses,
    }


def evaluate_model_alone(rows: list[Row], router: ModelRouter) -> dict[str, Any]:
    """Every message routed by the model alone (no rules): the origin project's 4-way LLM router."""
    confusion: Counter[tuple[str, str]] = Counter()
    exact = answered = 0
    for row in rows:
        answer = router.route(row["message"], row["has_patient"], None)
        got = answer[0] if answer else "none"
        answered += answer is not None
        confusion[(row["route"], got)] += 1
        exact += bool(answer) and set(answer[1]) == set(row["intents"])  # type: ignore[index]
    n = len(rows)
    per_route = {
        r: sum(c for (g, p), c in confusion.items() if g == r and p == r)
        / max(1, sum(c for (g, _), c in confusion.items() if g == r))
        for r in ROUTES
    }
    right = sum(c for (g, p), c in confusion.items() if g == p)
    binary = sum(c for (g, p), c in confusion.items() if (g == "direct") == (p == "direct") and p != "none")
    return {
        "n": n,
        "route_accuracy": right / n,
        "per_route": per_route,
        "binary": binary / n,
        "intent_exact": exact / n,
        "answered": answered,
        "confusion": confusion,
    }


def show_model_alone(split: str, figures: dict[str, Any]) -> None:
    print(f"\n-- {split}: the model alone, every message ({figures['answered']}/{figures['n']} answered) --")
    print(f"route accuracy (4-way)      {figures['route_accuracy']:.3f}")
    for route in ROUTES:
        print(f"  {route:<12}              {figures['per_route'][route]:.3f}")
    print(f"tool vs no tool (binary)    {figures['binary']:.3f}")
    print(f"intent set exact match      {figures['intent_exact']:.3f}")
    print("confusion (rows gold, columns predicted; 'none' = no valid answer):")
    columns = (*ROUTES, "none")
    print("  " + " " * 12 + "".join(f"{r:>12}" for r in columns))
    for gold in ROUTES:
        print("  " + f"{gold:<12}" + "".join(f"{figures['confusion'][(gold, got)]:>12}" for got in columns))


def show(split: str, figures: dict[str, Any], model_note: str) -> None:
    print(f"\n== {split}: {figures['n']} messages ==")
    print(f"route accuracy (4-way)      {figures['route_accuracy']:.3f}   (macro over routes {figures['macro']:.3f})")
    for route in ROUTES:
        acc, count = figures["per_route"].get(route, (float("nan"), 0))
        print(f"  {route:<12}              {acc:.3f}   (n={count})")
    print(f"tool vs no tool (binary)    {figures['binary']:.3f}")
    print(f"intent set exact match      {figures['intent_exact']:.3f}")
    print(f"intent recall               {figures['intent_recall']:.3f}")
    rate, count = figures["slots"]
    print(f"labelled slots right        {rate:.3f}   (n={count})")
    unsure, right = figures["unsure"]
    print(f"unsure (rules)              {unsure}   of which route right {right}")
    if figures["with_model"] is None:
        print(f"rules + model on unsure     not measured ({model_note})")
    else:
        print(f"rules + model on unsure     {figures['with_model']:.3f}   (model answered {figures['model_used']})")
    print(f"ms per message p50 / p95    {figures['p50_ms']:.3f} / {figures['p95_ms']:.3f}")
    print("confusion (rows gold, columns predicted):")
    print("  " + " " * 12 + "".join(f"{r:>12}" for r in ROUTES))
    for gold in ROUTES:
        print("  " + f"{gold:<12}" + "".join(f"{figures['confusion'][(gold, got)]:>12}" for got in ROUTES))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--data", "--set", dest="data", default=str(DATA), help="the set (default data/routing_set.jsonl)"
    )
    parser.add_argument(
        "--failures", action="store_true", help="list the dev, dev2 and blind splits' misses (never the test's)"
    )
    parser.add_argument("--model", help="an OpenAI-compatible base URL (…/v1) for the rules' unsure cases")
    parser.add_argument("--model-name", default="local", help="the model name sent to --model")
    parser.add_argument("--model-alone", action="store_true", help="with --model: also route every message by it")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument(
        "--split",
        choices=("dev", "test", "dev2", "blind", "both"),
        default="both",
        help="which split to run (both: all in the set)",
    )
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    rows = load(Path(args.data))
    triage("warm up the vocabularies", has_patient=False)  # the first call builds the cached patterns
    router = ModelRouter(args.model, args.model_name, args.timeout) if args.model else None
    note = "no --model given" if router is None else ""
    results = {}
    present = sorted({r.get("split", "dev") for r in rows}, key=("dev", "test", "dev2", "blind").index)
    for split in present if args.split == "both" else (args.split,):
        subset = [r for r in rows if r.get("split", "dev") == split]
        figures = evaluate(subset, router)
        show(split, figures, note)
        if split in ("dev", "dev2", "blind") and args.failures:
            print(f"\n{split} misses (route or intent set):")
            print("\n".join(figures["misses"]) or "  none")
        results[split] = {k: v for k, v in figures.items() if k not in ("confusion", "misses")}
        results[split]["confusion"] = {f"{g}->{p}": c for (g, p), c in figures["confusion"].items()}
        if router is not None and args.model_alone:
            alone = evaluate_model_alone(subset, router)
            show_model_alone(split, alone)
            results[split]["model_alone"] = {k: v for k, v in alone.items() if k != "confusion"}
    if args.split == "both" and len(present) > 1:
        both = evaluate(rows, None)
        print(f"\nall {both['n']}: route accuracy {both['route_accuracy']:.3f}, binary {both['binary']:.3f}")
    if router is not None:
        print(
            f"model calls {router.calls}, failures {router.failures}, p50 {statistics.median(router.ms or [0]):.0f} ms"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
