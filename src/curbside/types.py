"""Boundary models shared by several packages.

``Passage`` is what search returns and what every later caller (answers,
citations, tools) cites: it carries everything a citation needs.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = ["Passage", "SearchFilters", "SearchResponse"]


class Passage(BaseModel):
    """One retrieved chunk, ready to be cited."""

    chunk_id: str = Field(description="Stable id: '{doc_key}:v{version}:{ordinal}'.")
    doc_key: str
    title: str = Field(description="Document title.")
    section_path: str = Field(description="Title path below the document, 'Chapter > Section'.")
    page: int | None = Field(None, description="First page of the passage, 1-based, where known.")
    page_end: int | None = None
    score: float = Field(description="Fused ranking score (higher is better).")
    similarity: float | None = Field(None, description="Dense cosine similarity to the query.")
    text: str = Field(description="Full chunk text, starting with its title path.")
    source_type: str | None = None
    specialty: str | None = None
    version: int = 1
    namespace: str = "kb"

    def excerpt(self, limit: int = 300) -> str:
        """The chunk body on one line, without its title-path line, cut at a word boundary."""
        # the chunker writes a title-path line first unless the document has neither title nor sections
        has_path_line = bool(self.title.strip() or self.section_path.strip())
        body = self.text.split("\n\n", 1)[-1] if has_path_line else self.text
        body = " ".join(body.split())
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
