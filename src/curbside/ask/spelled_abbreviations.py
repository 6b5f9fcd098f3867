"""An abbreviation the knowledge base never writes, asked as what it stands for: 'TD' -> 'tardive dyskinesia'.

Clinicians write "long term abilify - is TD flagged?"; the CEP page lists "tardive dyskinesia" on the aripiprazole
card and never writes "TD". The search expands the abbreviation (``search.enhance``), but the answer's choice of
lines and the guards read the question's own words: 'td' is in no line, so the side-effect line is not chosen
and a line about "TdP" is. When the knowledge base lacks the abbreviation as typed and holds what it stands for
(by the search layer's reading, ``search.enhance.spelled_out``), the question is asked with the words written
out, as a brand name is asked as its ingredient (``generic_names.with_generic_names``). An abbreviation the
knowledge base uses itself ('SSRI', 'GAD') stays as typed.
"""

from __future__ import annotations

import re

from curbside.ask.generic_names import Frequencies
from curbside.search.enhance import spelled_out

__all__ = ["spelled_abbreviations"]

_TOKEN = re.compile(r"\b[A-Za-z][A-Za-z0-9]{1,7}\b")


def spelled_abbreviations(text: str, frequencies: Frequencies) -> list[tuple[str, str]]:
    """(abbreviation as written, what it stands for) for each abbreviation in ``text`` the knowledge base lacks
    while it holds the words written out."""
    found = {word: meaning for word in dict.fromkeys(_TOKEN.findall(text)) if (meaning := spelled_out(word))}
    found = {word: meaning for word, meaning in found.items() if meaning.casefold() not in text.casefold()}
    if not found:
        return []
    held = frequencies([w.lower() for w in found] + [m.lower() for m in found.values()])
    return [
        (word, meaning) for word, meaning in found.items() if not held.get(word.lower()) and held.get(meaning.lower())
    ]
