"""A reference written in the style a session prefers: AMA, APA or Vancouver, as plain text.

The rules followed, by style (a journal article; then a document such as a guideline):

- **AMA** (AMA Manual of Style, 11th ed., §3): up to 6 authors all listed, more than 6 the first 3
  and "et al"; ``Surname Initials`` without periods; the NLM journal abbreviation;
  ``Year;Vol(Issue):pages`` with the pages in full; ``doi:…`` last, with no period. A document:
  author, title, publisher; year, "Accessed Month D, YYYY." and its URL.
- **Vancouver** (ICMJE; NLM's *Citing Medicine*, the "NLM" format PubMed shows): up to 6 authors,
  more the first 6 and "et al."; ``Year;Vol(Issue):pages`` with the repeated leading digits of the
  last page dropped (284-7); ``doi: …. PMID: ….`` A document on the web: ``Title [Internet].
  Place: Publisher; Year [cited YYYY Mon D]. Part. Available from: URL``.
- **APA** (7th ed.): ``Surname, I. I.``, "&" before the last, up to 20 (more: the first 19, an
  ellipsis, the last); ``(Year).`` or ``(n.d.).``; the title in sentence case, its first word after
  a colon capitalised; the journal's full title where known, ``Vol(Issue), pages`` with an en dash;
  the DOI as a URL.

Plain text cannot carry italics (journal and book titles); titles keep the case they came with,
except for APA's word after a colon. A record whose author list was cut short by the tool that
found it (``more_authors``) ends its list with "et al." in every style, APA included: the missing
names are unknown, and an invented full list would be worse.

AMA and APA put the part of a document (a guideline chunk's section) in the running text, not in
the reference; Vancouver has a place for it, and writes it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, get_args

from curbside.errors import ValidationError
from curbside.sessions.models import CitationStyle

__all__ = ["CITATION_STYLES", "Reference", "abbreviate_pages", "expand_pages", "format_citation"]

CITATION_STYLES: tuple[str, ...] = get_args(CitationStyle)

_INITIALS = re.compile(r"[A-Z](?:-?[A-Z])*")  # MEDLINE initials: "SD", "J-P"
_RANGE = re.compile(r"([A-Za-z]*)(\d+)-([A-Za-z]*)(\d+)")
_ET_AL = re.compile(r",?\s*et al\.?$")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")  # fmt: skip


@dataclass(frozen=True)
class Reference:
    """What a citation is written from. ``authors`` in MEDLINE form (``Halpern SD``) or a group's name.

    With ``journal`` it is a journal article; without, a document (a guideline, a book, a web page).
    """

    title: str
    authors: tuple[str, ...] = ()
    more_authors: bool = False  # the list stops short of all the authors (a tool's "…, et al.")
    journal: str | None = None  # the NLM abbreviation, "N Engl J Med"
    journal_full: str | None = None  # the full title, for APA: "New England Journal of Medicine"
    year: int | str | None = None
    volume: str | None = None
    issue: str | None = None
    pages: str | None = None  # as MEDLINE writes them ("284-7") or in full
    doi: str | None = None
    pmid: str | None = None
    url: str | None = None
    publisher: str | None = None
    place: str | None = None  # where the publisher is: Vancouver writes it
    section: str | None = None  # the part cited: a chunk's section path
    accessed: date | None = None  # when an online source was read

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Reference:
        """From a tool's result row: a PubMed or Europe PMC article (``authors`` as the tools write them,
        "A, B, C, et al."), a guideline hit or a passage's citation (``section_path``)."""
        authors_value = record.get("authors")
        authors: tuple[str, ...] = ()
        more = False
        if isinstance(authors_value, str):
            more = bool(_ET_AL.search(authors_value))
            authors = tuple(a.strip() for a in _ET_AL.sub("", authors_value).split(",") if a.strip())
        elif isinstance(authors_value, Sequence):
            authors = tuple(str(a) for a in authors_value)
        # a tool's result row carries its link and retrieval date in its ``citation``
        attached = record.get("citation")
        source: Mapping[str, Any] = attached if isinstance(attached, Mapping) else {}
        accessed = record.get("accessed") or record.get("retrieved") or source.get("retrieved")
        return cls(
            title=str(record.get("title") or "Untitled"),
            authors=authors,
            more_authors=more or bool(record.get("more_authors")),
            journal=record.get("journal"),
            journal_full=record.get("journal_full"),
            year=record.get("year"),
            volume=_str(record.get("volume")),
            issue=_str(record.get("issue")),
            pages=_str(record.get("pages")),
            doi=record.get("doi"),
            pmid=_str(record.get("pmid")),
            url=record.get("url") or source.get("url"),
            publisher=record.get("publisher"),
            place=record.get("place"),
            section=record.get("section") or record.get("section_path") or None,
            accessed=date.fromisoformat(accessed) if isinstance(accessed, str) else accessed,
        )


def format_citation(reference: Reference, style: str) -> str:
    """``reference`` written in ``style`` (ama, apa or vancouver)."""
    key = style.strip().lower() if isinstance(style, str) else style
    if key == "ama":
        return _ama(reference)
    if key == "vancouver":
        return _vancouver(reference)
    if key == "apa":
        return _apa(reference)
    raise ValidationError(f"Unknown citation style {style!r}: use one of {', '.join(CITATION_STYLES)}.")


# --- AMA ------------------------------------------------------------------------------------------
def _ama(ref: Reference) -> str:
    parts = []
    if ref.authors:
        cut = len(ref.authors) > 6
        names = ref.authors[:3] if cut else ref.authors
        parts.append(_end(", ".join(names) + (", et al" if cut or ref.more_authors else "")))
    parts.append(_end(ref.title))
    if ref.journal:
        parts.append(_end(ref.journal))
        parts.append(_end(_issue_part(ref, expand_pages)))
        if ref.doi:
            parts.append(f"doi:{ref.doi}")
        elif ref.url:
            parts.extend(_ama_online(ref))
        return " ".join(p for p in parts if p)
    if ref.publisher or ref.year:
        parts.append(_end("; ".join(str(p) for p in (ref.publisher, ref.year) if p)))
    parts.extend(_ama_online(ref))
    return " ".join(p for p in parts if p)


def _ama_online(ref: Reference) -> list[str]:
    out = []
    if ref.url and ref.accessed:
        out.append(f"Accessed {_MONTHS[ref.accessed.month - 1]} {ref.accessed.day}, {ref.accessed.year}.")
    if ref.doi and not ref.journal:
        out.append(f"doi:{ref.doi}")
    elif ref.url:
        out.append(ref.url)
    return out


# --- Vancouver ------------------------------------------------------------------------------------
def _vancouver(ref: Reference) -> str:
    parts = []
    if ref.authors:
        cut = len(ref.authors) > 6
        names = ref.authors[:6] if cut else ref.authors
        parts.append(", ".join(names) + (", et al." if cut or ref.more_authors else "."))
    cited = (
        f" [cited {ref.accessed.year} {_MONTHS[ref.accessed.month - 1][:3]} {ref.accessed.day}]" if ref.accessed else ""
    )
    if ref.journal:
        parts.append(_end(ref.title))
        parts.append(_end(ref.journal))
        parts.append(_end(_issue_part(ref, abbreviate_pages)))
    else:
        title = ref.title.rstrip(". ")
        parts.append(_end(f"{title} [Internet]" if ref.url else title))
        where = ": ".join(p for p in (ref.place, ref.publisher) if p)
        published = "; ".join(str(p) for p in (where, ref.year) if p) + (cited if ref.url else "")
        parts.append(_end(published))
        if ref.section:
            parts.append(_end(ref.section))
    if ref.doi:
        parts.append(f"doi: {ref.doi}.")
    if ref.pmid:
        parts.append(f"PMID: {ref.pmid}.")
    if ref.url and not ref.doi and not ref.pmid:
        parts.append(f"Available from: {ref.url}")
    return " ".join(p for p in parts if p)


# --- APA ------------------------------------------------------------------------------------------
def _apa(ref: Reference) -> str:
    title = _apa_case(ref.title.rstrip(". "))
    year = f"({ref.year})." if ref.year else "(n.d.)."
    parts = []
    if ref.authors:
        parts.extend([_apa_authors(ref), year, _end(title)])
    else:  # no author: the title takes the author's place
        parts.extend([_end(title), year])
    if ref.journal or ref.journal_full:
        source = ref.journal_full or ref.journal or ""
        if ref.volume:
            source += f", {ref.volume}" + (f"({ref.issue})" if ref.issue else "")
        if ref.pages:
            source += ", " + expand_pages(ref.pages).replace("-", "\u2013")
        parts.append(_end(source))
    elif ref.publisher and ref.publisher not in ref.authors:  # a group that publishes its own work is named once
        parts.append(_end(ref.publisher))
    if ref.doi:
        parts.append(f"https://doi.org/{ref.doi}")
    elif ref.url:
        parts.append(ref.url)
    return " ".join(p for p in parts if p)


def _apa_authors(ref: Reference) -> str:
    names = [_apa_name(a) for a in ref.authors]
    if ref.more_authors:
        return ", ".join(names) + ", et al."
    if len(names) > 20:
        return ", ".join(names[:19]) + ", . . . " + names[-1]
    if len(names) == 1:
        return names[0] if names[0].endswith(".") else names[0] + "."
    text = ", ".join(names[:-1]) + ", & " + names[-1]
    return text if text.endswith(".") else text + "."


def _apa_name(author: str) -> str:
    """``Halpern SD`` → ``Halpern, S. D.``; ``J-P`` → ``J.-P.``; a group's name stays as it is."""
    surname, _, initials = author.rpartition(" ")
    if not surname or not _INITIALS.fullmatch(initials):
        return author
    pieces: list[str] = []
    for letter in initials:
        if letter == "-":  # a hyphenated first name keeps its hyphen: J-P → J.-P.
            pieces[-1] += "-"
        elif pieces and pieces[-1].endswith("-"):
            pieces[-1] += f"{letter}."
        else:
            pieces.append(f"{letter}.")
    return f"{surname}, {' '.join(pieces)}"


def _apa_case(title: str) -> str:
    return re.sub(r"([:?] )([a-z])", lambda m: m.group(1) + m.group(2).upper(), title)


# --- shared ---------------------------------------------------------------------------------------
def _issue_part(ref: Reference, pages: Callable[[str], str]) -> str:
    text = str(ref.year) if ref.year else ""
    if ref.volume:
        text += f";{ref.volume}" + (f"({ref.issue})" if ref.issue else "")
    elif ref.issue:
        text += f";({ref.issue})"
    if ref.pages:
        text += f":{pages(ref.pages)}"
    return text


def expand_pages(pages: str) -> str:
    """A MEDLINE range in full: ``284-7`` → ``284-287``; other forms (``e123``) unchanged."""
    match = _RANGE.fullmatch(pages.strip())
    if not match:
        return pages.strip()
    prefix, first, prefix_end, last = match.groups()
    if len(last) < len(first):
        last = first[: len(first) - len(last)] + last
    return f"{prefix}{first}-{prefix_end or prefix}{last}"


def abbreviate_pages(pages: str) -> str:
    """A range as Vancouver writes it: the last page without the leading digits it shares with the first
    (``284-287`` → ``284-7``, ``1021-1030`` → ``1021-30``); other forms unchanged."""
    full = expand_pages(pages)
    match = _RANGE.fullmatch(full)
    if not match:
        return full
    prefix, first, _, last = match.groups()
    if first == last:
        return f"{prefix}{first}"
    if len(first) != len(last):
        return full
    shared = 0
    while shared < len(first) - 1 and first[shared] == last[shared]:
        shared += 1
    return f"{prefix}{first}-{last[shared:]}"


def _end(text: str) -> str:
    """``text`` ending in a full stop (unless it ends in one, or in ? or !); empty stays empty."""
    text = text.strip()
    if not text or text[-1] in ".?!":
        return text
    return text + "."


def _str(value: Any) -> str | None:
    return None if value is None else str(value)
