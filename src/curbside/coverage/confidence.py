"""The confidence formula every coverage tool shares.

From the coverage spec ("Confidence Scoring Formula")::

    confidence = base + modifiers - penalties
    base       = 0.9 with a structured (SQL) hit, 0.6 with search evidence only, 0.0 with neither
    modifiers  = 0.03 per corroborating search passage (at most +0.15)
               + 0.02 per SQL record beyond the first (at most +0.06)
    penalties  = 0.1 per conflict between the two paths

The spec writes the penalty as ``0.1 * has_conflict``, yet its confidence levels
put "multiple conflicts" below one; Curbside charges it per conflict, so two
disagreements cost more than one. The result is
clamped to [0, 1] and rounded to 4 places so sums like 0.9 + 0.03 x 3 compare exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ConfidenceInputs", "confidence"]

SQL_BASE = 0.9
SEARCH_BASE = 0.6
PER_PASSAGE = 0.03
MAX_PASSAGES_BONUS = 0.15
PER_EXTRA_RECORD = 0.02
MAX_RECORDS_BONUS = 0.06
PER_CONFLICT = 0.1


@dataclass(frozen=True, slots=True)
class ConfidenceInputs:
    sql_hit: bool
    passages: int = 0  # search passages that corroborate the answer
    sql_records: int = 0  # structured records behind the answer
    conflicts: int = 0


def confidence(inputs: ConfidenceInputs) -> float:
    """The spec's score for one answer; 0.0 when neither path found anything."""
    if inputs.sql_hit:
        base = SQL_BASE
    elif inputs.passages > 0:
        base = SEARCH_BASE
    else:
        return 0.0
    bonus = min(PER_PASSAGE * max(inputs.passages, 0), MAX_PASSAGES_BONUS)
    if inputs.sql_hit:
        bonus += min(PER_EXTRA_RECORD * max(inputs.sql_records - 1, 0), MAX_RECORDS_BONUS)
    score = base + bonus - PER_CONFLICT * max(inputs.conflicts, 0)
    return round(min(max(score, 0.0), 1.0), 4)
