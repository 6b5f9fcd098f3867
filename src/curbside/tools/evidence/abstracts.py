"""Keep a structured abstract, and a list of articles with abstracts, within a size budget.

``render_abstract`` cuts one abstract to a character budget at sentence ends (conclusions kept
longest); ``fit_articles`` keeps a whole result under a byte cap, shortening abstracts and then
dropping trailing articles, and says what went. PubMed and Europe PMC both use them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from curbside.tools.evidence.common import cut_at_sentence, fit_to_bytes

__all__ = ["ABSTRACT_CHARS", "Sections", "SectionsIn", "fit_articles", "render_abstract"]

Sections = list[tuple[str | None, str]]  # (label or None, text): a structured abstract, or one unlabelled part
SectionsIn = Sequence[tuple[str | None, str]]

ABSTRACT_CHARS = 1500  # an abstract's length before any cap applies: its findings, not its whole
_ABSTRACT_FLOOR = 300  # shorter than this an abstract says little: drop trailing articles instead
_WARNING_ROOM = 700  # bytes kept free for the trimming warnings themselves
_CONCLUSION = re.compile(r"conclu|interpretation|implication|main results", re.IGNORECASE)
_MIN_SHARE = 60  # a section given less room than this is left out: a clause says too little


def _joined(sections: SectionsIn) -> str:
    return " ".join(f"{label}: {text}" if label else text for label, text in sections)


def render_abstract(sections: SectionsIn, budget: int) -> str | None:
    """The abstract in about ``budget`` characters, cut at sentence ends with "…".

    In a structured abstract the conclusions get up to half the room (they hold the finding a
    clinician asks for; all of it when nothing else fits) and the other sections share the rest by
    length; a section that would get too little is left out from the first (background) on, a
    "…" standing in its place.
    """
    if not sections:
        return None
    whole = _joined(sections)
    if len(whole) <= budget or len(sections) == 1:
        return cut_at_sentence(whole, budget)
    room = _allot(sections, budget)
    parts: list[str] = []
    for i, (label, text) in enumerate(sections):
        if i not in room:
            if not parts or parts[-1] != "…":
                parts.append("…")
            continue
        body = cut_at_sentence(text, room[i])
        parts.append(f"{label}: {body}" if label else body)
    return " ".join(parts)


def _allot(sections: SectionsIn, budget: int) -> dict[int, int]:
    """Characters for each section shown (see ``render_abstract``)."""
    key = [i for i, (label, _) in enumerate(sections) if label and _CONCLUSION.search(label)]
    rest = [i for i in range(len(sections)) if i not in key]
    while True:
        shown = [*key, *rest]
        # each shown section costs its label and ": " and a space; each left out, a "… "
        room = budget - sum(len(sections[i][0] or "") + 3 for i in shown) - 2 * (len(sections) - len(shown))
        key_len = sum(len(sections[i][1]) for i in key)
        key_room = min(key_len, room // 2 if rest else room)
        rest_len = sum(len(sections[i][1]) for i in rest)
        shares = _by_length(sections, rest, room - key_room, rest_len)
        if all(share >= _MIN_SHARE for share in shares.values()):
            return {**_by_length(sections, key, key_room, key_len, floor=_MIN_SHARE), **shares}
        rest.pop(0)


def _by_length(sections: SectionsIn, which: list[int], room: int, total: int, floor: int = 0) -> dict[int, int]:
    return {i: max(floor, room * len(sections[i][1]) // total) if total else floor for i in which}


R = TypeVar("R", bound=BaseModel)


def fit_articles(
    result: R,
    cap: int,
    articles: list[Any],
    sections: Sequence[SectionsIn],
    *,
    ident: Callable[[Any], str],
    where: str,
) -> list[str]:
    """Fill each ``articles[i].abstract`` from ``sections[i]`` and keep ``result`` under ``cap`` bytes.

    ``articles`` is ``result``'s own list (it is shortened in place). Abstracts start at
    ``ABSTRACT_CHARS``; then the longest is shortened (down to a floor), then trailing articles go.
    Returns the warnings saying what was cut; ``where`` names where the whole text is.
    """
    total = len(articles)
    for article, parts in zip(articles, sections, strict=True):
        article.abstract = render_abstract(parts, ABSTRACT_CHARS)
    settled: set[int] = set()  # articles whose abstract cannot usefully shrink further
    dropped: list[str] = []

    def shrink(current: R) -> bool:
        shrinkable = [i for i, a in enumerate(articles) if i not in settled and len(a.abstract or "") > _ABSTRACT_FLOOR]
        if shrinkable:
            i = max(shrinkable, key=lambda j: len(articles[j].abstract or ""))
            before = articles[i].abstract or ""
            shorter = render_abstract(sections[i], max(_ABSTRACT_FLOOR, len(before) * 7 // 10))
            if shorter is None or len(shorter) >= len(before):
                settled.add(i)
            else:
                articles[i].abstract = shorter
            return True
        if articles:
            dropped.append(ident(articles.pop()))
            return True
        return False

    fit_to_bytes(result, max(0, cap - _WARNING_ROOM), shrink=shrink)
    warnings = []
    cut = sum(1 for a, parts in zip(articles, sections, strict=False) if parts and a.abstract != _joined(parts))
    if cut:
        warnings.append(
            f"{cut} abstract{'s were' if cut > 1 else ' was'} shortened at sentence ends (marked …): an abstract "
            f"is kept to about {ABSTRACT_CHARS:,} characters and the whole result under {cap:,} bytes; {where} "
            "has the whole text."
        )
    if dropped:
        warnings.append(
            f"{len(dropped)} of {total} articles were left out to keep the result under {cap:,} bytes "
            f"({', '.join(reversed(dropped))}); ask for fewer results to see them."
        )
    return warnings
