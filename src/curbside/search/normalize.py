"""One form for a query, whatever the keyboard produced: NFKC, no invisible characters.

Full-width letters and digits ("ＨＴＮ", "２５ mg", common from East Asian input methods) become
their ASCII forms under NFKC, and zero-width spaces, joiners, soft hyphens and byte-order marks
(Unicode format characters, category Cf) are dropped: otherwise "HTN" with a zero-width space
inside matches neither the abbreviation list nor a single BM25 term.
"""

from __future__ import annotations

import unicodedata

__all__ = ["normalize_query"]


def normalize_query(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text)
    visible = "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")
    return " ".join(visible.split())
