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


@dataclass(slots=True)
class CrossCheck:
    index_pages: int = 0
    checked: int = 0  # listings whose fee the index states, and agrees with
    disagreements: list[str] = field(default_factory=list)  # 'R415 301.60 (N39 line 34493) | index NI88: 290.55'
    repeated: int = 0  # codes aligned in more than one place with one fee

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
    for x in listings:  # I.C, H/P components, a premium's percentage: no '$' fee, so a blank '$' cell
        if x.code not in priced and (x.status in ("independent_consideration", "percent") or x.components):
            known.setdefault(x.code, x)
    for page in index:
        for code, fee in _pair(page, known):
            listing = known.get(code)
            if listing is None or fee is None:
                continue
            if listing.fee == fee and not listing.components and listing.status == "aligned":
                result.checked += 1
            else:
                result.disagreements.append(
                    f"{code} {_stated(listing)} ({listing.page} line {listing.line}) | index {page.label}: {fee:.2f}"
                )
    return result


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
