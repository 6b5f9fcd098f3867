"""The Numeric Index at the end of the Schedule text: codes and the first box of their '$' column, page by page.

The index (an April 2024 table the loader does not otherwise read) lists, on
each of its pages, a column of codes (``CODE``) and a column of fees (``$``).
A blank cell (an I.C code, a code with H/P or T/P components) breaks the ``$``
column into boxes, so the column's first box holds the fees of the page's first
codes *that have one*, in order; where it has one fee per code the pairing is
direct. ``crossref`` checks the parsed fees against it and ``listings`` takes
the first box's pairings with the page's first codes (``leading_fees``) as
confirmations (never as fees), and the page's later boxes where the fees the parser read pin them to one
run of codes (``anchored_fees``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from curbside.coverage.ohip.layout import Layout

__all__ = ["IndexPage", "Stated", "anchored_fees", "direct_fees", "leading_fees", "read_index", "unaided_fees"]

_CODE = re.compile(r"^[A-Z]\d{3}$")
_MONEY = re.compile(r"^\d{1,4}(?:,\d{3})*\.\d{2}$")


@dataclass(frozen=True, slots=True)
class IndexPage:
    label: str  # 'NI87'
    codes: tuple[str, ...]
    fees: tuple[float, ...]  # the '$' column's first box
    boxes: tuple[tuple[float, ...], ...] = field(default=())  # every box of fees after the '$', in order

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
        boxes: list[tuple[float, ...]] = []
        box: list[float] = []
        for text in [*texts[texts.index("$") + 1 :], ""]:
            if _MONEY.match(text):
                box.append(float(text.replace(",", "")))
            elif box:
                boxes.append(tuple(box))
                box = []
        if codes and boxes and len(fees) <= len(codes):  # a page whose first codes have no '$' fee: later boxes
            pages.append(IndexPage(label, tuple(codes), tuple(fees), tuple(boxes)))
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


@dataclass(frozen=True, slots=True)
class Stated:
    """What the body of the Schedule was read to say of codes, to pin the index's boxes with."""

    fees: Mapping[str, float]  # one plain dollar fee
    components: Mapping[str, frozenset[float]]  # H/T and P values (an index box of one column may hold either)
    no_fee: frozenset[str]  # I.C, a premium's percentage: a blank '$' cell


def anchored_fees(index: list[IndexPage], stated: Stated, *, anchors: int = 2) -> dict[str, float]:
    """Code -> fee from the index boxes the body's own fees pin to one run of codes.

    A box is a run of consecutive codes' fees (a blank cell, or the extraction, ends it). It is placed
    where at least ``anchors`` of its fees are the fees the body gives those codes and none contradicts
    the body (another dollar fee, a value no column of the code holds, a code with no fee) -- and only
    where exactly one placement on the page does so; the boxes of a page must then follow each other. On the
    2025-03-03 file this states a fee for most surgical codes the first box leaves out (NI110: S079-S122
    after the blank cells of S073-S075); ``listings`` takes them as confirmations, never as fees.
    """
    out: dict[str, float] = {}
    for page in index:
        placed: list[tuple[int, tuple[float, ...]]] = []
        for box in page.boxes:
            where = [i for i in range(len(page.codes) - len(box) + 1) if _fits(page.codes[i:], box, stated, anchors)]
            if len(where) == 1:
                placed.append((where[0], box))
        placed.sort()
        if any(a + len(box) > b for (a, box), (b, _) in zip(placed, placed[1:], strict=False)):
            continue  # boxes out of order: the page is not read
        for start, box in placed:
            out.update(zip(page.codes[start:], box, strict=False))
    return out


def _fits(codes: tuple[str, ...], box: tuple[float, ...], stated: Stated, anchors: int) -> bool:
    confirmed = 0
    for code, fee in zip(codes, box, strict=False):
        if code in stated.no_fee:
            return False
        if code in stated.fees:
            if stated.fees[code] != fee:
                return False
            confirmed += 1
        elif code in stated.components and fee not in stated.components[code]:
            return False
    return confirmed >= anchors


def unaided_fees(index: list[IndexPage], stated: Stated, *, anchors: int = 3) -> dict[str, float]:
    """Code -> the fee the index gives it where the box holding it is pinned without the code's own fee.

    For each code the body prices, every box of its index page is placed where the *other* codes' fees
    confirm it best: at least ``anchors`` of them, more than twice as many as contradict it, and at least
    twice as many as at any other placement. A misread fee, or two fees swapped, then stays visible: the box
    is pinned by its neighbours and prints another fee for the code. On the 2025-03-03 file every code whose
    box is pinned so gets its own fee back (``crossref`` counts them).
    """
    out: dict[str, float] = {}
    for page in index:
        for box in page.boxes:
            places = [
                (start, *_verdicts(page.codes[start:], box, stated)) for start in range(len(page.codes) - len(box) + 1)
            ]
            for at, code in enumerate(page.codes):
                if code not in stated.fees:
                    continue
                scored = sorted(
                    ((len(confirming - {code}), len(against - {code}), start) for start, against, confirming in places),
                    reverse=True,
                )
                if not scored:
                    continue
                (best, against, start), runner_up = scored[0], scored[1][0] if len(scored) > 1 else 0
                if best >= anchors and best > 2 * against and best >= 2 * runner_up and 0 <= at - start < len(box):
                    fee = box[at - start]
                    if out.setdefault(code, fee) != fee:
                        out[code] = float("nan")  # two boxes place it apart: no check
    return {code: fee for code, fee in out.items() if fee == fee}


def _verdicts(codes: tuple[str, ...], box: tuple[float, ...], stated: Stated) -> tuple[set[str], set[str]]:
    against: set[str] = set()
    confirming: set[str] = set()
    for code, fee in zip(codes, box, strict=False):
        if code in stated.no_fee:
            against.add(code)
        elif code in stated.fees:
            (confirming if stated.fees[code] == fee else against).add(code)
        elif code in stated.components and fee not in stated.components[code]:
            against.add(code)
    return against, confirming
