"""The section tree every loader produces and the chunker consumes."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Block", "LoadedDocument", "Section"]


@dataclass(slots=True)
class Block:
    """A paragraph-level piece of text (paragraph, list item, table row group)."""

    text: str
    page: int | None = None  # 1-based page number where the format has pages


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
