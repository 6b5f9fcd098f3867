"""The answer in a model's words, held to the tools' results.

The deterministic draft (each fact with its ``[n]`` marker) is the model's only material. What it
writes is checked sentence by sentence as it streams: every number must appear in the draft or the
question, and every marker must name a source of this turn. The first sentence that fails stops the
model, and the draft stands instead (the stream is told to retract what it showed). A small model's
rewrite that cites nothing, or is too short, is refused the same way. So a model can make the answer
read better; it cannot add a dose, a value or a source.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from curbside.agent.stream import AnswerStream, marker_numbers
from curbside.llm.client import Message
from curbside.sentences import split_sentences

__all__ = ["Ungrounded", "Written", "check_sentence", "writer_messages", "write_answer"]

_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w])")
_MARKERS = re.compile(r"\[[\d,\s–-]+\]")
_SENTENCE_END = re.compile(r"[.!?](?=\s)")
MIN_WORDS = 3

_LENGTH = {
    "short": "Write at most two sentences.",
    "normal": "Write at most four sentences.",
    "long": "Write at most eight sentences.",
}
_MAX_TOKENS = {"short": 120, "normal": 240, "long": 480}


class Ungrounded(Exception):
    """The model wrote something the draft does not support."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Written:
    text: str
    cited: list[int]
    uncited: int = 0  # sentences citing no source: read as the model's own words


def numbers_in(text: str) -> set[float]:
    """The numbers of ``text`` (markers left out), as values: "6.77" and "6.770" are one number."""
    found: set[float] = set()
    for token in _NUMBER.findall(_MARKERS.sub(" ", text)):
        try:
            found.add(float(token.replace(",", "")))
        except ValueError:
            continue
    return found


def check_sentence(sentence: str, allowed_numbers: set[float], sources: Collection[int]) -> str | None:
    """Why ``sentence`` may not stand (a number or a source the draft lacks), or None."""
    unknown = sorted(n for n in set(marker_numbers(sentence)) if n not in sources)
    if unknown:
        return f"it cited {', '.join(f'[{n}]' for n in unknown)}, which name no source of this turn"
    extra = sorted(numbers_in(sentence) - allowed_numbers)
    if extra:
        shown = ", ".join(f"{n:g}" for n in extra[:3])
        return f"it wrote {shown}, which the tools' results do not say"
    return None


def writer_messages(question: str, draft: str, *, length: str, specialty: str | None) -> list[Message]:
    # no invitation to judge: the local 1.5B model called a potassium of 6.2 mmol/L "normal", and a judgement
    # holds no number the checks could hold it to
    reader = f"a {specialty} clinician" if specialty else "a clinician"
    system = (
        f"You write the answer of a clinical assistant for {reader}. Rewrite the DRAFT as a clear, short answer to "
        "the QUESTION. Use only facts in the DRAFT; copy every number, unit and date exactly; keep each citation "
        "marker such as [1] right after the fact it supports. Do not add doses, values, advice, judgements or "
        f"sources that the DRAFT does not hold. {_LENGTH.get(length, _LENGTH['normal'])} Plain text, no headings."
    )
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": f"QUESTION: {question}\n\nDRAFT: {draft}"},
    ]


def max_tokens_for(length: str, ceiling: int) -> int:
    return min(_MAX_TOKENS.get(length, _MAX_TOKENS["normal"]), ceiling)


class SentenceGuard:
    """Takes the model's pieces, checks each finished sentence, passes the good ones to the stream."""

    def __init__(self, stream: AnswerStream, allowed_numbers: set[float], sources: Collection[int]) -> None:
        self.stream = stream
        self.allowed = allowed_numbers
        self.sources = sources
        self.text = ""  # what the model wrote
        self.accepted: list[str] = []  # its sentences as passed on (a lone source's marker added)
        self._checked = 0  # characters of text already checked and streamed
        self.streamed = False
        # with one source, every fact of the draft is that source's: a sentence stating a number is its
        self._only = next(iter(sources)) if len(sources) == 1 else None

    async def feed(self, piece: str) -> None:
        self.text += piece
        while True:
            end = _SENTENCE_END.search(self.text, self._checked)
            if end is None:
                return
            await self._pass(self.text[self._checked : end.end()])
            self._checked = end.end()

    async def finish(self) -> None:
        rest = self.text[self._checked :]
        if rest.strip():
            await self._pass(rest)
            self._checked = len(self.text)
        await self.stream.close()

    async def _pass(self, sentence: str) -> None:
        reason = check_sentence(sentence, self.allowed, self.sources)
        if reason is not None:
            raise Ungrounded(reason)
        if self._only is not None and not marker_numbers(sentence) and numbers_in(sentence):
            sentence = _cite(sentence, self._only)
        self.accepted.append(sentence)
        self.streamed = True
        await self.stream.feed(sentence)


def _cite(sentence: str, n: int) -> str:
    """``sentence`` with ``[n]`` before its closing punctuation (its trailing space kept)."""
    body = sentence.rstrip()
    tail = sentence[len(body) :]
    if body.endswith((".", "!", "?")):
        return f"{body[:-1]} [{n}]{body[-1]}{tail}"
    return f"{body} [{n}]{tail}"


def write_answer(text: str, draft_cited: bool, sources: Collection[int]) -> Written:
    """The whole of what the model wrote, judged as an answer: it must cite a source when the draft did,
    and say something beside its markers."""
    text = " ".join(text.split())
    cited = [n for n in dict.fromkeys(marker_numbers(text)) if n in sources]
    words = _MARKERS.sub(" ", text).split()
    if len(words) < MIN_WORDS:
        raise Ungrounded("it had no text beside its markers" if text else "it was empty")
    if draft_cited and not cited:
        raise Ungrounded("it cited no source")
    uncited = sum(1 for sentence in split_sentences(text) if not marker_numbers(sentence))
    return Written(text, cited, uncited)
