"""The lowest-cost member of an interchangeable group, derived from the data.

The extract marks no member as lowest cost. Here it is the lowest unit price
(``individualPrice``) among the group's members that are covered; products
without a price, or that are not benefits, cannot be the covered lowest cost.
When no member is covered, the cheapest priced member is reported with
``among_covered=False`` so an answer never presents it as a covered option.
Ties are common (generics priced alike): every tied member is lowest cost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from curbside.coverage.odb.flags import benefit_status

__all__ = ["LowestCost", "lowest_cost", "lowest_cost_dins", "savings"]


class Priced(Protocol):
    @property
    def din(self) -> str: ...

    @property
    def flags(self) -> Mapping[str, str]: ...

    @property
    def individual_price(self) -> float | None: ...


@dataclass(frozen=True, slots=True)
class LowestCost:
    dins: tuple[str, ...]  # every member at the lowest price, in the order given
    price: float
    among_covered: bool


def lowest_cost(members: Sequence[Priced]) -> LowestCost | None:
    priced = [m for m in members if m.individual_price is not None]
    covered = [m for m in priced if benefit_status(m.flags).covered]
    pool, among_covered = (covered, True) if covered else (priced, False)
    if not pool:
        return None
    price = min(m.individual_price for m in pool if m.individual_price is not None)
    dins = tuple(m.din for m in pool if m.individual_price is not None and abs(m.individual_price - price) < 5e-5)
    return LowestCost(dins, price, among_covered)


def lowest_cost_dins(members: Sequence[Priced]) -> set[str]:
    """DINs that are the covered lowest cost of their group (empty when no member is covered)."""
    found = lowest_cost(members)
    return set(found.dins) if found and found.among_covered else set()


def savings(price: float | None, lowest: float | None) -> float | None:
    """Per-unit saving of the lowest cost against ``price``, 4 decimals like the formulary's prices."""
    if price is None or lowest is None:
        return None
    return round(max(price - lowest, 0.0), 4)
