"""A short-term need, a requirement question, and the clerk's words for the manuals' (real July 2023 manuals).

Sentences read in the manuals: ADP Manual §300.04 p. 34 ("for six months or longer"), §315.00 p. 37
("direct payment … to the Client is not available"), §325.02 p. 39 ("Letters will not confirm ineligibility");
Mobility Devices manual §310 p. 18 ("used solely for: • Post-operative needs"), §215 p. 14 ("a second seat
cushion cover"), §200 p. 12 ("a minimum 2-year warranty").
"""

from __future__ import annotations

import asyncio

import pytest

from curbside.coverage.adp.need_length import asks_requirement, short_term_need
from curbside.coverage.adp.policy_quotes import VOCABULARY
from curbside.coverage.adp.service import AdpService
from curbside.coverage.adp.tool import AdpGetArgs, AdpGetResult


def ask(adp: AdpService, q: str) -> AdpGetResult:
    return asyncio.run(adp.get(AdpGetArgs(q=q)))


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("walker for 3 months after knee surgery?", "after knee surgery"),
        ("needs a chair for ~6 wks, can ADP help?", "for ~6 wks"),
        ("a temporary wheelchair while her cast is on", "temporary"),
        ("post-op rollator, covered?", "post-op"),
        ("for 10 days only", "for 10 days"),
    ],
)
def test_a_short_term_need_is_read(question: str, said: str) -> None:
    assert short_term_need(question) == said


@pytest.mark.parametrize(
    "question",
    ["she will need it for 8 months", "MS for 10 years, walker?", "does ADP replace a walker every 5 years?"],
)
def test_a_long_need_or_a_device_replacement_is_not_short_term(question: str) -> None:
    assert short_term_need(question) is None


def test_a_short_term_need_gets_the_long_term_rules_and_no_share(adp: AdpService) -> None:
    r = ask(adp, "my pt needs a walker for about 4 weeks after her knee replacement - will ADP pay for it?")
    assert "six months or longer" in r.summary and "post-operative needs" in r.summary
    assert "client pays 25%" not in r.summary  # no share of a need ADP does not fund
    assert "designated funding period" not in r.summary  # a knee replacement is no device replacement
    assert r.confidence <= 0.8


def test_a_requirement_question_is_not_answered_by_an_exclusion(adp: AdpService) -> None:
    assert asks_requirement("what minimum warranty does a wheelchair need to have?")
    assert not asks_requirement("will ADP replace the wheelchair while it is under warranty?")
    r = ask(adp, "what's the minimum warranty a wheelchair must carry for ADP funding?")
    # the manual's sentence on warranties is quoted (which one varies with the words), not the exclusion's "No"
    assert r.summary.startswith("The manual:") and "warranty" in r.summary
    assert "No: Mobility Devices: no ADP funding to replace" not in r.summary
    assert r.confidence < 0.9


def test_reimburse_is_the_manuals_payment(adp: AdpService) -> None:
    assert "payment" in VOCABULARY.stems("can ADP reimburse her?")
    r = ask(adp, "could the program reimburse the client directly rather than the vendor?")
    assert "direct payment for Listed Devices from the Program to the Client is not available" in r.summary


def test_not_eligible_is_the_manuals_ineligibility(adp: AdpService) -> None:
    assert "ineligibility" in VOCABULARY.stems("a letter saying he isn't eligible")
    r = ask(adp, "his insurance company wants a letter from ADP stating he is not eligible - will ADP do that?")
    assert "Letters will not confirm ineligibility" in r.summary


def test_spare_is_the_manuals_second_and_available_says_yes(adp: AdpService) -> None:
    r = ask(adp, "incontinent wheelchair user - can ADP fund a spare seat cushion cover?")
    assert "second seat cushion cover" in r.summary


def test_who_pays_whom_is_its_own_kind_and_unanswered_is_said(adp: AdpService) -> None:
    assert VOCABULARY.asks["payer"].search("who pays for those and to whom?")
    r = ask(adp, "pt wants upgrades ADP won't fund on her walker - who pays for them and to whom?")
    # no sentence holds the question's words beyond paying: said so, not stated at high confidence
    assert r.confidence <= 0.8
