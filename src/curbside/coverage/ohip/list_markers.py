"""List markers the text extraction glued to their item's first word, spaced again for quoting.

The Schedule's text file loses the space after a list marker: "b.Grade III or IV haemorrhoids" (S28),
"3.R081 with or without E524 is eligible for payment at 85% …" (M7). Quoted so, the item's first word is not
a word of its own (a reader searching the answer for "Grade III" or "R081" does not find it). The marker is
spaced; abbreviations ('e.g.', 'i.e.', 'a.m.') and decimals ('1.5') are left as printed.
"""

from __future__ import annotations

import re

__all__ = ["spaced_markers"]

# a one-letter, roman or one- or two-digit marker after a space, a bracket or the start, then a word that is not
# itself a one-letter abbreviation ('e.g.')
_GLUED = re.compile(r"(?<![\w.,])([a-z]|[ivx]{2,4}|\d{1,2})\.(?=[A-Za-z](?![.]))")


def spaced_markers(text: str) -> str:
    return _GLUED.sub(r"\1. ", text)
