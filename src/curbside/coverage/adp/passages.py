"""ADP passages: the manuals as searchable, citable text in their own ``adp`` namespace.

One document per manual, titled with its edition ("Mobility Devices Policy and
Administration Manual (July 2023)"), a section per part and per policy, and a
block per numbered paragraph split where the page turns, so every chunk knows
its pages. Each block starts with its paragraph id ("305.01 Unless noted
otherwise …"): ``paragraph_ids`` reads the ids back from a chunk, and the
section id is the start of the chunk's last title ("305 Funding Available to
Clients"). The stored original is the same tree as Markdown (what a reindex
re-chunks; it keeps the ids, though not the page numbers).
"""

from __future__ import annotations

import re

from curbside.coverage.adp.parse import ManualSection, ParsedManual
from curbside.coverage.passages import prepared_document
from curbside.kb.document import Block, LoadedDocument, Section
from curbside.kb.ingest import PreparedDocument

__all__ = [
    "DOC_PREFIX",
    "NAMESPACE",
    "SOURCE_TYPE",
    "build_documents",
    "doc_key",
    "paragraph_ids",
    "section_id_of",
]

NAMESPACE = "adp"
SOURCE_TYPE = "policy_manual"
DOC_PREFIX = "adp-"
_PARAGRAPH_ID = re.compile(r"(?m)^(\d{3,4}(?:\.\d{2})?|Appendix [A-Z]|Part \d{1,2})\s")
_SECTION_ID = re.compile(r"^(\d{3,4}(?:\.\d{2})?|Appendix [A-Z])\b")


def doc_key(manual_key: str) -> str:
    return f"{DOC_PREFIX}{manual_key}"


def _blocks(section: ManualSection) -> list[Block]:
    blocks: list[Block] = []
    for paragraph in section.paragraphs:
        for n, (page, text) in enumerate(paragraph.pieces_by_page()):
            # the id leads the paragraph's first piece; a piece on the next page says it continues
            head = paragraph.paragraph_id if n == 0 else f"{paragraph.paragraph_id} (continued)"
            blocks.append(Block(f"{head} {text}", page=page))
    return blocks


def build_documents(manuals: list[ParsedManual]) -> list[PreparedDocument]:
    docs: list[PreparedDocument] = []
    for manual in manuals:
        root = Section(title=None)
        parts: dict[str, Section] = {}
        for section in manual.sections:
            blocks = _blocks(section)
            if not blocks:
                continue
            holder = root
            if section.part:
                if section.part not in parts:
                    parts[section.part] = Section(title=section.part)
                    root.children.append(parts[section.part])
                holder = parts[section.part]
            if section.introduces_part and holder is not root:  # the part's own text, before its first policy
                holder.blocks.extend(blocks)
            else:
                holder.children.append(Section(title=section.heading, blocks=blocks))
        loaded = LoadedDocument(title=manual.label, root=root, format="pdf", page_count=manual.page_count)
        key = doc_key(manual.key)
        docs.append(prepared_document(key, loaded))
    return docs


def paragraph_ids(text: str) -> list[str]:
    """The paragraph ids a chunk holds, in order ('305.00', '305.01', or '705' for an unnumbered section)."""
    return list(dict.fromkeys(_PARAGRAPH_ID.findall(text)))


def section_id_of(section_path: str) -> str | None:
    """'Part 3: Clients > 305 Funding Available to Clients' -> '305'."""
    last = section_path.rsplit(" > ", 1)[-1]
    match = _SECTION_ID.match(last)
    return match.group(1) if match else None
