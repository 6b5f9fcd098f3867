"""Policy questions answered by the manual's own sentence, on the two real July 2023 manuals.

Sentences read in the manuals: ADP Manual §1000.13 p. 122, §220.03 p. 29, §300.01 p. 33; Mobility
Devices manual §600 p. 34, §515 p. 28.
"""

from __future__ import annotations

import asyncio

from curbside.coverage.adp.service import AdpService
from curbside.coverage.adp.tool import AdpGetArgs, AdpGetResult


def ask(adp: AdpService, q: str) -> AdpGetResult:
    return asyncio.run(adp.get(AdpGetArgs(q=q)))


def test_a_time_question_gets_the_sentence_with_the_time(adp: AdpService) -> None:
    r = ask(adp, "how long does an ADP appeal review take?")
    assert r.summary.startswith(
        "The manual: “The Program will use reasonable efforts to complete all reviews within 30 business days from "
        "the date the Program receives the appeal.” (ADP Manual §1000.13, p. 122)"
    )
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
