"""Whether the asker bills as the emergency department's physician, and the codes that role decides.

The Schedule pays an Emergency Department Physician (GP50) by its own listings — the H codes under
"EMERGENCY DEPARTMENT PHYSICIAN" (A12-A14) — and by premiums of its own: E412/E413 "Emergency Department
Physician" beside E409/E410 "Physician – other than an Emergency Department Physician" (GP104). A
question saying "ER doc", "on my ER shift" or "working emerg" says who bills; a specialist it names besides
("admitted under the internist", "no radiologist around") is someone else, not the section billed under.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["bills_as_ed_physician", "for_ed_physician"]

_ROLE = r"(?:[Dd]ocs?|[Dd]octor|[Pp]hysician|MD|[Ss]hifts?)"
_WORKING = r"(?:[Ww]ork(?:ing|ed)?|[Oo]n shift in|[Oo]n call (?:in|for)|[Cc]overing)\s+(?:in\s+)?(?:the\s+|an\s+)?"
# 'ER' and 'ED' in capitals only ('er' and 'ed' are fillers and word endings); 'emerg' in any case
_ASKER_IN_ED = (
    re.compile(rf"\b(?:ER|ED)[- ]{_ROLE}\b|\b{_WORKING}(?:ER|ED)\b"),
    re.compile(rf"\bemerg(?:ency)?(?: (?:department|room|dept))?[- ]{_ROLE}\b|\b{_WORKING}emerg\w*", re.I),
)
_OTHER_THAN = re.compile(r"\bother than an? emergency department physician\b", re.I)


def bills_as_ed_physician(question: str | None) -> bool:
    """Whether ``question`` says its asker works as the emergency department's physician ('ER doc', 'on my ER
    shift', 'working emerg')."""
    return any(pattern.search(question or "") for pattern in _ASKER_IN_ED)


def for_ed_physician(codes: list[str], texts: Mapping[str, str]) -> list[str]:
    """``codes`` without those titled for a physician other than the emergency department's (E409, E410 for
    'the ER doc at 3 am': E412, E413 are the ED physician's)."""
    return [code for code in codes if not _OTHER_THAN.search(texts.get(code, ""))]
