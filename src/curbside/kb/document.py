"""The section tree every loader produces and the chunker consumes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

__all__ = ["BLOCK_KINDS", "Block", "BlockKind", "LoadedDocument", "Section"]

# What a block is. Every kind but "paragraph" is a unit read on its own line:
#   list_item  one list item, nested items and a lead-in folded in ("Usual: MDD: 50-100 mg daily; …")
#   table_row  one table row with its column headers ("Drug: sertraline; Initial dose: 25 mg")
#   label      a "Label: value" line ("Depression: 6-12 months after symptom remission")
#   heading    a short emphasised line that titles what follows but opens no section
#   caption    a table or figure caption (label and title)
#   code       preformatted text; its line breaks are kept
BlockKind = Literal["paragraph", "list_item", "table_row", "label", "heading", "caption", "code"]
BLOCK_KINDS: tuple[str, ...] = get_args(BlockKind)


@dataclass(slots=True)
class Block:
    """A unit of text the chunker keeps whole when it fits: a paragraph, list item, table row …"""

    text: str
    page: int | None = None  # 1-based page number where the format has pages
    kind: BlockKind = "paragraph"


@dataclass(slots=True)
class Section:
    """A titled section: its own blocks, then its child sections, in document order."""

    title: str | None
    blocks: list[Block] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)

    def walk(self) -> list[Section]:
        """This section and all its descendants, depth first."""
        out = [self]
        for child in self.children:
            out.extend(child.walk())
        return out

    def is_empty(self) -> bool:
        return all(not b.text.strip() for s in self.walk() for b in s.blocks)


@dataclass(slots=True)
class LoadedDocument:
    """What a loader returns.

    ``title`` is the document (or book) title; ``root`` holds the body. Title paths
    in chunks are ``title > section > subsection``. ``warnings`` carry facts the
    user should see (e.g. "page 3 has no text layer").
    """

    title: str
    root: Section
    format: str  # pdf | docx | html | nxml | markdown | text
    warnings: list[str] = field(default_factory=list)
    page_count: int | None = None
    metadata: dict[str, str] = field(default_factory=dict)
