"""The time of day a question names chooses among codes that differ only by it.

The Schedule prices one service by when it was rendered: the emergency department's "Minor assessment" is
H101 on weekday daytime, H131 / H151 in the evenings and H121 at night (the listing's heading says which:
"Nights (00:00h to 08:00h)"); the special visit premium tables have a column per slot (GP75-GP90: "Evenings
(17:00-24:00) Monday to Friday"). A question saying "at 3 am" or "8 pm on a Tuesday" is answered with the
code of its slot only, when one is found, and not with its daytime sibling beside it.
"""

from __future__ import annotations

import re

__all__ = ["in_time_slot"]

# a code's slot, as its title or heading words it
_SLOTS = {
    "night": re.compile(r"\bnights?\b", re.I),
    "evening": re.compile(r"\bevenings?\b", re.I),
    "weekend": re.compile(r"\b(?:saturdays?|sundays?|holidays?|weekends?)\b", re.I),
    "daytime": re.compile(r"\bdaytime\b", re.I),
}


def _slots_of(text: str) -> set[str]:
    return {slot for slot, pattern in _SLOTS.items() if pattern.search(text)}


def in_time_slot(codes: list[str], slot: str | None, texts: dict[str, str]) -> list[str]:
    """``codes`` without those whose text names another time slot and not ``slot``, when a code names
    ``slot`` (codes that name no slot stay: the time does not decide them)."""
    if slot is None:
        return codes
    slots = {code: _slots_of(texts.get(code, "")) for code in codes}
    if not any(slot in s for s in slots.values()):
        return codes
    return [code for code in codes if not slots[code] or slot in slots[code]]
