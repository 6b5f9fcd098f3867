"""Codes found by plain words (#14): word forms, the specialty a practitioner's name implies, the time of day
and the code letter asked. Titles and section names are the Schedule's own
(ohip-schedule-of-benefits-2025-03-03.txt; page in each comment)."""

from __future__ import annotations

from curbside.coverage.ohip.listing_headings import full_title, listed_title, listing_headings
from curbside.coverage.ohip.query import WordIndex, asked_hours, asked_slot, plan, ruled_out, stem
from curbside.coverage.ohip.spoken_section import spoken_section
from curbside.coverage.ohip.sql_path import (
    of_letter,
    premiums_last,
    premiums_of_setting,
    titled_as_asked,
    without_the_lettered_setting,
)
from curbside.coverage.ohip.time_slot import in_time_slot
from curbside.coverage.ohip.tool import ScheduleGetArgs
from curbside.coverage.ohip.word_forms import is_person_noun, root, roots

_SECTIONS = [  # (key, part, title, specialty) as the table of contents names them
    (21, "A", "Family Practice & Practice in General (00)", "00"),
    (24, "A", "Cardiology (60)", "60"),
    (25, "A", "Cardiac Surgery (09)", "09"),
    (26, "A", "Clinical Immunology (62)", "62"),
    (29, "A", "Dermatology (02)", "02"),
    (39, "A", "Internal and Occupational Medicine (13)", "13"),
    (43, "A", "Neurology (18)", "18"),
    (44, "A", "Neurosurgery (04)", "04"),
    (50, "A", "Paediatrics (26)", "26"),
    (51, "A", "Physical Medicine & Rehabilitation (31)", "31"),
    (53, "A", "Psychiatry (19)", "19"),
    (119, "J", "Injections or Infusions", None),
]


def test_a_derived_word_meets_the_schedules_form_of_it() -> None:
    assert root("consultation") == root("consult")
    assert root("cauterization") == root("cautery")
    assert root("pronouncement") == root("pronounc")  # 'pronounced', stemmed
    assert root("lesion") == "lesion"  # too short a root to lose its 'ion'
    assert root("medical") != root("medication")
    assert is_person_noun("internist") and is_person_noun("psychiatrist's") and not is_person_noun("internal")


def test_a_question_word_finds_the_title_by_its_other_form() -> None:
    index = WordIndex([("A135", "Consultation", ""), ("A765", "Consultation, patient 16 years of age and under", "")])
    words = plan(ScheduleGetArgs(q="what's the consult fee?")).words
    assert [code for code, _ in index.match(words, 5)] == ["A135", "A765"]  # the title that says least else first
    assert index.coverage(words, "A135")[0] == 1.0


def test_the_specialty_is_read_off_the_section_names() -> None:
    def known(word: str) -> bool:
        return word in {"clinical", "medical", "psychiatric"}

    assert spoken_section(["internist", "saw"], _SECTIONS, known) == ("13", ("internist",))
    assert spoken_section(["psych", "consult", "psychiatrist's"], _SECTIONS, known) == (
        "19",
        ("psych", "psychiatrist's"),
    )
    assert spoken_section(["derm", "consult"], _SECTIONS, known) == ("02", ("derm",))
    assert spoken_section(["paeds"], _SECTIONS, known) == ("26", ("paeds",))
    assert spoken_section(["cardiologist"], _SECTIONS, known) == ("60", ("cardiologist",))
    assert spoken_section(["neuro"], _SECTIONS, known) is None  # Neurology or Neurosurgery: two readings
    assert spoken_section(["clinic"], _SECTIONS, lambda w: w == "clinic") is None  # a word the Schedule uses
    # a possessive of a word that names no specialty names none ('the OHCAP physician's form', not Physical Medicine)
    assert spoken_section(["ohcap", "physician's", "form"], _SECTIONS, known) is None
    from curbside.coverage.ohip.words import SPECIALTY_ALIASES

    assert SPECIALTY_ALIASES["rad onc"] == "34" and SPECIALTY_ALIASES["gi office"] == "41"


def test_the_time_of_day_chooses_the_code_of_its_slot() -> None:
    texts = {  # the emergency department's minor assessments, by their listings' headings (A14)
        "H101": "Minor assessment | Monday to Friday - Daytime (08:00h to 17:00h)",
        "H131": "Minor assessment | Monday to Friday - Evenings (17:00h to 24:00h)",
        "H121": "Minor assessment | Nights (00:00h to 08:00h)",
        "A001": "Minor assessment",
    }
    question = "saw a sprained ankle at 3 am, just a minor assessment"
    assert asked_slot(question, None) == "night"
    assert asked_hours(question, None) == "night"
    assert in_time_slot(["H101", "H131", "H121", "A001"], "night", None, texts) == ["H121", "A001"]
    assert asked_slot("called in at 8 pm on a Tuesday", "tuesday") == "evening"
    assert in_time_slot(["H101", "H131"], None, None, texts) == ["H101", "H131"]


def test_the_letter_and_the_setting_asked_narrow_the_codes() -> None:
    codes = {"A100", "H101", "H121"}
    assert of_letter(None, "which H code?", codes) == {"H101", "H121"}
    assert of_letter(None, "which code?", codes) is None
    premiums = {"B988", "B994", "W994", "A994"}
    assert premiums_of_setting(premiums, "nursing home called me in at 8 pm") == {"W994"}
    assert premiums_of_setting(premiums, "called out to the patient's house at 2 am") == {"B988", "B994"}
    # the W codes are the long-term care listings (A15): once asked for, 'nursing home' names them all and would
    # rank W004 "General re-assessment of patient in nursing home" over W102 "Admission assessment - Type 1"
    question = "new resident in the nursing home, my full admission assessment, which W code and fee?"
    words = plan(ScheduleGetArgs(q=question)).words
    assert {stem("nursing"), stem("home")} <= set(words)
    kept = without_the_lettered_setting(words, question)
    assert {stem("admission"), stem("assessment")} <= set(kept) and not {stem("nursing"), stem("home")} & set(kept)
    index = WordIndex(
        [("W004", "General re-assessment of patient in nursing home", ""), ("W102", "Admission assessment - Type 1", "")]
    )
    assert index.match(kept, 2)[0][0] == "W102"
    # a setting that is not the letter's, or no letter asked: the words stay
    assert without_the_lettered_setting(words, question.replace("W code", "code")) == words
    assert without_the_lettered_setting(words, question.replace("W code", "C code")) == words
    premiums = {"H964"}
    assert premiums_last(["H964", "H121"], "a minor assessment at 3 am", premiums) == ["H121", "H964"]
    assert premiums_last(["H964", "H121"], "what special visit premium at 3 am?", premiums) == ["H964", "H121"]
    # 'add-on' is the asker's word for a premium: the premium keeps its place
    assert premiums_last(["H964", "H121"], "any add-on for a visit at 3 am?", premiums) == ["H964", "H121"]
    assert premiums_last(["H964", "H121"], "what can I add for a visit at 3 am?", premiums) == ["H964", "H121"]


def test_a_service_the_question_rules_out_does_not_find_codes() -> None:
    # 'not the special surgical one' tells the consult asked from A935 "Special surgical consultation"
    question = "ortho consult in his clinic, plain consult, not the special surgical one"
    # ('plain consult': none of the levels the Schedule lists apart either)
    levels = {stem(w) for w in ("comprehensive", "extended", "complex", "limited", "repeat")}
    assert ruled_out(question) == {stem("special"), stem("surgical"), stem("one")} | levels
    words = plan(ScheduleGetArgs(q=question)).words
    assert stem("consult") in words and not {stem("special"), stem("surgical")} & set(words)
    # a word also said outside the span stays; no span, nothing ruled out
    assert stem("consult") not in ruled_out("a consult, not the comprehensive consult one")
    assert ruled_out("special surgical consultation fee?") == frozenset()


def test_the_title_that_is_the_service_worded_goes_first_or_is_a_second_reading() -> None:
    index = WordIndex(
        [
            ("H100", "Emergency department investigative ultrasound", ""),  # A14
            ("H121", "Minor assessment", ""),  # A14
            ("W771", "Services described by visit for pronouncement of death (W777) or certification of death", ""),
            ("A771", "Certification of death", ""),  # A15
            ("A777", "Intermediate assessment - Pronouncement of death", ""),  # A15
        ]
    )
    words = plan(ScheduleGetArgs(q="saw a sprain in the ER department, a minor assessment")).words
    wide = index.match(words, 10)
    ordered, rivals = titled_as_asked([c for c, _ in wide], wide, words, index)
    assert ordered[:2] == ["H121", "H100"] and rivals == []
    words = plan(ScheduleGetArgs(q="death certificate when another doctor pronounced the patient")).words
    wide = index.match(words, 10)
    assert wide[0][0] == "W771"
    ordered, rivals = titled_as_asked([c for c, _ in wide], wide, words, index)
    assert ordered[:2] == ["W771", "A771"] and rivals == ["A771"]


def test_a_title_said_whole_is_no_second_reading_of_the_same_title_with_a_service_the_question_adds() -> None:
    index = WordIndex(
        [
            ("P018", "Caesarean section", ""),  # K6
            ("P041", "Caesarean section including tubal interruption", ""),  # K6
            ("P042", "Caesarean section including hysterectomy", ""),  # K6
            ("A001", "Minor assessment", ""),  # A2
            ("A003", "General assessment", ""),  # A2
            ("A007", "Intermediate assessment or well baby care", ""),  # A2
            ("S001", "Tubal ligation", ""),  # made-up titles: 'tubal' is commoner than 'caesarean'
            ("S002", "Tubal reanastomosis", ""),
        ]
    )
    words = plan(ScheduleGetArgs(q="c-section and a tubal at the same time, code?")).words
    wide = index.match(words, 10)
    assert wide[0][0] == "P041"
    ordered, rivals = titled_as_asked([c for c, _ in wide], wide, words, index)
    assert ordered[0] == "P041" and rivals == []


def test_a_plural_in_ies_and_a_participle_meet_the_titles_noun() -> None:
    # S626 "Vasectomy - uni - or bilateral - by any technique" (U5); D015 "… closed reduction without anaesthetic"
    # (N27); Z311 "Removal of foreign body - local anaesthetic" (P1)
    index = WordIndex(
        [
            ("S626", "Vasectomy - uni - or bilateral - by any technique", ""),
            ("D015", "Glenohumeral joint - closed reduction without anaesthetic", ""),
            ("Z311", "Removal of foreign body - local anaesthetic", ""),
        ]
    )
    assert [c for c, _ in index.match(plan(ScheduleGetArgs(q="no-scalpel vasectomies")).words, 3)] == ["S626"]
    assert [c for c, _ in index.match(plan(ScheduleGetArgs(q="reduced a shoulder")).words, 3)] == ["D015"]
    assert [c for c, _ in index.match(plan(ScheduleGetArgs(q="removed a splinter")).words, 3)] == ["Z311"]
    # an adjective's '-al' is no verb's noun: 'terminal ileum' is not a 'termination'
    assert roots("terminal") == {"terminal"} and roots("reduction") == {"reduct", "reduc"}


def test_a_heading_line_in_a_passage_heads_the_listings_below_it() -> None:
    passages = [
        (  # Y9, as the passages print it
            "ohip",
            "EXCISION [Y9]",
            "OHIP Schedule 2025-03-03 — Y: Eyelids > EXCISION [Y9]\n\nChalazion Single or multiple\n\n"
            "Z874 Single or multiple - local anaesthetic: $70.00\n# Z856 Single or multiple - general anaesthetic: "
            "$150.00\n\nNote: See Appendix D Surface Pathology.",
        ),
        (  # A13: a second heading after listings is a sibling of the passage's own
            "ohip",
            "Monday to Friday - Evenings (17:00h to 24:00h) [A13]",
            "OHIP Schedule 2025-03-03 — A: Family Practice & Practice in General (00) > Monday to Friday - Evenings "
            "(17:00h to 24:00h) [A13]\n\nH132 Comprehensive assessment and care: $52.55\n\nSaturdays, Sundays and "
            "Holidays - Daytime and Evenings (08:00h to 24:00h)\n\nH152 Comprehensive assessment and care: $66.15",
        ),
    ]
    headings = listing_headings(passages)
    assert headings["Z874"] == "Eyelids > EXCISION > Chalazion Single or multiple"
    assert headings["H132"] == "Family Practice & Practice in General (00) > Monday to Friday - Evenings (17:00h to 24:00h)"
    assert headings["H152"] == (
        "Family Practice & Practice in General (00) > Saturdays, Sundays and Holidays - Daytime and Evenings "
        "(08:00h to 24:00h)"
    )
    assert full_title("Single or multiple - local anaesthetic", headings["Z874"]) == (
        "Chalazion Single or multiple - local anaesthetic"
    )
    assert full_title("Comprehensive assessment and care", headings["H152"]) == "Comprehensive assessment and care"


def test_what_a_title_may_include_is_not_what_the_service_is() -> None:
    index = WordIndex(
        [
            (  # V5 and J47
                "Z735",
                "Examination and/or dilatation (may include insertion and/or removal of IUD) - general anaesthetic",
                "",
            ),
            ("G378", "Insertion of intrauterine contraceptive device", ""),
        ]
    )
    words = plan(ScheduleGetArgs(q="fee for inserting an IUD?")).words
    assert index.coverage(words, "Z735")[0] == 0.0  # its title does not say the service asked
    assert "iud" in index.listed["Z735"]  # … its aside still finds it, as a listing's words do
    assert index.held(words, "G378") == {stem("inserting")}


def test_a_title_citing_another_code_gives_way_to_the_listing_line() -> None:
    # the parser titled W771 by the General Preamble's list item naming it (GP: "G. Services described by visit
    # for pronouncement of death (W777) or certification of death (W771)"); its listing line is the Schedule's
    cited = "Services described by visit for pronouncement of death (W777) or certification of death"
    line = "Certification of death - subject to same conditions as A771"
    assert listed_title("W771", cited, line) == line
    assert listed_title("A771", "Certification of death", "Certification of death") == "Certification of death"
    assert listed_title("W771", cited, "") == cited  # no listing line to give it


def test_a_title_naming_only_a_part_takes_the_service_from_its_heading() -> None:
    from curbside.coverage.ohip.listing_headings import service_headings

    # J16: "CONTINUOUS ECG MONITORING (E.G. HOLTER)" above "G651 - technical component - 12 to 35 hours recording";
    # the chapter and a specialty's section name no service
    paths = "Electrocardiography (ECG) > CONTINUOUS ECG MONITORING (E.G. HOLTER) [J16] | Cardiology (60) > CARDIOLOGY (60)"
    assert service_headings(paths) == "CONTINUOUS ECG MONITORING (E.G. HOLTER)"
    assert service_headings("Eyelids > EXCISION > Chalazion Single or multiple") == "EXCISION"
    rows = [  # a code's listing text holds its headings (sql_path._indexes)
        ("G651", "Level 1 - technical component - 12 to 35 hours recording", "CONTINUOUS ECG MONITORING (E.G. HOLTER)"),
        ("G315", "Maximal stress ECG - technical component", "STRESS TESTING HOLTER"),
        # common words, as in the Schedule: 'technical component' in many codes' titles
        *((f"X{n:03d}", "technical component - level recording", "") for n in range(600)),
    ]
    headed = {"G651": "CONTINUOUS ECG MONITORING (E.G. HOLTER)", "G315": "STRESS TESTING HOLTER"}
    index = WordIndex(rows, headed)
    assert stem("holter") in index.headed["G651"]
    # a title naming its service keeps its own words ('Maximal stress ECG')
    assert "G315" not in index.headed
    # the heading's word weighs as a title word for G651 (twice a listing word), not for G315
    plain = dict(WordIndex(rows).match(["holter"], 2))
    assert dict(index.match(["holter"], 2)) == {"G651": 2 * plain["G651"], "G315": plain["G315"]}
    # the heading's words do not count as title words the question left unsaid (choosing between tied titles)
    assert index.extra(["technical"], "G651") == WordIndex(rows).extra(["technical"], "G651")


def test_an_organs_plain_name_also_says_the_schedules_adjective() -> None:
    """T3: Z601 "Renal biopsy, needle" is a kidney biopsy."""
    from curbside.coverage.ohip.query import schedule_words

    assert schedule_words(["kidney", "biopsy"]) == ["kidney", "renal", "biopsy"]
