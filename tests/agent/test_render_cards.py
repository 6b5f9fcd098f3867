"""What a tool card is built from (``TurnResult.facts``): a calculator's value with what each criterion
added, a coverage answer's decision with its findings (fees, rules) — the issue's tool cards (#19)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from curbside.agent.render import render
from curbside.app import Curbside
from curbside.settings import Settings
from curbside.types import ToolCaller


def test_a_calculators_card_lists_what_each_criterion_added(tmp_path: Path) -> None:
    # CHA2DS2-VASc, Lip et al. Chest 2010: woman 76 (age ≥ 75: 2, female: 1), hypertension 1, diabetes 1 = 5
    app = Curbside(Settings(home=tmp_path / "home"))
    args = {
        "age": 76,
        "sex": "female",
        "heart_failure": False,
        "hypertension": True,
        "diabetes": True,
        "stroke_tia_thromboembolism": False,
        "vascular_disease": False,
    }
    try:
        called = asyncio.run(
            app.tools.call("calc.cha2ds2_vasc", args, caller=ToolCaller(user="u", role="clinician", channel="cli"))
        )
    finally:
        app.close()
    assert called.ok and called.result is not None
    values = render("calc.cha2ds2_vasc", called.result, {}).values
    assert values["value"] == 5
    # only what added points, and they add up to the score (the age band included)
    assert sorted(values["criteria"]) == ["Age: +2", "Diabetes mellitus: +1", "Hypertension: +1", "Sex: +1"]
    assert sum(p["points"] for p in called.result["points"]) == called.result["value"]


def test_a_coverage_card_carries_the_decision_and_its_findings() -> None:
    result = {
        "decision": "billable",
        "confidence": 0.9,
        "summary": "A007 Intermediate assessment: $37.95.",
        "provenance_summary": "sql",
        "highlights": [
            {
                "point": "A007 Intermediate assessment: $37.95 (Family Practice).",
                "domain": "billing",
                "tool": "schedule.get",
            },
            {"point": "Rule for A007: one per patient per day.", "domain": "billing", "tool": "schedule.get"},
        ],
    }
    values = render("coverage.answer", result, {}).values
    assert values["decision"] == "billable" and values["confidence"] == 0.9
    assert values["findings"] == [h["point"] for h in result["highlights"]]
