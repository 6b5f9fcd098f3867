"""Word tokens with the facts the rules need: offsets, case, and whether case means anything.

Clinical notes are often written in capitals (or without any): there a capital letter says
nothing about a name, so each token carries ``caseless`` for its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Token", "tokenize"]

_TOKEN = re.compile(
    r"(?P<word>[^\W\d_]+(?:['’][^\W\d_]+)*)"
    r"|(?P<num>\d+(?:[.,:/]\d+)*)"
    r"|(?P<punct>\S)"
)
_SENTENCE_END = frozenset(".!?:;\n")
_ABBREVIATIONS = frozenset("dr drs mr mrs ms st mt prof rev sr jr".split())


@dataclass(slots=True)
class Token:
    start: int
    end: int
    text: str
    kind: str  # "word" | "num" | "punct"
    key: str  # lower case, possessive "'s" dropped: the form looked up in word lists
    caseless: bool  # the line is (nearly) all capitals or all lower case
    sentence_start: bool  # first word of a line or sentence
    index: int = 0
    shouted: bool = False  # the line is (nearly) all capitals

    @property
    def is_word(self) -> bool:
        return self.kind == "word"

    @property
    def capitalized(self) -> bool:
        """Starts with a capital in a line where case carries meaning (or the line is caseless)."""
        return self.caseless or self.text[0].isupper()

    @property
    def title_signal(self) -> bool:
        """A capital that means something: 'Harbor' mid-sentence, even in a line that is otherwise
        lower case (not at a sentence start, not in a line of capitals, not an acronym)."""
        return self.text[:1].isupper() and not self.is_upper and not self.sentence_start and not self.shouted

    @property
    def is_upper(self) -> bool:
        return self.text.isupper()

    @property
    def is_initial(self) -> bool:
        return self.kind == "word" and len(self.text) == 1


@lru_cache(maxsize=8)
def tokenize(text: str) -> tuple[Token, ...]:
    """All tokens of ``text`` (cached: several recognizers read the same text)."""
    tokens: list[Token] = []
    line_start = 0
    for line in text.split("\n"):
        first = len(tokens)
        _tokenize_line(line, line_start, tokens)
        caseless, shouted = _line_case(tokens[first:])
        for token in tokens[first:]:
            token.caseless = caseless
            token.shouted = shouted
        line_start += len(line) + 1
    return tuple(tokens)


def _tokenize_line(line: str, line_start: int, tokens: list[Token]) -> None:
    sentence_start = True
    for match in _TOKEN.finditer(line):
        kind = match.lastgroup or "punct"
        raw = match.group()
        key = raw.lower()
        if kind == "word" and key.endswith(("'s", "’s")) and len(key) > 3:
            key = key[:-2]
        tokens.append(
            Token(
                start=line_start + match.start(),
                end=line_start + match.end(),
                text=raw,
                kind=kind,
                key=key,
                caseless=False,
                sentence_start=sentence_start and kind == "word",
                index=len(tokens),
            )
        )
        if kind == "word":
            sentence_start = False
        elif raw in _SENTENCE_END:
            # no new sentence after "Dr." or an initial ("J. Smith")
            previous = tokens[-2] if len(tokens) > 1 else None
            abbreviation = (
                previous is not None
                and previous.kind == "word"
                and (len(previous.key) == 1 or previous.key in _ABBREVIATIONS)
            )
            sentence_start = not (raw == "." and abbreviation)


def _line_case(line: list[Token]) -> tuple[bool, bool]:
    """(caseless, shouted): mostly capitals (a stray 'Dr.' in a shouted line is fine), or (almost)
    no capital except where a sentence starts; in such a line lower case says nothing against a name."""
    words = [t for t in line if t.kind == "word" and len(t.key) >= 2]
    if len(words) < 3:
        # too short to say; a short line takes the case of its words at face value
        shouted = len(words) > 1 and all(t.text.isupper() for t in words)
        return shouted, shouted
    upper = sum(1 for t in words if t.text.isupper())
    if upper >= 0.75 * len(words):
        return True, True
    lower = sum(1 for t in words if t.text.islower())
    if lower >= 0.9 * len(words):
        return True, False  # (a rare capital here still means something: Token.title_signal)
    return not any(t.text[0].isupper() for t in words if not t.sentence_start and t.key != "i"), False
