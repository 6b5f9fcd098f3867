"""Plain text: paragraphs split on blank lines, one section, title from the file name."""

from __future__ import annotations

import re
from pathlib import Path

from curbside.kb.document import Block, LoadedDocument, Section
from curbside.kb.loaders import decode_text, join_lines, readable_stem


def load(path: Path, data: bytes) -> LoadedDocument:
    text = decode_text(path, data).replace("\r\n", "\n").replace("\r", "\n")
    root = Section(title=None)
    # A form feed is a page break in exported text: treat it as a paragraph break.
    for paragraph in re.split(r"\n\s*\n|\f", text):
        root.blocks.extend(Block(text=b) for b in join_lines(paragraph.split("\n")))
    return LoadedDocument(title=readable_stem(path), root=root, format="text")
