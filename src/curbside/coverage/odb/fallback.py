"""The answer when the SQL path failed: what the ODB passages' own items state.

Only a passage item that names the asked DIN, product or ingredient counts;
the answer says it comes from the index alone, leaves out what only the
tables know (members, Limited Use criteria, alternatives) and carries the
search-only confidence.
"""

from __future__ import annotations

from curbside.coverage.confidence import ConfidenceInputs, confidence
from curbside.coverage.odb.flags import flag_table
from curbside.coverage.odb.passages import GroupFact, ProductFact, money
from curbside.coverage.odb.query import Request, norm
from curbside.coverage.odb.search_path import SearchFindings
from curbside.coverage.odb.tool import DrugCoverage, FormularyEdition, OdbGetResult
from curbside.coverage.passages import snippet
from curbside.coverage.paths import PathTrace
from curbside.types import Citation, Passage

__all__ = ["answer_from_passages"]

MAX_CITATIONS = 3


def _label(status_code: str) -> str:
    return flag_table()["status"][status_code]["label"]


def answer_from_passages(
    request: Request, found: SearchFindings | None, trace: list[PathTrace], warnings: list[str]
) -> OdbGetResult:
    result = OdbGetResult(
        query=request.question or request.text,
        summary="",
        provenance=[],
        confidence=0.0,
        formulary=None,
        trace=trace,
        warnings=warnings,
        needs_more_info=True,
    )
    if found is None or not found.passages:
        why = "; ".join(w.rstrip(".") for w in warnings)  # each warning ends in its own full stop
        result.summary = f"The formulary could not be read for this request; {why}."
        return result
    editions = [e for e in found.editions.values()]
    if editions:
        edition, date = editions[0]
        result.formulary = FormularyEdition(
            edition=edition, formulary_date=date, label=f"ODB Formulary Edition {edition} ({date})"
        )
    label = result.formulary.label if result.formulary else "ODB formulary"
    hit = _find_in_passages(request, found)
    if hit is None:
        result.summary = (
            f"The formulary tables could not be read and no indexed passage of the {label} names this drug. "
            "Try again in a moment."
        )
        return result
    passage, product, group = hit
    coverage = DrugCoverage(
        covered=None,
        status="undetermined",
        status_text="",
        status_basis="stated by an indexed passage",
        lu_required=False,
    )
    status_code = (product.status if product else None) or (group.status if group else None)
    if status_code is not None:
        entry = flag_table()["status"][status_code]
        coverage.status, coverage.covered, coverage.status_text = status_code, entry.get("covered"), entry["label"]
        coverage.lu_required = status_code == "limited_use"
    if product is not None:
        coverage.din, coverage.brand_name = product.din, product.name
        coverage.unit_price, coverage.amount_mohltc_pays = product.unit_price, product.amount_mohltc_pays
    group_name = (product.group if product else None) or (group.group if group else None)
    coverage.generic_name = (product.generic if product else None) or (group.generic if group else None)
    if group_name:
        coverage.notes = [f"Interchangeable group (as the passage names it): {group_name}."]
    coverage.therapeutic_class = passage.title.rsplit(" — ", 1)[-1] if " — " in passage.title else None
    coverage.therapeutic_subclass = passage.section_path or None
    result.coverage = coverage
    result.resolved_as = "search"
    result.provenance = ["vector"]
    supporting = [p for p in found.passages if _names_hit(p, product, group)]
    result.citations = [Citation.from_passage(i, p, p.excerpt()) for i, p in enumerate(supporting[:MAX_CITATIONS], 1)]
    result.context = [snippet(p.text) for p in supporting[:5]]
    result.confidence = confidence(ConfidenceInputs(sql_hit=False, passages=len(supporting)))
    result.needs_more_info = False
    result.warnings.append(
        f"Answered from indexed passages of the {label} only: the formulary tables were not read, so members, "
        "Limited Use criteria and alternatives are missing. Check against the formulary."
    )
    subject = f"{product.name} (DIN {product.din})" if product else group_name
    result.summary = (
        f"According to an indexed passage of the {label}, {subject} is {_label(status_code or 'undetermined')}."
    )
    if product is not None and product.unit_price is not None:
        result.summary += (
            f" Unit price {money(product.unit_price)}; the ministry pays {money(product.amount_mohltc_pays)} per unit."
        )
    if group is not None and group.lowest_cost is not None:
        result.summary += f" Lowest cost in its group: {money(group.lowest_cost)} per unit."
    return result


def _find_in_passages(
    request: Request, found: SearchFindings
) -> tuple[Passage, ProductFact | None, GroupFact | None] | None:
    """The first passage item naming the asked DIN, product or ingredient."""
    asked = norm(" ".join(filter(None, (request.question, *request.names))))
    words = set(asked.split())
    for passage in found.passages:
        facts = found.facts.get(passage.chunk_id)
        if facts is None:
            continue
        for product in facts.products.values():
            group = facts.groups.get(product.group) if product.group else None
            named = product.din == request.din or f" {norm(product.name)} " in f" {asked} "
            if named and (request.strength is None or group is None or request.strength in _squeeze(group.group)):
                return passage, product, group
        for group in facts.groups.values():
            generic = norm(group.generic).split()
            named = bool(generic) and generic[0] in words and len(generic[0]) > 3
            if named and (request.strength is None or request.strength in _squeeze(group.group)):
                return passage, None, group
    return None


def _squeeze(group_name: str) -> str:
    return group_name.lower().replace(" ", "")


def _names_hit(passage: Passage, product: ProductFact | None, group: GroupFact | None) -> bool:
    """Whether a passage speaks of the product (its DIN) or the group's ingredient (its item header)."""
    if product is not None and f"DIN {product.din}" in passage.text:
        return True
    return group is not None and f"{group.generic}: [" in passage.text
