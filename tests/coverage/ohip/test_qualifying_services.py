"""A premium's rules are about the services its definitions name (#14): 'is there a premium on my A133/A134?'
finds the 12% sentence that names none of them. Text is the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt,
INTERNAL MEDICINE OFFICE ASSESSMENT PREMIUM, lines 6082-6096)."""

from __future__ import annotations

from curbside.coverage.ohip.preamble_quotes import SentenceIndex

_BODY = (
    "The Internal Medicine Office Assessment Premium is payable automatically to an eligible physician subject to "
    'the definitions and rules described below. Definitions: "Qualifying services" means A133, A134, A131, and '
    'A138. "Fiscal year" means April 1 - March 31st. "Qualifying year" means the fiscal year preceding the date '
    "of determination of eligibility. Payment rules: For the 12 month period following the date of determination "
    "of eligibility for the premium, the amount payable to a physician shall be automatically increased by 12% for "
    "the qualifying services in the following circumstances: 1.The physician is practicing solely as a general "
    "internist."
)
_OTHER = "A133 is limited to one per patient per day and is payable only in the office of the physician."


def _passage(doc: str, heading: str, page: str, body: str) -> tuple[str, str, str]:
    path = f"{heading} [{page}]"
    return (doc, path, f"OHIP Schedule 2025-03-03 — GP: {doc} > {path}\n\n{body}")


def test_a_premium_rule_under_qualifying_services_counts_as_naming_them() -> None:
    index = SentenceIndex(
        [
            _passage("Other Premiums", "INTERNAL MEDICINE OFFICE ASSESSMENT PREMIUM", "GP103", _BODY),
            _passage("Internal Medicine", "SPECIFIC ASSESSMENT", "A122", _OTHER),
        ]
    )
    question = "is there any premium on my office specific assessments (A133/A134 etc)? how much?"
    quotes = index.quotes(question, ["A133", "A134"], limit=4)
    twelve = [q for q in quotes if "12%" in q.text]
    assert twelve and {"A133", "A134"} <= twelve[0].codes
    # the sentence before the definitions names none of them
    assert not [q for q in quotes if q.text.startswith("The Internal Medicine Office") and "A133" in q.codes]
