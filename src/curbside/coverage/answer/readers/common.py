"""Pieces every reader shares: the finding a tool's answer starts, citations in either shape, its conflicts."""

from __future__ import annotations

from typing import Any, Protocol

from curbside.coverage.answer.findings import DomainFinding
from curbside.coverage.answer.models import AnswerConflict, Decision, Domain, SourceRef

__all__ = ["ToolAnswer", "conflicts_from", "refs_from", "tool_finding"]


class ToolAnswer(Protocol):
    """What every coverage tool's result states besides its domain's facts."""

    confidence: float
    summary: str
    provenance: list[Any]
    warnings: list[str]


def tool_finding(
    domain: Domain, tool: str, decision: Decision, answer: ToolAnswer, conflicts: list[AnswerConflict]
) -> DomainFinding:
    """An answered call's finding before its domain's points: decision, confidence, summary, warnings, conflicts."""
    return DomainFinding(
        domain=domain,
        tool=tool,
        status="ok",
        decision=decision,
        confidence=answer.confidence,
        summary=answer.summary,
        needs_more_info=decision == "needs_more_info",
        provenance=list(answer.provenance),
        warnings=list(answer.warnings),
        conflicts=conflicts,
    )


def refs_from(citations: list[dict[str, Any]], tool: str) -> list[SourceRef]:
    """Curbside citations (title, section_path, chunk_id) or the spec's (source, loc, page)."""
    refs = []
    for c in citations:
        source = c.get("source") or c.get("title") or c.get("doc_key") or tool
        loc = c.get("loc") or c.get("section_path") or c.get("section") or ""
        page = c.get("page") if isinstance(c.get("page"), int) else None
        refs.append(
            SourceRef(
                source=str(source),
                loc=str(loc),
                page=page,
                chunk_id=c.get("chunk_id"),
                excerpt=str(c.get("excerpt") or ""),
                tool=tool,
            )
        )
    return refs


def conflicts_from(conflicts: list[dict[str, Any]], tool: str) -> list[AnswerConflict]:
    return [
        AnswerConflict(
            field=str(c.get("field", "")),
            subject=str(c.get("subject", "")),
            tool=tool,
            sql_value=c.get("sql_value"),
            vector_value=c.get("vector_value"),
            resolution=str(c.get("resolution") or "Reported by the tool; the structured value was kept."),
        )
        for c in conflicts
    ]
