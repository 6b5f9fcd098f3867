"""Policy questions answered by the manual's own sentence, on the two real July 2023 manuals.

Sentences read in the manuals: ADP Manual §1000.13 p. 122, §220.03 p. 29, §300.01 p. 33, §805.01 p. 97,
§810.02 p. 99; Mobility Devices manual §600 p. 34, §515 p. 28, §605.01 p. 35, §705 p. 38, §900 p. 44.
"""

from __future__ import annotations

import asyncio

import pytest

from curbside.coverage.adp.policy_quotes import VOCABULARY
from curbside.coverage.adp.service import AdpService
from curbside.coverage.adp.tool import AdpGetArgs, AdpGetResult
from curbside.coverage.policy_quotes import _stem, sentences


def ask(adp: AdpService, q: str) -> AdpGetResult:
    return asyncio.run(adp.get(AdpGetArgs(q=q)))


def test_a_time_question_gets_the_sentence_with_the_time(adp: AdpService) -> None:
    r = ask(adp, "how long does an ADP appeal review take?")
    # the paragraph's next sentence, which also matches, is quoted with it
    assert r.summary.startswith(
        "The manual: “The Program will use reasonable efforts to complete all reviews within 30 business days from "
        "the date the Program receives the appeal. Thirty (30) business days allows the Program time"
    )
    assert "” (ADP Manual §1000.13, p. 122)" in r.summary
    assert "No ADP device category" not in r.summary  # a policy question needs no device
    assert any(c.excerpt and c.excerpt.startswith("§1000.13") for c in r.citations)


def test_an_abbreviation_meets_the_words_the_manual_spells_out(adp: AdpService) -> None:
    r = ask(adp, "patient's device is covered by WSIB, can they also apply to ADP?")
    assert "Workplace Safety and Insurance Act" in r.summary and "§300.01, p. 33" in r.summary


def test_a_bullet_is_quoted_with_its_lead_in(adp: AdpService) -> None:
    r = ask(adp, "can ADP fund both a walker and forearm crutches, plus a wheelchair?")
    assert (
        "“ADP funding assistance may be requested for up to: • Two different ambulation aids (e.g. walker and pair "
        "of forearm crutches).”" in r.summary
    )


def test_an_exclusion_rule_answers_before_any_quote(adp: AdpService) -> None:
    r = ask(adp, "patient's ADP-funded walker was stolen last year, will ADP replace it?")
    assert r.summary.startswith("No: No funding to replace a device lost or stolen")
    assert "The manual:" not in r.summary


def test_a_where_question_gets_the_routing_sentence(adp: AdpService) -> None:
    r = ask(adp, "my patient needs a power wheelchair with tilt, where does the ADP application go?")
    assert "must go through CEP" in r.summary


def test_amount_questions_keep_the_funding_answer(adp: AdpService) -> None:
    r = ask(adp, "my patient needs a walker through ADP, how much does ADP pay and how much does the patient pay?")
    assert "The manual:" not in r.summary and "75%" in r.summary


def test_no_quote_for_a_category_whose_manual_is_not_loaded(adp: AdpService) -> None:
    r = ask(adp, "is an insulin pump for a child covered by ADP?")
    assert "The manual:" not in r.summary and "is not loaded" in r.summary


def test_a_process_question_gets_the_sentence_in_its_own_words(adp: AdpService) -> None:
    # ADP Manual §810.02, p. 99; 'white-out' and 'mistake' are spelled out as the manual's words
    r = ask(adp, "we fixed a mistake on the ADP form with white-out, will they still process it?")
    assert "correction fluid or tape has been used, will not be processed.” (ADP Manual §810.02, p. 99)" in r.summary
    assert "repairs" not in r.summary  # 'fixed a mistake' is no repair
    assert "75%" not in r.summary  # the share answers another question


def test_a_bullet_is_quoted_under_its_sub_heading(adp: AdpService) -> None:
    # ADP Manual §805.01, p. 97: "Section 2 – Devices and Eligibility" heads the bullets after it
    r = ask(adp, "which part of the ADP application does the doctor (prescriber) fill in?")
    assert (
        "“Section 2 – Devices and Eligibility • Fields that relate to the Applicant’s primary and secondary "
        "diagnoses, completed by the prescriber.” (ADP Manual §805.01, p. 97)"
    ) in r.summary
    assert "No ADP device category" not in r.summary


def test_a_who_question_gets_the_sentence_naming_who(adp: AdpService) -> None:
    # Mobility Devices manual §900, p. 44 (Authorizer Status)
    r = ask(adp, "can I as the family doctor authorize an ADP walker or wheelchair, or who has to do it?")
    assert r.summary.startswith("The manual: “Occupational Therapists and Physiotherapists who hold a valid")
    assert "(Mobility Devices manual §900, p. 44)" in r.summary and "75%" not in r.summary


def test_a_discount_question_gets_the_note_on_discounts(adp: AdpService) -> None:
    # Mobility Devices manual §705, p. 38 (the NOTE)
    r = ask(adp, "the vendor gave my patient a discount on her walker - does the 75/25 split still apply?")
    assert "both the Client portion (25%) and the ADP portion (75%) must be adjusted accordingly" in r.summary


def test_a_replacement_question_gets_the_body_size_rule_not_the_share(adp: AdpService) -> None:
    # Mobility Devices manual §605.01, p. 35: 'outgrew' is spelled out as a change in body size
    r = ask(
        adp, "kid outgrew his ADP wheelchair after 2 years, before the 5 years are up - will ADP pay for a new one?"
    )
    assert "the Program will consider full contribution towards the cost of a replacement Device" in r.summary
    assert "ADP pays 75%" not in r.summary and r.confidence <= 0.8


def test_a_device_question_is_not_answered_by_a_sentence_sharing_only_the_device(adp: AdpService) -> None:
    r = ask(adp, "does ADP cover a walker?")
    assert "The manual:" not in r.summary and "ADP pays 75%" in r.summary


def test_words_the_manuals_never_use_are_said_and_the_answer_is_not_confident(adp: AdpService) -> None:
    r = ask(adp, "my patient moved from Quebec, can she apply to ADP for a walker?")
    assert "The loaded ADP manuals have no sentence found to answer this" in r.summary and "'quebec'" in r.summary
    assert r.confidence <= 0.6 and "75%" not in r.summary


def test_sentences_put_each_bullet_under_the_sub_heading_it_follows() -> None:
    # ADP Manual §805.01, p. 97 (shortened)
    text = (
        "Most ADP Application Forms have the following structure: Section 1 – Applicant’s Biographical Information "
        "• Captures mandatory Client information (e.g. name, address, health card number) Section 2 – Devices and "
        "Eligibility • Fields that relate to the Applicant’s primary and secondary diagnoses, completed by the prescriber"
    )
    assert sentences(text) == [
        "Most ADP Application Forms have the following structure: Section 1 – Applicant’s Biographical Information "
        "• Captures mandatory Client information (e.g. name, address, health card number)",
        "Section 2 – Devices and Eligibility • Fields that relate to the Applicant’s primary and secondary diagnoses, "
        "completed by the prescriber",
    ]


@pytest.mark.parametrize(
    ("words", "stem"),
    [(("authorize", "authorizer", "authorizers", "authorization"), "authoriz"), (("process", "processed"), "process")],
)
def test_a_word_and_its_derivatives_share_a_stem(words: tuple[str, ...], stem: str) -> None:
    assert {_stem(w) for w in words} == {stem}


def test_a_clinicians_pt_is_the_patient_and_bought_is_the_manuals_purchase(adp: AdpService) -> None:
    # ADP Manual §640.03, p. 86; 'pt' once read as a physiotherapist quoted the Authorizer rules (§900)
    r = ask(adp, "pt already bought a walker at the pharmacy before seeing the OT - can ADP pay her back?")
    assert "the Device purchased is not eligible for funding assistance under the Program" in r.summary
    assert "(ADP Manual §640.03, p. 86)" in r.summary and "Physiotherapists" not in r.summary


def test_a_conditions_question_gets_the_sentence_that_sets_them(adp: AdpService) -> None:
    # ADP Manual §300.03, p. 33: a nursing home is a long-term care home; 'resident' meets 'reside'
    r = ask(
        adp, "one of my nursing home residents needs her own wheelchair - can she get it through ADP, any conditions?"
    )
    assert "must retain the Device(s) for their personal use and the home must agree to accept" in r.summary


def test_a_hyphenated_word_meets_the_word_written_whole(adp: AdpService) -> None:
    # Mobility Devices manual §605.03, p. 36: 'Back-Up' is a 'backup' (and a 'spare')
    r = ask(
        adp, "pt getting a new chair but wants to keep the old ADP one as a spare/backup - does that cut what ADP pays?"
    )
    assert "the Program may waive the deduction when calculating the contribution" in r.summary


def test_stems_join_hyphenated_words_and_leave_out_pt() -> None:
    assert {"backup", "back", "up"} <= VOCABULARY.stems("used only as a back-up")
    assert "backup" in VOCABULARY.stems("as a spare")
    assert not VOCABULARY.stems("pt") and "reimbursement" in VOCABULARY.stems("can ADP pay her back?")


def test_a_category_manuals_rule_is_quoted_with_the_core_manuals_on_the_same_words(adp: AdpService) -> None:
    # Mobility Devices manual §310 p. 18 and ADP Manual §300.05 p. 34: the core manual governs every category
    r = ask(adp, "teen wants a sports wheelchair for wheelchair basketball only - will ADP fund it?")
    assert "used solely for: • Sports" in r.summary and "(Mobility Devices manual §310, p. 18)" in r.summary
    assert "recreation or sports" in r.summary and "(ADP Manual §300.05, p. 34)" in r.summary


def test_a_quote_of_two_sentences_keeps_the_sentence_between_them(adp: AdpService) -> None:
    # Mobility Devices manual §1010 p. 48: 'ADP Clients must be given choice of Vendor.' lies between the two
    r = ask(
        adp, "the LTC home says residents have to buy their ADP wheelchair from the home's vendor - is that allowed?"
    )
    assert "long-term care home" in r.summary and "must not be advised or expected to purchase" in r.summary
    assert "ADP Clients must be given choice of Vendor. The Client may be informed" in r.summary


def test_an_age_in_chart_shorthand_is_no_word_the_manuals_lack(adp: AdpService) -> None:
    # 'yo' is how a note writes an age, not a word a manual would use: the reply asks which group instead
    r = ask(adp, "insulin pump for a 19 yo - ADP?")
    assert "never use the words" not in r.summary
    assert r.confidence < 0.7
    assert "Insulin Pump and Supplies for Adults" in (r.follow_up or "") and "for Children" in (r.follow_up or "")
    aged = ask(adp, "will ADP pay for an insulin pump for my 40 yo T1?")
    assert "Insulin Pump and Supplies for Adults Policy and Administration Manual" in aged.summary
    assert "is not loaded" in aged.summary and aged.confidence <= 0.5


def test_a_title_before_a_numbered_list_and_the_lists_next_number_are_no_sentence() -> None:
    # Mobility Devices manual §525.03 p. 29 and ADP Manual §915.01 p. 107 (shortened)
    assert sentences(
        "Power Elevating Leg Rests 1. Decrease in swelling due to chronic edema in the lower extremities. 2. "
        "Repositioning of the lower extremities where power reclines is prescribed."
    ) == [
        "Decrease in swelling due to chronic edema in the lower extremities.",
        "Repositioning of the lower extremities where power reclines is prescribed.",
    ]
    assert sentences("There are 16 essential data items required for all invoices: 1.") == [
        "There are 16 essential data items required for all invoices:"
    ]


def test_a_question_about_what_goes_in_a_form_gets_what_it_may_include(adp: AdpService) -> None:
    # Mobility Devices manual §530 p. 31: the Justification for Funding Chart's headings
    assert VOCABULARY.kind("what can I put in the skin integrity part of the justification chart?") == "content"
    r = ask(
        adp, "OT - CEP power tilt application, what can I put in the skin integrity part of the justification chart?"
    )
    assert "May include documentation of reddened areas, results of pressure mapping etc." in r.summary
    assert "Mobility Devices manual §530, p. 30" in r.summary  # the paragraph starts on p. 30


def test_a_count_is_said_by_a_number(adp: AdpService) -> None:
    # ADP Manual §915.01 p. 107
    r = ask(adp, "new ADP vendor setting up billing - how many data items must be on every invoice?")
    assert "There are 16 essential data items required for all invoices" in r.summary


def test_a_parts_introduction_is_quoted_and_cited_by_its_part(adp: AdpService) -> None:
    # Mobility Devices manual Part 4 p. 21: 'avoid' answers a yes or no as 'must not' does
    r = ask(adp, "OT filling in the ADP mobility form - in the diagnosis box should I list her symptoms or what?")
    assert (
        "must provide the medical diagnosis in the appropriate section on the application form and avoid "
        "including a list of symptoms" in r.summary
    )
    assert "(Mobility Devices manual Part 4, p. 21)" in r.summary


def test_when_as_a_conjunction_asks_no_time(adp: AdpService) -> None:
    question = "pt has an ADP power chair - can ADP also fund a light folding manual chair for trips / when the power chair is in the shop?"  # noqa: E501
    assert VOCABULARY.kind(question) != "time"
    assert VOCABULARY.kind("when does the funding period start?") == "time"
    # Mobility Devices manual §600 p. 34
    r = ask(adp, question)
    assert "ADP funding assistance may be requested for up to: • One wheelchair (manual, power" in r.summary


def test_a_yes_or_no_about_submitting_is_no_question_of_where() -> None:
    assert VOCABULARY.kind("ADP denied my pt's chair - can the vendor just submit the appeal for her?") == "allowed"
    assert VOCABULARY.kind("which office do we submit the appeal form to?") == "where"
    assert VOCABULARY.kind("who do I send the appeal to?") == "where"
    # Mobility Devices manual §660.00: 'the Vendor may refuse to provide the Device'
    assert VOCABULARY.kind("vendor wouldn't hand it over - can they do that? who do they have to tell?") != "where"
