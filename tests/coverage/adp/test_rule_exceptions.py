"""A rule is quoted with the exception the manual makes to it (#14): "The appeal must be submitted in writing to
the Program." (ADP Manual §1000.06, p. 121) alone tells a patient who cannot write that she cannot appeal; §1000.07
goes on "The Program may accept a verbal appeal if the individual has a physical disability …". And an exception
quoted alone ("The only exception to this policy is …", §200.06, p. 20) is quoted with the rule it excepts."""

from __future__ import annotations

import asyncio

from adp_policy_filler import FILLER

from curbside.coverage.adp.policy_quotes import VOCABULARY
from curbside.coverage.adp.service import AdpService
from curbside.coverage.adp.tool import AdpGetArgs
from curbside.coverage.policy_quotes import PolicyIndex, PolicyText

RULE = "A complaint must be submitted in writing to the Program."
MAIL = "The Program will accept complaints by mail, e-mail or fax."
EXCEPTION = "The Program may accept a verbal complaint if the individual cannot write because of a disability."


def index(*blocks: PolicyText) -> PolicyIndex:
    return PolicyIndex([*blocks, *FILLER], VOCABULARY)


def test_the_next_paragraphs_exception_is_quoted_after_the_rule() -> None:
    quotes = index(
        PolicyText("core", "1005.02", "9", f"{RULE} {MAIL}"), PolicyText("core", "1005.03", "9", EXCEPTION)
    ).quotes("ALS pt can't write - can she make her complaint by phone?")
    assert [q.text for q in quotes[:2]] == [RULE, EXCEPTION]
    assert quotes[1].exception and quotes[1].ref == "1005.03"


def test_an_exception_in_another_section_is_not_this_rules() -> None:
    quotes = index(
        PolicyText("core", "1005.02", "9", f"{RULE} {MAIL}"), PolicyText("core", "1010.00", "9", EXCEPTION)
    ).quotes("ALS pt can't write - can she make her complaint by phone?")
    assert not any(q.exception for q in quotes)


def test_an_exception_is_quoted_with_the_rule_it_excepts() -> None:
    rule = "The Vendor cannot supply any Device that has been previously used."
    exception = "The only exception to this policy is a Vendor whose agreement permits it to sell recycled equipment."
    (quote, *_) = index(PolicyText("core", "200.06", "2", f"{rule} {exception}")).quotes(
        "can the vendor sell her recycled equipment?"
    )
    assert quote.text == f"{rule} {exception}"


def test_the_verbal_appeal_is_said_beside_the_written_one(adp: AdpService) -> None:
    r = asyncio.run(
        adp.get(AdpGetArgs(q="my pt has ALS and can no longer write - may she appeal ADP's decision verbally?"))
    )
    if "The appeal must be submitted in writing" in r.summary:
        assert "may accept a verbal appeal" in r.summary


def test_a_permission_with_the_questions_own_verb_answers_a_yes_or_no() -> None:
    # "may refuse" says neither "not" nor "only", yet it answers "can the vendor refuse …?" word for word; the
    # sentence that merely shares the question's nouns under "must be" does not answer it
    permits = "A Vendor may refuse to provide a Device that it believes is unsafe for the Applicant."
    other = "The Device must be delivered to the Applicant by a Vendor registered with the Program."
    (quote, *_) = index(PolicyText("core", "700.10", "7", permits), PolicyText("core", "700.02", "7", other)).quotes(
        "can the vendor refuse to deliver a device that is unsafe for my pt?"
    )
    assert quote.text == permits
