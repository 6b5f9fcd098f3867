"""A service's definition in the Schedule, as words to find its codes by.

The Schedule defines many services in a paragraph under the service's name before it lists their codes:
"Comprehensive assessment and care is a service rendered in an emergency department … that requires a full
history …, a full physical examination … over many hours" (A12) heads nothing but the prose, and H102, H132,
H152 and H122 "Comprehensive assessment and care" are listed a page later (A13). A clerk describes the
service as the definition does ("worked him up over several hours, full history and exam"), not by its
title; so the definition's words are the listing words of the codes titled with that name in the same
section. Only passages that list no code count: a passage listing codes is their listing, not a definition.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping

from curbside.coverage.ohip.passages import section_named

__all__ = ["definitions"]

_LISTING_LINE = re.compile(r"(?m)^[#+]?\s?([A-Z]\d{3}) ")
_PAGE = re.compile(r"\s*\[[A-Z]{1,2}\d{0,3}\]\s*$")


def _key(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def definitions(passages: Iterable[tuple[str, str, str]], titles: Mapping[str, str]) -> dict[str, str]:
    """code -> the text of the passages defining its service (``passages``: doc_key, section_path, text).

    A passage defines a code's service when it lists no code, its heading (``section_path`` without the
    page) is the code's title or the title's head before ' - ' or ':', and a passage of the same section
    lists the code."""
    by_name: dict[str, set[str]] = defaultdict(set)
    for code, title in titles.items():
        for head in (title, title.split(" - ")[0], title.split(":")[0]):
            if _key(head):
                by_name[_key(head)].add(code)
    listed_in: dict[str, set[str]] = defaultdict(set)  # section -> codes its passages list
    prose: list[tuple[str, str, str]] = []  # (section, heading, body) of passages listing no code
    for _, section_path, text in passages:
        head, _, body = text.partition("\n")
        section = section_named(head)
        if section is None:
            continue
        codes = _LISTING_LINE.findall(body)
        if codes:
            listed_in[section].update(codes)
        else:
            prose.append((section, _PAGE.sub("", section_path), body))
    out: dict[str, list[str]] = defaultdict(list)
    for section, heading, body in prose:
        for code in by_name.get(_key(heading), set()) & listed_in[section]:
            out[code].append(body.strip())
    return {code: " ".join(bodies) for code, bodies in out.items()}
