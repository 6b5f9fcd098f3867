"""Passage text every coverage source shares: the stored original of a built document, and short snippets.

Each source builds its passages as a section tree (``LoadedDocument``) and
ingests it directly; the Markdown written here is the document's stored
original, the text a reindex re-chunks. Snippets are what an answer quotes as
its context.
"""

from __future__ import annotations

import re

from curbside.kb.document import LoadedDocument, Section
from curbside.kb.ingest import PreparedDocument

__all__ = ["CONTEXT_CHARS", "markdown", "prepared_document", "slug", "snippet"]

CONTEXT_CHARS = 500


def prepared_document(key: str, loaded: LoadedDocument) -> PreparedDocument:
    """A built tree ready to ingest under ``key``, with its Markdown as the stored original."""
    return PreparedDocument(key, f"{key}.md", markdown(loaded).encode("utf-8"), loaded)


def markdown(doc: LoadedDocument) -> str:
    """The tree as Markdown: a heading per titled section (one level deeper per level), then its blocks."""
    out = [f"# {doc.title}"]

    def walk(section: Section, level: int) -> None:
        if section.title:
            out.append(f"{'#' * level} {section.title}")
        out.extend(block.text for block in section.blocks)
        for child in section.children:
            walk(child, level + 1 if section.title else level)

    walk(doc.root, 2)
    return "\n\n".join(out) + "\n"


def slug(text: str, limit: int) -> str:
    """Lower-case words joined by dashes, at most ``limit`` characters: the readable part of a document key."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit]


def snippet(text: str, limit: int = CONTEXT_CHARS) -> str:
    """A passage's body (without its title-path line), cut at a word under ``limit`` characters."""
    body = text.split("\n\n", 1)[-1]
    return body if len(body) <= limit else body[:limit].rsplit(" ", 1)[0] + " …"
