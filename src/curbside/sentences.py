"""Abbreviation-safe sentence splitting for clinical text.

Used by the chunker when a single paragraph is over the token cap. A missed
boundary only makes a longer piece (the chunker then splits it by words); a
false boundary cuts "2.5 mg. daily" or "Dr. Smith" in two, so the rules lean
towards not splitting.
"""

from __future__ import annotations

import re

__all__ = ["sentence_pieces", "split_sentences"]

# Period-final words that precede more of the same sentence: never a boundary.
_NEVER_FINAL = frozenset(
    {
        "dr.", "mr.", "mrs.", "ms.", "prof.", "st.", "sr.", "jr.",
        "e.g.", "i.e.", "cf.", "vs.", "viz.", "approx.", "ca.", "fig.", "figs.", "no.", "nos.",
        "ref.", "refs.", "vol.", "eq.", "tab.", "p.", "pp.",
    }
)
# Words that may end a sentence but usually do not: a boundary only before a capital letter.
_MAYBE_FINAL = frozenset(
    {"al.", "mg.", "g.", "kg.", "mcg.", "ml.", "min.", "h.", "hr.", "hrs.", "wk.", "wks.", "yr.", "yrs.", "etc.", "a.m.", "p.m."}
)
_CANDIDATE = re.compile(r"[.!?]+[\"'”’)\]]*\s+")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_OPENERS = "\"'“‘([¿¡"
_DOTTED_ACRONYM = re.compile(r"(?:[A-Za-z]\.){2,}$")  # "U.S.", "a.m."


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, stripped and non-empty; blank lines always separate."""
    out: list[str] = []
    for paragraph in _PARAGRAPH_BREAK.split(text):
        out.extend(_split_paragraph(paragraph))
    return out


def sentence_pieces(text: str) -> list[str]:
    """``text`` cut after each sentence end, every piece keeping its trailing space: they rejoin exactly
    (for streaming an answer sentence by sentence)."""
    pieces: list[str] = []
    start = 0
    for match in re.finditer(r"(?<=[.!?])\s+", text):
        pieces.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        pieces.append(text[start:])
    return pieces


def _split_paragraph(text: str) -> list[str]:
    pieces: list[str] = []
    start = 0
    for m in _CANDIDATE.finditer(text):
        if m.end() >= len(text):
            break
        if _is_boundary(text, m):
            piece = text[start : m.end()].strip()
            if piece:
                pieces.append(piece)
            start = m.end()
    tail = text[start:].strip()
    if tail:
        pieces.append(tail)
    return pieces


def _is_boundary(text: str, m: re.Match[str]) -> bool:
    nxt = _next_significant(text, m.end())
    if not nxt or nxt.islower():
        return False  # "2.5 mg. daily", "e.g. the": a lowercase start continues the sentence
    punct = text[m.start()]
    if punct != ".":
        return True  # "?" and "!" end sentences
    word = _word_before(text, m.start()).lstrip(_OPENERS) + "."
    lower = word.lower()
    if lower in _NEVER_FINAL:
        return False
    if len(word) == 2 and word[0].isupper():
        return False  # an initial: "J. Smith"
    if _DOTTED_ACRONYM.search(word) and word[0].isupper():
        return False  # "U.S. Army": capital acronyms are rarely sentence-final
    if lower in _MAYBE_FINAL or _DOTTED_ACRONYM.search(word):
        return nxt.isupper()  # "et al. 2019" continues, "et al. The" starts anew
    return nxt.isupper() or nxt.isdigit()


def _word_before(text: str, end: int) -> str:
    start = end
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    return text[start:end]


def _next_significant(text: str, pos: int) -> str:
    """The first character at ``pos`` after any opening quotes or brackets."""
    while pos < len(text) and text[pos] in _OPENERS:
        pos += 1
    return text[pos] if pos < len(text) else ""
