"""The minutes a question states choose the code whose time minimum they meet: the longest one met.

The Schedule sets a consultation's level by the time spent: "A775 Comprehensive geriatric consultation" is
for a physician who "spends at least 75 minutes with the patient", "A770 Extended comprehensive geriatric
consultation" "at least 90 minutes" (A112); "A130 Comprehensive internal medicine consultation" "a minimum
of seventy-five (75) minutes" (A122). The minimum is stated in the paragraph that defines the service, just
before its listing. A question saying "95 min consult" is answered by the code with the longest minimum its
time meets (A770, not A775: that one's time is met too, but it is the lesser service), and never by a code
whose minimum it does not meet.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["asked_minutes", "by_time_minimum", "time_minimums", "within_minutes"]

_LISTING = re.compile(r"^[#+]?\s?([A-Z]\d{3}) .*: (?:\$|I\.C|add |fee |no fee)")
_FEE_ONLY = re.compile(r"^[\s$\d,.]*$")  # a fee printed on its own line
# 'spends at least 75 minutes', 'a minimum of seventy-five (75) minutes'
_MINIMUM = re.compile(r"\b(?:at least|minimum of)\s+(?:[a-z-]+\s+)?\(?(\d{2,3})\)?\s*minutes\b", re.I)
_SAME_CONDITIONS = re.compile(r"\bsame conditions as ([A-Z]\d{3})\b")
# '95 min consult', '~80 minutes face to face'
_ASKED = re.compile(r"(?<![\d.])(\d{2,3})\s?-?(?:min|mins|minutes)\b", re.I)


def time_minimums(passages: Iterable[tuple[str, str, str]]) -> dict[str, int]:
    """code -> the minutes its service must last, from the prose just before its listing (``passages``:
    doc_key, section_path, text, as stored)."""
    out: dict[str, int] = {}
    same_as: dict[str, str] = {}  # 'C775 … - subject to the same conditions as A775' (A115)
    for _, _, text in passages:
        prose: list[str] = []  # the paragraph since the last listing: it defines the next code listed only
        for line in text.splitlines()[1:]:  # the first line is the passage's title path
            code = _LISTING.match(line)
            if code:
                found = [int(m.group(1)) for m in _MINIMUM.finditer(" ".join(prose))]
                if found and code.group(1) not in out:
                    out[code.group(1)] = found[-1]
                same = _SAME_CONDITIONS.search(line)
                if same:
                    same_as.setdefault(code.group(1), same.group(1))
                prose = []
            elif line.strip() and not _FEE_ONLY.match(line):
                prose.append(line)
    for copy, other in same_as.items():
        if copy not in out and other in out:
            out[copy] = out[other]
    return out


def asked_minutes(question: str | None) -> int | None:
    """The minutes the question says the service took ('95 min', '~80 minutes'), or None."""
    found = _ASKED.search(question or "")
    return int(found.group(1)) if found else None


def by_time_minimum(
    codes: list[str], scores: dict[str, float], question: str | None, minimums: dict[str, int], reach: float
) -> list[str]:
    """``codes`` less those whose minimum the question's minutes do not meet or whose minimum is shorter than
    the longest one met; the codes of the longest minimum met first (when none of ``codes`` has it, the one of
    the wider pool ``scores`` scoring best, when its words score at least ``reach`` of the best). Codes that
    state no minimum stay."""
    minutes = asked_minutes(question)
    if minutes is None or not codes:
        return codes
    best = max(scores.get(code, 0.0) for code in codes)
    near = [code for code in dict.fromkeys([*codes, *scores]) if scores.get(code, 0.0) >= reach * best]
    met = [code for code in near if code in minimums and minimums[code] <= minutes]
    if not met:
        kept = [code for code in codes if minimums.get(code, 0) <= minutes]
        return kept or codes
    longest = max(minimums[code] for code in met)
    # those the setting and the other filters kept; else the pool's best-scoring one (not its copies in other
    # settings: 'in the office' is A912, not C912 'subject to the same conditions as A912')
    first = [code for code in codes if code in met and minimums[code] == longest]
    first = first or [max((c for c in met if minimums[c] == longest), key=lambda c: scores.get(c, 0.0))]
    return first + [code for code in codes if code not in first and code not in minimums]


def within_minutes(codes: list[str], question: str | None, minimums: dict[str, int]) -> list[str]:
    """``codes`` less those whose minimum the question's minutes do not meet: a code related to the one found
    ('25 min cognitive test battery': K032, 20 minutes, names K042, 46 minutes, A53) is not offered beside it."""
    minutes = asked_minutes(question)
    if minutes is None:
        return codes
    return [code for code in codes if minimums.get(code, 0) <= minutes]
