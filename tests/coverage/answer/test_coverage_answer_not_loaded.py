"""coverage.answer when some sources have no loaded edition: a partial answer that names what is missing,
or NOT_LOADED when nothing it would ask has data. Never "ok" with an answer that could not read anything.

``odb_app`` is a home with the ODB formulary subset loaded and neither the Schedule nor the ADP manuals;
the calls go through the application's own executor (real tools, real SQLite).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from curbside.app import Curbside
from curbside.coverage.answer.models import CoverageAnswerResult
from curbside.settings import Settings
from curbside.tools.base import ToolResult
from curbside.types import ToolCaller

OHIP_NOT_LOADED = (
    "No OHIP Schedule of Benefits is loaded; run `curbside coverage load DIR` with the schedule's text "
    "(ohip-schedule-of-benefits-*.txt) in DIR."
)


def call(app: Curbside, caller: ToolCaller, **args: Any) -> ToolResult:
    return asyncio.run(app.tools.call("coverage.answer", args, caller=caller))


def test_a_source_not_loaded_leaves_a_partial_answer_naming_it(odb_app: Curbside, caller: ToolCaller) -> None:
    outcome = call(odb_app, caller, question="My patient is on Januvia. Can I bill C124 as MRP?")
    assert outcome.status == "ok", outcome.error
    r = CoverageAnswerResult.model_validate(outcome.result)
    assert [(t.tool, t.status, t.error_code) for t in r.trace] == [
        ("schedule.get", "error", "NOT_LOADED"),
        ("odb.get", "ok", None),
    ]
    assert r.trace[0].error == OHIP_NOT_LOADED
    assert f"schedule.get: {OHIP_NOT_LOADED}" in r.warnings
    assert r.summary.startswith("Billing (schedule.get): The billing part was not answered: its data is not loaded.")
    assert r.decision == "covered" and r.domains[1].decision == "covered"  # the drug part still answers
    # asking the billing part again cannot help until the Schedule is loaded: no such follow-up
    assert not any(f.domain == "billing" for f in r.followups)


def test_every_routed_source_not_loaded_is_not_loaded(odb_app: Curbside, caller: ToolCaller) -> None:
    outcome = call(odb_app, caller, question="Can I bill C124 for a discharge on day 3?")
    assert (outcome.status, outcome.result) == ("error", None)
    assert outcome.error is not None
    assert (outcome.error.code, outcome.error.message) == ("NOT_LOADED", OHIP_NOT_LOADED)


def test_nothing_loaded_is_not_loaded_whatever_the_question(tmp_path: Path) -> None:
    app = Curbside(Settings(home=tmp_path / "empty"))
    caller = ToolCaller(user="nobody-loaded", role="clinician")
    try:
        for question in ("Is Januvia covered?", "What's covered?", "Can I bill C124?"):
            outcome = call(app, caller, question=question)
            assert outcome.status == "error" and outcome.error is not None, question
            assert outcome.error.code == "NOT_LOADED"
            assert outcome.error.message.startswith(
                "No coverage data is loaded: not the OHIP Schedule of Benefits, the ADP manuals or the ODB "
                "formulary. Run `curbside coverage load DIR`"
            )
    finally:
        app.close()
