"""A code whose title's tail the question contradicts gives its place to the twin whose tail the question says.

"Ectopic pregnancy, giving methotrexate (first visit for it)" finds A921 "Medical management of early or
ectopic pregnancy - follow-up visit" by its words, not A922 "Medical management of ectopic pregnancy - initial
service" (K4): the twins' heads hold the same words, one a part of the other's, and their tails say the stage.
The question says 'first', so the twin whose tail says the initial stage is the service asked, and it is put
in the place of the one it rules out (``qualifiers.by_qualifier`` then drops that one).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from weakref import WeakKeyDictionary

from curbside.coverage.ohip.qualifiers import contradicted, named_sides, said_sides, tail
from curbside.coverage.ohip.query import STOP, WordIndex, stem, words_of

__all__ = ["twin_heads", "with_twins"]

MIN_HEAD = 2  # words a twin's head must share: 'Consultation' alone is every specialty's
LOOKED_AT = 10  # codes (best first) whose twins are looked for: the answer states the first few

# (letter, head word) -> codes whose title's head holds it, per word index (built once per edition)
_HEADS: WeakKeyDictionary[WordIndex, dict[tuple[str, str], set[str]]] = WeakKeyDictionary()


# a cheap first look for the words of a side in a title ('initial', 'maintenance', 'out-patient' …)
_SIDE_WORD = re.compile(r"initia|subsequent|follow|renewal|repeat|intensive|maintenance|patient", re.I)


def _head(title: str) -> frozenset[str]:
    """A title's words less its tail's ('Medical management of ectopic pregnancy – initial service: … - initial
    service' -> medical, management, ectopic, pregnancy)."""
    return _stems(title) - _stems(tail(title))


def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in words_of(text) if w not in STOP)


def with_twins(
    codes: list[str], question: str | None, words: tuple[str, ...], index: WordIndex, among: set[str] | None
) -> list[str]:
    """``codes`` with, before each of the first ``LOOKED_AT`` whose tail names a side the question contradicts, its
    twin (same letter, one head's words within the other's) whose tail names the side the question says, moved
    up when listed later; of several such twins those whose titles hold most of the question's ``words``."""
    if not question or not codes:
        return codes
    said = said_sides(question)
    against = contradicted(said)
    if not against:
        return codes
    out: list[str] = []
    for n, code in enumerate(codes):
        title = index.printed_titles.get(code, "")
        if n < LOOKED_AT and named_sides(title) & against:
            out.extend(_twins(code, title, said, against, words, index, among))  # moved up when listed later
        out.append(code)
    return list(dict.fromkeys(out))


def _twins(
    code: str,
    title: str,
    said: set[str],
    against: set[str],
    words: tuple[str, ...],
    index: WordIndex,
    among: set[str] | None,
) -> list[str]:
    head = _head(title)
    if len(head) < MIN_HEAD:
        return []
    heads = twin_heads(index)
    hits = Counter(c for word in head for c in heads.get((code[0], word), ()) if c != code)
    found = []
    for other, count in hits.items():
        if count < MIN_HEAD or (among is not None and other not in among):
            continue
        other_title = index.printed_titles.get(other, "")
        named = named_sides(other_title)
        if not named & said or named & against:
            continue
        other_head = _head(other_title)
        if len(other_head) >= MIN_HEAD and (other_head <= head or head <= other_head):
            found.append(other)
    if not found:
        return []
    held = {other: len(index.held(words, other)) for other in found}
    best = max(held.values())
    return sorted(other for other in found if held[other] == best)


def twin_heads(index: WordIndex) -> dict[tuple[str, str], set[str]]:
    """(letter, head word) -> the codes whose title's tail names a side: the only twins a code can give way to.
    Built once per word index, from its stemmed titles (a few hundred of some seven thousand have such a tail)."""
    heads = _HEADS.get(index)
    if heads is None:
        heads = defaultdict(set)
        for code, title in index.printed_titles.items():
            if _SIDE_WORD.search(title) and named_sides(title):
                for word in index.titles.get(code, set()) - _stems(tail(title)):
                    heads[(code[0], word)].add(code)
        _HEADS[index] = heads
    return heads
