"""Answers on devices whose category's Policy and Administration Manual is not loaded (#14).

Only the ADP Manual (Policies and Procedures) and the Mobility Devices manual are loaded: §105.05 of the ADP
Manual (pp. 12-13) names 19 device categories, and each category's devices are listed in its own manual. A
device the loaded manuals do not list may belong to one of the other 18, whose funding they set: the answer
says those manuals are not loaded and states the general share (§305.01, p. 35) with low confidence.
"""

from __future__ import annotations

import asyncio

from curbside.coverage.adp.policy_quotes import VOCABULARY
from curbside.coverage.adp.service import AdpService
from curbside.coverage.adp.tool import AdpGetArgs, AdpGetResult


def ask(adp: AdpService, q: str) -> AdpGetResult:
    return asyncio.run(adp.get(AdpGetArgs(q=q)))


def test_a_percent_sign_asks_the_amount() -> None:
    assert VOCABULARY.amount is not None
    assert VOCABULARY.amount.search("what % does ADP pay for it?")
    assert VOCABULARY.amount.search("does ADP fund it, what%?")
    assert not VOCABULARY.amount.search("can the vendor charge her a fee?")


def test_a_device_no_loaded_manual_lists_says_which_manuals_are_not_loaded(adp: AdpService) -> None:
    r = ask(adp, "my pt has a tracheostomy and needs a heated humidifier at home - what % does ADP pay?")
    assert "The manual:" not in r.summary  # an amount is asked: no policy sentence answers it
    assert "list the devices of Mobility Devices only" in r.summary
    assert "other 18 ADP device categories (ADP Manual §105.05)" in r.summary and "are not loaded" in r.summary
    assert r.confidence <= 0.5


def test_a_category_not_loaded_is_said_beside_a_short_term_verdict(adp: AdpService) -> None:
    r = ask(adp, "he needs a palatal obturator after his surgery - what does ADP cover?")
    assert r.device is not None and r.device.category == "Maxillofacial Intraoral Prostheses"
    assert "Not for a short-term need" in r.summary
    assert "The Maxillofacial Intraoral Prostheses Policy and Administration Manual" in r.summary
    assert "is not loaded" in r.summary and r.confidence <= 0.5


def test_a_category_named_by_a_word_of_its_own_name(adp: AdpService) -> None:
    # 'intraoral' is the word of the category's name (§105.05: 'Maxillofacial Intraoral Prostheses') a dentist uses
    r = ask(adp, "intraoral device after his maxillectomy - does ADP cover it?")
    assert r.device is not None and r.device.category == "Maxillofacial Intraoral Prostheses"
    assert "is not loaded" in r.summary and "75%" not in r.summary and r.confidence <= 0.5


def test_a_question_on_no_funding_is_not_told_of_other_categories_manuals(adp: AdpService) -> None:
    r = ask(adp, "who can be an authorizer?")
    assert "other 18 ADP device categories" not in r.summary


def test_a_device_no_loaded_manual_names_is_told_of_the_other_manuals_beside_a_quote(adp: AdpService) -> None:
    # a white cane and a talking watch are named by neither loaded manual: a sentence of theirs on funding
    # ('Applicants may not request ADP funding …') does not answer for the category the devices belong to
    r = ask(adp, "legally blind pt needs a new white cane + talking watch - does ADP fund these?")
    assert "other 18 ADP device categories (ADP Manual §105.05)" in r.summary and "are not loaded" in r.summary
    assert r.confidence <= 0.5


def test_a_category_named_by_what_a_clinician_calls_its_devices(adp: AdpService) -> None:
    # an alternating-pressure air mattress is a Pressure Modification Device; a palatal lift or speech bulb a
    # Maxillofacial Intraoral Prosthesis (§105.05); a surgeon's 'cleft palate repair' asks nothing of device repairs
    mattress = ask(adp, "MS pt mostly in bed, recurrent sacral breakdown - OT recommends a powered alternating-pressure "
                   "air mattress for home. how much does ADP cover?")  # fmt: skip
    assert mattress.device is not None and mattress.device.category == "Pressure Modification Devices"
    assert "75%" not in mattress.summary and mattress.confidence <= 0.5
    lift = ask(adp, "teen w/ velopharyngeal insufficiency after cleft palate repair, prosthodontist wants a palatal "
               "lift / speech bulb appliance - what share does ADP pay?")  # fmt: skip
    assert lift.device is not None and lift.device.category == "Maxillofacial Intraoral Prostheses"
    assert "repairs" not in lift.summary and not lift.summary.startswith("No")
