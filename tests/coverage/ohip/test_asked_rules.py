"""Rule questions about a code, about an uninsured service and about virtual care, answered by the Schedule's
own sentence (#14). Every text is the Schedule's (ohip-schedule-of-benefits-2025-03-03.txt), line and page
named per case; the passages are in the shape the passage builder stores them."""

from __future__ import annotations

from curbside.coverage.ohip.asked_rules import UNFOUND_CONFIDENCE, cap_unfound_rule, heading_quotes
from curbside.coverage.ohip.preamble_quotes import PreambleQuote, SentenceIndex
from curbside.coverage.ohip.prose_answer import with_prose
from curbside.coverage.ohip.query import plan
from curbside.coverage.ohip.rule_conditions import conditions_asked, without_stated
from curbside.coverage.ohip.rule_quotes import asked_rule_kinds, rule_quotes, rule_units
from curbside.coverage.ohip.sql_path import SqlFindings
from curbside.coverage.ohip.store import EditionRecord, RuleRow
from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult

_G365 = (  # lines 23620-23636, page J48
    "Payment rules: 1. For G365 services provided between March 3, 2025 and March 31, 2028, G365 is limited to "
    "once per patient per 33 month period. For G365 services provided on or after April 1, 2028, G365 is limited "
    "to one per patient per 54 month period. 2. G365 is uninsured for patients less than 25 years of age. 3. G394 "
    "is limited to once per patient per lifetime for vaginal vault testing post-hysterectomy for patients with "
    "histologic evidence of dysplasia in the cervix at the time of hysterectomy. 4. G365 and G394 are not eligible "
    "for payment when performed in conjunction with a consultation, repeat consultation, general or specific "
    "assessment or reassessment or routine post-natal visit when a pelvic examination is a normal part of the "
    "foregoing services. One of the add-on codes E430 or E431 is eligible for payment in addition to these "
    "services when an insured collection of cervical cancer screening specimen(s) is performed outside of hospital "
    "or ICHSC. 5. G365 and G394 are not eligible for payment when performed in conjunction with an insured "
    "colposcopy service."
)
_K032 = (  # lines 9021-9024, page A53
    "[Commentary: Examples of neurocognitive assessment batteries which would be acceptable are the short form of "
    "the Behavioral Neurology Assessment (BNA) or the Dementia Rating Scale (DRS). The Mini-Mental State "
    'Examination ("Folstein") test is not considered acceptable for this purpose.]'
)
_PESSARY = (  # lines 23678-23687, page J49: the text extraction lost the full stops
    "Payment rules: 1. G398 is eligible for payment once per patient per 12-month period 2. G550 is eligible for "
    "payment up to 6 times per 12-month period 3. G550 is not eligible for payment for the same patient on the same "
    "day as G398 4. G398 or G550 are not eligible for payment when pessary removal is performed with no pessary "
    "care or reinsertion"
)
_EDITION = EditionRecord(1, "2025-02-14", "2025-03-03", None, "ohip.txt", "0" * 64, {}, "2025-03-03T00:00:00")


def _rule(code: str, text: str, page: str, kind: str = "payment_rules", heading: str = "") -> RuleRow:
    return RuleRow(1, heading, kind, page, text, "Gynaecology", "J", "subject", code)


def _passage(doc: str, heading: str, page: str, body: str) -> tuple[str, str, str]:
    path = f"{heading} [{page}]"
    return (doc, path, f"OHIP Schedule 2025-03-03 — A: {doc} > {path}\n\n{body}")


# --- a code's own rules, chosen by the condition the question states -------------------------------------


def test_an_age_in_the_question_finds_the_rule_that_sets_an_age() -> None:
    quotes = rule_quotes("22 yo wants a pap test, can I bill G365 for it?", [_rule("G365", _G365, "J48")])
    assert quotes[0].text == "G365 is uninsured for patients less than 25 years of age."


def test_a_numbered_rule_is_quoted_whole_with_its_add_on() -> None:
    question = "I did a general assessment (A003) including the pelvic exam and took the pap at the same time - can I also bill G365?"
    quotes = rule_quotes(question, [_rule("G365", _G365, "J48")])
    assert quotes[0].text.startswith("G365 and G394 are not eligible for payment when performed in conjunction")
    assert quotes[0].text.endswith("One of the add-on codes E430 or E431 is eligible for payment in addition to "
                                   "these services when an insured collection of cervical cancer screening "
                                   "specimen(s) is performed outside of hospital or ICHSC.")  # fmt: skip


def test_not_considered_acceptable_answers_whether_it_is_payable() -> None:
    quotes = rule_quotes(
        "can I bill the cognitive assessment code K032 if all I did was an MMSE?",
        [_rule("K032", _K032, "A53", kind="commentary")],
    )
    assert [q.text for q in quotes] == [
        'The Mini-Mental State Examination ("Folstein") test is not considered acceptable for this purpose.'
    ]


def test_numbered_rules_without_full_stops_are_still_rules() -> None:
    units = rule_units(_PESSARY)
    assert "G550 is eligible for payment up to 6 times per 12-month period" in units
    quotes = rule_quotes("how many times a year can I bill G550 for pessary care?", [_rule("G550", _PESSARY, "J49")])
    assert "G550 is eligible for payment up to 6 times per 12-month period" in [q.text for q in quotes]


def test_how_often_asks_a_limit_not_whether_it_is_payable() -> None:
    assert asked_rule_kinds("how often can I bill K133?") == ["limit"]
    assert asked_rule_kinds("can I bill G365 for a 22 year old?") == ["payable"]
    assert asked_rule_kinds("visit started by phone, then we switched to video - how do I bill it?") == ["payable"]


def test_conditions_a_question_states() -> None:
    assert conditions_asked("22 yo wants a pap test") == {"age"}
    assert conditions_asked("paeds consult on a 6 month old baby") == {"age", "child"}
    assert conditions_asked("took the pap at the same time as the assessment") == {"together"}
    assert conditions_asked("started by phone, then we switched to video") == {"modality", "modality change"}
    assert conditions_asked("my patient is at her cottage in Quebec, a video visit?") == {"location", "modality"}
    assert conditions_asked("how many e-consults per patient in a year?") == {"year"}
    assert "quebec" not in without_stated("my patient is at her cottage in Quebec").lower()


# --- the answer to a rule question about a named code ----------------------------------------------------


def _result(summary: str, confidence: float) -> ScheduleGetResult:
    return ScheduleGetResult(query="q", summary=summary, provenance=["sql"], confidence=confidence, schedule=None)


def test_a_named_codes_rule_not_found_is_not_stated_as_certain() -> None:
    question = "can I bill G365 for a patient seen in her home?"
    sql = SqlFindings(_EDITION, asked=["G365"], rules={"G365": [_rule("G365", _PESSARY, "J49")]})
    out = with_prose(
        _result("G365 Collection of cervical cancer screening specimen(s): $12.00. Source: X.", 0.96),
        plan(ScheduleGetArgs(q=question)),
        sql,
    )
    assert out.confidence == UNFOUND_CONFIDENCE
    assert "No rule of G365 found" in out.summary and out.summary.endswith("Source: X.")
    assert out.follow_up


def test_a_named_codes_rule_found_keeps_its_confidence() -> None:
    question = "22 yo wants a pap test, can I bill G365 for it?"
    sql = SqlFindings(_EDITION, asked=["G365"], rules={"G365": [_rule("G365", _G365, "J48")]})
    result = _result("G365 Collection of cervical cancer screening specimen(s): $12.00. Source: X.", 0.96)
    assert cap_unfound_rule(result, plan(ScheduleGetArgs(q="what is the fee for G365?")), sql).confidence == 0.96
    assert with_prose(result, plan(ScheduleGetArgs(q=question)), sql).confidence == 0.96


def test_a_sentence_under_the_codes_own_heading_is_its_rule() -> None:
    # lines 15199-15210, page A169: the rule sits in the prose above A795 and never names it
    limit = PreambleQuote(
        "Maximum one per patient per physician every 5 years.",
        "A169",
        "A: Psychiatry (19) > Geriatric psychiatric consultation",
        0.5,
        frozenset(),
    )
    sql = SqlFindings(_EDITION, matched=["A795"], titles={"A795": "Geriatric psychiatric consultation"}, prose=[limit])
    assert heading_quotes(sql) == [("A795", limit)]
    out = with_prose(
        _result("A795 Geriatric psychiatric consultation: $310.45. Source: X.", 0.5),
        plan(ScheduleGetArgs(q="how often can a psychiatrist bill the long geriatric psych consult?")),
        sql,
    )
    assert "Rule for A795 (A169): “Maximum one per patient per physician every 5 years.”" in out.summary


# --- prose sentences: uninsured services and virtual care ------------------------------------------------

_VIRTUAL = [  # lines 9583-9593 (page A65) and 9617-9623 (page A66), under VIRTUAL CARE SERVICES
    _passage(
        "Virtual Care Services",
        "VIRTUAL CARE SERVICES",
        "A65",
        "10. If during the course of a Virtual Care Service the modality changes (for example, a Telephone "
        "service transitions into a Video service), only the service performed by the modality that represents "
        "the greater part (more than 50%) of the time spent providing the Virtual Care Service is payable. For "
        "time-based services, the combined time of both modalities will be used to calculate the number of time "
        "units eligible for payment. 11. For time-based services, only time spent in direct communication with the "
        "patient or the patient’s representative in the provision of the insured service will be used to calculate "
        "the number of time units eligible for payment. [Commentary: Both the patient and physician must be located "
        "in Ontario for the services to be insured and payable under OHIP (see section 37.1 of Regulation 552 under "
        "the HIA).]",
    ),
    _passage(
        "Virtual Care Services",
        "VIRTUAL CARE SERVICES",
        "A66",
        "Payment rules: Comprehensive Virtual Care Services rendered by Video are payable at fees that are "
        "equivalent to the corresponding in-person fees for those services. The amount payable for Comprehensive "
        "Virtual Care Services rendered by Telephone is 85% of the corresponding in-person fee except for K007, "
        "K005, K197 and K198 which will be payable at 95% of the corresponding in-person fee.",
    ),
    _passage(  # page A17: K007's listing line names its service
        "Family Practice & Practice in General (00)",
        "Psychotherapy",
        "A17",
        "K007 Psychotherapy: Individual care: $70.10",
    ),
    _passage(  # lines 29995-30003, page M22
        "Skin and Subcutaneous Tissue",
        "FINGER OR TOE-NAIL",
        "M22",
        "Z110 Extensive debridement of onychogryphotic nail involving removal of multiple laminae: $17.45\n"
        "Note: 1.Trimming or clipping of nails does not constitute Z110. 2.Z110 is not eligible for payment if not "
        "rendered personally by the physician claiming the service. [Commentary: Trimming or clipping of nails is "
        "not an insured service.]",
    ),
    _passage(  # lines 8609-8614, page A43
        "Family Practice & Practice in General (00)",
        "Physician to physician e-consultation",
        "A43",
        "K738 Physician to physician e-consultation – Referring physician: $16.00\nPayment rules: 1.K738 and K739 "
        "are each limited to a maximum of one (1) service per patient per day. 2.K738 and K739 are each limited to "
        "a maximum of six (6) services per patient, any physician, per 12 month period. 3.K738 and K739 are each "
        "limited to a maximum of four hundred (400) services per physician, per 12 month period.",
    ),
]


def _best(question: str) -> str:
    quotes = SentenceIndex(_VIRTUAL).quotes(question, limit=2)
    return " | ".join(q.text for q in quotes)


def test_a_phone_psychotherapy_question_finds_the_telephone_payment_rule() -> None:
    best = _best("doing psychotherapy with my own patient by phone - what percent of the in-person fee gets paid?")
    assert best.startswith("The amount payable for Comprehensive Virtual Care Services rendered by Telephone is 85%")
    assert "95% of the corresponding in-person fee" in best


def test_a_switch_from_phone_to_video_finds_the_modality_rule() -> None:
    best = _best("visit started by phone, then we switched to video halfway through - how do I bill it?")
    assert best.startswith("10. If during the course of a Virtual Care Service the modality changes")


def test_a_patient_out_of_province_finds_the_location_rule() -> None:
    best = _best("my patient is at her cottage in Quebec for the summer, can I bill OHIP for a video visit with her?")
    assert best.startswith("[Commentary: Both the patient and physician must be located in Ontario")


def test_an_uninsured_service_is_found_through_a_compound_word() -> None:
    best = _best("can I bill OHIP for clipping an elderly patient's thick toenails?")
    assert "Trimming or clipping of nails is not an insured service." in best


def test_a_yearly_limit_is_the_twelve_month_one() -> None:
    best = _best("how many e-consults can be billed per patient in a year?")
    assert "six (6) services per patient, any physician, per 12 month period" in best
    assert "per patient per day" not in best


_K045 = [
    _passage(  # lines 11102-11110, page A94
        "Internal Medicine (13)",
        "DIABETES MANAGEMENT BY A SPECIALIST",
        "A94",
        "K045 Diabetes management by a specialist: $76.20\nPayment rules: 1.K045 is limited to a maximum of one "
        "service per patient per 12 month period. 2.K045 is only eligible for payment if the physician has rendered "
        "a minimum of 4 of any of the following: consultations/assessments, K013, K033, K029, K002, K003 to the same "
        "patient in the 12 month period for which K045 is claimed.",
    ),
]


def test_a_sentence_found_by_the_named_code_alone_is_not_its_rule() -> None:
    # K045's rule lists K013 among its prerequisites: it says nothing about "K013 for a 5 minute chat"
    quotes = SentenceIndex(_K045).quotes("can I bill K013 for a 5 minute chat?", ["K013"])
    named = [q for q in quotes if "K013" in q.codes]
    assert named and not any(q.worded for q in named)
    # the question that names only the code is answered by any sentence naming it
    alone = SentenceIndex(_K045).quotes("can I bill K013?", ["K013"])
    assert any("K013" in q.codes and q.worded for q in alone)
