"""A Limited Use criterion's later sentence that says how long the ministry pays or who must prescribe is quoted
when the question asks it (texts of ODB Formulary Edition 43 lccNotes, as the formulary prints them)."""

from __future__ import annotations

from curbside.coverage.odb.lu_details import asked_details
from curbside.coverage.odb.tool import LuCriterion

# fondaparinux (Arixtra, DIN 02245531): lccNote 001 reasonForUseId 378 and note 002 type N
FONDAPARINUX = LuCriterion(
    reason_for_use_code="378",
    text="For the post-operative prophylaxis of venous thromboembolic events in patients undergoing orthopedic "
    "surgery of the lower limbs such as hip fracture, hip replacement or knee surgery.\n\n"
    "Limited to 9 days of reimbursement.",
)
# risankizumab (Skyrizi, DIN 02519291): lccNote 001 reasonForUseId 574, its first paragraphs and Note 2
RISANKIZUMAB = LuCriterion(
    reason_for_use_code="574",
    text="For the treatment of severe plaque psoriasis (see Note 1 below) in patients 18 years of age or older who "
    "have experienced failure, intolerance, or have a contraindication to adequate trials of several standard "
    "therapies (see Note 2 below).\n\nClaims for the first 6 months must be written by a dermatologist. Monitoring "
    "of patients is required to determine if continuation of therapy beyond 12 weeks is required.\n\n"
    "Note 2: Definition of failure, intolerance or contraindication to adequate trials of standard therapies:\n\n"
    "- 6 month trial of at least 3 topical agents including vitamin D analogues and steroids, AND",
)


def test_the_duration_asked_is_the_capped_time() -> None:
    question = (
        "post hip #, ortho d/c'd her on arixtra 2.5 for VTE prophylaxis - LU code and how many days will ODB cover?"
    )
    assert asked_details(question, [FONDAPARINUX]) == ['LU 378 says: "Limited to 9 days of reimbursement."']
    # a trial's length is the criteria's history, not how long the ministry pays
    assert asked_details("how long will ODB pay for skyrizi?", [RISANKIZUMAB]) == []


def test_the_prescriber_asked_is_who_must_write_it() -> None:
    question = "skyrizi 150 pen ODB LU code? who can prescribe the first claims?"
    assert asked_details(question, [RISANKIZUMAB]) == [
        'LU 574 says: "Claims for the first 6 months must be written by a dermatologist."'
    ]


def test_nothing_is_added_when_neither_is_asked() -> None:
    assert asked_details("skyrizi 150 pen ODB LU code?", [RISANKIZUMAB, FONDAPARINUX]) == []


def test_the_dose_limit_asked_is_the_maximum_reimbursed() -> None:
    # celecoxib, LU 316 (osteoarthritis) and its note 004 type N
    celecoxib = LuCriterion(
        reason_for_use_code="316",
        text="For patients who have failed an adequate trial of acetaminophen (e.g. acetaminophen 1g QID for "
        "several weeks) and have had:\n\nThe maximum daily dose of celecoxib which will be reimbursed for the "
        "treatment of osteoarthritis is 200mg.",
    )
    assert asked_details("celecoxib on ODB? LU code, max dose?", [celecoxib]) == [
        'LU 316 says: "The maximum daily dose of celecoxib which will be reimbursed for the treatment of '
        'osteoarthritis is 200mg."'
    ]


def test_the_re_assessment_asked_is_the_note_that_sets_it() -> None:
    # clobazam (Teva-Clobazam, DIN 02238334): lccNote 001 reasonForUseId 23 and note 002 type N
    clobazam = LuCriterion(
        reason_for_use_code="23",
        text="As adjunctive therapy in the treatment of seizure disorders where control by other listed "
        "anticonvulsants has been unsatisfactory.\n\nBecause a large number of patients will become refractory to "
        "the anticonvulsant effects of the drug over a period of time, the effectiveness of this drug must be "
        "re-evaluated after a period of six months.",
    )
    question = "breakthrough sz on 2 AEDs, want to add clobazam 10 - ODB LU #? any need to re-assess later?"
    assert asked_details(question, [clobazam]) == [
        'LU 23 says: "Because a large number of patients will become refractory to the anticonvulsant effects of the '
        'drug over a period of time, the effectiveness of this drug must be re-evaluated after a period of six months."'
    ]
    assert asked_details("clobazam 10 - ODB LU #?", [clobazam]) == []  # not asked: the code and its purpose only
    # a criterion with no such sentence has nothing to quote ('Monitoring … beyond 12 weeks' re-assesses nothing)
    assert asked_details("skyrizi LU code? any re-eval requirement?", [RISANKIZUMAB]) == []
