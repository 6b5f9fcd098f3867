"""The specialty a question implies by a practitioner's name or a clinic's short word, read off the section names.

'internist', 'paediatrician', 'psychiatrist's office', 'derm consult', 'paeds consult': each names one
section of the Schedule — "Internal and Occupational Medicine (13)", "Paediatrics (26)", "Psychiatry (19)",
"Dermatology (02)" — by a word sharing the root of a word of that section's name and of no other's. The
link is derived from the section names the store holds and English word forms (``word_forms``), so a
section the Schedule adds is found the same way. Two readings (a word whose root two names share:
'cardi…' in "Cardiology (60)" and "Cardiac Surgery (09)" for 'card') give none.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence

from curbside.coverage.ohip.query import STOP, inflection_stem, stem
from curbside.coverage.ohip.word_forms import MIN_ROOT, is_person_noun, root

__all__ = ["spoken_section", "spoken_sections"]

_CODE_IN_TITLE = re.compile(r"\(\d{2}\)")
_POSSESSIVE = re.compile(r"['’]s$")


def _section_words(sections: Sequence[tuple[int, str, str, str | None]]) -> dict[str, str]:
    """word (stemmed) -> specialty code, for the words of the specialty sections' names."""
    out: dict[str, str] = {}
    for _, _, title, code in sections:
        if code is not None:
            for word in re.findall(r"[a-z]+", _CODE_IN_TITLE.sub(" ", title.lower())):
                out.setdefault(inflection_stem(word), code)
    return out


def _distinct(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """key -> specialty code, for the keys that only one specialty's section name holds."""
    owners: dict[str, set[str]] = defaultdict(set)
    for key, code in pairs:
        owners[key].add(code)
    return {key: next(iter(codes)) for key, codes in owners.items() if len(codes) == 1}


def _section_of(word: str, names: Sequence[tuple[str, str]], known: Callable[[str], bool]) -> str | None:
    """The section ``word`` names: a practitioner noun ('internist') whose root begins the root of a word of
    that section's name alone, or a short form the Schedule never uses ('psych', 'derm', 'paeds') that begins
    a word of that section's name alone."""
    if is_person_noun(word):
        said = root(inflection_stem(word))
        roots = _distinct((root(w), code) for w, code in names if len(w) > MIN_ROOT)
        if said in roots:
            return roots[said]
        hits = {code for r, code in roots.items() if r.startswith(said)}
    elif len(inflection_stem(word)) >= MIN_ROOT and (not known(stem(word)) or _clipped(word)):
        said = inflection_stem(word)
        hits = {code for w, code in names if w.startswith(said)}
        if not hits and said.endswith("o"):  # a combining vowel closes the clipped word: 'ophtho' is 'ophth…'
            hits = {code for w, code in names if w.startswith(said[:-1])}
    else:
        return None
    return next(iter(hits)) if len(hits) == 1 else None


# wordfreq's Zipf scale: a word English hardly writes is a clinician's clipped name even where the Schedule writes a
# word of its root ('neurosurg' 1.3 beside the Schedule's 'neurosurgical'); 'clinic' (4.2) is a word of its own
CLIPPED_ZIPF = 2.0


def _clipped(word: str) -> bool:
    from wordfreq import zipf_frequency  # loaded by the tool's warm-up (``abbreviations.warm_up``)

    return bool(zipf_frequency(word, "en") < CLIPPED_ZIPF)


def spoken_section(
    words: Sequence[str], sections: Sequence[tuple[int, str, str, str | None]], known: Callable[[str], bool]
) -> tuple[str, tuple[str, ...]] | None:
    """(specialty code, the question's words naming it) for the first section the question's ``words`` name.

    ``known``: whether the Schedule uses a (stemmed) word in some form — such a word is no short form
    ('clinic' is 'clinical', not "Clinical Immunology (62)").
    """
    found = spoken_sections(words, sections, known)
    return found[0] if found else None


def spoken_sections(
    words: Sequence[str], sections: Sequence[tuple[int, str, str, str | None]], known: Callable[[str], bool]
) -> list[tuple[str, tuple[str, ...]]]:
    """(specialty code, the question's words naming it) for every section the question's ``words`` name, in the
    order the question first names them ('low vision rehab assessment by ophtho': Physical Medicine &
    Rehabilitation (31), then Ophthalmology (23))."""
    names = list(_section_words(sections).items())
    # a possessive is its noun: 'the OHCAP physician's form' names no section, as 'physician' names none
    found = [(word, None if _POSSESSIVE.sub("", word) in STOP else _section_of(word, names, known)) for word in words]
    named = dict.fromkeys(code for _, code in found if code)
    return [(code, tuple(dict.fromkeys(word for word, said in found if said == code))) for code in named]
