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
from collections.abc import Iterable, Iterator

__all__ = ["full_title", "listed_title", "listing_headings", "service_headings"]

_LISTING_LINE = re.compile(r"^[#+]?\s?([A-Z]\d{3}) ")
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
        for code, heading in _listed_under(body, path):
            out[code][heading] = None
    return {code: " | ".join(paths) for code, paths in out.items()}


def _listed_under(body: str, path: str) -> Iterator[tuple[str, str]]:
    """(code, heading) of each listing line of a passage's ``body``: the passage's path, with the last heading
    line above the listing. A heading line inside a passage names what the path does not: "Chalazion Single or
    multiple" above Z874 "Single or multiple - local anaesthetic" (Y9). One after a listing is a sibling of the
    path's last heading and replaces it: "Saturdays, Sundays and Holidays - …" after H132 in the passage headed
    "Monday to Friday - Evenings" (A13) heads H152."""
    heading, base = path, None  # base: what a heading line is put under, once the first has been seen
    listed = False
    for line in body.splitlines():
        line = line.strip()
        code = _LISTING_LINE.match(line + " ")
        if code:
            listed = True
            yield code.group(1), heading
        elif _is_heading(line):
            if base is None:
                base = path.rpartition(" > ")[0] if listed and " > " in path else path
            heading = f"{base} > {line}"


# a rule block's opening words: its lines are rules, not headings
_RULE_OPENING = re.compile(r"^(?:\[?Commentary|Note|Payment rules|Medical record|Claims|\d+\.|[a-z]\.)", re.I)
MAX_HEADING = 100  # characters: a longer line is a paragraph (a definition), not a heading


def _is_heading(line: str) -> bool:
    return 0 < len(line) <= MAX_HEADING and not _RULE_OPENING.match(line) and not line.endswith(".")


_ASIDE = re.compile(r"\([^)]*\)")


def full_title(title: str, headings: str) -> str:
    """``title`` with the words of the heading it was cut from: the parser titles a listing "heading - description"
    by the nearest heading only, and a heading line printed "Chalazion Single or multiple" above Z874 gives the
    title "Single or multiple - local anaesthetic" (Y9). When the last heading of a path in ``headings``
    (``listing_headings``) ends with the title's head, its words before that head belong to the title:
    "Chalazion Single or multiple - local anaesthetic". Asides in brackets ("(see Appendix D …)") are left out."""
    head, dash, _ = title.partition(" - ")
    if not dash or not head.strip():
        return title
    wanted = head.strip().lower()
    for path in headings.split(" | "):
        last = path.rpartition(" > ")[2].strip()
        if last.lower().endswith(wanted) and len(last) > len(wanted):
            before = _ASIDE.sub(" ", last[: -len(wanted)]).strip(" -:/")
            if before:
                return f"{before} {title}"
    return title


_CITED = re.compile(r"\(([A-Z]\d{3})\)")


def listed_title(code: str, title: str, listed: str) -> str:
    """``title``, or the listing line ``listed`` when the title cites another code in brackets that the line does
    not: the title is then a rule's list item read as the code's heading ("G. Services described by visit for
    pronouncement of death (W777) or certification of death (W771)", GP) and not the Schedule's name for the
    service ("W771 Certification of death - subject to same conditions as A771", A15)."""
    cited = set(_CITED.findall(title)) - {code}
    if not cited or not listed.strip() or any(f"({other})" in listed for other in cited):
        return title
    return listed.strip()


_SECTION_NUMBER = re.compile(r"\(\d{2}\)")
_CAPITALS = 0.8  # share of a heading's letters in capitals for it to be printed as one of the Schedule's headings


def service_headings(headings: str) -> str:
    """The headings in capitals under the chapter of a code's paths (``listing_headings``): the Schedule prints the
    service a family of codes shares as one ("CONTINUOUS ECG MONITORING (E.G. HOLTER)", J16) above titles that
    name only its parts ("G651 technical component - 12 to 35 hours recording"). A chapter ("Electrocardiography
    (ECG)") or a specialty's section ("CARDIOLOGY (60)") names no service."""
    found: dict[str, None] = {}
    for path in headings.split(" | "):
        for heading in path.split(" > ")[1:]:
            heading = _PAGE.sub("", heading).strip()
            letters = [ch for ch in heading if ch.isalpha()]
            capitals = sum(ch.isupper() for ch in letters)
            if letters and capitals >= _CAPITALS * len(letters) and not _SECTION_NUMBER.search(heading):
                found[heading] = None
    return " ".join(found)
