"""The answer as events: each source before the first text that cites it, then the text.

A reader of the stream never sees a marker ``[n]`` whose source has not arrived: text is held back
from an unclosed ``[`` until its ``]`` comes (a model writes a marker over several tokens), and a
marker naming no source of this turn is passed through as text, never announced as a source.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from curbside.agent.models import TurnCitation

__all__ = ["AnswerStream", "marker_numbers", "sentence_pieces"]

EventSink = Callable[[str, dict[str, Any]], Awaitable[None]]

_MARKER = re.compile(r"\[(\d+(?:\s*[,–-]\s*\d+)*)\]")
_OPEN_TAIL = re.compile(r"\[[\d,\s–-]*$")  # a marker begun and not yet closed
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class AnswerStream:
    """Feeds answer text to ``sink`` as ``source`` and ``token`` events, sources first."""

    def __init__(self, sink: EventSink | None, citations: Iterable[TurnCitation]) -> None:
        self.sink = sink
        self.citations = {c.n: c for c in citations}
        self.sent: set[int] = set()
        self._held = ""

    async def feed(self, text: str) -> None:
        if self.sink is None or not text:
            return
        text = self._held + text
        tail = _OPEN_TAIL.search(text)
        self._held = tail.group(0) if tail else ""
        ready = text[: tail.start()] if tail else text
        if ready:
            await self._emit(ready)

    async def close(self) -> None:
        if self._held and self.sink is not None:
            held, self._held = self._held, ""
            await self._emit(held)

    async def _emit(self, text: str) -> None:
        assert self.sink is not None
        for match in _MARKER.finditer(text):
            for n in _numbers(match.group(1)):
                if n in self.citations and n not in self.sent:
                    self.sent.add(n)
                    await self.sink("source", self.citations[n].model_dump(mode="json"))
        await self.sink("token", {"text": text})


def sentence_pieces(text: str) -> list[str]:
    """A written answer cut at sentence ends, each piece keeping the space after it (they rejoin exactly)."""
    pieces: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        pieces.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        pieces.append(text[start:])
    return pieces


def marker_numbers(text: str) -> list[int]:
    """The numbers the ``[n]`` markers in ``text`` name, in order (``[1-3]`` names 1, 2 and 3)."""
    return [n for match in _MARKER.finditer(text) for n in _numbers(match.group(1))]


def _numbers(group: str) -> list[int]:
    numbers: list[int] = []
    for part in re.split(r"\s*,\s*", group):
        bounds = re.split(r"\s*[–-]\s*", part)
        if len(bounds) == 2 and bounds[0].isdigit() and bounds[1].isdigit():
            low, high = int(bounds[0]), int(bounds[1])
            numbers.extend(range(low, min(high, low + 50) + 1))
        elif part.isdigit():
            numbers.append(int(part))
    return numbers
