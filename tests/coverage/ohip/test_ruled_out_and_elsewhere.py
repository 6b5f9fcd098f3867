"""What a question rules out, a premium the meaning found, and a specialty's service listed elsewhere.

Titles are the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt; page in each comment).
"""

from __future__ import annotations

from curbside.coverage.ohip.query import WordIndex, plan, ruled_out, ruled_out_of_titles, stem, without_negations
from curbside.coverage.ohip.specialty_reach import listed_elsewhere
from curbside.coverage.ohip.sql_path import (
    asks_a_premium,
    asks_service_first,
    before_the_premium,
    raised_premiums_last,
    without_ruled_out_words,
)
from curbside.coverage.ohip.tool import ScheduleGetArgs

_TITLES = [  # (code, title, listing text)
    ("A933", "On-call admission assessment", ""),  # A5
    ("C003", "General assessment", ""),  # A10
    ("K734", "Physician to physician telephone consultation - Referring physician", ""),  # A37
    ("K736", "CritiCall telephone consultation - Referring physician", ""),  # A40
    ("Z714", "Abscess of vulva, Bartholin or Skene’s gland - incision and drainage - local anaesthetic", ""),  # V2
    ("Z728", "Incision and drainage of cyst, abscess or haematoma", ""),  # V5
    ("G807", "Physician not in constant attendance - not in the hyperbaric unit, supervision", ""),  # J41
    ("A245", "Consultation", "Otolaryngology (24)"),  # A153
    ("G440", "Pure tone threshold audiometry with or without bone conduction - technical component", ""),  # J100
]


def test_a_way_or_neighbour_the_question_negates_is_ruled_out() -> None:
    question = "GP, not on the call roster - direct admitting my own pt to the ward. which C code?"
    assert ruled_out(question) == {stem("call"), stem("roster")}
    assert stem("call") not in plan(ScheduleGetArgs(q=question)).words
    assert "call roster" not in without_negations(question) and "direct admitting" in without_negations(question)
    assert ruled_out_of_titles("phoned the on-call neurologist directly (not via CritiCall)") == {stem("criticall")}
    assert ruled_out_of_titles("I&D of an abscess in the vaginal wall (not Bartholin's)") == {stem("bartholin")}
    # 'not the … one' rules its words out of titles, not the 'one' standing for the service
    assert ruled_out_of_titles("a consult, not the special surgical one") == {stem("special"), stem("surgical")}
    # a consultation said to be ordinary is none of the levels the Schedule lists apart (A935 "Special surgical
    # consultation", A096 "Repeat consultation"), unless the question names one
    levels = {stem(w) for w in ("special", "comprehensive", "extended", "complex", "limited", "repeat")}
    assert ruled_out_of_titles("vasc surg clinic consult, standard consult - code/$") == levels
    assert ruled_out_of_titles("ordinary consult, not a repeat one") == levels
    assert stem("limited") not in ruled_out_of_titles("regular consult? or a limited consultation?")
    # a negated person or verb is no service: nothing is ruled out
    assert ruled_out("I was not the MRP, what code?") == frozenset()
    assert ruled_out("I was not in constant attendance") == frozenset()
    # a word the question also says outside the negation stays
    assert ruled_out("on call tonight, the call was not via CritiCall") == {stem("criticall")}


def test_a_code_titled_with_what_the_question_rules_out_goes() -> None:
    index = WordIndex(_TITLES)
    assert without_ruled_out_words(["K736", "K734"], frozenset({stem("criticall")}), index) == ["K734"]
    assert without_ruled_out_words(["Z714", "Z728"], frozenset({stem("bartholin")}), index) == ["Z728"]
    # a title that says 'not' itself is the negated service; and no code left: all stay
    assert without_ruled_out_words(["G807"], frozenset({stem("constant")}), index) == ["G807"]
    assert without_ruled_out_words(["K736"], frozenset({stem("criticall")}), index) == ["K736"]
    assert without_ruled_out_words(["K736", "K734"], frozenset(), index) == ["K736", "K734"]
    # a word ruled out in another form of it: 'not a re-assess' is no A474 "Medical specific re-assessment" (A183)
    specific = WordIndex([("A473", "Medical specific assessment", ""), ("A474", "Medical specific re-assessment", "")])
    ruled = ruled_out_of_titles("full specific assesment in the office today (not a consult, not a re-assess)")
    assert without_ruled_out_words(["A474", "A473"], ruled, specific) == ["A473"]


def test_a_premium_the_meaning_ranked_up_follows_the_services() -> None:
    # 'on call … overnight, admitted … what's the admission code': the titles nearest in meaning were E413
    # "Emergency Department Physician: Nights …" and E082 "Admission assessment by the MRP" (premiums, GP104, GP42)
    wide = [("E413", 0.69), ("E082", 0.64), ("A933", 0.4), ("H105", 0.3)]
    premiums = frozenset({"E413", "E082"})
    assert [c for c, _ in raised_premiums_last(wide, ["E413", "E082"], premiums)] == ["A933", "H105", "E413", "E082"]
    # a premium the words found keeps its place; nothing raised, nothing moves
    assert raised_premiums_last(wide, ["E413"], frozenset({"E082"})) == wide
    assert raised_premiums_last(wide, [], premiums) == wide


def test_a_service_of_the_specialty_listed_in_no_section_of_it_is_found_elsewhere() -> None:
    # 'ENT office … pure tone audiogram, technical component': G440 is listed under "Diagnostic and Therapeutic
    # Procedures - Otolaryngology" (J100), in no section of Otolaryngology (24), whose codes hold none of the words
    index = WordIndex(_TITLES)
    question = "ENT office w/ our own audiometer - pure tone audiogram, what's the technical component code/fee?"
    words = [w for w in plan(ScheduleGetArgs(q=question)).words if w != "ent"]
    assert "our" not in words  # a possessive says nothing of the service
    within = index.match(words, 5, {"A245"})
    everywhere = index.match(words, 5)
    assert everywhere[0][0] == "G440"
    assert listed_elsewhere(words, within, everywhere, index)
    # the specialty's own code holds the question: it stays the place searched
    consult = ["consultation"]
    assert not listed_elsewhere(consult, index.match(consult, 5, {"A245"}), index.match(consult, 5), index)
    # no code of the specialty holds a word of the question at all: elsewhere, though no title there holds REACH
    # of it ('ophtho - botox for benign essential blepharospasm': G871 "Botulinum toxin injection(s) for
    # blepharospasm", J52, in no ophthalmology section)
    eyes = WordIndex([*_TITLES, ("G871", "Botulinum toxin injection(s) for blepharospasm", "")])
    asked = [stem(w) for w in ("botox", "benign", "essential", "blepharospasm", "both", "eyes")]
    nothing = eyes.match(asked, 5, {"A245"})
    assert nothing == [] and listed_elsewhere(asked, nothing, eyes.match(asked, 5), eyes)


def test_a_specialty_code_holding_a_minor_word_only_does_not_keep_the_search_in_the_specialty() -> None:
    # 'nephro - home hemodialysis, weekly team fee?': Nephrology (16) lists W163 "Nursing home …" (A131), which holds
    # 'home' only; G865 "Chronic dialysis weekly team fee: Home haemodialysis" is in the dialysis part (G-codes)
    index = WordIndex(
        [
            *_TITLES,
            ("W163", "Nursing home or home for the aged - first 2 subsequent visits per patient per month", ""),
            ("W164", "General re-assessment of patient in nursing home (as per the Nursing Homes Act)", ""),
            ("G865", "Chronic dialysis weekly team fee: Home haemodialysis", ""),
            ("G864", "Chronic dialysis weekly team fee: Home peritoneal dialysis", ""),
        ]
    )
    words = [
        w
        for w in plan(ScheduleGetArgs(q="nephro - pt does home hemodialysis, weekly team fee?")).words
        if w != "nephro"
    ]
    nephrology = {"W163", "W164", "A245"}
    within, everywhere = index.match(words, 5, nephrology), index.match(words, 5)
    assert within[0][0] in {"W163", "W164"} and everywhere[0][0] == "G865"
    assert listed_elsewhere(words, within, everywhere, index)
    # the specialty's nursing-home visit asked: it stays the place searched
    visit = [
        w
        for w in plan(ScheduleGetArgs(q="nephro - nursing home visit, first subsequent one this month")).words
        if w != "nephro"
    ]
    assert not listed_elsewhere(visit, index.match(visit, 5, nephrology), index.match(visit, 5), index)


def test_the_service_asked_first_is_searched_before_the_premium_added_to_it() -> None:
    question = (
        "my own pt came into our ER and the ER doc called me in. I assessed her there - what do I bill? "
        "can I add a special visit premium on top?"
    )
    assert asks_service_first(question) and not asks_a_premium(question)
    words = plan(ScheduleGetArgs(q=question)).words
    kept = before_the_premium(words, question)
    assert stem("assessed") in kept and not {stem("special"), stem("visit")} & set(kept)
    # a premium asked alone, or named as the code asked for, is what the question asks
    for asked in ("what premium can I add to A007?", "which code for the special visit premium, called in at 2 am?"):
        assert not asks_service_first(asked) and asks_a_premium(asked)
        assert before_the_premium(words, asked) == words
    # a second question that names no premium is no premium added: the words stay
    assert not asks_service_first("did a pap in the office - what do I bill? can I also bill the visit?")


def test_an_aside_saying_what_a_service_is_not_paid_with_is_not_its_title() -> None:
    # S724 (V4) is no vaginal delivery: P006 "Vaginal" under "Labour - Delivery" (K6) is
    index = WordIndex(
        [
            ("S724", "Perineorrhaphy (not eligible for payment with delivery or other vaginal surgery procedures)", ""),
            ("P006", "Vaginal", "Labour - Delivery"),
        ]
    )
    assert index.titles["S724"] == {stem("perineorrhaphy")}
    assert stem("delivery") in index.listed["S724"]
    assert index.match([stem("vaginal"), stem("delivery")], 2)[0][0] == "P006"


def test_a_part_named_by_its_heading_is_found_outside_the_specialty() -> None:
    # 'cardiologist reading a 48 hr holter - which professional code': G658 "Level 1 - professional component - 36
    # to 59 hours recording" is listed under "CONTINUOUS ECG MONITORING (E.G. HOLTER)" (J16), in no Cardiology (60)
    # section, and only its heading says Holter
    heading = "CONTINUOUS ECG MONITORING (E.G. HOLTER)"
    rows = [
        ("A603", "Medical specific assessment", "Cardiology (60)"),
        ("G658", "Level 1 - professional component - 36 to 59 hours recording", heading),
        *((f"X{n:03d}", "professional component - level recording", "") for n in range(600)),
    ]
    words = ["holter", "read"]
    for index, found in ((WordIndex(rows, {"G658": heading}), True), (WordIndex(rows), False)):
        within, everywhere = index.match(words, 5, {"A603"}), index.match(words, 5)
        assert listed_elsewhere(words, within, everywhere, index) is found


def test_a_code_named_to_be_ruled_out_is_not_asked() -> None:
    """'which consult code and $? not the general A235?' answered A235 at 0.93 (held-out 14): the code was read as
    asked, by schedule.get from the question and by coverage.answer, which passes the codes it reads on."""
    from curbside.coverage.ohip.query import negated_codes

    question = "neuro-ophthalmologist, referral for ?papilledema - which consult code and $? not the general A235?"
    assert negated_codes(question) == {"A235"}
    request = plan(ScheduleGetArgs(q=question, codes=["A235"]))
    assert request.codes == () and request.not_codes == {"A235"}
    for asked in ("can I bill C124 on the day of discharge?", "A007 or A008 for this visit? not sure"):
        assert not negated_codes(asked), asked
    assert plan(ScheduleGetArgs(q="can I bill C124 on the day of discharge?")).codes == ("C124",)


def test_what_was_ordered_and_who_ordered_it_name_no_service_billed() -> None:
    # held-out 17: "… re-assessed her at 3pm …, still needed more w/u (ordered CT). re-assess code/fee?" answered
    # C014 'Specific re-assessment' (the CT read as a service); it asks the ED physician's H154 'Re-assessment' (A13)
    question = "ER doc, sunday - re-assessed her at 3pm, still needed more w/u (ordered CT). re-assess code/fee?"
    words = plan(ScheduleGetArgs(q=question)).words
    assert stem("ct") not in words and "reassess" in words and "emergency" in words  # the asker's ER stays
    # who ordered it is not the service either, and the clause ends at a dash: 'prof fee' is still asked
    words = plan(ScheduleGetArgs(q="radiologist reading a CT head ordered by the ER - prof fee?")).words
    assert stem("head") in words and "emergency" not in words and "prof" in words


def test_a_full_consult_is_not_the_lesser_level() -> None:
    # held-out 17: "nephro clinic - … 80 min …, full consult" listed A865 'Limited consultation' (A128) beside A160
    assert ruled_out_of_titles("nephro clinic - new CKD4 referral, 80 min, full consult. code + fee?") == {
        stem("limited"),
        stem("partial"),
    }
    assert ruled_out_of_titles("a full limited consult?") == {stem("partial")}  # "limited" said as asked stays
    assert ruled_out_of_titles("consult for a full-thickness burn") == frozenset()


def test_a_setting_the_question_denies_is_not_answered() -> None:
    from curbside.coverage.ohip.sql_path import in_setting

    # held-out 17: "… collapsed in our waiting room … pronounced him … (not at his home, not an inpt)?" listed C777
    # 'Intermediate assessment - Pronouncement of death' (in-patient, A10) beside A777 (A6)
    question = "GP - pt collapsed in our waiting room, I pronounced him. code (not at his home, not an inpt)?"
    assert in_setting(["A777", "C777", "W771"], question) == ["A777", "W771"]
    assert in_setting(["C777", "A777"], "pronounced my inpt on the ward") == ["C777"]
    assert in_setting(["C777"], "not an inpatient - pronouncement?") == ["C777"]  # nothing else to answer


# the codes Family Practice & Practice in General (00) lists, of these (A10, A85, A83)
_FAMILY_PRACTICE = frozenset({"C002", "C007"})


def test_with_no_specialty_named_family_practices_code_goes_first() -> None:
    from curbside.coverage.ohip.sql_path import family_practice_first

    # 'routine hospital visit on my inpatient in week 3' answered C112 (Critical Care Medicine) before C002: the
    # same title, "Subsequent visits - first five weeks", $34.10, in several sections
    titles = {c: "Subsequent visits - first five weeks" for c in ("C112", "C052", "C002")} | {"C007": "Other"}
    assert family_practice_first(["C112", "C052", "C002", "C007"], titles, _FAMILY_PRACTICE) == [
        "C002",
        "C112",
        "C052",
        "C007",
    ]
    # the leading title listed once: left as ranked
    assert family_practice_first(["C007", "C112"], titles, _FAMILY_PRACTICE) == ["C007", "C112"]


def test_a_kind_of_service_ruled_out_leaves_the_service_itself() -> None:
    """'(not a full general assessment)' rules out W903 "Pre-dental/pre-operative general assessment", not W904
    "Pre-dental/pre-operative assessment" (A15); '(not a consult)' still rules out consultations."""
    question = "LTC resident, did a focused pre-dental check at the home (not a full general assessment). code + fee?"
    assert {"general", "full"} <= ruled_out_of_titles(question)
    assert stem("assessment") not in ruled_out_of_titles(question)
    assert stem("consult") in ruled_out_of_titles("saw him briefly (not a consult) - what do I bill?")
    assert plan(ScheduleGetArgs(q=question)).ruled_out  # the plan carries them


def test_ltc_names_the_long_term_care_setting() -> None:
    from curbside.coverage.ohip.sql_path import in_setting

    codes = ["C903", "C904", "W903", "W904"]  # A10 and A15: the in-patient and long-term care listings
    assert in_setting(codes, "LTC resident going for dental extractions - pre-dental check") == ["W903", "W904"]


def test_a_role_the_asker_denies_is_ruled_out() -> None:
    """A25: K708 "Multidisciplinary cancer conference: MCC Participant", K709 "… MCC Chairperson"."""
    question = "presented 3 of my pts at the weekly tumour board (MCC), I'm not the chair. code/fee per pt?"
    assert stem("chair") in ruled_out_of_titles(question)
    index = WordIndex(
        [
            ("K708", "Multidisciplinary cancer conference: MCC Participant, per patient", ""),
            ("K709", "Multidisciplinary cancer conference: MCC Chairperson, per patient", ""),
        ]
    )
    assert without_ruled_out_words(["K709", "K708"], ruled_out_of_titles(question), index) == ["K708"]
