"""The answer as events: each source before the first text that cites it, then the text.

A reader of the stream never sees a marker ``[n]`` whose source has not arrived: text is held back
from an unclosed ``[`` until its ``]`` comes (a model writes a marker over several tokens), and a
marker naming no source of this turn is passed through as text, never announced as a source.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from curbside.agent.models import TurnCitation
from curbside.llm.markers import MARKER, MarkerHoldback, group_numbers, marker_numbers
from curbside.sentences import sentence_pieces

__all__ = ["AnswerStream", "marker_numbers", "sentence_pieces"]

EventSink = Callable[[str, dict[str, Any]], Awaitable[None]]


class AnswerStream:
    """Feeds answer text to ``sink`` as ``source`` and ``token`` events, sources first."""

    def __init__(self, sink: EventSink | None, citations: Iterable[TurnCitation]) -> None:
        self.sink = sink
        self.citations = {c.n: c for c in citations}
        self.sent: set[int] = set()
        self._holdback = MarkerHoldback()

    async def feed(self, text: str) -> None:
        if self.sink is not None and (ready := self._holdback.take(text)):
            await self._emit(ready)

    async def close(self) -> None:
        if self.sink is not None and (held := self._holdback.flush()):
            await self._emit(held)

    async def _emit(self, text: str) -> None:
        assert self.sink is not None
        for match in MARKER.finditer(text):
            for n in group_numbers(match.group(1)):
                if n in self.citations and n not in self.sent:
                    self.sent.add(n)
                    await self.sink("source", self.citations[n].model_dump(mode="json"))
        await self.sink("token", {"text": text})
