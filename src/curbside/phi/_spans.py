"""The PHI span, the fixed set of PHI types, and the overlap merge."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["PHI_TYPES", "PhiSpan", "merge_spans"]

#: Every type a span can have, most specific first (the order breaks score ties in a merge).
PHI_TYPES: tuple[str, ...] = (
    "SIN_SSN",  # Canadian SIN (3-3-3) and US SSN (3-2-4)
    "HEALTH_CARD",  # Ontario health card number: 10 digits, optional 2-letter version code
    "EMAIL",
    "PHONE",  # phone, fax and pager numbers
    "ID",  # MRNs and other record, account, licence and reference numbers
    "ADDRESS",  # street addresses, PO boxes, postal and ZIP codes
    "DATE",  # dates and years tied to a person; never bare times or durations
    "AGE",  # ages over 89 only (HIPAA Safe Harbor)
    "PERSON",  # patients, relatives, clinicians
    "LOCATION",  # hospitals, clinics, wards named after places, cities, states, countries
)
_RANK = {name: i for i, name in enumerate(PHI_TYPES)}


@dataclass(frozen=True, slots=True)
class PhiSpan:
    """One piece of PHI: ``text[start:end]``, its type, and the detector's confidence in [0, 1]."""

    start: int
    end: int
    type: str
    score: float
    text: str


def merge_spans(text: str, spans: Iterable[tuple[int, int, str, float]]) -> list[PhiSpan]:
    """Sorted spans with every group of overlapping spans merged into one.

    A merged span takes the type of its highest-scoring part (ties: the more specific type,
    see ``PHI_TYPES``) and that part's score.
    """
    ordered = sorted((s for s in spans if s[1] > s[0]), key=lambda s: (s[0], -s[1]))
    merged: list[PhiSpan] = []
    group: list[tuple[int, int, str, float]] = []
    group_end = -1
    for span in ordered:
        if group and span[0] < group_end:
            group.append(span)
            group_end = max(group_end, span[1])
            continue
        if group:
            merged.append(_one(text, group, group_end))
        group, group_end = [span], span[1]
    if group:
        merged.append(_one(text, group, group_end))
    return merged


def _one(text: str, group: list[tuple[int, int, str, float]], end: int) -> PhiSpan:
    best = max(group, key=lambda s: (s[3], -_RANK.get(s[2], len(_RANK))))
    start = group[0][0]
    return PhiSpan(start=start, end=end, type=best[2], score=round(best[3], 4), text=text[start:end])
