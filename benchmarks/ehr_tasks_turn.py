"""The real consult turn as an EHR-task turn (``bench_ehr_tasks.py --turn benchmarks.ehr_tasks_turn:make_turn``).

The turn runs with no model, its writes approved (as ``curbside turn --yes``), at the task's reference
time. ``make_model_turn`` is the same turn with the model of ``CURBSIDE_LOCAL_LLM_URL`` allowed (triage
ties, the answer's wording); it prints the model's calls, tokens and times when it closes. Its structured facts (``TurnResult.facts``) become the scorer's ``values``: the last fact that
holds a value, a list's items, or a found patient.
"""

from __future__ import annotations

import os
import statistics
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from curbside.agent.models import TurnRequest, TurnResult
from curbside.app import Curbside
from curbside.settings import Settings
from curbside.types import ToolCaller

__all__ = ["make_model_turn", "make_turn", "values_of"]

CALLER = ToolCaller(user="bench-clinician", role="clinician", channel="cli")


def make_turn(fhir_url: str, *, use_llm: bool = False) -> Any:
    # one benchmark user makes every call: the per-clinician rate limit of the EHR tools would refuse some
    home = Path(tempfile.mkdtemp(prefix="ehr-tasks-"))
    core = Curbside(Settings(home=home, fhir_url=fhir_url, tool_ehr_rate_limit=None))
    results: list[TurnResult] = []

    async def turn(message: str, *, patient: str | None, now: datetime) -> dict[str, Any]:
        request = TurnRequest(message=message, patient_id=patient, now=now, approve_writes=True, use_llm=use_llm)
        result = await core.turns.run(request, CALLER)
        results.append(result)
        writes = [w.model_dump(mode="json") for w in result.proposed_writes if w.outcome == "approved"]
        return {"answer": result.final_response, "values": values_of(result), "writes": writes}

    def close() -> None:
        if use_llm:
            _print_model_use(results)
        core.close()

    turn.close = close  # type: ignore[attr-defined]
    return turn


def make_model_turn(fhir_url: str) -> Any:
    """The turn with the configured model allowed (set CURBSIDE_LOCAL_LLM_URL)."""
    if not os.environ.get("CURBSIDE_LOCAL_LLM_URL"):
        raise SystemExit("make_model_turn needs CURBSIDE_LOCAL_LLM_URL (e.g. curbside models serve).")
    return make_turn(fhir_url, use_llm=True)


def _print_model_use(results: list[TurnResult]) -> None:
    used = [r for r in results if r.model != "none"]
    calls = [r.usage.llm_calls for r in results if r.usage is not None]
    worded = sum(any(w.startswith("Worded by") for w in r.warnings) for r in results)
    refused = sum(any("wording was not used" in w for w in r.warnings) for r in results)
    over = sum(1 for r in results if r.usage is not None and r.usage.llm_calls > r.usage.max_llm_calls)
    seconds = sorted(r.usage.seconds for r in results if r.usage is not None)
    print(
        f"\nmodel: used in {len(used)}/{len(results)} turns; answers worded by it {worded}, its wording refused "
        f"{refused}; LLM calls {sum(calls)} (over the route's budget: {over}); turn seconds p50 "
        f"{statistics.median(seconds or [0]):.2f}, p95 {seconds[int(0.95 * (len(seconds) - 1))] if seconds else 0:.2f}"
    )


def values_of(result: TurnResult) -> dict[str, Any]:
    for fact in reversed(result.facts):
        values = fact.get("values") or {}
        tool = fact.get("tool", "")
        if tool == "ehr.search_patient" and values.get("patient_id"):
            return {"patient_id": values["patient_id"]}
        if "average" in values:
            return {"value": values["average"], "unit": values.get("unit")}
        if values.get("value") is not None:
            return {"value": values["value"], "unit": values.get("unit")}
        if values.get("count") == 0:
            return {"none": True}
        for key in ("medications", "allergies", "conditions"):
            if key in values:
                return {"items": values[key]}
        patient = values.get("patient")
        if isinstance(patient, dict) and patient.get("age") is not None:
            return {"value": patient["age"], "unit": "years"}
    return {}
