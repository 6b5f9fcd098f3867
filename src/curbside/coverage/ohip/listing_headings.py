"""The headings a code's listing line sits under in the Schedule's passages, as words to find the code by.

A listing's own title often says only how it differs from its neighbours: G373 is "sole reason (first
injection)", under the heading "INTRAMUSCULAR, SUBCUTANEOUS OR INTRADERMAL" of the chapter "Injections or
Infusions" (J55); G590 "Influenza agent" is under "IMMUNIZATION". The listings table keeps one heading per
listing and not always that one, but every passage's title path has them all (``passages.build_documents``:
"OHIP Schedule 2025-03-03 — J: Injections or Infusions > INTRAMUSCULAR, SUBCUTANEOUS OR INTRADERMAL [J55]"),
so a code whose listing line is in a passage is found by its path's words too.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

__all__ = ["listing_headings"]

_LISTING_LINE = re.compile(r"(?m)^[#+]?\s?([A-Z]\d{3}) ")
_EDITION = re.compile(r"^OHIP Schedule \d{4}-\d{2}-\d{2}\s*—\s*(?:[A-Z]{1,2}:\s*)?")
_PAGE = re.compile(r"\s*\[[A-Z]{1,2}\d{0,3}\]\s*$")


def listing_headings(passages: Iterable[tuple[str, str, str]]) -> dict[str, str]:
    """code -> the title paths of the passages listing it, joined ('Injections or Infusions > IMMUNIZATION').

    ``passages``: (doc_key, section_path, text), a text starting with its title path line.
    """
    out: dict[str, dict[str, None]] = defaultdict(dict)
    for _, section_path, text in passages:
        head, _, body = text.partition("\n")
        path = _PAGE.sub("", _EDITION.sub("", head)) if head.startswith("OHIP Schedule") else section_path
        path = _PAGE.sub("", path)
        for code in _LISTING_LINE.findall(body):
            out[code][path] = None
    return {code: " | ".join(paths) for code, paths in out.items()}
