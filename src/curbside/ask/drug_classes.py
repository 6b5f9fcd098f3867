"""A drug the knowledge base never names, asked as the class it does name.

"58M new HTN - amlodipine ok as first drug?" over a guideline whose first-line options are "a long-acting
dihydropyridine calcium channel blocker", naming no member; "short-term lorazepam in an 80 yo - what risks?" over a
page that writes "benzodiazepines". The source answers for the class, and the guards would withhold the answer
because "the knowledge base never mentions amlodipine". A drug's class is read from its INN stem ("-dipine":
calcium channel blockers, nifedipine derivatives), a brand's from its ingredient (the offline drug lexicon:
Ativan is lorazepam). When the knowledge base holds no chunk with the drug and some with its class's words, the
question is asked with the class in the drug's place, and the answer says so: what a source says of a class may
not hold for every member.

Stems and their classes are ``clinical_words.STEM_CLASSES`` (WHO INN stems), each written the ways sources write
it, most specific first; the first the knowledge base holds is asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from curbside.ask.generic_names import Frequencies, unheld_drug_names
from curbside.clinical_words import STEM_CLASSES
from curbside.llm.extractive import asked_kind

__all__ = ["DrugClass", "class_warning", "drug_classes", "with_drug_classes"]

STEM_MIN = 7  # letters of a drug name ending in a stem: "nifedipine", "ramipril"; not "april"

_STRENGTH = re.compile(r"\d\s*(?:mg|mcg|µg|g|ml|units?)\b", re.I)  # "norvasc 5 or 10 mg": a member's strength


@dataclass(frozen=True, slots=True)
class DrugClass:
    written: str  # the drug as the question writes it: "Ativan", "amlodipine"
    ingredient: str  # "lorazepam"
    stem: str  # "azepam"
    name: str  # the class as the knowledge base writes it: "benzodiazepine"


def _stem_of(name: str) -> tuple[str, tuple[str, ...]] | None:
    """The INN stem ``name`` ends in and its class's written forms."""
    if len(name) < STEM_MIN or not name.isalpha():
        return None
    for drug_class in STEM_CLASSES.values():
        if drug_class.holds(name):
            return next(s for s in drug_class.stems if name.endswith(s)), drug_class.written
    return None


def drug_classes(text: str, frequencies: Frequencies) -> list[DrugClass]:
    """The drugs of ``text`` the knowledge base lacks whose class it holds, each with the class's words it holds;
    empty when every word is known (the lexicon is not read then), and for a question asking a dose or giving a
    strength ("norvasc 5 or 10 mg to start?"): a class has no dose."""
    if asked_kind(text) == "dose" or _STRENGTH.search(text):
        return []  # a dose or a strength belongs to the drug: what a source gives for its class is no answer
    found: list[tuple[str, str, str, tuple[str, ...]]] = []
    for word, ingredient in unheld_drug_names(text, frequencies):
        stemmed = _stem_of(ingredient) if "/" not in ingredient else None
        if stemmed is not None:
            found.append((word, ingredient, *stemmed))
    if not found:
        return []
    phrases = frequencies([p for *_, said in found for p in said])
    out = []
    for word, ingredient, stem, said in found:
        name = next((p for p in said if phrases.get(p)), None)
        if name is not None:
            out.append(DrugClass(word, ingredient, stem, name))
    return out


def with_drug_classes(text: str, classes: Sequence[DrugClass]) -> str:
    """``text`` with each drug replaced by its class, as whole words."""
    for drug in classes:
        text = re.sub(rf"\b{re.escape(drug.written)}\b", drug.name, text)
    return text


def class_warning(classes: Sequence[DrugClass]) -> str:
    """What the answer must say: it is about the class, not the drug asked."""
    said = "; ".join(f"{d.written} as {_article(d.name)} {d.name} (INN stem -{d.stem})" for d in classes)
    names = " or ".join(d.written for d in classes)
    return (
        f"The knowledge base never names {names}, so the question was asked of the class: {said}. "
        "Check that what the source says of the class holds for the drug."
    )


def _article(name: str) -> str:
    return "an" if name[:1].lower() in "aeio" or name[:3] == "NSA" else "a"
