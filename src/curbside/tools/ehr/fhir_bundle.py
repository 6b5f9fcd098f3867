"""Search results as FHIR returns them: ``searchset`` bundles, one page each, linked by ``next``.

An entry's ``search.mode`` says why it is there: ``match`` (it fits the search), ``include``
(pulled in by ``_include`` / ``_revinclude``) or ``outcome`` (an OperationOutcome with the
server's warnings, e.g. a parameter it ignored).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from curbside.tools.ehr.fhir_errors import OutcomeIssue, outcome_issues_of

__all__ = ["SearchPage", "SearchResult", "read_page"]

Resource = dict[str, Any]


@dataclass(frozen=True)
class SearchPage:
    """One page of a search."""

    number: int  # 1 for the first page
    matches: list[Resource]
    included: list[Resource]
    warnings: tuple[OutcomeIssue, ...]
    total: int | None  # Bundle.total, when the server counts
    next_url: str | None


@dataclass
class SearchResult:
    """Every page read, up to the page limit and the cap on matches."""

    matches: list[Resource] = field(default_factory=list)
    included: list[Resource] = field(default_factory=list)
    warnings: list[OutcomeIssue] = field(default_factory=list)
    total: int | None = None
    pages: int = 0
    truncated: bool = False  # more matches were on the server than were read (page limit or cap)

    def included_by_reference(self) -> dict[str, Resource]:
        """Included resources keyed the way references name them: ``Patient/123``."""
        return {f"{r['resourceType']}/{r['id']}": r for r in self.included if r.get("id")}


def read_page(bundle: Resource, number: int) -> SearchPage:
    """The parts of a searchset bundle a caller uses. Entries without ``search.mode`` count as matches
    (servers need not set it); an OperationOutcome entry is a warning, whatever its mode."""
    matches: list[Resource] = []
    included: list[Resource] = []
    warnings: list[OutcomeIssue] = []
    for entry in bundle.get("entry") or ():
        resource = entry.get("resource") if isinstance(entry, dict) else None
        if not isinstance(resource, dict):
            continue
        mode = (entry.get("search") or {}).get("mode", "match")
        if resource.get("resourceType") == "OperationOutcome" or mode == "outcome":
            warnings.extend(outcome_issues_of(resource))
        elif mode == "include":
            included.append(resource)
        else:
            matches.append(resource)
    total = bundle.get("total")
    return SearchPage(
        number=number,
        matches=matches,
        included=included,
        warnings=tuple(warnings),
        total=total if isinstance(total, int) else None,
        next_url=_next_link(bundle),
    )


def _next_link(bundle: Resource) -> str | None:
    for link in bundle.get("link") or ():
        if isinstance(link, dict) and link.get("relation") == "next" and isinstance(link.get("url"), str):
            return str(link["url"])
    return None
