"""A drug the knowledge base never names, asked as the class it does name.

"58M new HTN - amlodipine ok as first drug?" over a guideline whose first-line options are "a long-acting
dihydropyridine calcium channel blocker", naming no member; "short-term lorazepam in an 80 yo - what risks?" over a
page that writes "benzodiazepines". The source answers for the class, and the guards would withhold the answer
because "the knowledge base never mentions amlodipine". A drug's class is read from its INN stem ("-dipine":
calcium channel blockers, nifedipine derivatives), a brand's from its ingredient (the offline drug lexicon:
Ativan is lorazepam). When the knowledge base holds no chunk with the drug and some with its class's words, the
question is asked with the class in the drug's place, and the answer says so: what a source says of a class may
not hold for every member.

Stems and their classes: WHO, "The use of stems in the selection of International Nonproprietary Names (INN) for
pharmaceutical substances" (WHO/EMP/RHT/TSN/2018.1). Each class is written the ways sources write it, most
specific first; the first the knowledge base holds is asked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from curbside import drug_lexicon
from curbside.llm.extractive import asked_kind

__all__ = ["CLASSES", "DrugClass", "class_warning", "drug_classes", "with_drug_classes"]

CLASSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("dipine", ("dihydropyridine calcium channel blocker", "calcium channel blocker")),  # nifedipine derivatives
    ("pril", ("ACE inhibitor", "angiotensin-converting enzyme inhibitor")),
    ("sartan", ("angiotensin receptor blocker", "angiotensin II receptor antagonist")),
    ("azepam", ("benzodiazepine",)),  # diazepam derivatives
    ("azolam", ("benzodiazepine",)),  # benzodiazepine derivatives (alprazolam, midazolam, triazolam)
    ("thiazide", ("thiazide diuretic", "thiazide")),  # chlorothiazide derivatives (hydrochlorothiazide)
    ("pamide", ("thiazide-like diuretic", "diuretic")),  # sulfamoylbenzoic acid diuretics (indapamide)
    ("olol", ("beta-blocker", "beta blocker")),  # beta-adrenoreceptor antagonists
    ("vastatin", ("statin", "HMG-CoA reductase inhibitor")),
    ("prazole", ("proton pump inhibitor",)),  # antiulcer agents, benzimidazole derivatives
    ("triptan", ("triptan",)),  # 5-HT1 receptor agonists, sumatriptan derivatives
    ("profen", ("NSAID", "nonsteroidal anti-inflammatory")),  # anti-inflammatory agents, ibuprofen derivatives
    ("coxib", ("NSAID", "COX-2 inhibitor")),  # selective cyclo-oxygenase inhibitors
    ("setron", ("5-HT3 antagonist",)),  # serotonin 5-HT3 receptor antagonists
    ("gliflozin", ("SGLT2 inhibitor",)),  # sodium glucose co-transporter inhibitors
    ("gliptin", ("DPP-4 inhibitor",)),  # dipeptidyl aminopeptidase-IV inhibitors
    ("glutide", ("GLP-1 receptor agonist",)),  # glucagon-like peptide analogues
    ("xaban", ("direct oral anticoagulant",)),  # blood coagulation factor Xa inhibitors
)
STEM_MIN = 7  # letters of a drug name ending in a stem: "nifedipine", "ramipril"; not "april"

_WORD = re.compile(r"[A-Za-z][a-z]{3,}")  # a name as written, brand capitals or not
_STRENGTH = re.compile(r"\d\s*(?:mg|mcg|µg|g|ml|units?)\b", re.I)  # "norvasc 5 or 10 mg": a member's strength

# how many chunks of the knowledge base hold each word or phrase (``SearchEngine.word_frequencies``)
Frequencies = Callable[[Sequence[str]], Mapping[str, int]]


@dataclass(frozen=True, slots=True)
class DrugClass:
    written: str  # the drug as the question writes it: "Ativan", "amlodipine"
    ingredient: str  # "lorazepam"
    stem: str  # "azepam"
    name: str  # the class as the knowledge base writes it: "benzodiazepine"


def _stem_of(name: str) -> tuple[str, tuple[str, ...]] | None:
    if len(name) < STEM_MIN or not name.isalpha():
        return None
    return next(((stem, said) for stem, said in CLASSES if name.endswith(stem)), None)


def drug_classes(text: str, frequencies: Frequencies) -> list[DrugClass]:
    """The drugs of ``text`` the knowledge base lacks whose class it holds, each with the class's words it holds;
    empty when every word is known (the lexicon is not read then), and for a question asking a dose or giving a
    strength ("norvasc 5 or 10 mg to start?"): a class has no dose."""
    words = list(dict.fromkeys(_WORD.findall(text)))
    if not words or asked_kind(text) == "dose" or _STRENGTH.search(text):
        return []  # a dose or a strength belongs to the drug: what a source gives for its class is no answer
    held = frequencies([w.lower() for w in words])
    found: list[tuple[str, str, str, tuple[str, ...]]] = []
    for word in words:
        if held.get(word.lower()):
            continue
        ingredient = (drug_lexicon.ingredient_of(word) or "").lower()
        stemmed = _stem_of(ingredient) if ingredient and "/" not in ingredient else None
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
