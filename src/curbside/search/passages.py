"""Open stored passages by chunk id, with highlighted terms ("show source").

The behaviour of ``source.passages`` in ontario-coverage-mcp-tools.md: full text,
source, page and section; each highlight term found case-insensitively, shown
with 50 characters either side cut at word boundaries and the term marked
``**term**``; at most five highlights per passage. Old versions' chunks stay
readable, so a citation made before a document changed still opens.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from curbside.errors import ValidationError
from curbside.store.documents import DocumentStore
from curbside.types import Passage, SourcePassage, SourcePassages

__all__ = ["MAX_CHUNK_IDS", "highlight_snippets", "open_passages"]

CONTEXT_CHARS = 50
MAX_HIGHLIGHTS = 5
MAX_CHUNK_IDS = 100
MAX_TERMS = 20


def open_passages(
    documents: DocumentStore, chunk_ids: Sequence[str], highlight_terms: Sequence[str] = ()
) -> SourcePassages:
    """The passages for ``chunk_ids`` in the order asked; unknown ids are listed in ``missing``."""
    ids = list(dict.fromkeys(c.strip() for c in chunk_ids if c and c.strip()))
    if not ids:
        raise ValidationError("chunk_ids is empty: give at least one chunk id, e.g. 'guideline:v1:3'.")
    if len(ids) > MAX_CHUNK_IDS:
        raise ValidationError(f"{len(ids)} chunk ids asked; at most {MAX_CHUNK_IDS} per request.")
    terms = [t.strip() for t in highlight_terms if t and t.strip()]
    if len(terms) > MAX_TERMS:
        raise ValidationError(f"{len(terms)} highlight terms given; at most {MAX_TERMS}.")
    rowids = documents.rowids_for_chunk_ids(ids)
    by_rowid = documents.passages(list(rowids.values()))
    out: list[SourcePassage] = []
    missing: list[str] = []
    for chunk_id in ids:
        rowid = rowids.get(chunk_id)
        if rowid is None or rowid not in by_rowid:
            missing.append(chunk_id)
            continue
        out.append(_source_passage(by_rowid[rowid], terms))
    return SourcePassages(passages=out, total_chunks=len(out), missing=missing)


def _source_passage(passage: Passage, terms: Sequence[str]) -> SourcePassage:
    return SourcePassage(
        chunk_id=passage.chunk_id,
        text=passage.text,
        source=passage.title or passage.doc_key,
        doc_key=passage.doc_key,
        page=passage.page,
        page_end=passage.page_end,
        section=passage.section_path,
        namespace=passage.namespace,
        version=passage.version,
        highlights=highlight_snippets(passage.text, terms),
    )


def highlight_snippets(text: str, terms: Sequence[str], limit: int = MAX_HIGHLIGHTS) -> list[str]:
    """Snippets around each occurrence of each term, in text order, the term marked ``**…**``."""
    if not terms:
        return []
    # longest first so "heart failure" wins over "heart" where both match at one place
    alternatives = sorted({t for t in terms if t}, key=len, reverse=True)
    pattern = re.compile("|".join(_term_pattern(t) for t in alternatives), re.IGNORECASE)
    snippets: list[str] = []
    for match in pattern.finditer(text):
        if len(snippets) >= limit:
            break
        snippets.append(_snippet(text, match.start(), match.end()))
    return snippets


def _term_pattern(term: str) -> str:
    escaped = re.escape(term)
    # whole words where the term starts/ends with a word character, so "ace" does not mark "replace"
    left = r"(?<!\w)" if term[0].isalnum() else ""
    right = r"(?!\w)" if term[-1].isalnum() else ""
    return f"{left}{escaped}{right}"


def _snippet(text: str, start: int, end: int) -> str:
    lo = max(0, start - CONTEXT_CHARS)
    hi = min(len(text), end + CONTEXT_CHARS)
    if lo > 0:  # move forward to a word boundary
        space = text.find(" ", lo, start)
        lo = space + 1 if space != -1 else lo
    if hi < len(text):  # move back to a word boundary
        space = text.rfind(" ", end, hi)
        hi = space if space != -1 else hi
    before, term, after = text[lo:start], text[start:end], text[end:hi]
    snippet = " ".join(f"{before}**{term}**{after}".split())
    return ("… " if lo > 0 else "") + snippet + (" …" if hi < len(text) else "")
