"""How long a question says the device is needed, and whether it asks what a device must have.

ADP funds a long-term need only: "The Applicant must have a long term physical disability or physical
condition requiring the use of a Device for six months or longer" (Policies and Procedures Manual §300.04,
p. 34), and no mobility device "used solely for: • Post-operative needs" (Mobility Devices manual §310,
p. 18). "a wheelchair for ~6 wks after her hip replacement" states a need that is neither, whatever the
device's share would be.

"what minimum warranty does a walker need to have?" asks a requirement the device must meet, not whether
ADP pays while a warranty runs: an exclusion's "No" does not answer it. Nor does it answer what a party must
do: "is the vendor supposed to give me the warranty papers?" asks the vendor's duty (§665.00: "The Vendor
must provide the Client with the manufacturer's written warranty"), not whether ADP funds a device under warranty.
"""

from __future__ import annotations

import re

__all__ = ["MIN_NEED_MONTHS", "asks_duty", "asks_requirement", "short_term_need"]

MIN_NEED_MONTHS = 6  # §300.04: "for six months or longer"
_MONTHS_PER = {"day": 1 / 30.4, "d": 1 / 30.4, "wk": 12 / 52, "week": 12 / 52, "month": 1.0, "mo": 1.0}
# 'for ~6 wks', 'for about 3 months', 'for 10 days'
_FOR_DURATION = re.compile(
    r"\bfor\s+(?:~|about\s+|around\s+|approx\w*\.?\s+|roughly\s+|only\s+|just\s+)?(\d+(?:\.\d+)?)\s*"
    r"(days?|d|wks?|weeks?|months?|mos?)\b",
    re.I,
)
# what says the need ends: after an operation, while recovering, a temporary or short-term use
_SHORT_TERM = re.compile(
    r"\b(?:post[- ]?op(?:erative(?:ly)?)?|after\s+(?:(?:his|her|their|the|a|an|my|its)\s+)?(?:[a-z-]+\s+){0,2}"
    r"(?:surgery|operation|replacement|op)|recover\w*\s+from\s+(?:[a-z-]+\s+){0,2}(?:surgery|operation|replacement)|"
    r"temporar\w*|short[- ]term)\b",
    re.I,
)
_REQUIREMENT = re.compile(
    r"\b(?:minimum|need(?:s|ed)?\s+to\s+(?:have|be|meet|carry)|(?:must|should)\s+(?:it|they|the\s+\w+)\s+have)\b", re.I
)

_PARTY = r"(?:the\s+|my\s+|our\s+|her\s+|his\s+)?(?:vendors?|suppliers?|authori[sz]ers?|ots?|clients?|applicants?|prescribers?|pts?|patients?|they|we|i|he|she)"
# a party's duty: 'is the vendor supposed to …', 'does the authorizer have to …', 'the client is required to …'
_DUTY = re.compile(
    rf"\b(?:{_PARTY}\s+(?:is\s+|are\s+|am\s+|was\s+)?(?:supposed|required|obliged|obligated)\s+to|"
    rf"(?:is|are|am|was)\s+{_PARTY}\s+(?:supposed|required|obliged|obligated)\s+to|"
    rf"(?:do|does|did)\s+{_PARTY}\s+(?:have|need)\s+to|{_PARTY}\s+(?:has|have|had|needs?)\s+to)\s+(\w+)",
    re.I,
)
_PAYING = re.compile(r"^(?:pay|fund|cover|buy|purchase|replace|repair)\w*$", re.I)


def asks_duty(question: str | None) -> bool:
    """Whether the question asks what a party must do ('is the vendor supposed to give me …?'), other than pay."""
    if not question:
        return False
    return any(not _PAYING.match(m.group(1)) for m in _DUTY.finditer(question))


def short_term_need(question: str | None) -> str | None:
    """The words saying the need is short-term ('after her hip replacement', 'for ~6 wks'), or None."""
    if not question:
        return None
    said = _SHORT_TERM.search(question)
    if said:
        return said.group(0)
    for match in _FOR_DURATION.finditer(question):
        unit = match.group(2).lower().rstrip("s")
        months = float(match.group(1)) * _MONTHS_PER[unit]
        if months < MIN_NEED_MONTHS:
            return match.group(0)
    return None


def asks_requirement(question: str | None) -> bool:
    """Whether the question asks what a device must have or be ('what minimum warranty does it need to have?')."""
    return bool(question and _REQUIREMENT.search(question))
