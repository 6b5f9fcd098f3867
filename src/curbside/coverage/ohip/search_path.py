"""The search path of ``schedule.get``: Schedule passages for the request, with the facts they state.

It searches only the ``ohip`` namespace and without the relevance threshold
(``curbside.coverage.paths.namespace_search``): which passages count as
evidence is decided afterwards, by whether they name the codes the answer is
about.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from curbside.coverage.ohip.passages import effective_from_title, facts_in
from curbside.coverage.paths import PassageSearch
from curbside.types import Passage

__all__ = ["SearchFindings", "codes_stated", "run_search_path"]

_CODE = re.compile(r"(?<![A-Za-z0-9])([A-Z]\d{3})(?![0-9])")


@dataclass(slots=True)
class SearchFindings:
    passages: list[Passage]
    fees: dict[str, dict[str, float]] = field(default_factory=dict)  # chunk id -> code -> fee its listing line states
    effective: dict[str, str] = field(default_factory=dict)  # chunk id -> the edition's effective date in its title


def run_search_path(search: PassageSearch, text: str, k: int) -> SearchFindings:
    passages = search(text, k)
    out = SearchFindings(passages)
    for passage in passages:
        out.fees[passage.chunk_id] = facts_in(passage.body)
        effective = effective_from_title(passage.title)
        if effective is not None:
            out.effective[passage.chunk_id] = effective
    return out


def codes_stated(passage: Passage) -> list[str]:
    """Codes a passage names (its section path included), in order."""
    return list(dict.fromkeys(_CODE.findall(f"{passage.section_path}\n{passage.body}")))
