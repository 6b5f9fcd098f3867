"""Golden questions for schedule.get on the loaded Schedule pages, each fact read from the official text.

Facts and where the file states them (2025-03-03 text):
* C124 'Subsequent visit by the MRP - day of discharge' is 61.15 in every section listing it (A11, A74, A76,
  A159); its payment rules (GP45): '1.C124 is only payable to the MRP and limited to one service per hospital
  admission. 2.C124 is not eligible for payment … a.The patient was discharged within 48 hours of admission'.
* C122/C123 (GP44) and C142/C143 (GP46) rules name C124; E083 (add 30%) and E084 (Saturday, Sunday or
  Holiday, add 45%) are the MRP subsequent-visit premiums whose listing names C124 (GP47).
* Anaesthesia (01), A73-A74: C012 31.00 per visit, C015 109.70. Family Practice (00), A1: A005 87.90.
  Cardiology (60), A75: A605 161.65. Diagnostic Radiology, D5: X001 H 29.90, P 13.25. Skin, M2: Z165 I.C.
"""

from __future__ import annotations

import asyncio

import pytest

from curbside.app import Curbside
from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult

LABEL = "OHIP Schedule of Benefits (effective 2025-03-03)"
MRP_FAMILY = {"C122", "C123", "C142", "C143"}


def ask(app: Curbside, **args: object) -> ScheduleGetResult:
    result = asyncio.run(app.coverage_service("ohip").get(ScheduleGetArgs(**args)))  # type: ignore[arg-type]
    assert result.schedule is not None and result.schedule.label == LABEL  # every answer names the edition
    return result


def item(result: ScheduleGetResult, code: str):  # noqa: ANN201 - a ScheduleItem
    return next(i for i in result.items if i.code == code)


def test_thursday_discharge_finds_the_discharge_codes_and_asks_the_clerks_question(ohip_app: Curbside) -> None:
    r = ask(ohip_app, q="Which codes apply for a Thursday discharge?")
    assert [(i.code, i.relation) for i in r.items][:1] == [("C124", "matched")]
    assert {i.code for i in r.items if i.relation == "related"} == MRP_FAMILY
    assert {i.code for i in r.items if i.relation == "premium"} == {"E083", "E084"}
    assert {i.code for i in r.items} == {"C124", "E083", "E084"} | MRP_FAMILY  # nothing else: no endoscopy
    c124 = item(r, "C124")
    assert (c124.fee, c124.fee_status, c124.description) == (
        61.15,
        "aligned",
        "Subsequent visit by the MRP - day of discharge",
    )
    # E084 is the weekend premium; on a Thursday it does not apply, E083 still may
    assert [(c.code, c.verdict) for c in r.rule_checks if c.reason.startswith("day")] == [("E084", "not_applicable")]
    assert r.needs_more_info and r.billable is None
    assert r.follow_up is not None and r.follow_up.startswith(
        "Were you the patient's most responsible physician (MRP)? How many hours after admission was the patient "
        "discharged? C124 is not eligible for payment under any of the following circumstances: a.The patient was "
        "discharged within 48 hours of admission to hospital"
    )
    assert r.follow_up.endswith("(GP45)")
    assert r.citations[0].section_path == "Subsequent visit by the MRP - day of discharge (C124) [GP45]"


def test_discharge_after_36_hours_cites_the_48_hour_rule(ohip_app: Curbside) -> None:
    r = ask(ohip_app, q="Can I bill C124 if the patient was discharged 36 hours after admission?")
    assert r.billable is False and not r.needs_more_info
    stay = next(c for c in r.rule_checks if c.reason.startswith("stay"))
    assert (stay.code, stay.verdict, stay.page) == ("C124", "not_eligible", "GP45")
    assert stay.reason == "stay: discharged 36 hours after admission, within 48 hours"
    assert stay.rule == (
        "C124 is not eligible for payment under any of the following circumstances: a.The patient was discharged "
        "within 48 hours of admission to hospital (calculated from the actual date of admission to hospital)"
    )
    assert r.summary.startswith("No: C124 is not payable here — discharged 36 hours after admission, within 48 hours.")
    first = r.citations[0]
    assert first.section_path.endswith("(C124) [GP45]") and "OHIP Schedule 2025-03-03" in first.title
    assert first.excerpt.startswith("C124 is not eligible for payment under any of the following circumstances: a.The")


def test_c124_stay_of_three_days_as_mrp_is_billable(ohip_app: Curbside) -> None:
    r = ask(ohip_app, codes=["C124"], context={"mrp": True, "hours_since_admission": 72})
    assert r.billable is True and not r.needs_more_info
    assert sorted((c.reason, c.verdict) for c in r.rule_checks if c.code == "C124") == [
        ("MRP: you are the MRP", "satisfied"),
        ("stay: discharged 72 hours after admission, not within 48 hours", "satisfied"),
    ]


def test_not_the_mrp(ohip_app: Curbside) -> None:
    r = ask(ohip_app, q="I was not the MRP; can I bill C124 for the day of discharge after a 5 day stay?")
    assert r.billable is False
    mrp = next(c for c in r.rule_checks if c.reason.startswith("MRP"))
    assert (mrp.verdict, mrp.rule, mrp.page) == (
        "not_eligible",
        "1.C124 is only payable to the MRP and limited to one service per hospital admission.",
        "GP45",
    )


@pytest.mark.parametrize(
    ("args", "code", "fee", "section", "page"),
    [
        ({"codes": ["C124"], "specialty": "01"}, "C124", 61.15, "Anaesthesia (01)", "A74"),
        (
            {"codes": ["C124"], "specialty": "Family Practice"},
            "C124",
            61.15,
            "Family Practice & Practice in General (00)",
            "A11",
        ),
        ({"q": "What does an anaesthesiologist get for C012?"}, "C012", 31.00, "Anaesthesia (01)", "A74"),
        ({"q": "What is the fee for C015?", "specialty": "anesthesia"}, "C015", 109.70, "Anaesthesia (01)", "A73"),
        ({"q": "What is the fee for A005?"}, "A005", 87.90, "Family Practice & Practice in General (00)", "A1"),
        ({"q": "C124 fee for a paediatrician"}, "C124", 61.15, "Paediatrics (26)", "A159"),
    ],
)
def test_fees_by_specialty(
    ohip_app: Curbside, args: dict[str, object], code: str, fee: float, section: str, page: str
) -> None:
    r = ask(ohip_app, **args)
    found = item(r, code)
    assert (found.relation, found.fee, found.fee_status, found.section, found.page) == (
        "asked",
        fee,
        "aligned",
        section,
        page,
    )
    assert f"${fee:,.2f}" in r.summary and "Source: OHIP Schedule of Benefits (effective 2025-03-03)." in r.summary


def test_cardiology_consultation_in_words(ohip_app: Curbside) -> None:
    r = ask(ohip_app, q="How much does a cardiologist get for a consultation?")
    assert {i.section for i in r.items} == {"Cardiology (60)"}  # only the specialty asked about
    a605 = item(r, "A605")
    assert (a605.relation, a605.fee, a605.page, a605.description) == ("matched", 161.65, "A75", "Consultation")


def test_technical_and_professional_components(ohip_app: Curbside) -> None:
    r = ask(ohip_app, q="What is the fee for X001?")
    x001 = item(r, "X001")
    assert x001.listings[0].components == {"H": "29.90", "P": "13.25"} and x001.fee == 13.25
    assert "X001 Skull - four views: H $29.90 (technical), P $13.25 (professional) (Head and Neck, D5)." in r.summary


def test_premium_e083_with_its_rules(ohip_app: Curbside) -> None:
    r = ask(ohip_app, q="What is the E083 premium and when can I claim it?")
    e083 = item(r, "E083")
    assert (e083.fee_status, e083.percent, e083.fee, e083.page) == ("percent", 30.0, None, "GP47")
    assert (
        e083.limits is not None
        and "2.Only one of E083 or E084 is eligible for payment per patient per day." in e083.limits
    )
    assert e083.commentary is not None and "1.E083 or E084 are only eligible for payment with subsequent visits" in (
        e083.commentary
    )
    assert "a premium: add 30% (GP47)" in r.summary


def test_weekend_premium_on_a_sunday(ohip_app: Curbside) -> None:
    r = ask(ohip_app, codes=["E084"], context={"day": "sunday"})
    (day,) = [c for c in r.rule_checks if c.reason.startswith("day")]
    assert (day.code, day.verdict, day.page) == ("E084", "satisfied", "GP47")
    assert (
        day.rule
        == "1.E084 is only eligible for payment for subsequent visits provided on Saturdays, Sundays and holidays."
    )


def test_fee_not_aligned_is_said_not_guessed(ohip_app: Curbside) -> None:
    r = ask(ohip_app, q="What is the fee for C002?")
    c002 = item(r, "C002")
    assert (c002.fee, c002.fee_status) == (None, "unknown")
    assert c002.fee_text.startswith("fee unknown: the text extraction did not let it be aligned")
    assert "$" not in r.summary.split("Source:")[0]


def test_independent_consideration(ohip_app: Curbside) -> None:
    z165 = item(ask(ohip_app, codes=["Z165"]), "Z165")
    assert (z165.fee, z165.fee_status, z165.page) == (None, "independent_consideration", "M2")


def test_unknown_code_gets_the_clerks_follow_up(ohip_app: Curbside) -> None:
    r = ask(ohip_app, codes=["C999"])
    assert r.needs_more_info and r.items == [] and r.confidence == 0.0
    assert r.summary.startswith("C999 is not in the OHIP Schedule of Benefits (effective 2025-03-03).")
    assert r.follow_up == (
        "Could you check the code on the claim? A fee code is a letter and three digits (e.g. C124); or tell me the "
        "service and where it was given."
    )


def test_one_known_one_unknown_code(ohip_app: Curbside) -> None:
    r = ask(ohip_app, codes=["C124", "C999"])
    assert r.needs_more_info and item(r, "C124").fee == 61.15
    assert "C999 is not in the OHIP Schedule of Benefits (effective 2025-03-03)." in r.warnings


def test_question_without_a_service(ohip_app: Curbside) -> None:
    r = ask(ohip_app, q="?")
    assert r.needs_more_info and r.items == []
    assert r.follow_up is not None and r.follow_up.startswith("Which service do you want to bill?")


@pytest.mark.parametrize(
    ("args", "follow_up"),
    [
        (
            {"codes": ["C124"], "specialty": "00", "section": "Anaesthesia (01)"},
            "Which do you bill under: Family Practice & Practice in General (00) or Anaesthesia (01)?",
        ),
        (
            {"q": "C124 for a Thursday discharge", "context": {"day": "saturday"}},
            "Which is right? Please confirm the facts of the service so I can check the rules.",
        ),
        (
            {"codes": ["C124"], "specialty": "veterinary"},
            "Which specialty do you bill under? Give its two-digit code or name, e.g. '00' (Family Practice) or "
            "'Anaesthesia'.",
        ),
    ],
)
def test_contradictory_or_unknown_fields(ohip_app: Curbside, args: dict[str, object], follow_up: str) -> None:
    r = ask(ohip_app, **args)
    assert r.needs_more_info and r.items == [] and r.follow_up == follow_up


def test_citations_name_section_and_page(ohip_app: Curbside) -> None:
    r = ask(ohip_app, codes=["C124"], specialty="01")
    assert r.citations and all(c.section_path.endswith("]") and "[" in c.section_path for c in r.citations)
    assert r.provenance == ["sql", "vector"] and r.conflicts == []


@pytest.mark.parametrize(
    ("question", "code", "fee"),
    [
        # issue #14: these answered with A911/A912 consultations, whose titles say "family … practice"
        ("what can I bill for a family practice intermediate assessment?", "A007", 37.95),  # A2
        ("fee for a general assessment by a family doctor?", "A003", 87.35),
        ("general re-assessment by the GP: code and fee?", "A004", 38.35),
    ],
)
def test_the_specialty_named_chooses_the_section_not_the_code(
    ohip_app: Curbside, question: str, code: str, fee: float
) -> None:
    r = ask(ohip_app, q=question)
    first = next(i for i in r.items if i.relation == "matched")
    assert (first.code, first.fee, first.section) == (code, fee, "Family Practice & Practice in General (00)")


def test_a_general_preamble_page_is_not_the_gp() -> None:
    from curbside.coverage.ohip.query import plan

    assert "gp" not in plan(ScheduleGetArgs(q="what does GP45 say about the day of discharge visit?")).specialty_words
    assert "gp" in plan(ScheduleGetArgs(q="general re-assessment by the GP?")).specialty_words


def test_a_question_for_a_premium_gets_premiums(ohip_app: Curbside) -> None:
    # issue #14: this answered with C002/C007/C009 "fee unknown"; the premium is E084, add 45% (GP47)
    r = ask(ohip_app, q="what premium can I add for a Saturday subsequent visit as MRP?")
    matched = [i for i in r.items if i.relation == "matched"]
    assert "E084" in {i.code for i in matched}
    assert not {"C002", "C007", "C009"} & {i.code for i in matched}


def test_a_first_visit_states_the_initial_twin_only(ohip_app: Curbside) -> None:
    # H002 "… - initial visit" and H003 "… - subsequent visit" (A11): 'my first visit' rules H003 out
    r = ask(
        ohip_app,
        q="small baby (low birth weight) but otherwise well/uncomplicated - my first visit with the baby. code?",
    )
    matched = [i.code for i in r.items if i.relation == "matched"]
    assert matched[0] == "H002" and "H003" not in matched and "H003" not in r.summary


def test_a_denied_consultation_is_not_stated_beside_the_assessment(ohip_app: Curbside) -> None:
    # Cardiology (60), A75: A603 Medical specific assessment, not A605 Consultation or A675 Limited consultation
    r = ask(
        ohip_app,
        q="cardiologist - established pt back in my office, full medical specific assessment (not a new consult)",
    )
    matched = [i.code for i in r.items if i.relation == "matched"]
    assert matched[0] == "A603" and not {"A605", "A675"} & set(matched)
    assert "A605" not in r.summary and "81.55" in r.summary
