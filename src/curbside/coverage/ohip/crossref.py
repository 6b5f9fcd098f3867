"""The parsed fees checked against the Schedule's own cross-references.

Two places in the text state a code's fee a second time:

* the Numeric Index at the end of the file (an April 2024 table the loader does
  not otherwise read) lists, page by page, a column of codes and a ``$``
  column of their fees. A blank cell (an I.C code, a code with H/P or T/P
  components) breaks the ``$`` column into boxes, so the column's first box
  holds the fees of the page's first codes *that have one*, in order. Where the
  box has one fee per code the pairing is direct; elsewhere the codes the
  parser priced must fit the box in order, with blank cells only where the
  parser found no single dollar fee (a lower bound on the disagreements: the
  cheapest pairing is counted);
* the index's later boxes (after the first blank cell) hold the fees of later
  runs of codes: where the body's fees pin a box to one run (``_pair_box``), the
  fee it prints for each code checks that code's reading (a fee misread, or a run
  of fees shifted, contradicts a box its neighbours pin);
* a code listed in several places (C124 under nine specialties, E542 under
  most surgical sections) must have one fee wherever it was aligned.

A fee the 2025 body and the 2024 index both state and that differs is a
disagreement, whether the parser misread the body or the ministry changed the
fee; either way it needs a look, so the parse report counts them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from curbside.coverage.ohip.listings import Listing
from curbside.coverage.ohip.numeric_index import IndexPage

__all__ = ["CrossCheck", "check_fees"]

_BLANK_COST = 1.0  # an index page with no fee where the parser found one: tolerated
_UNPRICED_COST = 0.1  # a fee paired with a code the parser did not price: free but for ties (confirm first)
_CONFLICT_COST = 10_000.0
_BOX_CONFLICT_COST = 3.0  # a later box: a fee contradicting the body costs three blank cells (it may be a misread)


@dataclass(slots=True)
class CrossCheck:
    index_pages: int = 0
    checked: int = 0  # listings whose fee the index states, and agrees with
    disagreements: list[str] = field(default_factory=list)  # 'R415 301.60 (N39 line 34493) | index NI88: 290.55'
    repeated: int = 0  # codes aligned in more than one place with one fee
    contradicted: dict[str, float] = field(default_factory=dict)  # code -> the index's fee, where it contradicts
    checked_later_boxes: int = 0  # ... of ``checked``: by a later box of the index (``_pair_box``)

    @property
    def disagreement_count(self) -> int:
        return len(self.disagreements)


def _dollar_fees(listings: Iterable[Listing]) -> dict[str, list[Listing]]:
    """Code -> its listings with one plain dollar fee (not H/P components, not a premium table cell)."""
    out: dict[str, list[Listing]] = defaultdict(list)
    for x in listings:
        if x.status == "aligned" and not x.components and x.unit != "table" and x.fee is not None:
            out[x.code].append(x)
    return out


def check_fees(listings: list[Listing], index: list[IndexPage]) -> CrossCheck:
    result = CrossCheck(index_pages=len(index))
    priced = _dollar_fees(listings)
    for code, xs in sorted(priced.items()):
        fees = sorted({x.fee for x in xs if x.fee is not None})
        if len(fees) > 1:
            where = ", ".join(f"{x.fee_text} ({x.page} line {x.line})" for x in xs)
            result.disagreements.append(f"{code} listed with different fees: {where}")
        elif len(xs) > 1:
            result.repeated += 1
    known: dict[str, Listing] = {code: xs[0] for code, xs in priced.items()}
    for x in listings:  # I.C, H/P components, a premium's %, no fee of its own: no '$' fee, so a blank '$' cell
        if x.code not in priced and (x.status in ("independent_consideration", "percent", "no_fee") or x.components):
            known.setdefault(x.code, x)
    seen: set[str] = set()
    for page in index:
        for code, fee in _pair(page, known):
            listing = known.get(code)
            if listing is None or fee is None:
                continue
            seen.add(code)
            if listing.fee == fee and not listing.components and listing.status == "aligned":
                result.checked += 1
            else:
                result.contradicted[code] = fee
                result.disagreements.append(
                    f"{code} {_stated(listing)} ({listing.page} line {listing.line}) | index {page.label}: {fee:.2f}"
                )
    for page in index:
        for box in page.boxes[1:] if page.fees else page.boxes:
            pairs = _pair_box(page.codes, box, known)
            if pairs is None:
                continue
            for code, fee in pairs:
                listing = known.get(code)
                if listing is None:
                    continue
                if listing.fee == fee and not listing.components and listing.status == "aligned":
                    if code not in seen:
                        seen.add(code)
                        result.checked += 1
                        result.checked_later_boxes += 1
                elif not (listing.components and fee in _amounts(listing.components.values())):
                    result.contradicted[code] = fee
                    result.disagreements.append(
                        f"{code} {_stated(listing)} ({listing.page} line {listing.line}) | index {page.label}, "
                        f"a later box: {fee:.2f}"
                    )
    return result


def _amounts(texts: Iterable[str]) -> list[float]:
    return [float(t.replace(",", "")) for t in texts if t[:1].isdigit()]


def _pair_box(
    codes: tuple[str, ...], box: tuple[float, ...], known: dict[str, Listing]
) -> list[tuple[str, float]] | None:
    """A later box of the index paired with the page's codes: its fees go, in order, to a run of codes that may
    hold blank cells (the extraction does not always end a box at one: NI41 prints E827-E830 and E832-E861 in
    one box around E831's blank, a premium's %), as cheaply as can be; the box must start and end somewhere.
    Taken only where the body confirms it well -- at least 3 of its fees, 3 times as many as it contradicts;
    a box that fits nowhere (another column's, another page's) says nothing. The contradictions left are
    disagreements: a misread fee, or a run of fees shifted or swapped, which a box pinned by its neighbours
    shows."""
    n, m = len(codes), len(box)
    inf = float("inf")
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    step: list[list[int]] = [[0] * (m + 1) for _ in range(n + 1)]  # 1: code i-1 took fee j-1; 0: blank
    for i in range(n + 1):
        cost[i][0] = 0.0  # the codes before the box's first fee are outside it
    for i in range(1, n + 1):
        listing = known.get(codes[i - 1])
        plain = listing is not None and listing.status == "aligned" and not listing.components
        for j in range(1, min(i, m) + 1):
            best, how = cost[i - 1][j] + (_BLANK_COST if plain and j < m else 0.0), 0
            fee = box[j - 1]
            if listing is None:
                pay = _UNPRICED_COST
            elif plain and listing.fee == fee or listing.components and fee in _amounts(listing.components.values()):
                pay = 0.0
            else:
                pay = _BOX_CONFLICT_COST
            if cost[i - 1][j - 1] + pay < best:
                best, how = cost[i - 1][j - 1] + pay, 1
            cost[i][j], step[i][j] = best, how
    end = min(range(m, n + 1), key=lambda i: cost[i][m]) if n >= m else None
    if end is None or cost[end][m] == inf:
        return None
    pairs: list[tuple[str, float]] = []
    i, j = end, m
    while i > 0 and j > 0:
        if step[i][j]:
            pairs.append((codes[i - 1], box[j - 1]))
            j -= 1
        i -= 1
    confirmed = conflicts = 0
    for code, fee in pairs:
        listing = known.get(code)
        if listing is None:
            continue
        if listing.status == "aligned" and not listing.components and listing.fee == fee:
            confirmed += 1
        elif not (listing.components and fee in _amounts(listing.components.values())):
            conflicts += 1
    return pairs[::-1] if confirmed >= 3 and 3 * conflicts <= confirmed else None


def _stated(listing: Listing) -> str:
    if listing.components:
        return ", ".join(f"{name} {value}" for name, value in listing.components.items())
    return listing.fee_text


def _pair(page: IndexPage, known: dict[str, Listing]) -> list[tuple[str, float | None]]:
    """The index page's codes with the fee its first '$' box gives each (None: a blank cell), cheapest pairing.

    Every fee of the box goes to one code, in order; a code may have a blank cell
    (free where the parser has no single dollar fee for it, tolerated otherwise); a
    fee paired with a code the parser priced otherwise, or read as I.C, H/P or a
    percentage, is a conflict. Codes after the box's last fee are not paired.
    """
    codes, fees = page.codes, page.fees
    if page.complete:
        return list(zip(codes, fees, strict=True))
    n, m = len(codes), len(fees)
    inf = float("inf")
    # cost[i][j]: best cost of pairing the first j fees within the first i codes
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    step: list[list[int]] = [[0] * (m + 1) for _ in range(n + 1)]  # 1: code i-1 took fee j-1; 0: blank
    cost[0][0] = 0
    for i in range(1, n + 1):
        code = codes[i - 1]
        listing = known.get(code)
        blank = _BLANK_COST if listing is not None and listing.status == "aligned" and not listing.components else 0.0
        for j in range(0, min(i, m) + 1):
            best, how = cost[i - 1][j] + blank, 0
            if j:
                if listing is None:
                    pay = _UNPRICED_COST
                elif listing.status != "aligned" or listing.components or listing.fee != fees[j - 1]:
                    pay = _CONFLICT_COST
                else:
                    pay = 0.0
                took = cost[i - 1][j - 1] + pay
                if took < best:
                    best, how = took, 1
            cost[i][j], step[i][j] = best, how
    # the box ends at some code: the codes after its last fee are outside it
    end = min(range(m, n + 1), key=lambda i: cost[i][m])
    out: list[tuple[str, float | None]] = []
    i, j = end, m
    while i > 0:
        if step[i][j]:
            out.append((codes[i - 1], fees[j - 1]))
            j -= 1
        else:
            out.append((codes[i - 1], None))
        i -= 1
    return out[::-1]
