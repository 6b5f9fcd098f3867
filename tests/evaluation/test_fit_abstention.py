"""fit_abstention.py --auc: each recorded feature's separating power alone, per set and per rule guard."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from fit_abstention import feature_auc  # noqa: E402


def _row(name: str, answerable: bool, score: float, rule: str | None = None) -> dict[str, Any]:
    return {"set": name, "answerable": answerable, "evidence": {"score": score}, "judged": True, "rule": rule}


def test_feature_auc_per_set_pooled_and_per_guard(capsys: pytest.CaptureFixture[str]) -> None:
    rows = [
        _row("guideline_qa", True, 0.9),
        _row("guideline_qa", False, 0.1),  # separates perfectly on this set
        _row("guideline_qa_blind", True, 0.2),
        _row("guideline_qa_blind", False, 0.8),  # backwards on this one
        _row("guideline_qa_blind", True, 0.5, rule="value_untyped"),
        _row("guideline_qa_blind", False, 0.4, rule="value_untyped"),
        _row("bioasq", True, 0.0),  # BioASQ is not a guideline set: left out
    ]
    feature_auc(rows, ("score",))
    out = capsys.readouterr().out
    decided = next(line for line in out.splitlines() if line.strip().startswith("score"))
    assert decided.split()[1:] == ["1.00", "0.00", "0.75"]  # per set, then pooled (3 of 4 pairs)
    assert "1/1" in out  # answerable / unanswerable the model decides on a set
    guarded = [line for line in out.splitlines() if line.strip().startswith("score")][1]
    assert guarded.split()[1:] == ["1.00"]  # within the one guard that withheld
