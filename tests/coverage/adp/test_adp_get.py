"""``adp.get`` on the two real July 2023 manuals: golden questions with facts read from the PDFs, and bad input.

Every figure asserted here was read in the manuals: ADP Manual (Policies and
Procedures Manual for the Assistive Devices Program) §305.00/§305.01 p. 35,
§310.00 p. 36, §310.01 p. 37, §200.02 p. 19, §205.01 p. 22, §670.00 p. 88,
§670.02 p. 89; Mobility Devices Policy and Administration Manual §225 p. 14,
§310 p. 18, §410.01 p. 24, §505 p. 27, §515 p. 28, §600 pp. 34-35, §705 p. 38,
§710 p. 39.
"""

from __future__ import annotations

import asyncio

import pytest
from pydantic import ValidationError

from curbside.coverage.adp.service import AdpService
from curbside.coverage.adp.tool import AdpGetArgs, AdpGetResult

EDITION = (
    "ADP manuals, July 2023: Policies and Procedures Manual for the Assistive Devices Program; "
    "Mobility Devices Policy and Administration Manual"
)
WHICH_DEVICE = (
    "Which device is it, as the Authorizer or prescriber wrote it (e.g. 'wheeled walker', 'power wheelchair', "
    "'hearing aid')? ADP funding depends on the device category."
)


def ask(adp: AdpService, **args: object) -> AdpGetResult:
    return asyncio.run(adp.get(AdpGetArgs(**args)))


def cited(r: AdpGetResult) -> list[tuple[str, int]]:
    """(§section, page) of every citation, from its excerpt."""
    return [(c.excerpt.split(":", 1)[0], c.page) for c in r.citations]  # type: ignore[misc]


def answered(r: AdpGetResult, *, confident: bool = True) -> None:
    """Answered from the manuals; ``confident=False`` where the category's own manual is not loaded."""
    assert not r.needs_more_info and r.edition == EDITION and r.summary.endswith(f"({EDITION})")
    assert r.trace[0].status == "ok" and (r.confidence >= 0.9 if confident else 0.0 < r.confidence <= 0.5)
    assert [m.edition for m in r.manuals] == ["July 2023", "July 2023"]


# --- golden questions -----------------------------------------------------------------------------


def test_walker(adp: AdpService) -> None:
    r = ask(adp, q="What does ADP pay for a walker?")
    answered(r)
    assert r.device is not None
    assert (r.device.category, r.device.device_type, r.device.group, r.device.listed_as) == (
        "Mobility Devices",
        "walker",
        "Ambulation Aids",
        "Wheeled walkers (two, three and four wheels)",
    )
    assert (r.device.source.section, r.device.source.page) == ("205", 12)  # type: ignore[union-attr]
    f = r.funding
    assert f is not None
    assert (f.adp_contribution, f.client_share_percent, f.funding_model, f.social_assistance_applied) == (
        75.0,
        25.0,
        "fixed_price",
        False,
    )
    assert (f.rules[0].source.manual, f.rules[0].source.section, f.rules[0].source.page) == (
        "mobility-devices",
        "705",
        38,
    )
    assert ("core", "305.00", 35) in [(x.source.manual, x.source.section, x.source.page) for x in f.rules]
    assert r.summary.startswith(
        "ADP pays 75% of the Approved Price for a wheeled walker and the client pays 25% "
        "(Mobility Devices manual §705, p. 38). Clients receiving Ontario Works, ODSP or ACSD: ADP pays 100% "
        "(Mobility Devices manual §710, p. 39)."
    )
    assert cited(r)[0] == ("§705", 38)
    assert r.citations[0].title == "Mobility Devices Policy and Administration Manual (July 2023)"
    assert r.eligibility is not None
    assert r.eligibility.other_criteria["designated_funding_period"] == (
        "Ambulation aids: designated funding period 5 years (Mobility Devices manual §600, p. 34)"
    )
    assert (
        r.follow_up == "Does the patient receive Ontario Works, ODSP or ACSD? Then ADP pays 100% (ADP Manual §310.00)."
    )
    assert r.covered is True and r.cep is None


def test_power_wheelchair_batteries(adp: AdpService) -> None:
    r = ask(adp, q="Does ADP cover power wheelchair batteries?")
    answered(r)
    assert r.device is not None and r.device.device_type == "power_wheelchair"
    asked = [(e.topic, e.source.manual, e.source.section, e.source.page) for e in r.exclusion_rules if e.asked]
    assert asked == [
        ("batteries", "core", "200.02", 19),
        ("repairs_maintenance_batteries", "mobility-devices", "225", 14),
    ]
    assert r.summary.startswith(
        "No: ADP does not fund new or replacement batteries for any device (lead acid, zinc air, alkaline, lithium "
        "ion, lithium polymer, nickel-metal hydride …) (ADP Manual §200.02, p. 19; Mobility Devices manual §225, p. 14)."
    )
    assert {("§200.02", 19), ("§225", 14)} <= set(cited(r))
    assert (
        "ADP does not provide funding towards the cost of repairs and/or maintenance and/or batteries for any Device."
        in "\n".join(r.context)
    )
    assert r.follow_up is None  # about exclusions: no funding follow-up


def test_the_rule_answering_every_topic_asked_leads(adp: AdpService) -> None:
    # "repairs or new batteries": the Mobility Devices manual's §225 covers both; §200.02 covers batteries only
    r = ask(adp, q="will ADP pay for repairs or new batteries for a power wheelchair?")
    answered(r)
    asked = [(e.topic, e.source.section) for e in r.exclusion_rules if e.asked]
    assert asked[0] == ("repairs_maintenance_batteries", "225")
    assert {"batteries", "repairs"} <= {topic for topic, _ in asked}
    assert r.summary.startswith(
        "No: Mobility Devices: ADP does not provide funding towards repairs, maintenance or batteries for any "
        "device (the Central Equipment Pool has its own terms, Part 5) (Mobility Devices manual §225, p. 14;"
    )


def test_odsp_wheelchair(adp: AdpService) -> None:
    r = ask(adp, q="My patient is on ODSP, what do they pay for a wheelchair?")
    answered(r)
    f = r.funding
    assert f is not None and (f.adp_contribution, f.client_share_percent, f.social_assistance_applied) == (
        100.0,
        0.0,
        True,
    )
    assert (f.rules[0].rule_id, f.rules[0].source.section, f.rules[0].source.page) == (
        "mobility-social-assistance",
        "710",
        39,
    )
    assert r.social_assistance is not None and r.social_assistance.patient_receives is True
    assert r.summary.startswith(
        "For a client receiving Ontario Disability Support Program (ODSP), ADP pays 100% of the Approved Price for a "
        "wheelchair; the client pays nothing toward it (Mobility Devices manual §710, p. 39)."
    )
    assert cited(r)[0] == ("§710", 39)
    assert r.follow_up == (
        "Is it a manual wheelchair, a power wheelchair or a scooter? The funding share is the same; the eligibility "
        "criteria differ (Mobility Devices manual §405, §410, §410.01)."
    )


def test_social_assistance_models_of_310_and_which_category_pays_100(adp: AdpService) -> None:
    r = ask(adp, q="My patient on Ontario Works needs a hearing aid: what does ADP pay?")
    answered(r, confident=False)
    assert r.device is not None and (r.device.category, r.device.policy_manual_loaded) == ("Hearing Devices", False)
    f = r.funding
    assert f is not None
    assert (f.adp_contribution, f.adp_share_is_maximum, f.client_share_percent) == (100.0, True, None)
    assert (f.rules[0].source.section, f.rules[0].source.page) == ("310.01", 37)
    sa = r.social_assistance
    assert sa is not None and sa.models == [
        "a. 100% of the ADP Approved Price;",
        "b. 100% of the maximum contribution of the ADP Approved Price;",
        "c. 100% up to a maximum contribution of the Device retail price; or",
        "d. 100% of a grant amount.",
    ]
    assert list(sa.by_category) == ["Mobility Devices"]
    assert sa.by_category["Mobility Devices"].endswith(
        "ADP pays 100% of the Approved Price (Mobility Devices manual §710, p. 39)"
    )
    assert {("§310.01", 37), ("§310.00", 36)} <= set(cited(r))
    assert (
        "The Hearing Devices Policy and Administration Manual, which sets that category's funding model, is not loaded."
        in r.summary
    )


def test_hearing_aids_general_share(adp: AdpService) -> None:
    r = ask(adp, q="Does ADP cover hearing aids?")
    answered(r, confident=False)
    f = r.funding
    assert f is not None
    assert (f.adp_contribution, f.adp_share_is_maximum, f.client_share_percent, f.client_share_is_minimum) == (
        75.0,
        True,
        25.0,
        True,
    )
    assert f.funding_model is None
    assert [x.rule_id for x in f.rules] == [
        "default-share",
        "fixed-price",
        "maximum-contribution",
        "grant",
        "approved-amount-cap",
    ]
    # the general share holds 'unless noted otherwise' (§305.01) and the Hearing Devices manual, which would note it,
    # is not loaded: the summary states no share for the category (the rules stay in `funding`), at low confidence
    assert r.summary.startswith(
        "The Hearing Devices Policy and Administration Manual, which sets what ADP pays for that category (a fixed "
        "price, a maximum contribution or a grant: ADP Manual §305), is not loaded, so no share is stated here"
    )
    assert "75%" not in r.summary and "25%" not in r.summary and "(ADP Manual §305.01, p. 35)" in r.summary
    assert r.confidence <= 0.5


def test_a_device_named_as_clinicians_do_finds_its_category_whose_manual_is_not_loaded(adp: AdpService) -> None:
    # held-out 19: a wearable text-reading camera is a visual aid, a cranial remolding helmet an orthotic device
    # (devices.toml); neither category's manual is loaded, so neither answer states a share
    for question, category in (
        (
            "RP pt, low vision clinic recommends a wearable text-reading camera (orcam type). ADP fund it, what %?",
            "Visual Aids",
        ),
        ("5 mo old w/ plagiocephaly, neurosurg recommends a cranial remolding helmet - ADP share?", "Orthotic Devices"),
    ):
        r = ask(adp, q=question)
        assert r.summary.startswith(f"The {category} Policy and Administration Manual")
        assert "75%" not in r.summary and r.confidence <= 0.5


def test_a_telephone_number_asked_is_quoted_from_the_contacts(adp: AdpService) -> None:
    # ADP Manual §1005.04 (p. 124): "Phone Number/Toll Free: 1-800-268-6021"; §1100.01 (p. 128) and Mobility
    # §1100.02 (p. 52): the Financial Management Branch, Program Payments Unit, "Toll free: 1-800-267-9458"
    general = ask(adp, q="toll free number for ADP?")
    assert "1-800-268-6021" in general.summary
    payments = ask(
        adp,
        q="ADP mobility vendor - question about a payment on one of our invoices. who do we call - is there a "
        "toll free # for the ministry's payments unit?",
    )
    assert "1-800-267-9458" in payments.summary


def test_a_question_naming_the_cep_is_not_answered_by_its_income_thresholds(adp: AdpService) -> None:
    # Mobility Devices manual §510 Contact: "The Central Equipment Pool (CEP) for High Technology Wheelchairs is
    # operated by Motion Specialties."; the CEP's income thresholds are the spec's, not the manuals' (§505)
    r = ask(adp, q="who actually runs ADP's central equipment pool for the high tech power chairs? number to call?")
    assert "Motion Specialties" in r.summary and not r.summary.startswith("CEP income thresholds")
    income = ask(adp, q="is my patient CEP eligible? income 30000")
    assert income.summary.startswith("CEP income thresholds")


def test_whom_a_cheque_is_made_out_to_is_quoted_from_the_procedure(adp: AdpService) -> None:
    # ADP Manual §315.02 (p. 37): "To return funds provided directly to the Client, a cheque should be directed to
    # the attention of: Minister of Finance …"; §315.01 only says the funds must be returned
    r = ask(
        adp,
        q="ADP paid the client directly for a listed device but she returned it - who does the refund cheque get made out to?",
    )
    assert "Minister of Finance" in r.summary and "§315.02" in r.summary


def test_a_device_of_no_loaded_category_is_given_no_share(adp: AdpService) -> None:
    # held-out 15: the general share holds 'unless noted otherwise' (ADP Manual §305.01), and the manual of the
    # device's category, which may note otherwise, is not loaded
    r = ask(adp, q="low vision pt (macular degen) wants a spectacle-mounted telescope - does ADP fund it, what share?")
    assert "75%" not in r.summary and "No share is stated for it" in r.summary and r.confidence < 0.7
    general = ask(adp, q="in general, what share of a device's approved price does ADP pay?")
    assert "ADP pays up to 75% of the Approved Price" in general.summary  # asked in general: the general share


def test_a_category_whose_manual_is_loaded_keeps_its_confidence(adp: AdpService) -> None:
    r = ask(adp, q="what percentage of a walker's price does ADP pay?")
    answered(r)
    assert r.device is not None and r.device.policy_manual_loaded
    assert r.confidence >= 0.9


def test_scooter_repair(adp: AdpService) -> None:
    r = ask(adp, q="3-year-old scooter needs motor repair - what's covered?")
    answered(r)
    assert r.device is not None and r.device.device_type == "power_scooter"
    assert r.summary.startswith(
        "No: ADP does not pay for repairs of purchased devices under any circumstances; without warranty cover, "
        "repairs are the client's cost (ADP Manual §670.00, p. 88; ADP Manual §670.02, p. 89; "
        "Mobility Devices manual §225, p. 14)."
    )
    assert r.funding is not None and r.funding.repair_coverage == (
        "Not covered: ADP does not pay for repairs of purchased devices under any circumstances; without warranty "
        "cover, repairs are the client's cost (ADP Manual §670.00, p. 88)"
    )


def test_not_listed_stairlift(adp: AdpService) -> None:
    r = ask(adp, q="Does ADP cover a stairlift?")
    answered(r)
    assert r.covered is False and r.funding is None and r.exclusion_rules == []
    assert r.summary.startswith(
        "No: ADP lists no stairlift in any of its device categories (ADP Manual §105.05). Under §205.01 the ADP will "
        'not consider listing a product that "Is a home or vehicle improvement and/or modification;" '
        "(ADP Manual §205.01, p. 22)."
    )
    assert cited(r) == [("§205.01", 22)]


def test_cep_is_flagged_as_not_official(adp: AdpService) -> None:
    r = ask(adp, q="Patient income $19,000, are they CEP eligible?")
    assert not r.needs_more_info
    cep = r.cep
    assert cep is not None
    assert (cep.official, cep.patient_income, cep.eligible, cep.client_share, cep.as_of) == (
        False,
        19000.0,
        True,
        0.0,
        "2025-09-26",
    )
    assert (cep.single_income_threshold, cep.family_income_threshold) == (28000.0, 39000.0)
    assert cep.central_equipment_pool is not None
    assert (cep.central_equipment_pool.section, cep.central_equipment_pool.page) == ("505", 27)
    assert r.summary.startswith(
        "CEP income thresholds ($28,000 single, $39,000 family) are not from an official source (the coverage spec "
        "ontario-coverage-mcp-tools.md, as of 2025-09-26); the ADP manuals set no income test. By them an income of "
        "$19,000 would be under the threshold."
    )
    assert any(w.startswith("CEP income thresholds: Not from an official source") for w in r.warnings)
    assert r.confidence < 0.9  # no rule of the manuals answers it: search evidence only
    # the funding split never changes with income
    assert r.funding is not None and (r.funding.adp_contribution, r.funding.client_share_percent) == (75.0, 25.0)


def test_cep_between_thresholds_asks_single_or_family(adp: AdpService) -> None:
    r = ask(adp, q="Is a walker CEP covered?", patient_income=30000)
    assert r.cep is not None and (r.cep.eligible, r.cep.income_threshold) == (None, None)
    assert r.follow_up == "Is the income for a single person or a family (the two thresholds differ)?"
    family = ask(adp, q="Is a walker CEP covered?", patient_income=30000, household="family")
    assert family.cep is not None and (family.cep.eligible, family.cep.income_threshold) == (True, 39000.0)


def test_scooter_without_independent_transfer(adp: AdpService) -> None:
    r = ask(
        adp,
        device={"category": "mobility", "type": "scooter"},
        use_case={"daily": True, "location": "home+entry_exit", "independent_transfer": False},
    )
    answered(r)
    e = r.eligibility
    assert e is not None and e.basic_mobility is True
    assert e.other_criteria["independent_transfer"].endswith("(Mobility Devices manual §410.01, p. 24)")
    assert ("§410.01", 24) in cited(r)


def test_scooter_for_outings_is_not_basic_mobility(adp: AdpService) -> None:
    r = ask(adp, q="My patient wants a scooter only for outings to the mall, is that funded?")
    answered(r)
    assert r.eligibility is not None and r.eligibility.basic_mobility is False
    assert r.summary.startswith(
        "Not basic mobility: Mobility Devices: nothing used intermittently or as an alternative means of "
        "transportation (a car, taxi or bus substitute)"
    )
    assert ("§310", 18) in cited(r)


def test_power_tilt_goes_through_the_central_equipment_pool(adp: AdpService) -> None:
    r = ask(adp, q="Is a power tilt wheelchair covered for a patient on Ontario Works?")
    answered(r)
    assert r.device is not None and r.device.device_type == "power_dynamic_seating"
    assert r.funding is not None and (r.funding.adp_contribution, r.funding.client_share_percent) == (100.0, 0.0)
    assert "applied for through the Central Equipment Pool (CEP) (Mobility Devices manual §515, p. 28)." in r.summary
    assert ("§515", 28) in cited(r)


def test_seating_funding_period(adp: AdpService) -> None:
    r = ask(adp, q="How often will ADP fund new wheelchair seating?")
    answered(r)
    assert r.summary.startswith(
        "Positioning devices (seating): designated funding period 2 years (Mobility Devices manual §600, p. 35)."
    )


def test_insulin_pump_for_a_child_picks_the_category(adp: AdpService) -> None:
    r = ask(adp, q="Is an insulin pump for a child covered?")
    assert r.device is not None and r.device.category == "Insulin Pump and Supplies for Children"
    assert not r.needs_more_info


# --- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [{"q": ""}, {"q": "   "}, {}, {"device": {}}])
def test_empty_request_asks_what_to_look_up(adp: AdpService, args: dict[str, object]) -> None:
    r = ask(adp, **args)
    assert r.needs_more_info and r.confidence == 0.0 and r.edition == EDITION
    assert r.follow_up == (
        "Which device is the question about, and what do you need to know: what ADP pays, what it does not cover "
        "(batteries, repairs …), or who is eligible?"
    )
    assert [t.path for t in r.trace] == ["sql"]


def test_unknown_device(adp: AdpService) -> None:
    r = ask(adp, q="What does ADP pay for a flux capacitor?")
    assert r.needs_more_info and r.confidence < 0.7 and r.follow_up == WHICH_DEVICE
    assert r.summary.startswith(
        "No ADP device category or listed device matches 'What does ADP pay for a flux capacitor?', and what ADP "
        "pays depends on the device."
    )
    structured = ask(adp, device={"type": "hoverboard"})
    assert structured.needs_more_info and structured.summary.startswith("No ADP device matches 'hoverboard'.")


def test_contradictory_structured_fields(adp: AdpService) -> None:
    r = ask(adp, device={"category": "hearing_devices", "type": "walker"})
    assert r.needs_more_info and r.device is None
    assert r.summary.startswith(
        "device.category names 'hearing_devices' but device.type names 'walker', which ADP funds under different "
        "categories."
    )
    assert r.follow_up == "Which device is it: hearing_devices or walker?"
    program = ask(adp, q="My patient is on ODSP and needs a walker", social_assistance="none")
    assert program.needs_more_info
    assert program.summary.startswith("social_assistance is 'none', but the question says the patient receives ODSP.")


@pytest.mark.parametrize("args", [{"q": "income -5000, walker"}, {"q": "walker", "patient_income": -5000}])
def test_negative_income(adp: AdpService, args: dict[str, object]) -> None:
    r = ask(adp, **args)
    assert r.needs_more_info and r.summary.startswith("An annual income cannot be negative (-5,000).")
    assert r.follow_up == "What is the patient's annual income (in dollars, before tax)?"
    assert r.cep is not None and r.cep.eligible is None


def test_categories_that_are_not_one(adp: AdpService) -> None:
    r = ask(adp, device={"category": "glucose_monitoring"})
    assert r.needs_more_info and r.summary.startswith(
        "The July 2023 manuals list no glucose monitoring category among the Categories of Devices (§105.05), but"
    )
    ambiguous = ask(adp, device={"category": "prosthesis"})
    assert ambiguous.needs_more_info and ambiguous.device is not None
    assert ambiguous.device.candidates == [
        "Breast Prostheses",
        "Limb Prostheses",
        "Maxillofacial Extraoral Prostheses",
        "Maxillofacial Intraoral Prostheses",
        "Ocular Prostheses",
    ]
    assert ambiguous.follow_up is not None and ambiguous.follow_up.startswith("Which one is it: Breast Prostheses,")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"q": "walker", "query": "wheelchair"}, "give the question once"),
        ({"q": "walker", "patient_income": float("inf")}, "finite number"),
        ({"q": "walker", "check": ["prices"]}, "Input should be 'eligibility'"),
        ({"q": "walker", "device": {"kind": "walker"}}, "Extra inputs are not permitted"),
        ({"q": "walker", "social_assistance": "welfare"}, "Input should be 'OW', 'ODSP', 'ACSD' or 'none'"),
    ],
)
def test_invalid_argument_shapes_are_validation_errors(args: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        AdpGetArgs(**args)


def test_a_continuous_glucose_monitor_is_not_said_unfunded(adp: AdpService) -> None:
    # §205.01 excludes products "exclusively used for a diagnostic or monitoring procedure", but the ADP Manual's
    # list of application forms (§800.00, p. 97) holds "Application for Funding Real-Time Continuous Glucose
    # Monitoring System (rtCGM)": the answer was a confident "No: ADP lists no cgm …"
    r = ask(adp, q="T1D kid on MDI, mom asks if ADP will help pay for dexcom CGM sensors - how much?")
    assert not r.summary.startswith("No:") and "not loaded" in r.summary and "75%" not in r.summary
    assert r.confidence < 0.7


def test_a_continuous_glucose_monitor_is_named_by_its_application_form(adp: AdpService) -> None:
    # §105.05 lists no glucose monitoring category, but §800.00 (p. 97) lists an rtCGM application form: "No: ADP
    # will not list a monitoring product" (§205.01, the glucometer's answer) at 0.9 would be confidently wrong
    for q in ("real-time continuous glucose monitor - ADP share?", "does ADP cover a CGM for my T1D pt?"):
        r = ask(adp, q=q)
        assert "Application for Funding Real-Time Continuous Glucose Monitoring System (rtCGM)" in r.summary
        assert "(ADP Manual §800.00, p. 97)" in r.summary and "is not loaded" in r.summary
        assert not r.summary.startswith("No") and "75%" not in r.summary and r.confidence < 0.7
    meter = ask(adp, q="does ADP pay for a glucometer?")
    assert meter.summary.startswith("No: ADP lists no glucometer") and "§205.01" in meter.summary
