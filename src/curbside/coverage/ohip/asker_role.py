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

__all__ = ["bills_as_ed_physician", "for_ed_physician", "for_other_physician", "not_the_ed_physician"]

_ROLE = r"(?:[Dd]ocs?|[Dd]octor|[Pp]hysician|MD|[Ss]hifts?)"
_WORKING = r"(?:[Ww]ork(?:ing|ed)?|[Oo]n shift in|[Oo]n call (?:in|for)|[Cc]overing)\s+(?:in\s+)?(?:the\s+|an\s+)?"
# 'ER' and 'ED' in capitals only ('er' and 'ed' are fillers and word endings); 'emerg' in any case
_ASKER_IN_ED = (
    re.compile(rf"\b(?:ER|ED)[- ]{_ROLE}\b|\b{_WORKING}(?:ER|ED)\b"),
    re.compile(rf"\bemerg(?:ency)?(?: (?:department|room|dept))?[- ]{_ROLE}\b|\b{_WORKING}emerg\w*", re.I),
)
_OTHER_THAN = re.compile(r"\bother than an? emergency department physician\b", re.I)
# the special visit premium tables for a visit to the emergency department (GP66-GP67): Table I "Emergency
# Department" is not payable to an Emergency Department Physician, who bills Table V "Emergency Department by
# Emergency Department Physician"; a physician not on the department's duty or call roster bills Table I
_TABLE_I = re.compile(r"^Special visit premium: Emergency Department —")
_TABLE_V = re.compile(r"^Special visit premium: Emergency Department by Emergency Department Physician\b")
# 'FP (not an ED doc)': the role named only to deny it
_DENIED = re.compile(r"\bnot (?:an? |the )?$", re.I)
# 'GI (not ER staff)', 'not the ED doc', 'I'm not emerg'
_NOT_ED = re.compile(r"\bnot (?:an? |the |on )?(?:ER|ED|emerg\w*)\b", re.I)
_EMERGENCY_MEDICINE = "12"  # the section of the Schedule's table of contents


def bills_as_ed_physician(question: str | None) -> bool:
    """Whether ``question`` says its asker works as the emergency department's physician ('ER doc', 'on my ER
    shift', 'working emerg')."""
    text = question or ""
    return any(not _DENIED.search(text[: m.start()]) for pattern in _ASKER_IN_ED for m in pattern.finditer(text))


def for_ed_physician(codes: list[str], texts: Mapping[str, str]) -> list[str]:
    """``codes`` without those titled for a physician other than the emergency department's (E409, E410 for
    'the ER doc at 3 am': E412, E413 are the ED physician's)."""
    return [code for code in codes if not (_OTHER_THAN.search(text := texts.get(code, "")) or _TABLE_I.search(text))]


def not_the_ed_physician(question: str | None, specialty: str | None) -> bool:
    """Whether ``question`` says its asker is not the emergency department's physician: it says so ('GI (not ER
    staff)'), or names the asker's specialty, another than emergency medicine ('GI … called into the ER')."""
    if not question or bills_as_ed_physician(question):
        return False
    return bool(_NOT_ED.search(question)) or (specialty is not None and specialty != _EMERGENCY_MEDICINE)


def for_other_physician(codes: list[str], texts: Mapping[str, str]) -> list[str]:
    """``codes`` without the emergency department's special visit premiums for its own physician (Table V), for a
    physician who is not it (a GI specialist called into the ER at 2000 bills K994/K995 of Table I, not H984)."""
    return [code for code in codes if not _TABLE_V.search(texts.get(code, ""))]
