"""The sentence of a Limited Use criterion that answers what the question asks beyond the code: how long the
ministry pays ('Limited to 9 days of reimbursement.', 'The maximum lifetime exposure to teriparatide … is 24
months'), the most it pays for ('The maximum daily dose of celecoxib which will be reimbursed for the treatment
of osteoarthritis is 200mg.'), who must write the prescription ('Claims for the first 6 months must be written by a
dermatologist.') or when the drug must be re-assessed ('the effectiveness of this drug must be re-evaluated after a
period of six months', clobazam's LU 23 note). The answer names the code and the criterion's first paragraph; these sentences sit in its
later paragraphs and notes, which a clerk would otherwise have to read in full."""

from __future__ import annotations

import re

from curbside.coverage.odb.tool import LuCriterion

__all__ = ["asked_details"]

MAX_DETAILS = 2  # sentences quoted per criterion

_ASKS_DURATION = re.compile(
    r"\bhow long\b|\bhow many (?:days|weeks|months|years)\b|\bduration\b|\bfor how many\b"
    r"|\bmax(?:imum)? (?:duration|length|days|weeks|months|time)\b",
    re.I,
)
_ASKS_DOSE = re.compile(r"\bmax(?:imum)? (?:daily )?dose\b|\bdose limit\b|\bhighest dose\b", re.I)
_ASKS_REVIEW = re.compile(
    r"\bre-?(?:assess|evaluat|eval|view)\w*|\breassess\w*|\bfollow[- ]?up (?:requirement|needed|required)"
    r"|\b(?:need|have|required?) to (?:re-?check|check (?:back|again)|review)\b",
    re.I,
)
_ASKS_PRESCRIBER = re.compile(
    r"\bwho (?:can|may|must|has to|needs to|should|is allowed to) (?:prescribe|write|order|sign|initiate|start)"
    r"|\bprescribers?\b|\bprescribed by\b|\bwhich (?:specialist|specialty|doctor|physician)s?\b",
    re.I,
)
# a time the ministry pays for, capped: a number of days to years beside a word that limits ('6 month trial of …'
# is a criterion's history, not a cap; '18 years of age' an age)
_TIME = re.compile(r"\b\d+\s*(?:days?|weeks?|months?|years?)\b(?!\s+(?:of age|old))", re.I)
_LIMIT = re.compile(r"\b(?:maximum|limited to|up to|no more than|lifetime|not exceed)\b", re.I)
_DOSE = re.compile(r"\b\d+(?:\.\d+)?\s*(?:mg|mcg|g|units?|ml)\b", re.I)
_PRESCRIBER = re.compile(r"\b(?:written|prescribed|initiated|ordered|recommended|supervised) by\b", re.I)
_REVIEW = re.compile(r"\bre-?(?:assess|evaluat)\w*|\breassess\w*|\bre-?examined\b", re.I)
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z])|\n+")


def asked_details(question: str, criteria: list[LuCriterion]) -> list[str]:
    """Quoted sentences of ``criteria`` (past their first paragraph) that say the duration, the dose limit, the
    prescriber or the re-assessment the question asks about; none when it asks none of them."""
    wants = [
        says
        for asks, says in (
            (_ASKS_DURATION, _says_duration),
            (_ASKS_DOSE, _says_dose),
            (_ASKS_PRESCRIBER, _says_prescriber),
            (_ASKS_REVIEW, _says_review),
        )
        if asks.search(question)
    ]
    out: list[str] = []
    for criterion in criteria:
        later = criterion.text.strip().split("\n\n", 1)[1:]  # the first paragraph is said already
        sentences = [" ".join(s.split()).lstrip("- ") for part in later for s in _SENTENCE.split(part)]
        found = [s for s in sentences if any(says(s) for says in wants)][:MAX_DETAILS]
        code = criterion.reason_for_use_code
        out.extend(f'LU {code} says: "{s}"' if code else f'The criteria say: "{s}"' for s in found)
    return out


def _says_duration(sentence: str) -> bool:
    return bool(_TIME.search(sentence) and _LIMIT.search(sentence))


def _says_dose(sentence: str) -> bool:
    return bool(_DOSE.search(sentence) and _LIMIT.search(sentence))


def _says_prescriber(sentence: str) -> bool:
    return bool(_PRESCRIBER.search(sentence))


def _says_review(sentence: str) -> bool:
    return bool(_REVIEW.search(sentence))
