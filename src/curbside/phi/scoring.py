"""Labelled notes and how a detector is scored on them (span overlap: recall, precision, F2).

Kept apart from reading the files (``evaluate.py``) and splitting them by patient (``folds.py``),
which both use it.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from curbside.phi._spans import PhiSpan

__all__ = ["GoldNote", "GoldSpan", "score_notes"]


@dataclass(frozen=True, slots=True)
class GoldSpan:
    start: int
    end: int
    type: str  # the file's own label
    phi_type: str  # Curbside's type


@dataclass(slots=True)
class GoldNote:
    text: str
    spans: list[GoldSpan]
    ignored: list[tuple[int, int]] = field(default_factory=list)  # unscored labels (presidio-synth)
    patient: int | str | None = None  # the jsonl "patient" field: cross-validation folds keep a patient together


def score_notes(
    notes: Sequence[GoldNote],
    detect: Callable[[str], list[PhiSpan]],
    *,
    on_note: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Span-overlap recall, precision, F2 and per-type recall of ``detect`` on ``notes``."""
    gold = found = detected = correct = 0
    gold_by_type: Counter[str] = Counter()
    found_by_type: Counter[str] = Counter()
    gold_by_phi: Counter[str] = Counter()
    found_by_phi: Counter[str] = Counter()
    clean = clean_flagged = 0
    latencies: list[float] = []
    started = time.perf_counter()
    for note in notes:
        t0 = time.perf_counter()
        spans = detect(note.text)
        latencies.append((time.perf_counter() - t0) * 1000)
        for g in note.spans:
            gold += 1
            gold_by_type[g.type] += 1
            gold_by_phi[g.phi_type] += 1
            if any(s.start < g.end and g.start < s.end for s in spans):
                found += 1
                found_by_type[g.type] += 1
                found_by_phi[g.phi_type] += 1
        for s in spans:
            if any(s.start < g.end and g.start < s.end for g in note.spans):
                detected += 1
                correct += 1
            elif not any(s.start < e and b < s.end for b, e in note.ignored):
                detected += 1
        if not note.spans and not note.ignored:
            clean += 1
            clean_flagged += bool(spans)
        if on_note is not None:
            on_note()
    seconds = time.perf_counter() - started
    recall = found / gold if gold else 1.0
    precision = correct / detected if detected else 1.0
    f2 = 5 * precision * recall / (4 * precision + recall) if precision + recall else 0.0
    ordered = sorted(latencies)
    return {
        "notes": len(notes),
        "gold": gold,
        "detected": detected,
        "recall": round(recall, 4),
        "precision": round(precision, 4),
        "f2": round(f2, 4),
        "by_type": {t: round(found_by_type[t] / n, 4) for t, n in sorted(gold_by_type.items())},
        "by_type_counts": {t: {"gold": n, "found": found_by_type[t]} for t, n in sorted(gold_by_type.items())},
        "by_phi_type": {t: round(found_by_phi[t] / n, 4) for t, n in sorted(gold_by_phi.items())},
        "notes_without_phi": {"count": clean, "flagged": clean_flagged},
        "seconds": round(seconds, 2),
        "notes_per_second": round(len(notes) / seconds, 1) if seconds else None,
        "latency_ms": {
            "p50": round(statistics.median(ordered), 1) if ordered else 0.0,
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1) if ordered else 0.0,
        },
    }
