"""Is this code well formed? LOINC, SNOMED CT and RxNorm codes checked offline before a write is sent.

No terminology server is at hand, so these are format checks, not look-ups: they catch the typo (a digit
dropped or swapped), not a real code used for the wrong thing. LOINC and SNOMED CT carry check digits
that make this worthwhile: LOINC a mod-10 digit after the hyphen, SNOMED CT a Verhoeff digit at the end.
Each ``*_problem`` returns None for a well-formed code, else a sentence saying what is wrong.
"""

from __future__ import annotations

import re

__all__ = [
    "LOINC",
    "RXNORM",
    "SNOMED",
    "UCUM",
    "loinc_problem",
    "rxnorm_problem",
    "snomed_problem",
]

# the code system URIs FHIR R4 names for them (https://hl7.org/fhir/R4/terminologies-systems.html)
LOINC = "http://loinc.org"
SNOMED = "http://snomed.info/sct"
RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"
UCUM = "http://unitsofmeasure.org"

_LOINC = re.compile(r"([1-9]\d{0,6})-(\d)")
_SNOMED = re.compile(r"[1-9]\d{5,17}")
_RXNORM = re.compile(r"[1-9]\d{0,7}")  # an RxCUI: digits, today at most 7

# Verhoeff's dihedral-group tables (J. Verhoeff, "Error detecting decimal codes", 1969), as SNOMED CT's
# check digit uses them (SNOMED CT Technical Implementation Guide, "Check-digit computation")
_D = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 2, 3, 4, 0, 6, 7, 8, 9, 5),
    (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7),
    (4, 0, 1, 2, 3, 9, 5, 6, 7, 8),
    (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2),
    (7, 6, 5, 9, 8, 2, 1, 0, 4, 3),
    (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
)
_P = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 5, 7, 6, 2, 8, 3, 0, 9, 4),
    (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7),
    (9, 4, 5, 3, 1, 2, 6, 8, 7, 0),
    (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5),
    (7, 0, 4, 6, 9, 1, 3, 2, 5, 8),
)


def loinc_check_digit(body: str) -> int:
    """LOINC's mod-10 check digit for the part before the hyphen (LOINC Users' Guide, "Calculating
    Mod 10 check digits"): the digits in odd places from the right, read as one number, doubled;
    the even-place digits put in front; the check digit tops the digit sum up to a multiple of 10."""
    reversed_digits = body[::-1]
    doubled = str(int(reversed_digits[0::2]) * 2)
    digit_sum = sum(int(d) for d in reversed_digits[1::2] + doubled)
    return (10 - digit_sum % 10) % 10


def _verhoeff_ok(number: str) -> bool:
    check = 0
    for place, digit in enumerate(reversed(number)):
        check = _D[check][_P[place % 8][int(digit)]]
    return check == 0


def loinc_problem(code: str) -> str | None:
    found = _LOINC.fullmatch(code)
    if found is None:
        return f"{code!r} is not a LOINC code: LOINC codes are digits, a hyphen and one check digit, e.g. '4548-4'."
    expected = loinc_check_digit(found[1])
    if int(found[2]) != expected:
        return (
            f"{code!r} fails LOINC's check digit (it would be '{found[1]}-{expected}'): a digit is likely mistyped; "
            "copy the code again from the LOINC table or the order catalogue."
        )
    return None


def snomed_problem(code: str) -> str | None:
    if _SNOMED.fullmatch(code) is None:
        return f"{code!r} is not a SNOMED CT concept id: 6 to 18 digits, no leading zero, e.g. '91936005'."
    if not _verhoeff_ok(code):
        return f"{code!r} fails SNOMED CT's check digit: a digit is likely mistyped; copy the concept id again."
    if code[-3:-1] not in ("00", "10"):
        # the partition identifier: 00/10 are concepts, 01/11 descriptions, 02/12 relationships
        return f"{code!r} is a SNOMED CT description or relationship id, not a concept id."
    return None


def rxnorm_problem(code: str) -> str | None:
    if _RXNORM.fullmatch(code) is None:
        return f"{code!r} is not an RxNorm code (RxCUI): digits only, no leading zero, e.g. '860975'."
    return None
