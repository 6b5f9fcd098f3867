"""The asker who bills as the emergency department's physician (#14): who bills decides the section and the
premium, not a specialist the question names besides. Titles are the Schedule's own
(ohip-schedule-of-benefits-2025-03-03.txt, GP104, A12-A14, A12)."""

from __future__ import annotations

from curbside.coverage.ohip.asker_role import (
    bills_as_ed_physician,
    for_ed_physician,
    for_other_physician,
    not_the_ed_physician,
)
from curbside.coverage.ohip.definitions import definitions


def test_the_asker_says_they_work_in_the_emergency_department() -> None:
    assert bills_as_ed_physician("ER shift saturday afternoon, chest pain pt")
    assert bills_as_ed_physician("working emerg, I wrote the interim admission orders")
    assert bills_as_ed_physician("I'm the ER doc on shift and reduced a dislocated shoulder")
    assert not bills_as_ed_physician("internist consult in the ER for chest pain")  # the internist bills
    assert not bills_as_ed_physician("saw a sprain in the ER department, a minor assessment")
    assert not bills_as_ed_physician("she ordered an x-ray")  # 'ordered' ends in 'ed', no ED


def test_the_premium_for_another_physician_is_left_out() -> None:
    texts = {
        "E413": "Emergency Department Physician: Nights (00:00h – 07:00h) - increase the procedural fee(s) by",
        "E410": "Physician – other than an Emergency Department Physician: Nights (00:00h – 07:00h) - increase the "
        "procedural fee(s) by",
        "D015": "Glenohumeral joint - closed reduction without anaesthetic",
    }
    assert for_ed_physician(["E410", "E413", "D015"], texts) == ["E413", "D015"]


def test_a_definition_passage_gives_its_words_to_the_codes_titled_with_its_name_in_its_section() -> None:
    head = "OHIP Schedule 2025-03-03 — A: Family Practice & Practice in General (00)"
    passages = [
        (
            "ohip",
            "Comprehensive assessment and care [A12]",
            f"{head} > Comprehensive assessment and care [A12]\n\nComprehensive assessment and care is a service "
            "rendered in an emergency department … that requires a full history …",
        ),
        ("ohip", "Nights [A13]", f"{head} > Nights [A13]\n\nH122 Comprehensive assessment and care: $76.95"),
        (  # the same title in another section does not take the definition
            "ohip",
            "Other [X1]",
            "OHIP Schedule 2025-03-03 — X: Other\n\nX999 Comprehensive assessment and care: $1.00",
        ),
    ]
    titles = {"H122": "Comprehensive assessment and care", "X999": "Comprehensive assessment and care"}
    defined = definitions(passages, titles)
    assert list(defined) == ["H122"] and "full history" in defined["H122"]


# GP70 and GP74: the special visit premium tables for the emergency department (Table I and Table V)
SVP = {
    "K994": "Special visit premium: Emergency Department — First person seen, Evenings (17:00-24:00) Monday to Friday",
    "K995": "Special visit premium: Emergency Department — Additional person(s) seen, Evenings (17:00-24:00) Monday "
    "to Friday",
    "H984": "Special visit premium: Emergency Department by Emergency Department Physician — First person seen, "
    "Evenings (17:00-24:00) Monday to Friday",
}


def test_a_role_named_only_to_deny_it_is_not_the_askers() -> None:
    assert not bills_as_ed_physician("FP (not an ED doc) - ER called me at 10am Tues about my pt")
    assert not_the_ed_physician("FP (not an ED doc) - ER called me at 10am Tues about my pt", "00")
    assert not_the_ed_physician("GI (not ER staff) - called into the ER wed 2000 for a bleeder", None)
    assert not not_the_ed_physician("ER doc, on call from home, got called in sat 1400", "00")
    assert not not_the_ed_physician("called into the ER at 2000 for a bleeder", None)  # nothing says who


def test_each_physician_keeps_the_emergency_department_table_payable_to_them() -> None:
    codes = ["H984", "K994", "K995"]
    assert for_ed_physician(codes, SVP) == ["H984"]  # Table I is not payable to the ED physician (GP67)
    assert for_other_physician(codes, SVP) == ["K994", "K995"]


def test_the_person_asked_keeps_the_other_persons_premium_out() -> None:
    from curbside.coverage.ohip.sides import the_person_asked

    assert the_person_asked(["K994", "K995"], "saw a 2nd pt while I was there - premium for the 2nd pt?", SVP) == [
        "K995"
    ]
    assert the_person_asked(["K994", "K995"], "first pt seen premium?", SVP) == ["K994"]
    assert the_person_asked(["K994", "K995"], "special visit premiums for tonight?", SVP) == ["K994", "K995"]
    # 'saw 2 pts … the premium for the 2nd one'; 'first-person premium' in one word
    assert the_person_asked(["K994", "K995"], "saw 2 pts. the person-seen premium for the 2nd one?", SVP) == ["K995"]
    assert the_person_asked(["K994", "K995"], "first-person premium code + $?", SVP) == ["K994"]
    # 'the additional (2nd) pt', 'a 2nd resident' of a nursing home
    assert the_person_asked(["K994", "K995"], "premium for the additional (2nd) pt - code?", SVP) == ["K995"]
    assert the_person_asked(["K994", "K995"], "then saw a 2nd resident there. premium?", SVP) == ["K995"]


def test_an_additional_persons_premium_is_never_the_travel_premium() -> None:
    """GP66: "Only one travel premium is eligible for payment for each separate trip to a destination regardless of
    the number of patients seen"; GP73 Table IV: W961 travel $36.40, W992 first person $40.00, W993 additional
    person(s) $40.00 (daytime with sacrifice of office hours)."""
    from curbside.coverage.ohip.sides import the_person_asked

    ltc = {
        "W961": "Special visit premium: Long-Term Care Institution — Travel premium, Daytime with sacrifice of office hours",
        "W992": "Special visit premium: Long-Term Care Institution — First person seen, Daytime with sacrifice of office "
        "hours",
        "W993": "Special visit premium: Long-Term Care Institution — Additional person(s) seen, Daytime with sacrifice "
        "of office hours",
    }
    codes = ["W961", "W992", "W993"]
    assert the_person_asked(
        codes, "then saw a 2nd resident there non-electively. premium for the 2nd resident?", ltc
    ) == ["W993"]
    assert the_person_asked(codes, "first pt seen premium + travel?", ltc) == ["W961", "W992"]
    assert the_person_asked(codes, "left my clinic for the nursing home - premiums?", ltc) == codes


def test_leaving_the_office_asks_the_special_visit_and_its_sacrifice_column() -> None:
    """GP70 Table I: K960 "Travel premium, Weekdays daytime (07:00-17:00)" and K961 "… Daytime with sacrifice of
    office hours", $36.40 each; K990 / K992 "First person seen", $20.00 / $40.00."""
    from curbside.coverage.ohip.query import asks_special_visit, plan
    from curbside.coverage.ohip.time_slot import with_sacrifice_asked
    from curbside.coverage.ohip.tool import ScheduleGetArgs

    question = plan(ScheduleGetArgs(q="LTC called at 2pm, I had to leave my booked clinic to go see her. premium?"))
    assert asks_special_visit(question.question)
    head = "Special visit premium: Emergency Department — "
    titles = {
        "K960": head + "Travel premium, Weekdays daytime (07:00-17:00)",
        "K961": head + "Travel premium, Daytime with sacrifice of office hours",
        "K990": head + "First person seen, Weekdays daytime (07:00-17:00)",
        "K992": head + "First person seen, Daytime with sacrifice of office hours",
    }
    codes = ["K961", "K992", "K960", "K990"]
    asked = plan(ScheduleGetArgs(q="ER called me at 10am Tues, had to leave clinic + cancel pts to go see him"))
    assert with_sacrifice_asked(codes, asked.question, titles) == ["K961", "K992"]
    assert with_sacrifice_asked(codes, "ER called me at 10am Tues - travel premium?", titles) == codes


def test_the_side_of_a_telephone_consultation_the_asker_was_on() -> None:
    """A37: K730 "Physician to physician telephone consultation - Referring physician", K731 "… - Consultant
    physician"."""
    from curbside.coverage.ohip.sides import the_side_asked

    printed = {
        "K730": "Physician to physician telephone consultation - Referring physician",
        "K731": "Physician to physician telephone consultation - Consultant physician",
    }
    codes = ["K731", "K730"]
    assert the_side_asked(codes, "I called a derm about a rash, she gave me a plan (I'm the one asking)", printed) == [
        "K730"
    ]
    assert the_side_asked(codes, "a rural GP phoned me for advice on his pt, I gave recs", printed) == ["K731"]
    assert the_side_asked(codes, "telephone consultation codes?", printed) == codes


def test_the_special_visit_table_of_the_setting_and_the_service() -> None:
    """GP71 "Hospital Out-Patient Department" (U), GP76 "Physician Office" (A), GP77 "Other (non-professional setting
    not listed)" (Q) and "Geriatric Home Visit" (B986), GP75 (B960), GP105 "Non-elective Diagnostic Services" (C103)."""
    from curbside.coverage.ohip.sql_path import premiums_of_setting, specialty_tables, visit_tables

    premiums = {"U963", "A963", "Q963", "B963"}
    assert premiums_of_setting(premiums, "sat 1400, called in to see a pt in the hospital outpt clinic") == {"U963"}
    assert premiums_of_setting(premiums, "called from home to the local hockey arena, player down") == {"Q963"}
    assert premiums_of_setting(premiums, "came back to the office sunday for a lac") == {"A963"}
    # the emergency department's two tables (GP70 Table I, K; GP74 Table V, H); 'ed' in lower case ends words
    emergency = {"K994", "H984", "A994", "C994"}
    assert premiums_of_setting(emergency, "ED doc, got called in from home at 7pm") == {"K994", "H984"}
    assert premiums_of_setting(emergency, "called into emerg at 2000") == {"K994", "H984"}
    assert premiums_of_setting(emergency, "I called ed at 7pm") == emergency
    titles = {
        "B986": "Special visit premium: Geriatric Home Visit — Travel premium, Weekdays daytime (07:00-17:00)",
        "B960": "Special visit premium: Special Visits to Patient's Home (other than Long-Term Care Institution) — "
        "Travel premium, Weekdays daytime (07:00-17:00)",
        "C103": "Special visit premium: Non-elective Diagnostic Services — Travel premium, Saturdays, Sundays and "
        "holidays (07:00-24:00)",
        "C963": "Special visit premium: Hospital In-Patient — Travel premium, Saturdays, Sundays and holidays (07:00-24:00)",
    }
    assert specialty_tables({"B986", "B960"}, "07", titles) == {"B986"}
    assert specialty_tables({"B986", "B960"}, "00", titles) == {"B986", "B960"}
    assert visit_tables({"C103", "C963"}, "came in from home sunday for a crashing ward pt", titles) == {"C963"}
    assert visit_tables({"C103", "C963"}, "drove in sat for an urgent US-guided drain", titles) == {"C103", "C963"}
