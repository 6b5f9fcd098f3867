"""The EHR task set (#18, after MedAgentBench): each task's message through a turn, scored on its answer and
on the chart writes the sandbox EHR recorded.

    .venv/bin/python benchmarks/bench_ehr_tasks.py --oracle          # the expected answers: must score 100 %
    .venv/bin/python benchmarks/bench_ehr_tasks.py --tools-only      # rules + tool calls, no model
    .venv/bin/python benchmarks/bench_ehr_tasks.py --turn PKG.MODULE:FACTORY [--only TYPE,...] [--split dev|heldout]
                                                   [--json PATH] [-v]

The sandbox (Medplum's FHIR router in Node, on loopback) starts with ``--record-writes`` and loads the 17 adults
of ``../shared/data/fhir/synthea-adults``: reads see the bundles, writes are answered and recorded but never
applied, so every task starts from the same chart. Before each task the recorded writes are cleared; after it,
what was recorded is scored (``ehr_tasks_score``).

A turn is ``turn(message: str, *, patient: str | None, now: datetime) -> dict`` (or a coroutine of one) with
keys ``answer`` (str), ``values`` (dict of structured facts, optional: ``value``/``unit``, ``items``,
``patient_id``, ``none``) and ``writes`` (the approved write calls). ``--turn`` names a factory called with the
sandbox's FHIR base URL that returns a turn; a turn with ``aclose()`` or ``close()`` is closed at the end.
``run_benchmark(factory, tasks)`` does the same from Python. Figures: success per task type and overall, per split
(dev: the 77 tasks the tools-only rules were written against; heldout: 22 paraphrases they never saw), and the
turn's latency (p50 / p95) per type.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import json
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ADULTS = ROOT.parent / "shared" / "data" / "fhir" / "synthea-adults"
TASKS = ROOT / "benchmarks" / "data" / "ehr_tasks.jsonl"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ehr_tasks_score import TaskScore, score_task, summarize  # noqa: E402

Outcome = dict[str, Any]
Turn = Callable[..., Outcome | Awaitable[Outcome]]
TurnFactory = Callable[[str], Turn | Awaitable[Turn]]

_UCUM = "http://unitsofmeasure.org"


@dataclass
class TaskRun:
    score: TaskScore
    split: str
    seconds: float
    answer: str
    writes_recorded: int
    writes_reported: int


def load_tasks(path: Path = TASKS, only: Sequence[str] = ()) -> list[dict[str, Any]]:
    tasks = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [t for t in tasks if not only or t["type"] in only]


def _install_dir() -> Path:
    """The tests' Node cache when it is there (no second 300 MB install), else the product's default."""
    from curbside.tools.ehr.sandbox.launcher import default_install_dir

    configured = os.environ.get("CURBSIDE_EHR_SANDBOX_CACHE")
    if configured:
        return Path(configured)
    cache = Path.home() / ".cache" / "curbside-ehr-sandbox"
    return cache if (cache / "node_modules").exists() else default_install_dir()


async def _maybe(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


async def run_tasks(tasks: Sequence[dict[str, Any]], turn: Turn, sandbox: Any) -> list[TaskRun]:
    """Each task through ``turn``, scored on its outcome and the writes ``sandbox`` recorded meanwhile."""
    runs = []
    for task in tasks:
        await asyncio.to_thread(sandbox.clear_recorded_writes)
        now = datetime.fromisoformat(task["now"])
        started = time.perf_counter()
        try:
            outcome = await _maybe(turn(task["message"], patient=task["patient"], now=now))
        except Exception as exc:  # noqa: BLE001 - a turn that raises fails its task; the run goes on
            outcome = {"answer": "", "error": f"{type(exc).__name__}: {exc}"}
        seconds = time.perf_counter() - started
        recorded = await asyncio.to_thread(sandbox.recorded_writes)
        score = score_task(task, outcome, recorded)
        answer = str(outcome.get("answer") or "")
        reported = len(outcome.get("writes") or [])
        runs.append(TaskRun(score, task.get("split", "dev"), seconds, answer, len(recorded), reported))
    return runs


async def _close(turn: Any) -> None:
    for name in ("aclose", "close"):
        method = getattr(turn, name, None)
        if callable(method):
            await _maybe(method())
            return


def run_benchmark(factory: TurnFactory, tasks: Sequence[dict[str, Any]]) -> list[TaskRun]:
    """Start the recording sandbox, load the adults, build the turn from its URL, run every task."""
    from curbside.tools.ehr.sandbox import EhrSandbox

    with EhrSandbox(install_dir=_install_dir(), record_writes=True) as sandbox:
        report = sandbox.load(ADULTS)
        if report.failures:
            raise SystemExit(f"load failed: {report.failures}")

        async def go() -> list[TaskRun]:
            turn = await _maybe(factory(sandbox.base_url))
            try:
                return await run_tasks(tasks, turn, sandbox)
            finally:
                await _close(turn)

        return asyncio.run(go())


# --- the oracle: the expected answer, and the expected writes posted as FHIR resources ------------------------


def _resource(write: dict[str, Any]) -> dict[str, Any]:
    """The smallest FHIR resource that carries an expected write's fields."""
    kind = write["resourceType"]
    coding = [{"system": write["code"]["system"], "code": write["code"]["codes"][0]}]
    body: dict[str, Any] = {"resourceType": kind, "subject": {"reference": write["subject"]}}
    quantity = {"value": write.get("value"), "unit": write.get("unit"), "system": _UCUM, "code": write.get("unit")}
    if kind == "Observation":
        body |= {"status": "final", "code": {"coding": coding}}
        if "components" in write:
            body["component"] = [
                {
                    "code": {"coding": [{"system": "http://loinc.org", "code": c["codes"][0]}]},
                    "valueQuantity": {"value": c["value"], "unit": c["unit"], "system": _UCUM, "code": c["unit"]},
                }
                for c in write["components"]
            ]
        else:
            body["valueQuantity"] = quantity
    elif kind == "MedicationRequest":
        body |= {
            "status": "active",
            "intent": "order",
            "medicationCodeableConcept": {"coding": coding},
            "dosageInstruction": [{"doseAndRate": [{"doseQuantity": quantity}]}],
        }
    else:
        body |= {"status": "active", "intent": "order", "code": {"coding": coding}}
        if "priority" in write:
            body["priority"] = write["priority"]
        if "reason" in write:
            body["reasonCode"] = [{"text": "; ".join(write["reason"])}]
        if "occurrence" in write:
            body["occurrenceDateTime"] = write["occurrence"]
    return body


def _oracle_answer(expected: dict[str, Any]) -> Outcome:
    kind = expected["kind"]
    if kind == "number":
        return {
            "answer": f"{expected['value']} {expected['unit']}",
            "values": {"value": expected["value"], "unit": expected["unit"]},
        }
    if kind == "none":
        return {"answer": "None recorded.", "values": {"none": True}}
    if kind == "set":
        return {"answer": "; ".join(expected["items"]) or "None recorded.", "values": {"items": expected["items"]}}
    if kind == "patient":
        return {"answer": f"MRN {expected['mrn']}", "values": {"patient_id": expected["patient_id"]}}
    return {"answer": "Done.", "values": {}}


def oracle_factory(tasks: Sequence[dict[str, Any]]) -> TurnFactory:
    """A turn that knows every task's expected answer and posts its expected writes: the scorer's 100 %."""
    by_message = {(t["message"], t["patient"], t["now"]): t for t in tasks}

    def factory(url: str) -> Turn:
        import httpx

        client = httpx.AsyncClient(base_url=url, timeout=30)

        async def turn(message: str, *, patient: str | None, now: datetime) -> Outcome:
            task = by_message[(message, patient, now.isoformat())]
            expected = task["expected"]
            writes = []
            for write in expected.get("writes", []):
                response = await client.post(f"/{write['resourceType']}", json=_resource(write))
                response.raise_for_status()
                writes.append(write)
            return _oracle_answer(expected) | {"writes": writes}

        turn.aclose = client.aclose  # type: ignore[attr-defined]
        return turn

    return factory


def _tools_only(url: str) -> Turn:
    from ehr_tasks_baseline import ToolsOnlyTurn

    return ToolsOnlyTurn(url)


def _named_factory(spec: str) -> TurnFactory:
    module, _, name = spec.partition(":")
    if not name:
        raise SystemExit(f"--turn {spec!r}: give MODULE:FACTORY, e.g. curbside.agent.bench:make_turn")
    factory: TurnFactory = getattr(importlib.import_module(module), name)
    return factory


# --- the report ---------------------------------------------------------------------------------------------


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def report(runs: Sequence[TaskRun], label: str, *, verbose: bool) -> dict[str, Any]:
    table = summarize(r.score for r in runs)
    print(f"EHR task set, {label}: {len(runs)} tasks\n")
    print("| task type | passed | tasks | success | p50 ms | p95 ms |")
    print("|---|---:|---:|---:|---:|---:|")
    figures: dict[str, Any] = {}
    for kind, (passed, total) in table.items():
        ms = [r.seconds * 1000 for r in runs if kind == "overall" or r.score.type == kind]
        row = {
            "passed": passed,
            "tasks": total,
            "success": passed / total,
            "p50_ms": statistics.median(ms),
            "p95_ms": _pct(ms, 0.95),
        }
        figures[kind] = row
        name = f"**{kind}**" if kind == "overall" else kind
        print(f"| {name} | {passed} | {total} | {row['success']:.1%} | {row['p50_ms']:.0f} | {row['p95_ms']:.0f} |")
    splits = sorted({r.split for r in runs})
    if len(splits) > 1:
        by_split = {s: [r.score.ok for r in runs if r.split == s] for s in splits}
        figures["splits"] = {
            s: {"passed": sum(oks), "tasks": len(oks), "success": sum(oks) / len(oks)} for s, oks in by_split.items()
        }
        print(
            "\n" + ", ".join(f"{s}: {sum(oks)}/{len(oks)} ({sum(oks) / len(oks):.1%})" for s, oks in by_split.items())
        )
    failed = [r for r in runs if not r.score.ok]
    if failed:
        print(f"\n{len(failed)} failed:" if verbose else f"\n{len(failed)} failed (-v for the answers):")
        for r in failed:
            print(f"  {r.score.id} ({r.split}): {'; '.join(r.score.problems)}")
            if verbose:
                print(f"      answer: {r.answer[:300]!r}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--oracle", action="store_true", help="answer from the expected data (checks the scorer)")
    mode.add_argument("--tools-only", action="store_true", help="the rules-and-tools baseline, no model")
    mode.add_argument("--turn", metavar="MODULE:FACTORY", help="factory(fhir_url) -> turn")
    parser.add_argument("--tasks", type=Path, default=TASKS, help="the task file (default data/ehr_tasks.jsonl)")
    parser.add_argument("--only", default="", help="comma-separated task types to run")
    parser.add_argument(
        "--split", choices=("dev", "heldout", "dev2", "blind"), default=None, help="only this split (default all)"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures and every task's score here")
    parser.add_argument("-v", "--verbose", action="store_true", help="show the failed tasks' answers")
    args = parser.parse_args()
    if not ADULTS.is_dir():
        raise SystemExit(f"missing {ADULTS}")
    tasks = load_tasks(args.tasks, [t for t in args.only.split(",") if t])
    tasks = [t for t in tasks if args.split is None or t.get("split", "dev") == args.split]
    if args.oracle:
        factory, label = oracle_factory(tasks), "oracle"
    elif args.tools_only:
        factory, label = _tools_only, "tools only (rules, no model)"
    else:
        factory, label = _named_factory(args.turn), args.turn
    runs = run_benchmark(factory, tasks)
    figures = report(runs, label, verbose=args.verbose)
    if args.json:
        rows = [asdict(r.score) | {"ms": r.seconds * 1000, "answer": r.answer} for r in runs]
        args.json.write_text(json.dumps({"mode": label, "figures": figures, "tasks": rows}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
