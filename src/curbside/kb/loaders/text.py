"""Plain text: paragraphs split on blank lines, one section, title from the file name.

Bullet and numbered lines are list items and capitalised "Label: value" lines labels
(``join_units``); citation lines are left out.
"""

from __future__ import annotations

import re
from pathlib import Path

from curbside.kb.document import Block, LoadedDocument, Section
from curbside.kb.loaders import decode_text, join_units, readable_stem


def load(path: Path, data: bytes) -> LoadedDocument:
    text = decode_text(path, data).replace("\r\n", "\n").replace("\r", "\n")
    root = Section(title=None)
    # A form feed is a page break in exported text: treat it as a paragraph break.
    for paragraph in re.split(r"\n\s*\n|\f", text):
        root.blocks.extend(Block(text=t, kind=k) for t, k in join_units(paragraph.split("\n")))
    return LoadedDocument(title=readable_stem(path), root=root, format="text")
