"""Rule sentences found when a clerk's words are not the Schedule's (issue #14, held-out set 3).

"How many ER re-assessments a day?" is answered by a rule whose subject is 'This service' under the heading
'Re-assessment'; "her bloodwork came back normal" by 'the communication of normal lab work … should not be
billed'; "she's pregnant" by a rule about 'pregnancy'; "I'm a GP … K045?" by the rule naming the specialties
K045 is paid to. Every text is the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt, pages named).
"""

from __future__ import annotations

from curbside.coverage.ohip.preamble_quotes import SentenceIndex, asked_kinds
from curbside.coverage.ohip.rule_conditions import conditions_asked
from curbside.coverage.ohip.rule_quotes import SAYS, asked_rule_kinds, rule_quotes
from curbside.coverage.ohip.store import RuleRow


def _passage(section: str, heading: str, page: str, body: str) -> tuple[str, str, str]:
    path = f"{heading} [{page}]"
    return (section, path, f"OHIP Schedule 2025-03-03 — {section} > {path}\n\n{body}")


_REASSESSMENT = _passage(  # A12, the heading in mixed case: no capitalised heading line names it
    "A: Family Practice & Practice in General (00)",
    "Re-assessment",
    "A12",
    "A re-assessment is an assessment rendered in an emergency department or Hospital Urgent Care Clinic at least "
    "two hours after the original assessment or re-assessment (including appropriate investigation and treatment), "
    "which indicates that further care and/or investigation is required and performed. Payment rules: 1.This "
    "service is not eligible for payment under any of the following circumstances: a.for discharge assessments; "
    "b.when the patient is admitted by the Emergency Department Physician; or c.when the reassessment leads "
    "directly to a referral for consultation. 2.This service is limited to three per patient per day and two per "
    "physician per patient per day. Services in excess of these limits are not eligible for payment.",
)
_CONSULTATION = _passage(  # GP16: a limit whose own words name the emergency department
    "GP: Consultations",
    "CONSULTATION",
    "GP16",
    "Payment rules: 1. Consultations rendered to the same patient by the same physician for the same diagnosis are "
    "limited to one service per two consecutive 12 month periods except: a. When the additional consultation "
    "service(s) is a repeat consultation; b. When a consultant has rendered a consultation service to a patient in "
    "any location and the same consultant is referred to the same patient a second time with the same diagnosis, "
    "then the number of consultations eligible for payment is a total of two services per two consecutive 12 month "
    "periods only when: i. the second consultation is rendered for a hospital inpatient or a patient in an "
    "Emergency Department; and ii. the consultation is rendered more than 12 months but less than 24 months "
    "following the first consultation.",
)
_VIRTUAL = _passage(  # A64, commentary under the virtual care payment rules
    "A: Virtual Care Services",
    "DEFINITIONS:",
    "A64",
    "However, a physician-initiated call to “check-in” on a patient would not be eligible for payment, nor would "
    "any telephone calls or Video encounters conducted for administrative purposes (such as to inform patients of "
    "clinic closures or the availability of remote services). Furthermore, services are not eligible for payment "
    "when initiated by the physician (or the physician’s staff) without a clear and medically necessary reason "
    "for doing so. For example, the communication of normal lab work, unless medically necessary (in so far as "
    "the clinical management of the patient is altered) should not be billed.",
)
_PREGNANCY = _passage(  # J68
    "J: Laboratory Medicine",
    "C. Miscellaneous Tests",
    "J68",
    "G005 Pregnancy test: $3.88\nPayment rules: 1. G005 is only insured when an immediate determination of "
    "pregnancy is required to prevent imminent physical harm to the patient.",
)
_VASECTOMY = _passage(  # U5
    "U: Vas Deferens",
    "Vas Deferens",
    "U5",
    "Note: Vasectomy reversal is an insured benefit only for treatment of significant symptomatology, and requires "
    "prior approval. Re-establishing fertility does not constitute significant symptomatology.",
)
_LESIONS = _passage(  # AD3
    "Appendix D: Surface Pathology",
    "Surface Pathology",
    "AD3",
    "4. Benign Lesions such as nevi, haemangioma, keratoses, neurofibromata Note: 1.Any lesions (e.g. keratosis, "
    "nevi) removed for cosmetic purposes and not for any clinical suspicion of disease or malignancy must be billed "
    "to the patient.",
)


def test_a_rule_whose_subject_is_this_service_holds_its_headings_words() -> None:
    quotes = SentenceIndex([_CONSULTATION, _REASSESSMENT]).quotes(
        "how many ER re-assessments can I bill on the same pt in one day?"
    )
    assert (
        quotes[0].text
        == "2.This service is limited to three per patient per day and two per physician per patient per day."
    )
    assert quotes[0].page == "A12"


def test_a_clerks_word_meets_the_schedules_and_a_particle_is_no_body_part() -> None:
    quotes = SentenceIndex([_VIRTUAL]).quotes(
        "can I bill a phone visit when I call pts to tell them their bloodwork came back normal?"
    )
    assert quotes and quotes[0].text.endswith(
        "the communication of normal lab work, unless medically necessary (in "
        "so far as the clinical management of the patient is altered) should not be billed."
    )
    assert quotes[0].score >= 0.5  # 'bloodwork' is the Schedule's lab work; 'came back' asks nothing about a back


def test_a_word_meets_its_other_derivation_when_the_schedule_rarely_writes_it() -> None:
    quotes = SentenceIndex([_PREGNANCY, _REASSESSMENT]).quotes(
        "pt just wants to know if she's pregnant, we do the urine hCG in the office - can I bill G005 for it?", ["G005"]
    )
    assert quotes[0].text.endswith(
        "G005 is only insured when an immediate determination of pregnancy is required "
        "to prevent imminent physical harm to the patient."
    )
    assert quotes[0].worded  # 'pregnant' is a word of the question the sentence holds, not the code alone


def test_the_next_sentence_that_goes_on_with_the_rule_is_quoted_with_it() -> None:
    quotes = SentenceIndex([_VASECTOMY]).quotes(
        "pt wants his vasectomy reversed because they want another baby - will OHIP cover the reversal?"
    )
    assert quotes[0].text == (
        "Note: Vasectomy reversal is an insured benefit only for treatment of significant symptomatology, and "
        "requires prior approval. Re-establishing fertility does not constitute significant symptomatology."
    )


def test_a_mole_is_the_schedules_nevus_and_billing_the_patient_says_it_is_uninsured() -> None:
    question = (
        "pt wants a benign mole off her cheek, nothing suspicious, she just doesn't like the look of it - bill OHIP?"
    )
    assert asked_kinds(question) == ["payable"]
    quotes = SentenceIndex([_LESIONS, _VASECTOMY]).quotes(question)
    assert quotes and quotes[0].text.endswith("must be billed to the patient.")


def test_the_schedules_ways_of_saying_not_insured_are_payability() -> None:
    for said in (
        "G005 is only insured when an immediate determination of pregnancy is required",
        "Vasectomy reversal is an insured benefit only for treatment of significant symptomatology",
        "… removed for cosmetic purposes … must be billed to the patient.",
        "the communication of normal lab work … should not be billed.",
    ):
        assert SAYS["payable"].search(said), said
    assert not SAYS["payable"].search("The patient must be seen in person.")


def test_a_clerk_asks_whether_ohip_pays_in_several_ways() -> None:
    assert asked_rule_kinds("will OHIP cover the reversal?") == ["payable"]
    assert asked_rule_kinds("she doesn't like the look of it - bill OHIP?") == ["payable"]
    assert "payable" in asked_rule_kinds("can she bill A775 again now?")
    assert "limit" in asked_rule_kinds("can she bill A775 again now?")  # a repeat is a limit
    assert asked_rule_kinds("what's the fee for A775?") == []


def test_the_specialty_a_question_states_meets_the_rule_naming_specialties() -> None:
    k045 = (  # A94
        "Payment rules: 1.K045 is limited to a maximum of one service per patient per 12 month period. 2.K045 is "
        "only eligible for payment if the physician has rendered a minimum of 4 of any of the following: "
        "consultations/assessments, K013, K033, K029, K002, K003 to the same patient in the 12 month period for which "
        "K045 is claimed. 3.K045 is only eligible for payment when the physician has greater than 100 patients per "
        "year with diabetes. 4.K045 is eligible for payment to a physician from one of the following specialties: "
        "Internal Medicine (13), Endocrinology (15) or Paediatrics (26)."
    )
    rule = RuleRow(
        1, "DIABETES MANAGEMENT BY A SPECIALIST", "payment_rules", "A94", k045, "Endocrinology", "A", "subject", "K045"
    )  # type: ignore[arg-type]
    question = "I'm a GP with a huge diabetes practice - can I bill K045 the specialist diabetes management code?"
    assert "specialty" in conditions_asked(question)
    quotes = rule_quotes(question, [rule])
    assert quotes[0].text == (
        "K045 is eligible for payment to a physician from one of the following specialties: Internal Medicine (13), "
        "Endocrinology (15) or Paediatrics (26)."
    )
    assert "specialty" not in conditions_asked("how often can I bill K045 for the same patient?")


def test_an_age_band_in_words_is_an_age_the_rule_sets() -> None:
    # GP28: 'aged 20 to 64' once set no age (the pattern read one digit, then wanted a word boundary)
    said = "Services in excess of this limit or to patients aged 20 to 64 are not insured services."
    index = SentenceIndex([_passage("GP: Assessments", "PERIODIC OCULO-VISUAL ASSESSMENT", "GP28", said)])
    assert "age" in index.sentences[0].sets


def test_glasses_are_asked_for_as_the_schedules_refraction() -> None:
    refraction = _passage(  # A8, under 'Major eye examination'
        "A: Family Practice & Practice in General (00)",
        "Major eye examination",
        "A8",
        "[Commentary: Assessments rendered solely for the purpose of refraction for patients aged 20 to 64 are not "
        "insured services.]",
    )
    quotes = SentenceIndex([refraction, _LESIONS]).quotes(
        "45 yo healthy pt, no diabetes or eye disease, just wants an eye exam for new glasses - is that OHIP covered?"
    )
    assert quotes and "solely for the purpose of refraction for patients aged 20 to 64" in quotes[0].text
    assert quotes[0].score > 0.5  # 'glasses' is its word too, not only the eye examination it sits under
