"""Patient-fold cross-validation of the PHI detector.

Rules written by reading one set of notes fit those notes: the same patient's notes share
names, places and habits of writing, so a note's neighbours in the same chart are no test of it.
``patient_folds`` splits the notes by patient (all of a patient's notes in one fold), the same
way for the same seed; ``cross_validate`` scores every fold and summarises the spread. Develop
on some folds and read only their misses; the other folds' figures are the honest estimate.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from curbside.errors import ValidationError
from curbside.phi._spans import PhiSpan
from curbside.phi.scoring import GoldNote, score_notes

__all__ = ["cross_validate", "patient_folds"]

_SUMMARISED = ("recall", "precision", "f2")


def patient_folds(notes: Sequence[GoldNote], k: int, seed: int = 0) -> list[list[GoldNote]]:
    """``k`` folds of ``notes``, each patient's notes in one fold.

    Patients are shuffled with ``seed`` and dealt out largest first to the fold with the
    fewest notes so far, so folds are of similar size and the split is the same on every run.
    A note without a patient is a patient of its own.
    """
    if k < 2:
        raise ValidationError(f"Cross-validation needs at least 2 folds, got {k}.")
    by_patient: dict[str, list[GoldNote]] = {}
    for index, note in enumerate(notes):
        key = f"patient {note.patient}" if note.patient is not None else f"note {index}"
        by_patient.setdefault(key, []).append(note)
    if len(by_patient) < k:
        raise ValidationError(f"{k} folds need at least {k} patients; the file has {len(by_patient)}.")
    patients = sorted(by_patient)
    random.Random(seed).shuffle(patients)
    # stable sort after the shuffle: ties in size keep the seed's order
    patients.sort(key=lambda p: len(by_patient[p]), reverse=True)
    folds: list[list[GoldNote]] = [[] for _ in range(k)]
    for patient in patients:
        smallest = min(range(k), key=lambda f: (len(folds[f]), f))
        folds[smallest].extend(by_patient[patient])
    return folds


def cross_validate(
    notes: Sequence[GoldNote],
    detect: Callable[[str], list[PhiSpan]],
    *,
    k: int,
    seed: int = 0,
    on_note: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Every fold scored as ``score_notes`` does, plus the mean and the worst fold of each figure."""
    runs = []
    for number, fold in enumerate(patient_folds(notes, k, seed)):
        result = score_notes(fold, detect, on_note=on_note)
        patients = sorted({n.patient for n in fold if n.patient is not None}, key=str)
        runs.append({"fold": number, "patients": patients, **result})
    return {"folds": k, "seed": seed, "runs": runs, "summary": _summary(runs)}


def _summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    summary: dict[str, Any] = {
        name: {"mean": round(statistics.mean(r[name] for r in runs), 4), "min": round(min(r[name] for r in runs), 4)}
        for name in _SUMMARISED
    }
    kinds = sorted({kind for r in runs for kind in r["by_type"]})
    # a fold without a type has no recall for it (not 1.0): leave it out of that type's figures
    summary["by_type"] = {
        kind: {
            "mean": round(statistics.mean(values), 4),
            "min": round(min(values), 4),
        }
        for kind in kinds
        if (values := [r["by_type"][kind] for r in runs if kind in r["by_type"]])
    }
    return summary
