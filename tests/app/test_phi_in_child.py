"""A command that runs once screens and redacts through a PHI detector in a child process; the answer and
its audit row are the same as with the detector in process."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

import curbside.phi
from curbside.app import Curbside
from curbside.auth import operator_caller
from curbside.phi.child import ChildDetector
from curbside.settings import Settings
from curbside.types import AskRequest

QUESTION = "John Smith (MRN 00123456): recheck potassium after starting spironolactone when?"


def asked(home: Path, *, in_child: bool) -> tuple[dict[str, object], dict[str, object], bool]:
    home.parent.mkdir(parents=True)
    note = home.parent / "note.md"
    note.write_text("# Potassium\n\nRecheck potassium within one week of starting spironolactone.\n")
    core = Curbside(Settings(home=home))
    try:
        assert not core.ingestor.ingest([note]).failed
        if in_child:
            core.detect_phi_in_child()
        used_child = isinstance(core.phi_detector(), ChildDetector)
        answer = asyncio.run(
            core.ask(AskRequest(question=QUESTION, use_llm=False), operator_caller(core.settings), channel="cli")
        )
        row = [r for r in core.audit.export(datetime(2000, 1, 1, tzinfo=UTC)) if r["action"] == "ask"][-1]
    finally:
        core.close()
    return answer.metadata, row, used_child


def test_the_child_screens_and_redacts_as_the_detector_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here_meta, here_row, _ = asked(tmp_path / "a" / "home", in_child=False)
    monkeypatch.setattr(curbside.phi, "detector_loaded", lambda: False)  # as in a fresh process
    child_meta, child_row, used_child = asked(tmp_path / "b" / "home", in_child=True)
    assert used_child
    assert child_meta["phi_detected"] is True and child_meta["phi_types"] == here_meta["phi_types"] == ["ID", "PERSON"]
    assert child_row["question"] == here_row["question"]
    assert str(child_row["question"]).startswith("[PERSON] (MRN [ID])")


def test_no_child_is_started_when_this_process_has_a_detector(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(curbside.phi, "detector_loaded", lambda: True)
    core = Curbside(Settings(home=tmp_path / "home"))
    try:
        core.detect_phi_in_child()
        assert core._phi_child is None
    finally:
        core.close()
