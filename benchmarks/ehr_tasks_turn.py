"""The real consult turn as an EHR-task turn (``bench_ehr_tasks.py --turn benchmarks.ehr_tasks_turn:make_turn``).

The turn runs with no model, its writes approved (as ``curbside turn --yes``), at the task's reference
time. Its structured facts (``TurnResult.facts``) become the scorer's ``values``: the last fact that
holds a value, a list's items, or a found patient.
"""

from __future__ import annotations

import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from curbside.agent.models import TurnRequest, TurnResult
from curbside.app import Curbside
from curbside.settings import Settings
from curbside.types import ToolCaller

__all__ = ["make_turn", "values_of"]

CALLER = ToolCaller(user="bench-clinician", role="clinician", channel="cli")


def make_turn(fhir_url: str) -> Any:
    core = Curbside(Settings(home=Path(tempfile.mkdtemp(prefix="ehr-tasks-")), fhir_url=fhir_url))

    async def turn(message: str, *, patient: str | None, now: datetime) -> dict[str, Any]:
        request = TurnRequest(message=message, patient_id=patient, now=now, approve_writes=True, use_llm=False)
        result = await core.turns.run(request, CALLER)
        writes = [w.model_dump(mode="json") for w in result.proposed_writes if w.outcome == "approved"]
        return {"answer": result.final_response, "values": values_of(result), "writes": writes}

    turn.close = core.close  # type: ignore[attr-defined]
    return turn


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
