"""Hex digests and UUIDs are machine identifiers, never PHI: keep the rules from cutting into them.

A SHA-256 in a log line ("document e7f6c011776e8db7…") holds digit runs that the number rules
read as record numbers, and redaction then leaves "e7f6c0…[ID]…". A digest is told from a record
number by its shape: hex characters only, at least 12 of them, with letters and digits
alternating (at least three runs). "1234567890AB" (an Ontario health card number with its
version code) is two runs, and a 10-digit number has no letter: both stay PHI.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["digest_ranges", "outside_digests"]

Found = tuple[int, int, str, float]

_HEX_RUN = re.compile(
    r"(?<![0-9A-Za-z_])"
    r"(?:[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|[0-9A-F]{8}(?:-[0-9A-F]{4}){3}-[0-9A-F]{12}"  # UUIDs
    r"|[0-9a-f]{12,}|[0-9A-F]{12,})"
    r"(?![0-9A-Za-z_])"
)
_RUNS = re.compile(r"[0-9]+|[A-Fa-f]+")
_MIN_RUNS = 3


def digest_ranges(text: str) -> list[tuple[int, int]]:
    """(start, end) of every hex digest or UUID in ``text``, in order."""
    out = []
    for match in _HEX_RUN.finditer(text):
        value = match.group()
        if "-" in value or len(_RUNS.findall(value)) >= _MIN_RUNS:
            out.append((match.start(), match.end()))
    return out


def outside_digests(found: Iterable[Found], digests: list[tuple[int, int]]) -> list[Found]:
    """``found`` without the spans that lie wholly inside a digest (one sorted sweep)."""
    spans = sorted(found)
    if not digests:
        return spans
    out = []
    d = 0
    for span in spans:
        while d < len(digests) and digests[d][1] <= span[0]:
            d += 1
        inside = d < len(digests) and digests[d][0] <= span[0] and span[1] <= digests[d][1]
        if not inside:
            out.append(span)
    return out
