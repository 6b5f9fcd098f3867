"""Codes the Schedule lists once for each side of a distinction, and the side the question says.

The first or an additional person seen on a special visit (GP66: K994 "… First person seen …", K995 "…
Additional person(s) seen …"), the referring or the consultant physician of a telephone consultation (A37: K730,
K731), one or several of a thing listed by count (M22: Z128 "… - one", Z129 "… - multiple"): the titles share
every other word, so the words alone cannot choose, and a question saying one side ('saw a 2nd pt', 'I called a
derm', 'both big toenail plates') rules the other side's codes out. A question saying both sides, or neither, keeps
every code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["the_count_asked", "the_person_asked", "the_side_asked", "with_each_additional"]


# the special visit premiums' "First person seen" and "Additional person(s) seen" (GP66): 'saw a 2nd pt while I was
# there' asks the additional person's, 'first pt seen premium?' the first's
_ANOTHER_PERSON = re.compile(
    r"\b(?:2nd|second|3rd|third|another|additional|next|other)[\s-]+(?:\(\w+\)\s+)?"
    r"(?:pts?|patients?|persons?|people|ones?|residents?)\b",
    re.I,
)  # 'saw 2 pts … the premium for the 2nd one', 'the additional (2nd) pt', 'a 2nd resident' (a nursing home's)
_FIRST_PERSON = re.compile(r"\b(?:1st|first)[\s-]+(?:\(\w+\)\s+)?(?:pts?|patients?|persons?|residents?)\b", re.I)
# "Only one travel premium is eligible for payment for each separate trip to a destination regardless of the number
# of patients seen" (GP66): an additional person's premium is never the travel premium
_TRAVEL = re.compile(r"\bTravel premium\b")
_FIRST_SEEN = re.compile(r"\bFirst person seen\b")
_ADDITIONAL_SEEN = re.compile(r"\bAdditional person\(?s?\)? seen\b")


# one or several of a thing the Schedule lists by count (M22: Z128 "… nail plate excision requiring anaesthesia - one",
# Z129 "… - multiple"): 'took off both big toenail plates' asks the multiple one
_SAYS_SEVERAL = re.compile(
    r"\b(?:both|several|multiple|many|two|three|four|[2-9])\s+(?:(?:big|small|separate|different|ingrown|infected)\s+)?"
    r"(?!(?:wks?|weeks?|days?|months?|mos?|yrs?|years?|hrs?|hours?|min\w*|cm|mm|mg|ml|times|units?|pts?|patients?)\b)"
    r"[a-z]+",
    re.I,
)
_SAYS_ONE = re.compile(r"\b(?:a single|single|just one|only one)\b", re.I)
_ONE_TITLE = re.compile(r"[-–]\s*one\s*$", re.I)
_SEVERAL_TITLE = re.compile(r"[-–]\s*multiple\s*$", re.I)


def the_count_asked(codes: list[str], question: str | None, printed: Mapping[str, str]) -> list[str]:
    """``codes`` without the '- one' listing when the question says several, and the '- multiple' one when it says
    a single one."""
    return _one_side(codes, question, printed, (_SAYS_SEVERAL, _SEVERAL_TITLE), (_SAYS_ONE, _ONE_TITLE))


_EACH_ADDITIONAL = re.compile(r"\s*[-–:]\s*(?:for\s+)?each\s+additional\b", re.I)
_NEXT_CODES = 3  # the code numbers after the first an 'each additional' listing may take (G220 -> G221)


def with_each_additional(codes: list[str], question: str | None, printed: Mapping[str, str]) -> list[str]:
    """``codes`` with the first code's 'each additional' listing second, when the question says several: 'intercostal
    nerve blocks at 3 levels' is G220 "Intercostal nerve" and G221 "Intercostal nerve - for each additional one"
    (J82); or the one add-on for each additional one that names the first code as its base (E393 'to N583')."""
    if not codes or not _SAYS_SEVERAL.search(question or ""):
        return codes
    first = codes[0]
    title = printed.get(first, "").strip()
    if not title or not first[1:4].isdigit():
        return codes
    for step in range(1, _NEXT_CODES + 1):
        code = f"{first[0]}{int(first[1:4]) + step:03d}{first[4:]}"
        other = printed.get(code, "")
        if other.lower().startswith(title.lower()) and _EACH_ADDITIONAL.match(other[len(title) :]):
            return [first, code, *(c for c in codes[1:] if c != code)]
    # an add-on listed apart that names the first code: 'E393 - kyphoplasty, each additional level, to N583 or E392'
    # under 'N583 Kyphoplasty … first level' (Z10), for 'balloon kyphoplasty at both levels'
    names_first = re.compile(rf"\beach additional\b[^.]*\bto (?:[A-Z]\d{{3}}, )*(?:[A-Z]\d{{3}} or )?{first}\b")
    added = sorted(code for code, other in printed.items() if code != first and names_first.search(other))
    if len(added) == 1:
        return [first, added[0], *(c for c in codes[1:] if c != added[0])]
    return codes


def the_person_asked(codes: list[str], question: str | None, printed: Mapping[str, str]) -> list[str]:
    """``codes`` without the first-person-seen premiums when the question asks the additional person's, and the
    other way round (GP70: K995 "… Additional person(s) seen, Evenings …", not K994 "… First person seen …"); the
    travel premium, paid once a trip, is no additional person's."""
    kept = _one_side(codes, question, printed, (_ANOTHER_PERSON, _ADDITIONAL_SEEN), (_FIRST_PERSON, _FIRST_SEEN))
    if _ANOTHER_PERSON.search(question or "") and not _FIRST_PERSON.search(question or ""):
        without_travel = [code for code in kept if not _TRAVEL.search(printed.get(code, ""))]
        return without_travel or kept
    return kept


def _one_side(
    codes: list[str],
    question: str | None,
    printed: Mapping[str, str],
    one: tuple[re.Pattern[str], re.Pattern[str]],
    other: tuple[re.Pattern[str], re.Pattern[str]],
) -> list[str]:
    """``codes`` without those titled as the side (a pair of how a question says it and how a title does) the
    question does not say, when it says the other side alone."""
    says_one, says_other = bool(one[0].search(question or "")), bool(other[0].search(question or ""))
    if says_one == says_other:
        return codes
    unasked = other[1] if says_one else one[1]
    return [code for code in codes if not unasked.search(printed.get(code, ""))]


# the telephone and e-consultations are listed once for each side (A37-A40: K730 "… - Referring physician", K731
# "… - Consultant physician"): 'I called a derm … (I'm the one asking)' is the referring physician's, 'a rural GP
# phoned me for advice' the consultant's
_ASKER_REFERS = re.compile(
    r"\b(?:i|we) (?:called|phoned|paged|asked|consulted|reached out to|e-?consulted)\b|\bI'?m the one asking\b|"
    r"\bI (?:was|am) the referring\b",
    re.I,
)
_ASKER_ADVISES = re.compile(
    r"\b(?:called|phoned|paged|asked|consulted|e-?consulted) (?:me|us)\b|\bas the consultant\b|\bI (?:gave|provided) "
    r"(?:recs|recommendations|advice|an? opinion)\b",
    re.I,
)
_REFERRING = re.compile(r"\bReferring physician\b")
_CONSULTANT = re.compile(r"\bConsultant physician\b")


def the_side_asked(codes: list[str], question: str | None, printed: Mapping[str, str]) -> list[str]:
    """``codes`` without the other side's consultation codes when the question says which side the asker was on."""
    return _one_side(codes, question, printed, (_ASKER_REFERS, _REFERRING), (_ASKER_ADVISES, _CONSULTANT))
