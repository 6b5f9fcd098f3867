"""A quote that holds none of the words of a question's asking clause answers the question's story, not what it
asks ("OT wants to become an ADP authorizer - what does she have to sign?" was answered at 0.8 by ADP Manual
§505.04 on the application form for becoming an Authorizer, which says nothing of signing): a candidate, not a
verdict (#14)."""

from __future__ import annotations

import asyncio

from curbside.coverage.adp.merge import WEAK_QUOTE_CONFIDENCE
from curbside.coverage.adp.policy_quotes import VOCABULARY
from curbside.coverage.adp.service import AdpService
from curbside.coverage.adp.tool import AdpGetArgs
from curbside.coverage.policy_quotes import PolicyIndex, PolicyText

FILLER = [
    "The Program reviews each application within a reasonable time.",
    "Devices are listed in the Product Manual of their category.",
    "The Vendor keeps records of every invoice for seven years.",
    "Clients receive a copy of their approved application by mail.",
]


def index(*texts: str) -> PolicyIndex:
    blocks = [PolicyText("core", f"9{n:02d}.00", "1", text) for n, text in enumerate([*texts, *FILLER])]
    return PolicyIndex(blocks, VOCABULARY)


QUESTION = "OT wants to become a registered authorizer - what does she have to sign?"


def test_a_sentence_on_the_story_alone_is_off_the_asking_clause() -> None:
    story_only = "An applicant who wants to become a registered Authorizer must complete an application form."
    (quote,) = index(story_only).quotes(QUESTION)
    assert quote.text == story_only and quote.off_clause


def test_a_sentence_holding_the_asked_word_is_on_it() -> None:
    signed = "An applicant who wants to become a registered Authorizer must sign the Authorizer Agreement."
    (quote,) = index(signed).quotes(QUESTION)
    assert quote.text == signed and not quote.off_clause


def test_a_question_of_one_clause_has_no_clause_to_be_off() -> None:
    story_only = "An applicant who wants to become a registered Authorizer must complete an application form."
    (quote,) = index(story_only).quotes("what does an applicant have to do to become a registered authorizer?")
    assert not quote.off_clause


def test_an_off_clause_quote_is_not_stated_with_high_confidence(adp: AdpService) -> None:
    r = asyncio.run(adp.get(AdpGetArgs(q="OT wants to become an ADP authorizer - what does she have to sign?")))
    first_quote = r.summary.split("”", 1)[0]
    if "sign" not in first_quote.lower():
        assert r.confidence <= WEAK_QUOTE_CONFIDENCE


def test_the_gifts_and_referral_rules_answer_a_yes_or_no_asked_in_everyday_words(adp: AdpService) -> None:
    """'ok for … to take them?' asks a yes or no, not a time ('take'); 'send my pt to a vendor' is a referral
    (ADP Manual §405.05 p. 44 on gifts at educational sessions; §420.01 p. 53 on referrals to a related party)."""
    gifts = asyncio.run(
        adp.get(
            AdpGetArgs(
                q="manufacturer rep is handing out gift cards at our OT in-service - ok for authorizers to take them?"
            )
        )
    )
    assert "not permitted to accept any fee, benefit or gift" in gifts.summary
    referral = asyncio.run(
        adp.get(AdpGetArgs(q="OT authorizer wants to send my pt to a vendor her husband co-owns - OK under ADP rules?"))
    )
    assert "must not refer a Client" in referral.summary
