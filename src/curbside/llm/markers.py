"""Citation markers in answer text: find them, drop the ones that point nowhere, renumber.

A model may write ``[2]``, ``[1, 3]``, ``[1-3]`` or ``[7]`` when only five passages
exist. Markers are checked against the passages it was given; unknown numbers are
removed (and reported), and the rest are renumbered by first appearance so the
reader sees [1], [2], … matching the citation list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["MARKER", "OPEN_MARKER", "MarkerCheck", "MarkerHoldback", "check_markers", "group_numbers", "marker_numbers"]

MARKER = re.compile(r"\[(\d{1,3}(?:\s*(?:,|–|-|and)\s*\d{1,3})*)\]")
OPEN_MARKER = re.compile(r"\[[\d,\s–-]*(?:a|an|and)?[\d,\s–-]*$")  # a marker begun and not yet closed (streaming)
_GROUP = re.compile(r"\s?" + MARKER.pattern)
_ITEM = re.compile(r"(\d{1,3})\s*(?:(–|-)\s*(\d{1,3}))?")
MAX_RANGE = 20


@dataclass(frozen=True, slots=True)
class MarkerCheck:
    text: str  # markers renumbered to 1..len(cited), unknown ones removed
    cited: list[int]  # original passage numbers, in order of first appearance
    unknown: list[int]  # numbers that matched no passage


class MarkerHoldback:
    """Streamed text passed on whole-marker: a piece ending in an unclosed ``[1, 2`` is held until its ``]``."""

    def __init__(self) -> None:
        self._held = ""

    def take(self, piece: str) -> str:
        """What of the text so far may be passed on now."""
        text = self._held + piece
        tail = OPEN_MARKER.search(text)
        self._held = tail.group(0) if tail else ""
        return text[: tail.start()] if tail else text

    def flush(self) -> str:
        """The held rest, at the end of the stream."""
        held, self._held = self._held, ""
        return held


def marker_numbers(text: str) -> list[int]:
    """The numbers the markers of ``text`` name, in order (``[1-3]`` names 1, 2 and 3)."""
    return [n for m in MARKER.finditer(text) for n in group_numbers(m.group(1))]


def group_numbers(group: str) -> list[int]:
    """The numbers inside one marker's brackets."""
    return _numbers(group)


def _numbers(group: str) -> list[int]:
    out: list[int] = []
    for m in _ITEM.finditer(group):
        lo = int(m.group(1))
        hi = int(m.group(3)) if m.group(3) else lo
        if hi < lo or hi - lo > MAX_RANGE:
            hi = lo
        out.extend(range(lo, hi + 1))
    return out


def check_markers(text: str, valid: range | set[int]) -> MarkerCheck:
    order: dict[int, int] = {}
    unknown: list[int] = []
    for m in _GROUP.finditer(text):
        for n in _numbers(m.group(1)):
            if n in valid:
                order.setdefault(n, len(order) + 1)
            elif n not in unknown:
                unknown.append(n)

    def rewrite(m: re.Match[str]) -> str:
        kept = [order[n] for n in dict.fromkeys(_numbers(m.group(1))) if n in order]
        return (" " + "".join(f"[{k}]" for k in kept)) if kept else ""

    cleaned = _GROUP.sub(rewrite, text)
    cleaned = re.sub(r"[ \t]+([.,;:])", r"\1", cleaned)  # "text [9]." minus the marker leaves "text ."
    return MarkerCheck(cleaned.strip(), list(order), unknown)
