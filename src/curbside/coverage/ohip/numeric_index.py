"""The Numeric Index at the end of the Schedule text: codes and the first box of their '$' column, page by page.

The index (an April 2024 table the loader does not otherwise read) lists, on
each of its pages, a column of codes (``CODE``) and a column of fees (``$``).
A blank cell (an I.C code, a code with H/P or T/P components) breaks the ``$``
column into boxes, so the column's first box holds the fees of the page's first
codes *that have one*, in order; where it has one fee per code the pairing is
direct. ``crossref`` checks the parsed fees against it and ``listings`` takes
the first box's pairings with the page's first codes (``leading_fees``) as
confirmations (never as fees).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from curbside.coverage.ohip.layout import Layout

__all__ = ["IndexPage", "direct_fees", "leading_fees", "read_index"]

_CODE = re.compile(r"^[A-Z]\d{3}$")
_MONEY = re.compile(r"^\d{1,4}(?:,\d{3})*\.\d{2}$")


@dataclass(frozen=True, slots=True)
class IndexPage:
    label: str  # 'NI87'
    codes: tuple[str, ...]
    fees: tuple[float, ...]  # the '$' column's first box

    @property
    def complete(self) -> bool:
        return len(self.fees) == len(self.codes)


def read_index(layout: Layout) -> list[IndexPage]:
    """The Numeric Index pages: each page's codes and the first box of its '$' column."""
    by_page: dict[str, list[str]] = {}
    for line in layout.lines[layout.body_end :]:
        by_page.setdefault(line.page, []).append(line.text)
    pages: list[IndexPage] = []
    for label, texts in by_page.items():
        if "CODE" not in texts or "$" not in texts:
            continue
        k = texts.index("CODE") + 1
        codes: list[str] = []
        while k < len(texts) and (not texts[k] or _CODE.match(texts[k])):
            if texts[k]:
                codes.append(texts[k])
            k += 1
        k = texts.index("$") + 1
        fees: list[float] = []
        while k < len(texts) and _MONEY.match(texts[k]):
            fees.append(float(texts[k].replace(",", "")))
            k += 1
        if codes and fees and len(fees) <= len(codes):
            pages.append(IndexPage(label, tuple(codes), tuple(fees)))
    return pages


def direct_fees(index: list[IndexPage]) -> dict[str, float]:
    """Code -> fee on the index pages whose first '$' box has one fee per code."""
    return {code: fee for page in index if page.complete for code, fee in zip(page.codes, page.fees, strict=True)}


def leading_fees(index: list[IndexPage]) -> dict[str, float]:
    """Code -> fee for the first codes of every index page, one per fee of its first '$' box.

    A blank cell ends the box, so its fees are the page's first codes' own, in order (on the 2025-03-03
    file the 488 of them the parser also reads in the body all agree); ``listings`` takes them as
    confirmations of a pairing, never as fees.
    """
    return {code: fee for page in index for code, fee in zip(page.codes, page.fees, strict=False)}
