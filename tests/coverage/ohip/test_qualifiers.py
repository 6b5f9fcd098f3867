"""A title's qualifier ('- female', 'unilateral') that the question contradicts rules its twin out (#14). Titles
are the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt: K018/K021 A52, G536 J56)."""

from __future__ import annotations

from curbside.coverage.ohip.qualifiers import by_negated_service, by_qualifier, said_sides, tail

TITLES = {
    "K018": "Sexual assault examination - female",
    "K021": "Sexual assault examination - male",
    "K061": "Taking of blood samples in a hospital setting at the request of a police officer",
    "G536": "Sclerotherapy including one post injection visit, unilateral",
    "G999": "Sclerotherapy, bilateral",
}


def test_a_woman_rules_out_the_male_twin_and_a_man_the_female_one() -> None:
    codes = ["K018", "K021", "K061"]
    assert by_qualifier(codes, "did a sexual assault exam on a woman", TITLES) == ["K018", "K061"]
    assert by_qualifier(codes, "sexual assault exam, 19 year old man", TITLES) == ["K021", "K061"]


def test_both_legs_rules_out_the_unilateral_title() -> None:
    assert by_qualifier(["G536", "G999"], "sclerotherapy on both legs", TITLES) == ["G999"]
    assert by_qualifier(["G536", "G999"], "sclerotherapy, one leg only", TITLES) == ["G536"]


def test_a_question_naming_both_sides_or_neither_keeps_every_code() -> None:
    codes = ["K018", "K021", "K061"]
    assert by_qualifier(codes, "sexual assault exam", TITLES) == codes
    assert by_qualifier(codes, "a woman and a man both examined", TITLES) == codes
    assert by_qualifier(["K021"], "exam on a woman", TITLES) == ["K021"]  # nothing else is left: the words choose
    assert by_qualifier(codes, "her female partner ... the male", TITLES) == codes


# twins told apart by their tails (Schedule 2025-03-03: H002/H003 A11, K682/K683 A59, K191/K196 A176,
# A920/A921/A922 K4, K887/K889 A23)
TWINS = {
    "H002": "Low birth weight baby care (uncomplicated) - initial visit (per baby)",
    "H003": "Low birth weight baby care (uncomplicated) - subsequent visit",
    "K682": "Opioid Agonist Maintenance Program monthly management fee - intensive, per month",
    "K683": "Opioid Agonist Maintenance Program monthly management fee - maintenance, per month",
    "K191": "Family psychiatric care - in-patient",
    "K196": "Family psychiatric care - out-patient",
    "K887": "Community treatment order (CTO): CTO initiation including completion of the CTO form",
    "K889": "Community treatment order (CTO): CTO renewal including completion of the CTO form",
    "A002": "Enhanced 18 month well baby visit (see General Preamble GP34)",
}


def test_a_first_visit_rules_out_the_subsequent_twin_and_a_follow_up_the_initial_one() -> None:
    codes = ["H002", "H003", "A002"]
    assert by_qualifier(codes, "low birth weight baby, my first visit with the baby", TWINS) == ["H002", "A002"]
    assert by_qualifier(codes, "low birth weight baby, follow up visit", TWINS) == ["H003", "A002"]
    assert by_qualifier(["K887", "K889"], "fee for starting the CTO incl the form?", TWINS) == ["K887"]
    assert by_qualifier(["K887", "K889"], "renewing the CTO", TWINS) == ["K889"]


def test_the_tail_decides_not_the_words_the_twins_share() -> None:
    # 'maintenance' is in both titles' program name; only K683's tail says it
    assert by_qualifier(["K682", "K683"], "suboxone pt, stable, on maintenance - monthly OAT fee", TWINS) == ["K683"]
    assert by_qualifier(["K682", "K683"], "intensive phase OAT monthly fee", TWINS) == ["K682"]
    assert by_qualifier(["K191", "K196"], "family psychiatric care in my outpt clinic", TWINS) == ["K196"]


def test_a_loosely_said_side_rules_out_nothing_without_a_twin_naming_it() -> None:
    # 'first' and 'clinic' say a side loosely: the follow-up code stays when no initial twin is beside it
    assert by_qualifier(["H003", "A002"], "my first visit with the low birth weight baby", TWINS) == ["H003", "A002"]
    assert by_qualifier(["K191", "A002"], "family psychiatric care in clinic", TWINS) == ["K191", "A002"]


def test_a_denied_word_is_not_said() -> None:
    assert said_sides("established pt back in my office (not a new consult)") == {"subsequent", "out-patient"}
    assert "initial" in said_sides("a new consult")


def test_a_denied_consultation_rules_out_the_codes_titled_so() -> None:
    # Cardiology (60), A75
    titles = {"A603": "Medical specific assessment", "A605": "Consultation", "A675": "Limited consultation"}
    codes = ["A603", "A675", "A605"]
    question = "cardiologist - established pt back in my office, full medical specific assessment (not a new consult)"
    assert by_negated_service(codes, question, titles) == ["A603"]
    assert by_negated_service(codes, "no consultation, just a specific assessment", titles) == ["A603"]
    assert by_negated_service(codes, "cardiology consult for a new pt", titles) == codes
    assert by_negated_service(["A605"], "not a consult", titles) == ["A605"]  # nothing else is left


def test_tail_is_after_the_last_dash_or_colon() -> None:
    assert tail(TWINS["H002"]) == "initial visit (per baby)"
    assert tail(TWINS["K887"]) == "CTO initiation including completion of the CTO form"
    assert tail("Consultation") == ""
    # a colon before the last dash: the dash's words are the tail (A922, K4)
    assert tail("Medical management of ectopic pregnancy – initial service: Medical management - initial service") == (
        "initial service"
    )


def test_an_injection_as_the_visits_sole_reason_or_beside_a_visit() -> None:
    # J4: G202 "Hyposensitisation - each injection", G212 "… - when sole reason for visit (including first
    # injection)"; J55: G372 "with visit (each injection)", G373 "sole reason (first injection)"
    titles = {
        "G202": "Hyposensitisation - each injection",
        "G212": "Hyposensitisation - when sole reason for visit (including first injection)",
        "G372": "with visit (each injection)",
        "G373": "sole reason (first injection)",
    }
    codes = list(titles)
    with_visit = "allergy shot given + I did a visit for something else same day - code for the injection?"
    assert by_qualifier(codes, with_visit, titles) == ["G202", "G372"]
    assert by_qualifier(codes, "IM injection, nothing else - code?", titles) == ["G202", "G212", "G373"]
    assert by_qualifier(codes, "hyposensitisation injection - code?", titles) == codes  # neither said


def test_a_visit_for_one_thing_only_is_its_sole_reason() -> None:
    from curbside.coverage.ohip.query import said_as_the_schedule_says

    assert "sole reason for  an" in said_as_the_schedule_says("patient came in only for an intramuscular injection")
    assert "sole reason for  her" in said_as_the_schedule_says("patient came in just for her allergy shot")
    assert said_as_the_schedule_says("is it only for adults?") == "is it only for adults?"


def test_the_askers_end_of_a_physician_to_physician_consultation() -> None:
    # A40: K730 "Physician to physician telephone consultation - Referring physician", K731 "… - Consultant physician"
    titles = {
        "K730": "Physician to physician telephone consultation - Referring physician",
        "K731": "Physician to physician telephone consultation - Consultant physician",
    }
    codes = list(titles)
    specialist = "I'm the specialist giving telephone advice to a referring doctor, what code and fee?"
    assert by_qualifier(codes, specialist, titles) == ["K731"]  # the other doctor refers; the asker advises
    assert by_qualifier(codes, "a rural GP phoned me for advice on his pt - code?", titles) == ["K731"]
    assert by_qualifier(codes, "I called the specialist to get advice on my pt - code?", titles) == ["K730"]
    assert by_qualifier(codes, "physician to physician telephone consultation - code?", titles) == codes
