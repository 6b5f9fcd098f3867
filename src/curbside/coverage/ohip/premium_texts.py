"""The text that governs each premium: the paragraph before its listing line and the rules after it.

A premium is listed under a paragraph that says when it is payable and to which services ("Acute
post-discharge community psychiatric care is a premium for a service that occurs during the (4) week period
immediately following discharge … The premium is only applicable to K195, K196, K197 or K198." | K187 … add
15%, A174), and its payment rules follow the line ("1.The assessment is a: … medical specific re-assessment
(A164) …", E060, A128). That text names the services the premium is added to and the circumstances that
earn it; a question asking for "a premium on" a service is matched against it (``premium_answer``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Set
from dataclasses import dataclass

from curbside.coverage.ohip.passages import section_named

__all__ = ["PremiumText", "premium_texts"]

_PAGE = re.compile(r"\[([A-Z]{1,2}\d+)\]\s*$")
# a listing line of a passage: 'K187 Acute post-discharge community psychiatric care, to K195 …: add 15%'
_LISTING = re.compile(r"^[#+]?\s?(?P<code>[A-Z]\d{3}) (?P<title>.+?): (?P<fee>add [\d.]+%|\$[\d,.]+|I\.C\.?|.+)$")

_RUN_ENTRY = re.compile(r"#\s*([A-Z]\d{3})\b")
# a block that is a listing's rules: it belongs to the listing above it, not to the next one's paragraph
_RULE_LABEL = re.compile(
    r"^\[?(?:Payment rules|Notes?|Commentary|Claims submission instructions|Medical record requirements)\s*:", re.I
)


@dataclass(frozen=True, slots=True)
class PremiumText:
    code: str
    line: str  # its listing line as the passage holds it; its own entry of a line running several together
    section: str  # 'Psychiatry (19)'
    page: str
    lead: str  # the paragraph(s) between the listing (and its rules) before it and its own line
    rules: str  # its payment rules, notes and commentary: the labelled blocks after its line


def premium_texts(passages: Iterable[tuple[str, str, str]], premiums: Set[str]) -> dict[str, list[PremiumText]]:
    """code -> the governing texts of each listing of a premium (``premiums``: the codes listed as one) in
    ``passages`` (doc_key, section_path, text; a passage's text starts with its title path)."""
    out: dict[str, list[PremiumText]] = {}
    for _, section_path, text in passages:
        head, _, body = text.partition("\n")
        section = section_named(head)
        if section is None:
            continue
        page = _PAGE.search(section_path)
        blocks = [" ".join(b.split()) for b in body.split("\n\n") if b.strip()]
        listed = [_LISTING.match(b) for b in blocks]
        for n, match in enumerate(listed):
            if match is None:
                continue
            # a line running several listings together ('# E547 …: $59.40 # E569 … # E826 …', General Fees N3): each
            # premium of it is governed by the line, and read by its own entry
            codes = [c for c in dict.fromkeys([match["code"], *_RUN_ENTRY.findall(blocks[n])]) if c in premiums]
            if not codes:
                continue
            start = n
            while start > 0 and listed[start - 1] is None and not _RULE_LABEL.match(blocks[start - 1]):
                start -= 1
            end = n + 1
            while end < len(blocks) and listed[end] is None and _RULE_LABEL.match(blocks[end]):
                end += 1
            for code in codes:
                out.setdefault(code, []).append(
                    PremiumText(
                        code,
                        _own_entry(blocks[n], code),
                        section.strip(),
                        page.group(1) if page else "",
                        " ".join(blocks[start:n]),
                        " ".join(blocks[n + 1 : end]),
                    )
                )
    return out


def _own_entry(line: str, code: str) -> str:
    """A premium's own entry of a listing line that runs several together ("# E547 methyl methacrylate …: $59.40
    # E569 percutaneous pinning, to closed reduction fee …: add 50% # E826 percutaneous pinning, to F005, F006,
    F009, F013 or F016: add 75%", General Fees N3): a premium is read by its own words, not its neighbours'."""
    starts = [m.start() for m in _RUN_ENTRY.finditer(line)]
    mine = re.search(rf"#\s*{code}\b", line)
    if len(starts) < 2 or mine is None:
        return line
    end = next((n for n in starts if n > mine.start()), len(line))
    return line[mine.start() : end].strip()
