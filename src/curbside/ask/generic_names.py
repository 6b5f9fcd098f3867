"""A brand name the knowledge base never uses, read as the ingredient it does use.

Clinicians write the brand they know: "lexapro max dose?", "seroquel for augmentation?". A Canadian guideline
names "Escitalopram (Cipralex®)" and "Quetiapine (Seroquel®)" — never Lexapro — so the search finds the right card
by meaning at best, and the guards then withhold the answer because "the knowledge base never mentions lexapro".
The offline drug lexicon (``drug_lexicon``: DrugBank's names with their synonyms) says lexapro is escitalopram:
when the knowledge base holds no chunk with the brand but some with its ingredient, the question is asked with the
ingredient in the brand's place. A combination brand ('zestoretic': lisinopril/hydrochlorothiazide) is left as
written: no one ingredient is the drug asked about.

The lexicon is read (about 0.7 s, once per process) only when a question holds a word the knowledge base lacks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from curbside import drug_lexicon

__all__ = ["Frequencies", "generic_names", "unheld_drug_names", "with_generic_names"]

_WORD = re.compile(r"[A-Za-z][a-z]{3,}")  # a name as written, brand capitals or not: 'Lexapro', 'seroquel'

# how many chunks of the knowledge base hold each word or phrase (``SearchEngine.word_frequencies``)
Frequencies = Callable[[Sequence[str]], Mapping[str, int]]


def unheld_drug_names(text: str, frequencies: Frequencies) -> list[tuple[str, str]]:
    """(name as written, its ingredient in lower case) for each word of ``text`` the knowledge base never uses that
    the drug lexicon names; empty when every word is known (the lexicon is not read then)."""
    words = list(dict.fromkeys(w for w in _WORD.findall(text)))
    if not words:
        return []
    held = frequencies([w.lower() for w in words])
    unknown = [w for w in words if not held.get(w.lower())]
    return [(w, ingredient.lower()) for w in unknown if (ingredient := drug_lexicon.ingredient_of(w))]


def generic_names(text: str, frequencies: Frequencies) -> list[tuple[str, str]]:
    """(name as written, its ingredient) for each drug name in ``text`` the knowledge base lacks while it holds the
    ingredient; empty when every word is known (the lexicon is not read then)."""
    named = [(w, i) for w, i in unheld_drug_names(text, frequencies) if "/" not in i and i != w.lower()]
    if not named:
        return []
    held = frequencies([i for _, i in named])
    return [(w, i) for w, i in named if held.get(i)]


def with_generic_names(text: str, names: Sequence[tuple[str, str]]) -> str:
    """``text`` with each name replaced by its ingredient, as whole words."""
    for written, ingredient in names:
        text = re.sub(rf"\b{re.escape(written)}\b", ingredient, text)
    return text
