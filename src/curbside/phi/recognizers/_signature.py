"""A note signed at its end: 'LULA', 'Kim T.', 'J. Marder RN'.

Nurses sign their notes with a name, often alone, on the last line or after the last full stop.
One to three words that can all be names (the caller says which can) there, in a text of several
lines, are a person; a single line (a log message, a question) is never taken for a signed note.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from curbside.phi._tokens import Token
from curbside.phi.recognizers._base import Found

__all__ = ["signature"]

_SIGNATURE_TOKENS = 6  # words, initials and stops of a signature: more is a sentence


def signature(
    text: str, tokens: tuple[Token, ...], can_sign: Callable[[int], bool], *, skip: Collection[str], max_words: int
) -> list[Found]:
    """The signature's span, or ``[]``; ``skip`` are words to leave out of it (credentials: 'RN')."""
    body = text.rstrip()
    line_start = body.rfind("\n") + 1
    if line_start == 0 or not body[:line_start].strip():
        return []
    # a name may close the last sentence's line too: "... NOT 1400U/HR. LULA"
    stop = max(body.rfind(". ", line_start), body.rfind("! ", line_start), body.rfind("? ", line_start))
    line_start = stop + 2 if stop >= 0 else line_start
    line: list[int] = []
    i = len(tokens) - 1
    while i >= 0 and tokens[i].start >= line_start:  # (read backwards, and only a few tokens)
        if len(line) > _SIGNATURE_TOKENS:
            return []
        line.append(i)
        i -= 1
    words = [k for k in reversed(line) if tokens[k].is_word and tokens[k].key not in skip]
    if not words or len(words) > max_words or any(tokens[k].kind == "num" for k in line):
        return []
    if all(tokens[k].is_initial for k in words):
        return []  # initials alone ("A.") are as often a list marker
    if not all(tokens[k].is_initial or can_sign(k) for k in words):
        return []
    return [(tokens[words[0]].start, tokens[words[-1]].end, "PERSON", 0.7)]
