"""Payment-rule sentences quoted for questions that ask a limit, a time or whether a code is payable.

Rule texts are the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt, pages named per case).
"""

from __future__ import annotations

from curbside.coverage.ohip.rule_quotes import asked_rule_kinds, rule_quotes
from curbside.coverage.ohip.sql_path import headed_rules
from curbside.coverage.ohip.store import RuleRow

_K133 = (  # page A7
    "Payment rules: 1.K133 is limited to one per patient per 12 month period. 2.Only one of K133, K131, or K132 "
    "is eligible for payment per patient per physician per 12 month period. 3.This service can be provided over "
    "multiple distinct time periods, however, a minimum of 50 minutes total time spent in direct contact with the "
    "patient is required. Start and stop times must be recorded for each time period. 4.While some aspects of K133 "
    "may be provided virtually, a minimum of 26 minutes must be provided through direct physical encounter(s)."
)
_A003_HOME = "Note: A003 is not eligible for payment for an assessment provided in the patient’s home."  # page A2
_REASSESSMENT = (  # page GP22, under the heading GENERAL RE-ASSESSMENT
    "Payment rules: With the exception of general re-assessments rendered for hospital admissions, general "
    "reassessments are limited to two per 12 month period, per patient per physician. The amount payable for "
    "general re-assessments in excess of this limit will be adjusted to a lesser assessment fee."
)


def _rule(code: str, text: str, *, page: str = "A7", heading: str = "", relation: str = "subject") -> RuleRow:
    return RuleRow(1, heading, "payment_rules", page, text, "Family Practice", "A", relation, code)  # type: ignore[arg-type]


def test_a_time_question_quotes_the_time_sentences() -> None:
    quotes = rule_quotes("minimum time for K133 and how much has to be in person?", [_rule("K133", _K133)])
    texts = [q.text for q in quotes]
    assert len(texts) == 2
    assert any("minimum of 50 minutes total time" in t for t in texts)
    assert any("minimum of 26 minutes must be provided through direct physical" in t for t in texts)
    assert all(q.page == "A7" and q.code == "K133" for q in quotes)


def test_a_payable_question_quotes_the_exclusion() -> None:
    quotes = rule_quotes(
        "can we bill A003 for a general assessment done in the patient's home?", [_rule("A003", _A003_HOME)]
    )
    assert [q.text for q in quotes] == [
        "A003 is not eligible for payment for an assessment provided in the patient’s home."
    ]


def test_a_limit_question_quotes_the_limit_not_the_time() -> None:
    quotes = rule_quotes("how often can I bill K133 for the same patient?", [_rule("K133", _K133)])
    assert quotes and quotes[0].text == "K133 is limited to one per patient per 12 month period."
    assert not any("26 minutes" in q.text for q in quotes)


def test_a_fee_question_quotes_nothing() -> None:
    assert rule_quotes("what is the fee for K133?", [_rule("K133", _K133)]) == []
    assert rule_quotes(None, [_rule("K133", _K133)]) == []


def test_rules_that_only_mention_the_code_are_not_quoted() -> None:
    k188 = (  # page A174: K188's rules, naming K189
        "Payment rules: 1.K187 or K188 are both payable with K195, K196, K197 or K198 when rendered during the first "
        "four (4) week period following discharge. 2.K188 is not eligible for payment in addition to K189 on the same "
        "patient same day."
    )
    assert rule_quotes("is K189 payable on the same day?", [_rule("K189", k188, relation="mention")]) == []
    this_service = "This service is not eligible for payment if a claim is submitted for K071 or K072 for the call."
    question = "home care nurse called about my patient - can I bill K071 for the call?"
    assert rule_quotes(question, [_rule("K071", this_service, relation="mention")]) == []
    # a numbered rule about several codes is each one's ('2.Only one of K133, K131, or K132 is eligible …')
    assert rule_quotes("how often can I bill K131?", [_rule("K131", _K133, relation="mention")])


_BMD = (  # page D16, under the heading 'Subsequent test - high risk patient' (X149, X155): X145/X146 and X152/X153
    # are only mentioned by the block, but its numbered rules 1 and 2 are theirs
    "Payment rules: 1.Patients are limited to one baseline test (X145 or X146) in their lifetime. 2.Second test - low "
    "risk patient (X152/X153) is limited to a maximum of one test rendered not earlier than 36 months following the "
    "baseline test (X145/X146). 3.Subsequent test - low risk patient (X142/X148) is not eligible for payment when "
    "rendered earlier than 60 months following the second or any subsequent test."
)


def test_the_numbered_rule_about_a_mentioned_code_is_quoted() -> None:
    rule = _rule("X146", _BMD, page="D16", heading="Subsequent test - high risk patient", relation="mention")
    quotes = rule_quotes("can I order another baseline DXA (X146) - she had her baseline at another clinic?", [rule])
    lifetime = "Patients are limited to one baseline test (X145 or X146) in their lifetime."
    assert [q.text for q in quotes][:1] == [lifetime]
    second = _rule("X152", _BMD, page="D16", heading="Subsequent test - high risk patient", relation="mention")
    quotes = rule_quotes("had her baseline bone density 2 yrs ago, can she get the second test X152 now?", [second])
    assert quotes and "36 months" in quotes[0].text


def test_preamble_rules_govern_the_code_their_heading_names() -> None:
    preamble = [
        _rule("", _REASSESSMENT, page="GP22", heading="GENERAL RE-ASSESSMENT"),
        _rule("", "Payment rules: Periodic health visit is limited to one per patient per 12 month period per physician.",
              page="GP21", heading="PERIODIC HEALTH VISIT"),
    ]  # fmt: skip
    titles = {
        "A004": "General re-assessment",
        "A003": "General assessment",  # not governed by the re-assessment rule
        "K131": "Periodic health visit: adult age 18 to 64 inclusive",
    }
    linked = [(code, rule.page, rule.code) for code, rule in headed_rules(preamble, titles)]
    assert sorted(linked) == [("A004", "GP22", "A004"), ("K131", "GP21", "K131")]
    rules = [rule for code, rule in headed_rules(preamble, titles) if code == "A004"]
    quotes = rule_quotes("limit on general re-assessments (A004) per patient?", rules)
    assert quotes[0].text.endswith(
        "general reassessments are limited to two per 12 month period, per patient per physician."
    )


def test_the_setting_named_keeps_its_own_letter() -> None:
    from curbside.coverage.ohip.sql_path import in_setting

    codes = ["A911", "A945", "C911", "W911", "E079"]
    assert in_setting(codes, "special family practice consultation in the office?") == ["A911", "A945", "E079"]
    assert in_setting(codes, "special consultation on a hospital in-patient?") == ["C911", "E079"]
    assert in_setting(codes, "consultation in a long-term care home?") == ["W911", "E079"]
    assert in_setting(codes, "special family practice consultation?") == codes  # no setting named
    assert in_setting(["A911"], "consultation on an in-patient?") == ["A911"]  # nothing of that setting: keep


def test_whether_both_can_be_billed_or_it_is_ok_asks_whether_payable() -> None:
    j168 = (  # page G5
        'Payment rules: Ultrasound services listed under the headings "Abdomen and Retroperitoneum" or "Pelvis" or '
        '"Pregnancy" rendered on the same day to the same patient by any physician as J168 are not eligible for payment.'
    )
    question = "did the NT scan (J168) and a pelvic US same day same pt - can both be billed?"
    assert asked_rule_kinds(question) == ["payable"]
    assert [q.code for q in rule_quotes(question, [_rule("J168", j168, page="G5")])] == ["J168"]
    assert asked_rule_kinds("I've only done 2 diabetic mgmt visits on this pt in the last 12 mo - ok?") == ["payable"]


def test_asking_what_to_bill_asks_for_a_code_not_whether_it_is_payable() -> None:
    assert asked_rule_kinds("what can I bill for a family practice intermediate assessment?") == []
    assert asked_rule_kinds("which code do we claim for a flu shot?") == []
    assert asked_rule_kinds("can I bill a flu shot with the visit?") == ["payable"]


_TWINS = (  # page K6, under E499's heading: P006 is only mentioned by the block, but rule 1 is about it
    "Payment rules: 1.For vaginal deliveries of two or more infants, P006 or P020 as appropriate is eligible for payment "
    "for the first delivery, in addition to 85% of P006 or P020 as appropriate for the second delivery, and E500 for "
    "the third and each subsequent delivery."
)


def test_how_a_second_one_is_paid_asks_the_share_of_the_fee() -> None:
    question = "delivered vaginal twins last night - how is the 2nd baby paid?"
    assert asked_rule_kinds(question) == ["rate"]
    quotes = rule_quotes(question, [_rule("P006", _TWINS, page="K6", relation="mention")])
    assert quotes and "in addition to 85% of P006" in quotes[0].text
    assert asked_rule_kinds("xray: only got 2 of the views listed - does the fee change?") == ["rate"]


def test_a_quoted_list_item_keeps_its_first_word_apart_from_its_marker() -> None:
    text = "Payment rules: 1.R081 is eligible for payment at 85% for a second lesion excised on the same day."
    quotes = rule_quotes("mohs on 2 lesions same day - how is the second lesion paid?", [_rule("R081", text)])
    assert quotes[0].text == "R081 is eligible for payment at 85% for a second lesion excised on the same day."
    rule = "S247 and Z565 are only insured when the patient has: a.failed a trial of therapy; b.Grade III or IV haemorrhoids"
    quotes = rule_quotes("is a haemorrhoidectomy insured for grade II piles?", [_rule("S247", rule)])
    assert "a. failed a trial of therapy; b. Grade III or IV" in quotes[0].text


def test_a_percentage_in_words_is_no_limit() -> None:
    age = (  # page GP64: the age premium names A003 among its services
        "Payment rules: 2.Despite any other provision in this Schedule, the amount payable for the following services "
        "to an insured person who is at least 65 years of age is increased by 15 per cent: a.A general assessment "
        "(A003, C003, C903, W102, W109 or W903)."
    )
    question = "how many general assessments can the same doctor bill per patient per year?"
    assert rule_quotes(question, [_rule("A003", age, page="GP64", relation="mention")]) == []


_G387 = (  # page J56, under INTRAVENOUS
    "Payment rules: 1. G387 is only insured for patients with central neuropathic pain who have first undertaken but "
    "not responded to generally accepted medical therapy. 2. The physician submitting the claim for this service must "
    "remain in constant attendance during the infusion and no part of the procedure may be delegated or G387 is not "
    "payable. 3. G387 is limited to a maximum of 6 per patient per 12 month period."
)
_Z602 = (  # page T10
    "Payment rules: 1. Catheterization is only eligible for payment for acute retention, change of Foley catheter or "
    "suprapubic tube or instillation of medication. 2. Z602, Z603 or Z611 is not eligible for payment in addition to "
    "Z610."
)


def test_the_leading_codes_own_limit_is_quoted_though_it_repeats_no_question_word() -> None:
    question = "pain clinic giving IV lidocaine infusions - code, fee, and max per yr?"
    assert rule_quotes(question, [_rule("G387", _G387, page="J56")]) == []  # no shared word: not known to be it
    quotes = rule_quotes(question, [_rule("G387", _G387, page="J56")], leading="G387")
    assert quotes and quotes[0].text == "G387 is limited to a maximum of 6 per patient per 12 month period."


def test_a_rule_pairing_the_leading_code_with_another_is_not_its_answer() -> None:
    quotes = rule_quotes(
        "in/out cath in the office for urinary retention - billable? code?", [_rule("Z602", _Z602, page="T10")], "Z602"
    )
    assert [q.text for q in quotes] == [
        "Catheterization is only eligible for payment for acute retention, change of Foley catheter or suprapubic "
        "tube or instillation of medication."
    ]
