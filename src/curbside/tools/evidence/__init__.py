"""The evidence and drug-safety family (#16): literature, trials, drug labels, adverse events,
guideline search, and two slots that stay off until configured.

``register(registry, deps)`` puts every tool of the family in the registry; nothing is sent
anywhere until a tool is called, and every outside call goes through the shared outbound client
(PHI screen, pacing, cache, retries, circuit breaker).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from curbside.tools.evidence.common import Citation, EvidenceDeps

if TYPE_CHECKING:
    from curbside.tools.registry import ToolRegistry

__all__ = ["Citation", "EvidenceDeps", "register"]


def register(registry: ToolRegistry, deps: EvidenceDeps) -> None:
    from curbside.tools.evidence import (
        adverse_events,
        drug_safety,
        europepmc,
        guidelines,
        interactions,
        pubmed,
        slots,
        trials,
    )

    for family in (pubmed, europepmc, trials, drug_safety, interactions, adverse_events, guidelines, slots):
        family.register(registry, deps)
