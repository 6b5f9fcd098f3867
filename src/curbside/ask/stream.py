"""``ask`` as events: ``source`` (a ``Citation``) before the first ``token`` that cites it, then ``final``.

A model cites the prompt's passages by their place in the prompt; the answer numbers its citations in
order of first use (``llm/markers.py``). The stream renumbers the same way as the text arrives, so a
marker shown while streaming is the marker of the final answer, and a marker naming no passage is
dropped. If the model's answer then fails its checks, ``retract`` tells the reader to drop what was
shown: the extractive answer follows. An answer with no model (extractive, no source) is sent as its
sources and text at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from curbside.llm.markers import MARKER, MarkerHoldback, group_numbers
from curbside.sentences import sentence_pieces
from curbside.types import Answer, Citation, Passage

__all__ = ["EventSink", "RenumberingStream", "send_answer"]

EventSink = Callable[[str, dict[str, Any]], Awaitable[None]]


class RenumberingStream:
    def __init__(self, sink: EventSink, shown: Sequence[Passage]) -> None:
        self.sink = sink
        self.shown = shown
        self.order: dict[int, int] = {}  # prompt passage number -> answer marker
        self._holdback = MarkerHoldback()
        self.streamed = False

    async def feed(self, piece: str) -> None:
        if ready := self._holdback.take(piece):
            await self._emit(ready)

    async def close(self) -> None:
        if held := self._holdback.flush():
            await self._emit(held)

    async def _emit(self, text: str) -> None:
        async def renumber(match: Any) -> str:
            kept: list[int] = []
            for old in group_numbers(match.group(1)):
                if not 1 <= old <= len(self.shown):
                    continue  # names no passage: dropped, as the final check drops it
                if old not in self.order:
                    self.order[old] = len(self.order) + 1
                    citation = Citation.from_passage(self.order[old], self.shown[old - 1])
                    await self.sink("source", citation.model_dump(mode="json"))
                kept.append(self.order[old])
            return "".join(f"[{n}]" for n in dict.fromkeys(kept))

        out: list[str] = []
        last = 0
        for match in MARKER.finditer(text):
            out.append(text[last : match.start()])
            out.append(await renumber(match))
            last = match.end()
        out.append(text[last:])
        rewritten = "".join(out)
        if rewritten:
            self.streamed = True
            await self.sink("token", {"text": rewritten})


async def send_answer(answer: Answer, sink: EventSink) -> None:
    """A whole answer as events: each citation before the sentence that first cites it, then its text."""
    by_n = {c.n: c for c in answer.citations}
    sent: set[int] = set()
    for piece in sentence_pieces(answer.answer or answer.clarifying_question or ""):
        for match in MARKER.finditer(piece):
            for n in group_numbers(match.group(1)):
                if n in by_n and n not in sent:
                    sent.add(n)
                    await sink("source", by_n[n].model_dump(mode="json"))
        await sink("token", {"text": piece})
