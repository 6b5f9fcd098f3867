"""Conflicts between tools: two programs deciding the same subject differently.

Some items sit in two programs: the ODB formulary lists CGM sensors, test strips and
valved holding chambers, which are devices too. When ``odb.get`` says covered and
``adp.get`` says not eligible (or the reverse) for the same item, neither answer is
dropped: the disagreement is reported with both values, since each program decides
for itself and the clinician has to know which one the claim goes to.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from curbside.coverage.answer.findings import DomainFinding
from curbside.coverage.answer.models import AnswerConflict, Domain

__all__ = ["cross_tool_conflicts"]

PROGRAM = {
    "schedule.get": "OHIP's Schedule of Benefits",
    "adp.get": "the Assistive Devices Program",
    "odb.get": "the Ontario Drug Benefit formulary",
}
_SAYS: dict[Domain, tuple[str, str]] = {
    "billing": ("billable", "not billable"),
    "device": ("eligible", "not eligible"),
    "drug": ("covered", "not covered"),
}
# words too common to identify an item on their own
_GENERIC = frozenset("a an and the of for with device devices aid aids supply supplies system kit".split())
_STEM_CHARS = 5


def _word_in(word: str, words: set[str]) -> bool:
    # 'monitor' is in 'glucose monitoring system': one word the stem of the other, both long enough to mean it
    return word in words or (
        len(word) >= _STEM_CHARS
        and any(len(w) >= _STEM_CHARS and (w.startswith(word) or word.startswith(w)) for w in words)
    )


def _same(a: str, b: str) -> bool:
    """One subject's significant words all occur in the other's ('libre 2 sensor' in 'freestyle libre 2 sensor')."""
    wa = {w for w in a.split() if w not in _GENERIC}
    wb = {w for w in b.split() if w not in _GENERIC}
    if not wa or not wb:
        return False
    return all(_word_in(w, wb) for w in wa) or all(_word_in(w, wa) for w in wb)


def cross_tool_conflicts(findings: Sequence[DomainFinding]) -> list[AnswerConflict]:
    out: list[AnswerConflict] = []
    answered = [f for f in findings if f.answered and f.subjects]
    for first, second in combinations(answered, 2):
        for subject_a, positive_a in first.subjects.items():
            match = next(
                ((s, p) for s, p in second.subjects.items() if _same(subject_a, s) and p != positive_a),
                None,
            )
            if match is None:
                continue
            says_a = _SAYS[first.domain][0 if positive_a else 1]
            says_b = _SAYS[second.domain][0 if match[1] else 1]
            out.append(
                AnswerConflict(
                    field="decision",
                    subject=subject_a,
                    tool=f"{first.tool} vs {second.tool}",
                    values={first.tool: says_a, second.tool: says_b},
                    resolution=(
                        f"Both answers stand: {first.tool} answers for {PROGRAM.get(first.tool, first.tool)} "
                        f"({says_a}), {second.tool} for {PROGRAM.get(second.tool, second.tool)} ({says_b}). Each "
                        "program decides for itself; check which one the claim goes to."
                    ),
                )
            )
            break  # one conflict per pair of tools is enough to flag it
    return out
