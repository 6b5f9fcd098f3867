"""The document a question names as its source: "ok per CEP to do the check-ins by phone?", "what does the
malaria guideline say about …".

A clinician names the document they mean by the short name its file carries ("CEP" for the file
``cep-anxiety-and-depression``); a word of a title is not enough (an article's title word is its subject). The name
is no word of the question's subject: searched as one, "CEP" finds the page's acknowledgments (the only lines
writing "CEP's") or another document's "Central Equipment Pool (CEP)". When the question names one document of the
knowledge base this way, it is asked of that document alone, with the name left out of its words when it is an
initialism (a word such as 'malaria' is its subject too). A name two documents share ('the ADP manual' for both ADP
manuals) narrows nothing; a word written as a subject ("CEP power tilt application", "per protocol") is no source
named.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from curbside.search.enhance import STOPWORDS

__all__ = ["NamedSource", "named_source"]

_NAME = r"(?P<name>[A-Za-z][A-Za-z0-9]{1,14})"
_PER = r"\b(?:per|according to|acc\. to|acc to)\s+(?:the\s+)?"
# how a question names its source: 'per CEP', 'according to CEP', 'CEP says', 'does CEP list', "CEP's stance",
# 'the CEP table'
_REFERENCES = (
    re.compile(rf"{_PER}{_NAME}(?:['’]s)?\b", re.I),
    re.compile(
        rf"\b{_NAME}(?:['’]s)?\s+(?:says?|said|lists?|listed|suggests?|recommends?|wants?|advises?|flags?|rates?|"
        r"files?|classif\w+|points?|stance|position|take|leaning|considers?|mentions?)\b",
        re.I,
    ),
    re.compile(
        rf"\bdoes\s+(?:the\s+)?{_NAME}\s+(?:say|list|suggest|recommend|want|advise|flag|rate|file|classify|point|"
        r"mention|consider)\b",
        re.I,
    ),
    re.compile(
        rf"\b(?:the|in|on)\s+{_NAME}(?:['’]s)?\s+(?:table|card|page|tool|section|list|guideline|document|doc|"
        r"algorithm|pathway|handout|site)\b",
        re.I,
    ),
)
_SEPARATOR = re.compile(r"[^a-z0-9]+")
_LEAD = re.compile(rf"{_PER}$", re.I)


@dataclass(frozen=True, slots=True)
class NamedSource:
    doc_key: str
    name: str  # as the question writes it ('CEP')
    question: str  # the question without an initialism naming it ('ok to do the check-ins by phone?')


def _tokens(text: str) -> set[str]:
    return {t for t in _SEPARATOR.split(text.casefold()) if len(t) >= 2}


def named_source(question: str, documents: Callable[[], Sequence[str]]) -> NamedSource | None:
    """The one document ``question`` names as its source, and the question without its name; None when it names
    none, or a name no single document's key carries (or the knowledge base holds one document: naming it narrows
    nothing). ``documents`` lists the knowledge base's doc keys, read only when the question has the form of a
    reference."""
    found = [m for pattern in _REFERENCES for m in pattern.finditer(question)]
    if not found:
        return None
    keyed = [(doc, _tokens(doc)) for doc in documents()]
    if len(keyed) < 2:
        return None
    for match in sorted(found, key=lambda m: m.start("name")):
        name = match.group("name")
        key = name.casefold()
        if len(key) < 3 or key in STOPWORDS:
            continue
        carrying = [doc for doc, tokens in keyed if key in tokens]
        if len(carrying) != 1:
            continue
        # an initialism ('CEP') names the document alone; a word ('the malaria guideline') is its subject too
        rest = _without(question, match) if name.isupper() else question
        return NamedSource(carrying[0], name, rest)
    return None


def _without(question: str, match: re.Match[str]) -> str:
    """The question without the name ('ok per CEP to …' -> 'ok to …', "CEP's stance" -> 'stance')."""
    start, end = match.start("name"), match.end("name")
    tail = re.match(r"['’]s\b", question[end:])
    if tail:
        end += tail.end()
    lead = _LEAD.search(question[:start])
    if lead:
        start = lead.start()
    return re.sub(r"\s{2,}", " ", f"{question[:start]}{question[end:]}").strip().lstrip(",;:-–— ")
