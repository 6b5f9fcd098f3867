"""Floors on the real data, a little under the measured figures, so a regression fails.

PhysioNet dev (measured on all 1,450 notes: recall 0.980, precision 0.929, 33 of 1,024 notes
without PHI flagged); presidio-synth (recall 0.754, precision 0.982)."""

from __future__ import annotations

from typing import Any

from curbside.phi import PhiDetector
from curbside.phi.folds import cross_validate
from curbside.phi.scoring import GoldNote


def test_physionet_dev_recall_and_precision(physionet_dev_scored: dict[str, Any]) -> None:
    result = physionet_dev_scored
    assert result["gold"] == 999  # every gold span of the dev half is in the scored notes
    assert result["recall"] >= 0.97  # measured 0.980
    assert result["precision"] >= 0.94  # measured 0.964 on these notes (0.929 with all notes without PHI)
    assert result["f2"] >= 0.96  # measured 0.977


def test_physionet_dev_recall_per_type(physionet_dev_scored: dict[str, Any]) -> None:
    by_type = physionet_dev_scored["by_type"]
    assert by_type["HCPName"] >= 0.97
    assert by_type["PTName"] >= 0.93
    assert by_type["RelativeProxyName"] >= 0.95
    assert by_type["Date"] >= 0.97
    assert by_type["Location"] >= 0.92
    assert by_type["Phone"] == 1.0
    assert by_type["Age"] == 1.0


def test_recall_holds_in_every_patient_fold(physionet_dev_notes: list[GoldNote], phi_detector: PhiDetector) -> None:
    """Issue #11's target: recall 0.97 in every patient fold (`curbside eval phi --folds 5`, seed 0;
    measured 0.975-0.990). Notes without PHI are not read (recall does not depend on them)."""
    with_phi = {n.text for n in physionet_dev_notes if n.spans}
    result = cross_validate(physionet_dev_notes, lambda t: phi_detector.detect(t) if t in with_phi else [], k=5)
    assert result["summary"]["recall"]["min"] >= 0.97
    assert all(run["by_type"]["HCPName"] >= 0.95 and run["by_type"]["Date"] >= 0.97 for run in result["runs"])


def test_physionet_notes_without_phi_mostly_pass(physionet_dev_scored: dict[str, Any]) -> None:
    clean = physionet_dev_scored["notes_without_phi"]
    assert clean["count"] == 256
    assert clean["flagged"] / clean["count"] <= 0.06  # measured 0.032 over all 1,024


def test_each_dev_phone_and_age_is_found_and_typed(
    physionet_dev_notes: list[GoldNote], phi_detector: PhiDetector
) -> None:
    checked = 0
    for note in physionet_dev_notes:
        wanted = [g for g in note.spans if g.phi_type in {"PHONE", "AGE"}]
        if not wanted:
            continue
        spans = phi_detector.detect(note.text)
        for gold in wanted:
            hits = [s for s in spans if s.start < gold.end and gold.start < s.end]
            assert hits, f"{note.text[gold.start : gold.end]!r} missed"
            assert (
                gold.phi_type in {s.type for s in hits} or gold.phi_type == "PHONE" and "ID" in {s.type for s in hits}
            )
            checked += 1
    assert checked == 29


def test_redacted_dev_notes_keep_no_gold_name(physionet_dev_notes: list[GoldNote], phi_detector: PhiDetector) -> None:
    """On the notes with a patient's or relative's name, redaction leaves at most 2 % of those names."""
    names = leaked = 0
    for note in physionet_dev_notes:
        people = [g for g in note.spans if g.type in {"PTName", "RelativeProxyName"}]
        if not people:
            continue
        redacted = phi_detector.redact(note.text)
        for gold in people:
            names += 1
            word = note.text[gold.start : gold.end]
            leaked += len(word) >= 4 and f" {word} " in f" {redacted} "
    assert names > 100
    assert leaked / names <= 0.02


def test_presidio_synth_floor(presidio_synth_scored: dict[str, Any]) -> None:
    result = presidio_synth_scored
    assert result["recall"] >= 0.73
    assert result["precision"] >= 0.96
    by_type = result["by_type"]
    assert by_type["PERSON"] >= 0.78
    assert by_type["EMAIL_ADDRESS"] == 1.0
    assert by_type["US_SSN"] == 1.0
    assert by_type["CREDIT_CARD"] >= 0.98
    assert by_type["PHONE_NUMBER"] >= 0.75
