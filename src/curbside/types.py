"""Boundary models shared by several packages.

``Passage`` is what search returns and what every later caller (answers,
citations, tools) cites: it carries everything a citation needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from curbside.settings import QUERY_CEILING

__all__ = [
    "MAX_FINDING_CHARS",
    "Answer",
    "AskRequest",
    "AnswerStatus",
    "Citation",
    "Passage",
    "SearchFilters",
    "SearchResponse",
    "SourcePassage",
    "SourcePassages",
    "ToolAuditEvent",
    "ToolCaller",
]

ToolStatus = Literal["ok", "error", "timeout", "denied", "rate_limited", "needs_confirmation"]


class ToolCaller(BaseModel):
    """Who is calling: travels with every call (permission, rate limit, audit)."""

    model_config = ConfigDict(frozen=True)

    user: str = Field(min_length=1)
    role: str = Field(min_length=1)
    session: str | None = None
    channel: str | None = Field(None, description="Where the call came in: http, mcp-http, mcp-stdio, cli.")


@dataclass(frozen=True)
class ToolAuditEvent:
    """One call as the audit trail sees it.

    Argument values are not kept: they may hold PHI in any field. Their names and a
    digest of the canonical JSON identify the call.
    """

    call_id: str
    tool: str
    user: str
    role: str
    session: str | None
    status: ToolStatus
    error_code: str | None
    duration_ms: float
    requires_phi: bool
    confirmed: bool
    argument_names: tuple[str, ...]
    arguments_sha256: str
    channel: str | None = None
    at: datetime = field(default_factory=lambda: datetime.now(UTC))
    confirmation_id: str | None = None  # links a call waiting for approval to its decision
    result_refs: dict[str, str] | None = None  # the tool's audit_fields (a created resource's type and id)


class Passage(BaseModel):
    """One retrieved chunk, ready to be cited."""

    chunk_id: str = Field(description="Stable id: '{doc_key}:v{version}:{ordinal}'.")
    doc_key: str
    title: str = Field(description="Document title.")
    section_path: str = Field(description="Title path below the document, 'Chapter > Section'.")
    page: int | None = Field(None, description="First page of the passage, 1-based, where known.")
    page_end: int | None = None
    score: float = Field(description="Fused ranking score (higher is better); orders hits, means nothing alone.")
    similarity: float | None = Field(None, description="Dense cosine similarity to the query.")
    relevance: float | None = Field(
        None,
        ge=0.0,
        le=1.0,
        description="Calibrated probability that the passage is relevant to the query (search/relevance.py); "
        "none when the embedding model has no fitted calibration.",
    )
    dense_rank: int | None = Field(None, description="Rank from the dense retriever (1 = first), if it found it.")
    lexical_rank: int | None = Field(None, description="Rank from the keyword (BM25) retriever, if it found it.")
    text: str = Field(description="Full chunk text, starting with its title path.")
    source_type: str | None = None
    specialty: str | None = None
    version: int = 1
    namespace: str = "kb"

    @property
    def body(self) -> str:
        """The chunk text without its title-path line."""
        # the chunker writes a title-path line first unless the document has neither title nor sections
        has_path_line = bool(self.title.strip() or self.section_path.strip())
        return self.text.split("\n\n", 1)[-1] if has_path_line else self.text

    def excerpt(self, limit: int = 300) -> str:
        """The chunk body on one line, without its title-path line, cut at a word boundary."""
        body = " ".join(self.body.split())
        if len(body) <= limit:
            return body
        cut = body[:limit].rsplit(" ", 1)[0]
        return cut + " …"


class SearchFilters(BaseModel):
    """Metadata filters; each is applied only when set."""

    source_type: str | None = None
    specialty: str | None = None
    doc_key: str | None = None
    namespace: str = "kb"


class SearchResponse(BaseModel):
    query: str
    expanded_query: str
    mode: str
    hits: list[Passage]
    specialty_hint: list[str] = Field(default_factory=list)
    reranker: str = Field("none", description="Reranker used, or 'none'.")
    warnings: list[str] = Field(default_factory=list)
    took_ms: float = 0.0


RelevanceLabel = Literal["high", "medium", "low"]


def relevance_label(probability: float) -> RelevanceLabel:
    """high ≥ 0.7 > medium ≥ 0.4 > low: the bands a reader is shown beside a relevance probability."""
    if probability >= 0.7:
        return "high"
    return "medium" if probability >= 0.4 else "low"


class Citation(BaseModel):
    """A numbered pointer from an answer to a passage the reader can open.

    Every later tool cites with this type; ``chunk_id`` opens the full passage
    (``GET /v1/passages`` or the ``source.passages`` tool).
    """

    n: int = Field(ge=1, description="The marker number used in the answer text, [n].")
    chunk_id: str
    doc_key: str
    title: str
    section_path: str = ""
    page: int | None = None
    score: float = Field(description="Fused ranking score of the cited passage: orders hits, means nothing alone.")
    relevance: float | None = Field(
        None, description="Calibrated probability (0-1) that the passage is relevant to the question; none when the "
        "embedding model has no fitted calibration."
    )
    relevance_label: RelevanceLabel | None = Field(
        None, description="The relevance as a reader reads it: high (≥ 0.7), medium (≥ 0.4), low."
    )
    excerpt: str = Field(description="The cited passage, shortened to one line.")

    @classmethod
    def from_passage(cls, n: int, passage: Passage, excerpt: str | None = None) -> Citation:
        return cls(
            n=n,
            chunk_id=passage.chunk_id,
            doc_key=passage.doc_key,
            title=passage.title,
            section_path=passage.section_path,
            page=passage.page,
            score=round(passage.score, 6),
            relevance=passage.relevance,
            relevance_label=relevance_label(passage.relevance) if passage.relevance is not None else None,
            excerpt=excerpt if excerpt is not None else passage.excerpt(),
        )


class SourcePassage(BaseModel):
    """A stored passage opened by chunk id ("show source")."""

    chunk_id: str
    text: str = Field(description="Full passage text, untruncated.")
    source: str = Field(description="Source document title.")
    doc_key: str
    page: int | None = None
    page_end: int | None = None
    section: str = Field("", description="Section reference (title path below the document).")
    namespace: str = "kb"
    version: int = 1
    highlights: list[str] = Field(
        default_factory=list, description="Up to five snippets with **term** marked, 50 characters either side."
    )


class SourcePassages(BaseModel):
    passages: list[SourcePassage]
    total_chunks: int
    missing: list[str] = Field(default_factory=list, description="Requested chunk ids that are not stored.")


AnswerStatus = Literal["answered", "no_source", "clarify", "degraded"]


class Answer(BaseModel):
    """What a clinician reads: a short answer whose every [n] points at a citation."""

    status: AnswerStatus = Field(
        description=(
            "answered; no_source (no passage is relevant enough: nothing is guessed); clarify (the question "
            "needs a qualifier, see clarifying_question); degraded (a part failed, e.g. the model: the "
            "extractive answer is given instead, see warnings)."
        )
    )
    answer: str = Field(description="The answer text with [n] markers; empty when status is clarify.")
    citations: list[Citation] = Field(default_factory=list)
    clarifying_question: str | None = None
    warnings: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)


# hard ceilings the schema states; the settings set the working limits below them
QUESTION_CEILING = QUERY_CEILING  # CURBSIDE_MAX_QUERY_CHARS may not exceed it
MAX_FINDING_CHARS = 300  # a condition or one clinical finding
PATIENT_CONTEXT_CEILING = 200_000  # nor CURBSIDE_MAX_PATIENT_CONTEXT_CHARS
_Finding = Annotated[str, StringConstraints(min_length=1, max_length=MAX_FINDING_CHARS)]
_Filter = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class AskRequest(BaseModel):
    """A question, or a diagnosed condition with clinical findings, or both (at least one of the two)."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(
        "",
        max_length=QUESTION_CEILING,
        description="The clinical question; at most CURBSIDE_MAX_QUERY_CHARS characters (default 2,000), "
        "the condition and findings included. May be empty only when `condition` is given.",
    )
    condition: str | None = Field(
        None, min_length=1, max_length=MAX_FINDING_CHARS, description="Diagnosed condition, e.g. 'malaria'."
    )
    findings: list[_Finding] = Field(
        default_factory=list,
        max_length=100,
        description="Clinical findings, e.g. ['pregnant', 'first trimester']; they need a condition, and at most "
        "CURBSIDE_MAX_FINDINGS (default 20) are accepted.",
    )
    k: int | None = Field(None, ge=1, le=20, description="Passages to answer from (default 5).")
    source_type: _Filter | None = None
    specialty: _Filter | None = None
    doc_key: _Filter | None = None
    namespace: _Filter = Field(
        "kb", description="Search namespace: 'kb' (ingested documents) or e.g. 'odb' (formulary passages)."
    )
    use_llm: bool = Field(True, description="False forces the extractive answer even when a model is configured.")
    patient_context: str | None = Field(
        None,
        max_length=PATIENT_CONTEXT_CEILING,
        description="Chart facts for this patient (may hold PHI), at most CURBSIDE_MAX_PATIENT_CONTEXT_CHARS "
        "characters (default 20,000). Given to the model with the passages, never searched; a prompt holding "
        "PHI never reaches the cloud endpoint.",
    )
