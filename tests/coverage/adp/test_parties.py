"""Whom a manual sentence and a question are about, and the quote preferring the question's party.

Sentences read in the July 2023 manuals: ADP Manual §300.02 p. 33, §300.03 p. 33, §535.03 p. 65,
§220.05 p. 30, §1010 (Vendor registration); Mobility Devices manual §220 p. 14, §300 p. 17, §400 p. 21.
"""

from __future__ import annotations

import asyncio

import pytest

from curbside.coverage.adp.policy_quotes import PARTIES
from curbside.coverage.adp.service import AdpService
from curbside.coverage.adp.tool import AdpGetArgs
from curbside.coverage.policy_quotes import PolicyIndex, PolicyText

HEALTH_CARD_APPLICANT = (
    "Valid Ontario Health Card The Applicant must be insured as defined in the Health Insurance Act and have a "
    "valid Ontario Health number."
)
HEALTH_CARD_AUTHORIZERS = (
    "The ADP Authorizers who have access to the Health Card Validation system through their employer (hospital "
    "or other health facility) are not eligible to apply."
)


@pytest.mark.parametrize(
    ("sentence", "party"),
    [
        (HEALTH_CARD_APPLICANT, "applicant"),  # past the sub-heading it runs on from
        (HEALTH_CARD_AUTHORIZERS, "authorizer"),  # 'ADP' only qualifies the Authorizers
        (
            "Applicants who reside in a long-term care home must retain the Device(s) for their personal use and the "
            "home must agree to accept the Device(s).",
            "applicant",
        ),
        (
            "Registered Vendors for wheelchairs must also be registered Vendors for positioning devices (seating).",
            "vendor",
        ),
        (
            "NOTE: The Applicant must pay the Vendor directly for any non-ADP funded items the individual may choose "
            "to purchase.",
            "applicant",
        ),
        (
            "The individual's ability to propel a manual wheelchair is not a specific eligibility requirement.",
            "applicant",  # a possessive keeps its party
        ),
        (
            "The Program does not automatically provide funding towards a replacement Device at the end of the "
            "designated funding period.",
            "program",
        ),
        # 'ADP funding assistance', 'Vendor quotation': a party term qualifying the subject's own noun
        (
            "ADP funding assistance is available for the options listed in the appropriate Options Chart found in "
            "the Product Manual.",
            None,
        ),
        ("A new application for funding must be submitted to the Program.", None),
    ],
)
def test_a_sentence_is_about_its_subjects_party(sentence: str, party: str | None) -> None:
    assert PARTIES.of_sentence(sentence) == party


def test_a_passive_sentence_is_about_its_agent() -> None:
    assert PARTIES.of_sentence("Section 2 of the form must be completed by the prescriber.") == "prescriber"


@pytest.mark.parametrize(
    ("question", "parties"),
    [
        (
            "pt just moved here from Alberta, no Ontario health card yet - can she apply to ADP for a walker now?",
            {"applicant", "program"},
        ),  # fmt: skip
        ("my client needs a walker, does ADP cover it?", {"applicant", "program"}),
        ("as an OT, can I get access to the health card validation system?", {"authorizer"}),
        ("can a PT authorize a walker?", {"authorizer"}),  # 'PT' is a physiotherapist, 'pt' a patient
        ("can the vendor charge more than the ADP price?", {"vendor", "program"}),
        ("does the doctor have to sign the form?", {"prescriber"}),
        ("how long does an ADP appeal review take?", {"program"}),
    ],
)
def test_a_question_names_or_implies_its_parties(question: str, parties: set[str]) -> None:
    assert PARTIES.of_question(question) == parties


def _index(*texts: str) -> PolicyIndex:
    from curbside.coverage.adp.policy_quotes import VOCABULARY

    return PolicyIndex((PolicyText("core", ref, "33", text) for ref, text in texts), VOCABULARY)


# filler sentences so the two health-card sentences' words are rare, as in the full manuals
_FILLER = [
    (f"9{n:02}", f"The Program will process claim number {n} for the device category within the funding period.")
    for n in range(30)
]


def test_the_question_about_the_patient_gets_the_applicants_health_card_rule() -> None:
    index = _index(("300.02", HEALTH_CARD_APPLICANT), ("535.03", HEALTH_CARD_AUTHORIZERS), *_FILLER)
    question = "pt just moved here from Alberta, no Ontario health card yet - can she apply to ADP for a walker now?"
    quotes = index.quotes(question)
    assert quotes and quotes[0].ref == "300.02" and not quotes[0].other_party
    # the Authorizers' sentence, if still quoted, is marked as another party's and ranked below
    assert all(q.other_party for q in quotes[1:] if q.ref == "535.03")


def test_the_question_about_the_authorizer_gets_the_authorizers_health_card_rule() -> None:
    index = _index(("300.02", HEALTH_CARD_APPLICANT), ("535.03", HEALTH_CARD_AUTHORIZERS), *_FILLER)
    quotes = index.quotes("I'm an OT at a hospital with health card validation access - can I apply?")
    assert quotes and quotes[0].ref == "535.03" and not quotes[0].other_party


def test_without_a_party_in_the_question_neither_sentence_is_demoted() -> None:
    index = _index(("300.02", HEALTH_CARD_APPLICANT), ("535.03", HEALTH_CARD_AUTHORIZERS), *_FILLER)
    quotes = index.quotes("is a health card needed to apply to ADP?")
    assert quotes and not any(q.other_party for q in quotes)


def test_the_only_sentence_found_about_another_party_is_marked() -> None:
    index = _index(("535.03", HEALTH_CARD_AUTHORIZERS), *_FILLER)
    quotes = index.quotes("my patient has no health card validation - can she apply?")
    assert quotes and quotes[0].ref == "535.03" and quotes[0].other_party


def test_the_patients_health_card_question_is_answered_with_the_applicants_rule(adp: AdpService) -> None:
    r = asyncio.run(
        adp.get(
            AdpGetArgs(
                q="pt just moved here from Alberta, no Ontario health card yet - can she apply to ADP for a walker now?"
            )
        )
    )
    assert "valid Ontario Health number" in r.summary and "§300.02" in r.summary
    assert "Health Card Validation" not in r.summary


def test_who_pays_for_extras_is_the_applicant_paying_the_vendor(adp: AdpService) -> None:
    r = asyncio.run(
        adp.get(
            AdpGetArgs(q="pt wants extras on her ADP walker that ADP doesn't fund - who pays for those and to whom?")
        )
    )
    assert "The Applicant must pay the Vendor directly" in r.summary and "§220" in r.summary


def test_a_leading_clause_is_not_the_subject() -> None:
    # ADP Manual §640.01 p. 86: the Vendor's duty, though 'individuals' come first
    sentence = (
        "To ensure that individuals are aware that they may be eligible to apply for funding assistance, the Vendor "
        "must inform the person of the existence of the Program."
    )
    assert PARTIES.of_sentence(sentence) == "vendor"
