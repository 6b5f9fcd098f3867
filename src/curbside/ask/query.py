"""The guideline query: a diagnosed condition plus the patient's clinical findings.

guideline-rag-plan.md: the condition alone retrieves every section of its
guideline; condition + findings ("malaria + pregnant + first trimester + no drug
allergies") reaches the section for this patient, because chunks carry their
title path ("Malaria > Treatment > … in pregnancy"). The parts are combined into
one text and embedded as a whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from curbside.errors import ValidationError
from curbside.search.normalize import normalize_query
from curbside.types import MAX_FINDING_CHARS

__all__ = ["compose_query"]



def compose_query(question: str | None, condition: str | None, findings: Sequence[str], *, max_findings: int) -> str:
    """The search text for a question and/or a condition with findings."""
    question = normalize_query(question or "")
    condition = normalize_query(condition or "")
    cleaned = [text for f in findings if (text := normalize_query(f or ""))]
    if cleaned and not condition:
        raise ValidationError("Clinical findings need a condition (--condition): the condition picks the guideline.")
    if len(cleaned) > max_findings:
        raise ValidationError(f"{len(cleaned)} findings given; at most {max_findings}.")
    for finding in cleaned:
        if len(finding) > MAX_FINDING_CHARS:
            raise ValidationError(f"A finding is {len(finding)} characters long; at most {MAX_FINDING_CHARS} each.")
    if not condition:
        return question
    parts = [condition, *cleaned]
    composed = " + ".join(dict.fromkeys(parts))  # the plan's own notation; repeats add nothing
    return f"{composed}. {question}" if question else composed
