"""A name written with its number joined on, as the knowledge base writes it apart: 'phq9' -> 'PHQ-9'.

Clinicians type "gad7 came back 7" and "phq9 of 16"; the CEP page writes "GAD-7" and "PHQ-9", which the
lexical index holds as 'gad' and '7'. The joined word matches nothing, and the question's few other words
("came back", "classify") found no passage relevant enough: no answer, or an answer about something else. A
word of two to five letters and a number is written apart when the knowledge base lacks it as typed and holds
its letters ('cd4', held as typed, stays); the pipeline replaces it as it replaces a brand name
(``generic_names.with_generic_names``).
"""

from __future__ import annotations

import re

from curbside.ask.generic_names import Frequencies

__all__ = ["joined_numbers"]

_JOINED = re.compile(r"\b([A-Za-z]{2,5})(\d{1,2})\b")


def joined_numbers(text: str, frequencies: Frequencies) -> list[tuple[str, str]]:
    """(word as written, written apart) for each joined name in ``text`` the knowledge base holds apart only."""
    found = {m.group(0): (m.group(1), m.group(2)) for m in _JOINED.finditer(text)}
    if not found:
        return []
    held = frequencies([w.lower() for w in found] + [letters.lower() for letters, _ in found.values()])
    return [
        (word, f"{letters.upper()}-{number}")
        for word, (letters, number) in found.items()
        if not held.get(word.lower()) and held.get(letters.lower())
    ]
