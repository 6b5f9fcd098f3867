"""The answer from the tools' results: each fact with its ``[n]`` marker, numbered sources (with a
reference in the session's citation style where the source is a document), and the answer as events."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curbside.agent.models import TurnCitation
from curbside.agent.render import Source
from curbside.agent.stream import AnswerStream, sentence_pieces
from curbside.sessions.citations import Reference, format_citation

if TYPE_CHECKING:
    from curbside.agent.planner import Plan
    from curbside.agent.state import TurnState

__all__ = ["draft_answer", "model_may_write", "stream_text"]


def draft_answer(state: TurnState, plan: Plan) -> tuple[list[str], list[TurnCitation]]:
    """The answer from the tools' results, each fact with its marker: what a model may only reword."""
    sentences: list[str] = []
    citations: list[TurnCitation] = []
    numbered: dict[tuple[str, str | None, str], int] = {}
    style = state.preferences.citation_style if state.preferences is not None else "vancouver"
    if plan.direct:
        sentences.append(plan.direct)
    for _, rendered in state.rendered:
        for text, source in rendered.lines:
            if not text:
                continue
            if source is None:
                sentences.append(text)
                continue
            n = _number(source, numbered, citations, style)
            sentences.append(_with_marker(text, n))
    for write in state.writes:
        if write.outcome == "waiting" and write.confirmation is not None:
            sentences.append(f"Proposed, waiting for your approval ({write.confirmation.id}): {write.summary}.")
        elif write.outcome == "approved":
            sentences.append(f"Written after approval: {write.summary} ({write.resource}).")
        else:
            sentences.append(f"Not written: {write.summary}.")
    sentences.extend(dict.fromkeys(state.skipped))
    for reason in plan.cannot:
        sentences.append(f"I cannot do this here: {reason}.")
    if plan.clarify:
        sentences.append(plan.clarify)
    return sentences, citations


def model_may_write(state: TurnState, plan: Plan, citations: list[TurnCitation]) -> bool:
    """Only an answer of cited tool results is reworded. Writes, refusals and questions keep their exact
    words; so does an answer citing nothing ("the knowledge base holds nothing relevant"), which a model
    would otherwise turn into a judgement no source supports."""
    if not (state.rendered and citations):
        return False
    return not (state.writes or state.skipped or plan.cannot or plan.clarify or plan.direct)


async def stream_text(state: TurnState, text: str, citations: list[TurnCitation]) -> None:
    if state.on_event is None:
        return
    stream = AnswerStream(state.on_event, citations)
    for piece in sentence_pieces(text):
        await stream.feed(piece)
    await stream.close()


def _number(
    source: Source, numbered: dict[tuple[str, str | None, str], int], citations: list[TurnCitation], style: str
) -> int:
    key = (source.tool, source.id, source.title)
    if key not in numbered:
        numbered[key] = len(citations) + 1
        kind = "passage" if source.tool in ("kb.ask", "evidence.search_medical_guidelines") else "tool"
        citations.append(
            TurnCitation(
                n=numbered[key],
                kind=kind,
                title=source.title,
                tool=source.tool,
                id=source.id,
                url=source.url,
                detail=source.detail,
                reference=_reference(source, style),
                **_relevance_and_year(source.record),
            )
        )
    return numbered[key]


def _relevance_and_year(record: dict[str, Any] | None) -> dict[str, Any]:
    """A passage's calibrated relevance and an article's year, where the tool's row gives them."""
    if not record:
        return {}
    relevance = record.get("relevance")
    year = record.get("year")
    return {
        "relevance": relevance if isinstance(relevance, int | float) else None,
        "relevance_label": record.get("relevance_label"),
        "year": int(year) if isinstance(year, int | str) and str(year).isdigit() else None,
    }


def _reference(source: Source, style: str) -> str | None:
    """The source as a reference in ``style``, when it is a document (an article, a guideline, a passage)."""
    if source.record is None:
        return None
    return format_citation(Reference.from_record(source.record), style)


def _with_marker(text: str, n: int) -> str:
    text = text.rstrip()
    if text.endswith((".", "!", "?")):
        return f"{text[:-1]} [{n}]{text[-1]}"
    return f"{text} [{n}]"
