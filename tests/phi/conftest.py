"""Shared fixtures for the PHI tests: one detector per session, the dev notes scored once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from curbside.phi import PhiDetector, get_detector
from curbside.phi.evaluate import load_phi_dataset
from curbside.phi.scoring import GoldNote, score_notes


@pytest.fixture(scope="session")
def phi_detector() -> PhiDetector:
    """The process-wide detector (loading the model and word lists takes a few seconds, once)."""
    return get_detector()


@pytest.fixture(scope="session")
def physionet_dev_path(shared_data: Path) -> Path:
    return shared_data / "phi" / "physionet-deid-dev" / "notes.jsonl"


@pytest.fixture(scope="session")
def physionet_dev_notes(physionet_dev_path: Path) -> list[GoldNote]:
    notes, fmt = load_phi_dataset(physionet_dev_path)
    assert fmt == "jsonl"
    return notes


@pytest.fixture(scope="session")
def physionet_dev_scored(physionet_dev_notes: list[GoldNote], phi_detector: PhiDetector) -> dict[str, Any]:
    """The detector scored on the dev notes: every note with PHI (so every gold span: recall is the
    full set's) and every fourth note without (a fixed sample, to keep the suite fast)."""
    with_phi = [n for n in physionet_dev_notes if n.spans]
    without = [n for n in physionet_dev_notes if not n.spans][::4]
    return score_notes(with_phi + without, phi_detector.detect)


@pytest.fixture(scope="session")
def presidio_synth_scored(shared_data: Path, phi_detector: PhiDetector) -> dict[str, Any]:
    notes, fmt = load_phi_dataset(shared_data / "phi" / "presidio-synth-v2.json")
    assert fmt == "presidio-synth"
    return score_notes(notes, phi_detector.detect)
