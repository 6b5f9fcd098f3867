"""A question asking what someone must do is answered by the manual's sentence saying what must be done.

"is the vendor supposed to give her the warranty?" asks an obligation: its answer says "must" (ADP Manual
§665.00 p. 88 "The Vendor must provide the Client with the manufacturer’s written warranty …"; §935.00 p. 115
"… the Program requires an original Client signature …"), a sentence the yes-or-no kind ('eligible', 'not
funded', 'only' …) never let through. The kind is read from the clause that asks: "residents have to buy from
the home's vendor - is that allowed?" tells an obligation and asks a yes or no.
"""

from __future__ import annotations

import asyncio

import pytest

from curbside.coverage.adp.need_length import asks_duty
from curbside.coverage.adp.policy_quotes import VOCABULARY
from curbside.coverage.adp.service import AdpService
from curbside.coverage.adp.tool import AdpGetArgs, AdpGetResult


def ask(adp: AdpService, q: str) -> AdpGetResult:
    return asyncio.run(adp.get(AdpGetArgs(q=q)))


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("is the supplier supposed to hand over warranty papers with a new walker?", "obligation"),
        ("what does an authorizer have to keep on file?", "obligation"),
        ("does the program need a signature as proof that a scooter was delivered?", "obligation"),
        # the story's obligation is not what is asked: the last clause asks a yes or no
        ("the retirement home says tenants have to rent from its own supplier - is that allowed?", "allowed"),
        ("can ADP pay for a second walker?", "allowed"),
        # 'take' is a time only as a duration ('how many weeks does ADP take'), and 'ok for …?' asks a yes or no
        ("rep is handing out gift cards at the in-service - ok for ADP authorizers to take them?", "allowed"),
        ("how many weeks does ADP usually take to approve a wheelchair application?", "time"),
    ],
)
def test_the_kind_asked_is_read_from_the_asking_clause(question: str, kind: str) -> None:
    assert VOCABULARY.kind(question) == kind


@pytest.mark.parametrize(
    "sentence",
    [
        "The Vendor must provide the Client with the manufacturer’s written warranty at the time of providing the "
        "Device to the Client.",
        "In order to confirm receipt of the Device, the Program requires an original Client signature.",
    ],
)
def test_an_obligation_is_said_by_must_or_requires(sentence: str) -> None:
    assert VOCABULARY.says["obligation"].search(sentence) is not None
    # the yes-or-no kind does not let these through: the reason for the kind
    assert VOCABULARY.says["allowed"].search(sentence) is None


def test_a_sentence_saying_what_is_available_states_no_obligation() -> None:
    sentence = "There are several options available to Vendors to record proof of delivery signatures."
    assert VOCABULARY.says["obligation"].search(sentence) is None


def test_the_vendors_duty_to_give_the_warranty_is_quoted(adp: AdpService) -> None:
    r = ask(adp, "my client just got her ADP equipment - is the vendor required to give her the warranty in writing?")
    assert "The Vendor must provide the Client with the manufacturer’s written warranty" in r.summary
    assert "(ADP Manual §665.00, p. 88)" in r.summary


def test_the_proof_of_delivery_the_program_needs_is_quoted(adp: AdpService) -> None:
    r = ask(adp, "we dropped off a rollator at the client's home - what does the Program need from us as proof?")
    assert "the Program requires an original Client signature" in r.summary
    assert "(ADP Manual §935.00, p. 115)" in r.summary


@pytest.mark.parametrize(
    "sentence",
    [
        # ADP Policies and Procedures Manual, §(invoices on hold): "… will be retained in the database for ninety (90) days."
        'The "on hold" invoice will be retained in the database for ninety (90) days.',
        # the same manual, appeals: "… within five (5) working days from the date …"
        "requesting the appeal within five (5) working days from the date the Program",
    ],
)
def test_a_duration_written_in_words_with_its_figure_is_a_time(sentence: str) -> None:
    assert VOCABULARY.says["time"].search(sentence) is not None


@pytest.mark.parametrize("question", ["how quickly does ADP get back to her?", "how fast will they reply?"])
def test_how_quickly_asks_a_time(question: str) -> None:
    assert VOCABULARY.asks["time"].search(question) is not None


@pytest.mark.parametrize("joint", [" - ", "; "])  # coverage.answer joins a question's clauses with '; '
def test_how_quickly_a_complaint_is_answered_is_quoted(adp: AdpService, joint: str) -> None:
    # 'get back to her' is to contact her, not to obtain anything (§820.01: 'required to obtain the Device(s)')
    r = ask(
        adp, f"pt wants to complain to ADP about how her case was handled{joint}how quickly does ADP get back to her?"
    )
    # ADP Manual §1005.05, p. 125
    assert "endeavour to contact the individual within five (5) working days" in r.summary


def test_should_not_answers_a_yes_or_no() -> None:
    # Mobility Devices manual: "A wheelchair should not be authorized until both the individual's ambulatory …"
    assert VOCABULARY.says["allowed"].search("A wheelchair should not be authorized until both") is not None


@pytest.mark.parametrize(
    ("question", "duty"),
    [
        ("is the vendor supposed to give me the warranty papers for my new walker?", True),
        ("does the authorizer have to keep the form on file?", True),
        ("is ADP supposed to pay for repairs under warranty?", False),  # the program's paying: an exclusion decides it
        ("does the client have to pay the 25%?", False),
        ("will ADP replace the walker while it is under warranty?", False),
    ],
)
def test_a_partys_duty_other_than_paying_is_told_apart(question: str, duty: bool) -> None:
    assert asks_duty(question) is duty


def test_a_vendors_duty_is_not_answered_by_the_warranty_exclusions_no(adp: AdpService) -> None:
    # the exclusion (Mobility Devices manual §605.04: no funding while the manufacturer's warranty is in effect)
    # answered this "No" at 0.92; the question asks what the vendor must give (ADP Manual §665.00, p. 88)
    r = ask(adp, "is the vendor supposed to give me the warranty papers for my new walker?")
    assert not r.summary.startswith("No")
    assert "The Vendor must provide the Client with the manufacturer’s written warranty" in r.summary


def test_what_no_one_has_to_pay_for_answers_a_have_to_pay_question(adp: AdpService) -> None:
    """Mobility Devices manual §505, p. 27: the Central Equipment Pool's "Technical support, assessment/loaner
    equipment, a province wide on call emergency service, and limited warranty repairs and preventative maintenance
    are also provided at no cost to the Client." ADP's own exclusion (§225: "ADP does not provide funding towards the
    cost of repairs and/or maintenance …") answered this "No" at 1.0: it is not what a chair from the pool costs."""
    assert VOCABULARY.says["obligation"].search("… are also provided at no cost to the Client.") is not None
    r = ask(adp, "pt's power tilt chair came from the CEP - does she have to pay for the loaner chair or the after-hours "
            "emergency service calls?")  # fmt: skip
    assert not r.summary.startswith("No")
    assert "provided at no cost to the Client" in r.summary and "§505" in r.summary
    # a chair not from the pool: ADP's exclusion still answers
    plain = ask(adp, "power wheelchair needs a repair - does ADP pay for it?")
    assert plain.summary.startswith("No")


def test_what_one_may_do_answers_whether_one_has_to(adp: AdpService) -> None:
    """ADP Manual §200.03, p. 19: "Medical supplies or Devices, for which the ADP provides a grant directly to the
    Client, may be purchased from any retailer of the Client's choice." answers 'do they have to buy from a vendor?'."""
    r = ask(adp, "pt gets an ADP grant for supplies - do they have to buy them from an ADP vendor?")
    assert "may be purchased from any retailer of the Client’s choice" in r.summary
    assert "(ADP Manual §200.03, p. 19)" in r.summary
