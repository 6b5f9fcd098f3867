"""A second reading of the fee columns: the codes the first reading left 'fee unknown', aligned page by page.

The first reading (``listings``) aligns a run of codes with the values printed
right after it (or right before it) when the counts agree. Surgical and other
multi-column pages often defeat it: the extractor writes a page's fee column
in boxes of its own, and a box may hold the fees of the codes above it *and*
of codes further down, or all of a page's fees may come before all of its
codes, or the last fees of a page may follow the page marker (T6)::

    6 6 · 376.80 482.40 · 7 7 · 6 6 · 437.20 522.50 · 6 7      ← S445 S446, S447 S448
    INCISION … # S445 - upper 2/3 …… # S446 - lower 1/3 …… Where ureter has been previously opened
    # S447 - upper 2/3 …… # S448 - lower 1/3 ……

A page is the text from one page's first line to the next page's (the fees the
extractor wrote after a page marker, before the next page's first line, are
still that page's). Its *groups* are runs of unknown codes between headings or
blank lines; its *boxes* are runs of free fees between blank lines (units, an
I.C among units and percentages set aside; an I.C alone may be the surgeon's
or a units column's and counts as a fee only where a page needs it to pair off).
The readings, each taken only where the page's structure bears it out:

* **zip**: every group and every fee of the page, in order (T6); where the
  split below also reads the whole page, both must give each code one fee;
* **split**: each group first takes the boxes printed right after it when they
  add up to it, the other groups then the boxes left, in order (N62: a box right
  after R565 E055 holds their fees, the next box R572 R560 E053's, printed
  further down);
* **lead**: from the page's first group on, each group whose boxes right after
  it hold exactly its fees (P2: M012 … E840, the code before them on the last
  page having none);
* **prefix**: groups and boxes in order, each group taking whole boxes of its
  size, as far as they agree (K11: P050 P051 P052 P060, then P053 P054); an
  I.C alone joins the boxes only where it pairs every code and every fee of the
  page off (M5: R051 '(see General Preamble GP12)', last of the page);
* **two columns** (H or T, and P): each group takes its H boxes then its P
  boxes, or one box per cell read row by row (G4: J135 48.75 / 26.45, J128
  32.10 / 17.55, as the index's T and P columns give them); one value per code is
  never read in order on such a page (J96: T values inline, P values after the
  marker);
* **verified** (``realign_verified``): runs of groups and boxes of as many fees,
  where the Schedule's cross-references (the Numeric Index, another listing of
  the code) confirm the first and last codes' fees and contradict none; a run
  whose every fee they confirm needs no more of the page's structure than its
  order (A10: C002 C007 C009 · A10 · 111.70 · 34.10 34.10 34.10, the index
  giving each 34.10; J64: ten codes, then 77.20 before their ten fees);
* **matched** (``realign_verified``): the codes and fees a page has left after that, paired by the fees the
  cross-references state for the codes, whatever their order, only where every code left and every fee left
  pair off so (A17: K013 K033 · 49.35 and a 70.10 printed further down; the index: K013 70.10).

What the structure must bear out, read from the 2025-03-03 file and checked
against the Numeric Index (no fee aligned here contradicts it):

* a box of fees never spans two groups (a heading row leaves an empty cell in
  the fee column), except where a run is verified;
* the fees of one group are not split by a code outside the alignment (K013
  K033 · 49.35 … K040 · 70.10: K013's 70.10 is printed after K040);
* a fee printed right after a code left out of the alignment is that code's;
* the fees printed right after a group are that group's or an earlier group's,
  never a later group's (S32: S309 S299 E709 · 986.05 · 1250.00 are not Z762's);
* a group with some of its fees right after it takes the rest from the end of
  another group's, not from its head (F2: X435's 36.70 is the last value after
  X441 X445, not the 73.35 right after them);
* no I.C alone lies between a group and its fees (S31: S293 · 8 · I.C · 12 ·
  314.20 is S293 I.C and Z596 314.20).

Nothing is guessed: a page whose unknown codes and free fees do not pair off
under these rules keeps its codes 'fee unknown'.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

__all__ = ["Realigned", "Token", "Verdict", "realign", "realign_verified"]

# (code key, fee key) -> 1: the Schedule states this fee elsewhere, -1: it states another, 0: it says nothing
Verdict = Callable[[int, int], int]

TokenKind = Literal["code", "fee", "units", "maybe", "text", "blank"]  # maybe: an I.C alone, fee or units


class Token(NamedTuple):
    """One item of the listing pages, as the first reading saw it."""

    kind: TokenKind
    page: str
    key: int  # the caller's handle (its position in the caller's stream)
    box: int = 0  # fee: values between two blank lines share a box
    open: bool = False  # code: its fee is unknown so far (and it may take one); fee: no code took it
    held: bool = False  # code: the first reading aligned its fee
    premium: bool = False  # code: a percentage premium ('… add 25%'): no column value
    two_columns: bool = False  # code: on a page of H (or T) and P columns
    text: str = ""  # fee: as printed


@dataclass(slots=True)
class _Page:
    """The open codes and free fees of one page, in stream order: (position, group or box)."""

    label: str
    two_columns: bool = False  # some code is on a page of H and P columns: a box after a group may be its H
    codes: list[tuple[int, int]] = field(default_factory=list)  # (position, group)
    fees: list[tuple[int, int]] = field(default_factory=list)  # (position, box)
    maybes: list[tuple[int, int]] = field(default_factory=list)  # (position, box) of I.C values alone

    def groups(self) -> dict[int, list[int]]:
        """Group -> its codes' positions, in order."""
        out: dict[int, list[int]] = defaultdict(list)
        for code, group in self.codes:
            out[group].append(code)
        return out

    def boxes(self, *, maybes: bool = False) -> dict[int, list[int]]:
        """Box -> its fees' positions, in order (with the I.C values alone, when asked)."""
        out: dict[int, list[int]] = defaultdict(list)
        for fee, box in sorted(self.fees + self.maybes) if maybes else self.fees:
            out[box].append(fee)
        return out


@dataclass(slots=True)
class Realigned:
    pairs: dict[int, int]  # code key -> fee key (the P fee on a page of H and P columns)
    pages: int  # pages whose open codes were aligned
    first_column: dict[int, int] = field(default_factory=dict)  # code key -> its H (or T) fee key


def realign(tokens: list[Token]) -> Realigned:
    reading = _Reading(tokens)
    pairs: dict[int, int] = {}
    first_column: dict[int, int] = {}
    pages = 0
    for page in reading.pages:
        if page.two_columns:  # one value per code: T or P? Each code's two, or the first group's after it
            both = reading.two_column_page(page)
            found = {code: p for code, (_, p) in both.items()}
            first_column.update((code, h) for code, (h, _) in both.items())
            found = found or reading.lead_page(page)
        else:
            found = _agreed(tokens, reading.zip_page(page), reading.split_page(page))
            found = found or reading.lead_page(page) or reading.prefix_page(page)
        if found:
            pages += 1
            pairs.update(found)
    return Realigned(pairs, pages, first_column)


def realign_verified(tokens: list[Token], verdict: Verdict) -> Realigned:
    """Runs of groups paired with runs of boxes where the Schedule's cross-references bear the pairing out."""
    reading = _Reading(tokens)
    pairs: dict[int, int] = {}
    pages = 0
    for page in reading.pages:
        found = reading.chunk_page(page, verdict)
        found.update(reading.matched_page(page, verdict, found))
        if found:
            pages += 1
            pairs.update(found)
    return Realigned(pairs, pages)


def _borne_out(said: list[int]) -> bool:
    """No fee contradicted, and the first and last codes confirmed (so every code lies between two confirmed
    ones: a pairing shifted by one would break a confirmation)."""
    return bool(said) and -1 not in said and said[0] == 1 and said[-1] == 1


def _agreed(tokens: list[Token], first: dict[int, int], second: dict[int, int]) -> dict[int, int]:
    """Two readings of a whole page: one alone, or both where they give each code the same fee (two that
    differ: the page is ambiguous)."""
    if first and second:
        texts = {t.key: t.text for t in tokens if t.kind in ("fee", "maybe")}
        if {c: texts[f] for c, f in first.items()} != {c: texts[f] for c, f in second.items()}:
            return {}
    return first or second


class _Reading:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pages: list[_Page] = []
        self.code_positions: list[int] = [i for i, t in enumerate(tokens) if t.kind == "code"]
        self.priced_positions: list[int] = [i for i, t in enumerate(tokens) if t.kind == "code" and not t.premium]
        self.maybe_positions: list[int] = [i for i, t in enumerate(tokens) if t.kind == "maybe"]
        self.after: dict[int, int] = {}  # fee position -> the code it is printed right after (same page)
        self.after_any: dict[int, int] = {}  # the same, an I.C alone counting as a fee
        self._read()
        self.first_after = {code: fee for fee, code in self.after.items()}  # code position -> fee position
        self.first_after_any = {code: fee for fee, code in self.after_any.items()}

    def _read(self) -> None:
        page: _Page | None = None
        label = None  # the page label of the last token
        waiting = False  # after a page marker, before the new page's first line: still the old page
        group = 0
        last: str | None = None  # 'code', 'fee', 'units' (between fees) or None
        pending: int | None = None  # the last code with no fee after it yet (for ``after``)
        pending_any: int | None = None  # ... nor an I.C alone (for ``after_any``)
        for i, t in enumerate(self.tokens):
            if t.page != label:
                label, waiting = t.page, True
            if waiting and t.kind in ("code", "text"):
                waiting = False
                page = None
                pending = pending_any = None
            if page is None:
                page = _Page(t.page)
                self.pages.append(page)
            if t.kind == "code":
                if t.premium:
                    continue  # a premium line neither breaks a group nor takes a fee
                pending = pending_any = i
                page.two_columns = page.two_columns or t.two_columns
                if t.open:
                    if last != "code":
                        group += 1
                    page.codes.append((i, group))
                    last = "code"
                else:
                    last = None
            elif t.kind == "fee":
                if pending is not None:
                    self.after[i] = pending
                    pending = None
                if pending_any is not None:
                    self.after_any[i] = pending_any
                    pending_any = None
                if t.open:
                    page.fees.append((i, t.box))
                    last = "fee"
                elif last == "fee":
                    last = "units"
            elif t.kind in ("units", "maybe"):
                if t.kind == "maybe" and pending_any is not None:
                    self.after_any[i] = pending_any
                    pending_any = None
                if t.kind == "maybe" and t.open:
                    page.maybes.append((i, t.box))
                if last == "fee":
                    last = "units"
            elif t.kind == "blank":
                if last == "code":
                    last = None
                elif last == "fee":
                    last = "units"
            else:  # text
                last = "units" if last in ("fee", "units") else None

    # --- one page: groups of codes and boxes of fees -------------------------------------------
    def split_page(self, page: _Page) -> dict[int, int]:
        """Each group first takes the boxes printed right after it when they add up to it; the groups left
        then take the boxes left, in order, whole boxes only, every group and every box used."""
        groups, boxes = page.groups(), page.boxes()
        order = sorted(boxes, key=lambda b: boxes[b][0])
        taken: set[int] = set()
        pairs: list[tuple[tuple[int, int], tuple[int, int]]] = []  # ((code, group), (fee, box))
        waiting: list[int] = []
        own: set[int] = set()  # groups that took the boxes right after them
        for group, codes in groups.items():
            upto: list[int] = []
            total = 0
            for b in order:
                if b in taken or not self._right_after(codes[-1], boxes[b][0]):
                    continue
                upto.append(b)
                total += len(boxes[b])
                if total >= len(codes):
                    break
            if upto and total == len(codes):
                after = [(f, b) for b in upto for f in boxes[b]]
                pairs.extend(zip(((c, group) for c in codes), after, strict=True))
                taken.update(upto)
                own.add(group)
            else:
                waiting.append(group)
        free = iter([b for b in order if b not in taken])
        for group in waiting:
            left: list[tuple[int, int]] = []
            while len(left) < len(groups[group]):
                nxt = next(free, None)
                if nxt is None:
                    return {}
                left.extend((f, nxt) for f in boxes[nxt])
            if len(left) != len(groups[group]):
                return {}
            pairs.extend(zip(((c, group) for c in groups[group]), left, strict=True))
        if next(free, None) is not None:
            return {}
        first_fee: dict[int, int] = {}
        for (_, group), (fee, _) in pairs:
            first_fee[group] = min(fee, first_fee.get(group, fee))
        for a in groups:
            for b in own:
                if a < b and first_fee[a] > first_fee[b]:
                    return {}  # an earlier group's fees after a later group's own: the page reads in order
        pairs.sort()
        codes_in = [c for c, _ in pairs]
        fees_in = [f for _, f in pairs]
        if not self._fits(codes_in, fees_in, straddle_ok=True):
            return {}
        return {self.tokens[c].key: self.tokens[f].key for (c, _), (f, _) in pairs}

    def lead_page(self, page: _Page) -> dict[int, int]:
        """From the page's first open group on, each group takes the boxes printed right after it when they
        are as many fees as it has codes; the first group they do not fit ends the reading."""
        groups, boxes = page.groups(), page.boxes()
        order = sorted(boxes, key=lambda b: boxes[b][0])
        taken: set[int] = set()
        out: dict[int, int] = {}
        for codes in groups.values():
            upto = [b for b in order if b not in taken and self._right_after(codes[-1], boxes[b][0])]
            if sum(len(boxes[b]) for b in upto) != len(codes):
                break
            fees = [f for b in upto for f in boxes[b]]
            if not self._fits([(c, 0) for c in codes], [(f, 0) for f in fees]):
                break
            out.update(zip(codes, fees, strict=True))
            taken.update(upto)
        return {self.tokens[c].key: self.tokens[f].key for c, f in out.items()}

    def chunk_page(self, page: _Page, verdict: Verdict) -> dict[int, int]:
        """Runs of consecutive groups paired with runs of consecutive boxes of as many fees, each run borne out
        by cross-references: no code's fee contradicted, and every code the Schedule prices nowhere else lying
        between two codes it confirms (a pairing shifted by one would break a confirmation). A run whose every
        fee is confirmed is taken whatever else the page prints around it (a fee right after its last code
        may be another's: J64's 77.20 is L822's, the index says, not L820's)."""
        groups, boxes = page.groups(), page.boxes()
        gs = list(groups)
        bs = sorted(boxes, key=lambda b: boxes[b][0])
        free = {f for f, _ in page.fees}
        memo: dict[tuple[int, int], tuple[int, list[tuple[int, int, int, int]]]] = {}

        def best(gi: int, bi: int) -> tuple[int, list[tuple[int, int, int, int]]]:
            if gi >= len(gs) or bi >= len(bs):
                return 0, []
            if (gi, bi) in memo:
                return memo[(gi, bi)]
            options = [best(gi + 1, bi), best(gi, bi + 1)]
            need = 0
            for gj in range(gi + 1, len(gs) + 1):
                need += len(groups[gs[gj - 1]])
                have, bj = 0, bi
                while bj < len(bs) and have < need:
                    have += len(boxes[bs[bj]])
                    bj += 1
                if have != need:
                    continue
                codes = [(c, g) for g in gs[gi:gj] for c in groups[g]]
                fees = [(f, b) for b in bs[bi:bj] for f in boxes[b]]
                said = self._confirmations(codes, fees, verdict)
                if all(x == 1 for x in said) or (
                    self._fits(codes, fees, straddle_ok=True)
                    and _borne_out(said)
                    and self._keeps_own(codes, fees, free)
                ):
                    rest, chunks = best(gj, bj)
                    options.append((need + rest, [(gi, gj, bi, bj), *chunks]))
            memo[(gi, bi)] = max(options, key=lambda o: o[0])
            return memo[(gi, bi)]

        out: dict[int, int] = {}
        for gi, gj, bi, bj in best(0, 0)[1]:
            codes = [c for g in gs[gi:gj] for c in groups[g]]
            fees = [f for b in bs[bi:bj] for f in boxes[b]]
            out.update(zip(codes, fees, strict=True))
        return {self.tokens[c].key: self.tokens[f].key for c, f in out.items()}

    def matched_page(self, page: _Page, verdict: Verdict, found: dict[int, int]) -> dict[int, int]:
        """The page's open codes and free fees left after ``chunk_page``, paired by the fees the Schedule states
        for the codes, whatever their order -- only where every code left is stated one of the fees left and
        every fee left goes to a code (A17: K013 K033 · 49.35, and 70.10 printed between 'K041' and its
        description; the index: K013 70.10, K033 49.35). The order of the text bears nothing out here: such a
        pairing rests on the cross-references alone."""
        taken_codes = set(found)
        taken_fees = set(found.values())
        codes = [c for c, _ in page.codes if self.tokens[c].key not in taken_codes]
        fees = [f for f, _ in page.fees if self.tokens[f].key not in taken_fees]
        if not codes or len(codes) != len(fees):
            return {}
        said = {c: [f for f in fees if verdict(self.tokens[c].key, self.tokens[f].key) == 1] for c in codes}
        if not all(said.values()):
            return {}
        pairing: dict[int, int] = {}  # fee -> code (augmenting paths: a code takes a fee another may give up)

        def place(code: int, seen: set[int]) -> bool:
            for fee in said[code]:
                if fee in seen:
                    continue
                seen.add(fee)
                if fee not in pairing or place(pairing[fee], seen):
                    pairing[fee] = code
                    return True
            return False

        if not all(place(code, set()) for code in codes):
            return {}
        return {self.tokens[c].key: self.tokens[f].key for f, c in pairing.items()}

    def _confirmations(self, codes: list[tuple[int, int]], fees: list[tuple[int, int]], verdict: Verdict) -> list[int]:
        return [verdict(self.tokens[c].key, self.tokens[f].key) for (c, _), (f, _) in zip(codes, fees, strict=True)]

    def _keeps_own(self, codes: list[tuple[int, int]], fees: list[tuple[int, int]], free: set[int]) -> bool:
        """A free fee printed right after one of ``codes`` is among ``fees``."""
        mine = {f for f, _ in fees}
        for code, _ in codes:
            fee = self.first_after.get(code)
            if fee is not None and fee in free and fee not in mine:
                return False
        return True

    def prefix_page(self, page: _Page) -> dict[int, int]:
        """The page's groups and boxes in order, each group taking whole boxes of exactly its size, as far as
        they agree; an I.C alone counts as a box where the page needs it to pair off (M5: R018 R019 R020 ·
        R031 R032 R033 R051 · 68.55 112.90 225.75 · 55.05 90.70 181.55 · I.C · I.C, R051 by GP12)."""
        found = self._prefix(page, page.boxes())
        if page.maybes and len(found) < len(page.codes):
            found = self._prefix(page, page.boxes(maybes=True)) or found
        return found

    def _prefix(self, page: _Page, boxes: dict[int, list[int]]) -> dict[int, int]:
        groups = page.groups()
        order = iter(sorted(boxes, key=lambda b: boxes[b][0]))
        codes: list[tuple[int, int]] = []
        fees: list[tuple[int, int]] = []
        for group, members in groups.items():
            mine: list[tuple[int, int]] = []
            while len(mine) < len(members):
                b = next(order, None)
                if b is None:
                    break
                mine.extend((f, b) for f in boxes[b])
            if len(mine) != len(members):
                break
            codes.extend((c, group) for c in members)
            fees.extend(mine)
        free = {f for f, _ in page.fees}
        if not codes or not self._fits(codes, fees) or not self._keeps_own(codes, fees, free):
            return {}
        if any(self.tokens[f].kind == "maybe" for f, _ in fees) and (
            len(codes) < len(page.codes) or not free <= {f for f, _ in fees}
        ):
            return {}  # an I.C alone is a fee only where it pairs the whole page off (S2: Surg I.C, Anae I.C)
        return {self.tokens[c].key: self.tokens[f].key for (c, _), (f, _) in zip(codes, fees, strict=True)}

    def two_column_page(self, page: _Page) -> dict[int, tuple[int, int]]:
        """On a page of H and P columns: each group, in order, takes the next whole boxes holding two values per
        code, as far as they agree: a box per column (D15: X181 X182 X140, then 59.65 79.30 317.35, then
        30.90 37.45 185.60), or a box per cell, row by row (D5: X036 X037 X038, then 14.90 / 6.40 / 27.75 /
        9.20 / 31.90 / 10.35)."""
        groups, boxes = page.groups(), page.boxes()
        order = iter(sorted(boxes, key=lambda b: boxes[b][0]))
        codes: list[tuple[int, int]] = []
        firsts: list[tuple[int, int]] = []
        seconds: list[tuple[int, int]] = []
        for group, members in groups.items():
            n = len(members)
            taken: list[list[tuple[int, int]]] = []
            while sum(map(len, taken)) < 2 * n:
                b = next(order, None)
                if b is None:
                    break
                taken.append([(f, b) for f in boxes[b]])
            values = [v for box in taken for v in box]
            if len(values) != 2 * n:
                break
            if all(len(box) == 1 for box in taken):
                first, second = values[0::2], values[1::2]  # one box per cell: row by row, H then P
            elif sum(map(len, taken[: len(taken) // 2])) == n and n in (len(taken[0]), len(taken[-1])):
                first, second = values[:n], values[n:]  # a box per column
            else:
                break
            codes.extend((c, group) for c in members)
            firsts.extend(first)
            seconds.extend(second)
        free = {f for f, _ in page.fees}
        if (
            not codes
            or not all(self._fits(codes, column, straddle_ok=True) for column in (firsts, seconds))
            or not self._keeps_own(codes, firsts, free)
        ):
            return {}
        return {
            self.tokens[c].key: (self.tokens[h].key, self.tokens[p].key)
            for (c, _), (h, _), (p, _) in zip(codes, firsts, seconds, strict=True)
        }

    def _right_after(self, code: int, fee: int) -> bool:
        """Whether ``fee`` follows ``code`` with no other code between them."""
        if fee < code:
            return False
        k = bisect_left(self.code_positions, code + 1)
        return k >= len(self.code_positions) or self.code_positions[k] > fee

    # --- one page: its open codes and free fees in order ---------------------------------------
    def zip_page(self, page: _Page) -> dict[int, int]:
        """All the page's open codes and free fees in order; an I.C alone counts as a fee only where the
        page needs it to pair off."""
        codes = page.codes
        for fees in (page.fees, sorted(page.fees + page.maybes)) if page.maybes else (page.fees,):
            if not codes or len(codes) != len(fees):
                continue
            same = len({self.tokens[f].text for f, _ in fees}) == 1  # W172 … W121 and 34.10 x7: any order
            if same or self._fits(codes, fees):
                return {self.tokens[c].key: self.tokens[f].key for (c, _), (f, _) in zip(codes, fees, strict=True)}
        return {}

    def _fits(self, codes: list[tuple[int, int]], fees: list[tuple[int, int]], *, straddle_ok: bool = False) -> bool:
        """Whether pairing ``codes[k]`` with ``fees[k]`` keeps to the page's structure (module doc)."""
        two_columns = any(self.tokens[c].two_columns for c, _ in codes)  # codes in two columns: T, or P
        group_of_fee: dict[int, int] = {}
        for k, ((_, group), (fee, box)) in enumerate(zip(codes, fees, strict=True)):
            group_of_fee[fee] = group
            if not straddle_ok and k and fees[k - 1][1] == box and codes[k - 1][1] != group:
                return False  # one box of fees across two groups of codes
        ours = {c for c, _ in codes}
        maybe = any(self.tokens[f].kind == "maybe" for f, _ in fees)
        after, first_after = (self.after_any, self.first_after_any) if maybe else (self.after, self.first_after)
        for fee, _ in fees:
            code = after.get(fee)
            if code is not None and code not in ours and not self.tokens[code].held:
                return False  # printed right after a code left out of the alignment
        for code, group in codes:
            right_after = first_after.get(code)
            if right_after is not None and right_after in group_of_fee and group_of_fee[right_after] > group:
                return False  # the fee right after this group goes to a later group
        by_group: dict[int, list[int]] = defaultdict(list)
        spans: dict[int, list[int]] = defaultdict(list)
        last_code: dict[int, int] = {}
        for (code, group), (fee, _) in zip(codes, fees, strict=True):
            by_group[group].append(fee)
            spans[group].extend((code, fee))
            last_code[group] = max(code, last_code.get(group, code))
        after_group = {  # fee -> the group it is printed right after
            fee: group for group, code in last_code.items() for fee in group_of_fee if self._right_after(code, fee)
        }
        heads: dict[int, set[int]] = {}  # group -> the first fees right after it, as many as it has codes
        for group in by_group:
            printed = sorted(f for f, g in after_group.items() if g == group)
            heads[group] = set(printed[: len(by_group[group])])
        for group, group_fees in by_group.items():
            own = sum(1 for g in after_group.values() if g == group)
            if (
                not two_columns
                and 0 < own < len(group_fees)
                and any(
                    f in heads.get(after_group.get(f, group), set()) for f in group_fees if after_group.get(f) != group
                )
            ):
                return False  # some fees right after it, the rest taken from the head of another group's (F2)
        for group_fees in by_group.values():
            if self._foreign_code_between(min(group_fees), max(group_fees), ours):
                return False
        taking = set(group_of_fee)
        for span in spans.values():
            k = bisect_left(self.maybe_positions, min(span))
            while k < len(self.maybe_positions) and self.maybe_positions[k] < max(span):
                if self.maybe_positions[k] not in taking:
                    return False  # an I.C alone between a group and its fees may be one of them
                k += 1
        return True

    def _foreign_code_between(self, start: int, end: int, ours: set[int]) -> bool:
        """Whether a code that takes a fee (not a premium's percentage) and is not in ``ours`` lies between."""
        positions = self.priced_positions
        k = bisect_left(positions, start)
        while k < len(positions) and positions[k] <= end:
            if positions[k] not in ours:
                return True
            k += 1
        return False
