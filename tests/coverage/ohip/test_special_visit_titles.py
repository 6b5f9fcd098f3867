"""Special visit premiums found from plain words: each cell's row and column are in its code's title, and
a question's day and time say which column (General Preamble GP70-GP76 of the 2025-03-03 Schedule)."""

from __future__ import annotations

from pathlib import Path

import pytest

from curbside.coverage.ohip.parse import code_title, parse_schedule
from curbside.coverage.ohip.query import asks_special_visit, slot_words, stem


@pytest.fixture(scope="module")
def titles(ohip_text: Path) -> dict[tuple[str, str], str]:
    parsed = parse_schedule(ohip_text)
    return {(x.code, x.page): code_title(x) for _, x in parsed.listings}


def test_a_cell_s_title_names_its_row_and_column(titles: dict[tuple[str, str], str]) -> None:
    assert titles[("K963", "GP70")] == (
        "Special visit premium: Emergency Department — Travel premium, Saturdays, Sundays and holidays (07:00-24:00)"
    )
    assert titles[("K996", "GP70")].endswith("— First person seen, Nights (00:00-07:00)")
    assert titles[("A994", "GP76")].endswith("— First person seen, Evenings (17:00-24:00) Monday to Friday")
    # the text prints Table X's cells before its title: they are the geriatric home visit's, not Table IX's
    assert titles[("B988", "GP77")].startswith("Special visit premium: Geriatric Home Visit — First person seen, ")
    # C989 is listed twice: in its special visit table (GP78) and as an obstetrical service (K7), left as it is
    assert titles[("C989", "K7")].lower().startswith("special visit for first obstetrical delivery")


@pytest.mark.parametrize(
    ("question", "day", "words"),
    [
        ("called in to the emergency department on a Saturday afternoon", "saturday", ["saturdays", "sundays", "holidays"]),
        ("I got called into emergency at 2 am", None, ["nights"]),
        ("came back to the office on a weekday evening", None, ["evenings"]),
        ("came back at 8 pm for an urgent patient", None, ["evenings"]),
        ("called in at 10 am on Tuesday", "tuesday", ["weekdays", "daytime"]),
    ],
)  # fmt: skip
def test_the_day_and_time_say_which_column(question: str, day: str | None, words: list[str]) -> None:
    assert slot_words(question, day) == [stem(w) for w in words]  # type: ignore[arg-type]


def test_only_special_visit_questions_get_the_column_words() -> None:
    assert asks_special_visit("what travel premium can I claim?")
    assert asks_special_visit("which premium for the first person seen?")
    assert not asks_special_visit("premium for a weekday hospital subsequent visit as MRP?")


def test_the_slot_replaces_the_words_that_named_it() -> None:
    from curbside.coverage.ohip.query import plan
    from curbside.coverage.ohip.tool import ScheduleGetArgs

    words = plan(
        ScheduleGetArgs(q="I came back to the office on a weekday evening, which first person seen premium?")
    ).words
    assert stem("evenings") in words and stem("weekday") not in words  # A994 (evenings), not a weekday-daytime cell


def test_admission_words_find_the_visits_that_follow_an_admission() -> None:
    """'the day after admission' is the Schedule's 'day following the hospital admission assessment' (C122, A11)."""
    from curbside.coverage.ohip.query import plan
    from curbside.coverage.ohip.tool import ScheduleGetArgs

    words = plan(ScheduleGetArgs(q="family doctor MRP visit the day after admission: code and fee?")).words
    assert {stem("admission"), stem("following"), stem("visit")} <= set(words)


def test_a_code_that_holds_little_of_the_question_is_flagged(ohip_app: object) -> None:
    """'WSIB minor assessment … extra code?' is not A001 Minor assessment (A008 is the extra code, A2): the
    match holds a fifth of the question, so it is stated at 0.5 and said to match only part of it; a question
    whose words are all in the code's title keeps its confidence."""
    import asyncio

    from curbside.coverage.ohip.tool import ScheduleGetArgs

    service = ohip_app.coverage_service("ohip")  # type: ignore[attr-defined]
    question = "patient came in for a WSIB minor assessment and also an unrelated problem, what's the extra code?"
    weak = asyncio.run(service.get(ScheduleGetArgs(q=question)))
    assert weak.confidence <= 0.5 and "match only part of the question" in weak.summary
    assert any("holds only part of the question" in w and "wsib" in w for w in weak.warnings)
    strong = asyncio.run(service.get(ScheduleGetArgs(q="fee for a general assessment by a family doctor?")))
    assert strong.items[0].code == "A003" and strong.confidence > 0.9
    assert not any("holds only part" in w for w in strong.warnings)


def test_coverage_weighs_words_no_title_uses() -> None:
    from curbside.coverage.ohip.query import WordIndex

    index = WordIndex([("A003", "General assessment", ""), ("J190", "Extra-cranial vessel assessment", "")])
    share, lacking = index.coverage([stem("general"), stem("assessment")], "A003")
    assert share == 1.0 and lacking == []
    share, lacking = index.coverage([stem("wsib"), stem("assessment")], "J190")
    assert share < 0.6 and lacking == [stem("wsib")]


def test_a_stage_named_keeps_the_other_stage_out() -> None:
    """'an initial smoking cessation discussion' is E079 (A51), not K039 'Smoking cessation follow-up visit'."""
    from curbside.coverage.ohip.query import words_of
    from curbside.coverage.ohip.sql_path import not_the_other_stage

    titles = {
        "E079": {stem(w) for w in words_of("Initial discussion with patient re: smoking cessation")},
        "K039": {stem(w) for w in words_of("Smoking cessation follow-up visit")},
    }
    assert not_the_other_stage(
        ["E079", "K039"], "what can I add for an initial smoking cessation discussion?", titles
    ) == ["E079"]
    assert not_the_other_stage(["E079", "K039"], "smoking cessation follow-up visit code?", titles) == ["K039"]
    assert not_the_other_stage(["E079", "K039"], "smoking cessation codes?", titles) == ["E079", "K039"]


def test_taking_a_device_out_keeps_its_insertion_out_and_the_other_way_round() -> None:
    """J47: G552 "Removal of intrauterine contraceptive device", G378 "Insertion of …"; P14: Z362 / Z361."""
    from curbside.coverage.ohip.query import words_of
    from curbside.coverage.ohip.sql_path import not_the_other_stage

    titles = {
        "G552": {stem(w) for w in words_of("Removal of intrauterine contraceptive device")},
        "G378": {stem(w) for w in words_of("Insertion of intrauterine contraceptive device")},
        "Z735": {
            stem(w) for w in words_of("Examination and/or dilatation (may include insertion and/or removal of IUD)")
        },
    }
    codes = ["G552", "G378", "Z735"]
    taken_out = "took out a pt's IUD in the office (wants to get pregnant), not putting a new one in. code/fee?"
    assert not_the_other_stage(codes, taken_out, titles) == ["G552", "Z735"]  # Z735 names both
    assert not_the_other_stage(codes, "removal of an IUD - code?", titles) == ["G552", "Z735"]
    assert not_the_other_stage(codes, "placed an IUD in clinic today - code?", titles) == ["G378", "Z735"]
    assert not_the_other_stage(codes, "IUD codes?", titles) == codes


def test_a_variant_qualified_by_what_the_question_does_not_say_is_left_out() -> None:
    """A108: K223 "Clinical interpretation by a geneticist: Clinical interpretation", K224 "… requested by a midwife or
    aboriginal midwife"; an age band the question may give in its own numbers stays (A156, K269)."""
    from curbside.coverage.ohip.query import WordIndex
    from curbside.coverage.ohip.siblings import the_service_asked

    rows = [
        ("K223", "Clinical interpretation by a geneticist: Clinical interpretation", ""),
        (
            "K224",
            "Clinical interpretation by a geneticist: Clinical interpretation requested by a midwife or "
            "aboriginal midwife",
            "",
        ),
        ("W269", "Periodic health visit", ""),
        ("K269", "Periodic health visit - 12 - 17 years of age", ""),
    ]
    # the rest of the Schedule: words in many titles weigh little, 'midwife' in few weighs much
    rows += [
        (f"X{n:03d}", f"Consultation requested interpretation clinical visit health age years {n}", "")
        for n in range(400)
    ]
    index = WordIndex(rows)
    words = ("geneticist", "written", "request", "interpret", "report")
    assert the_service_asked(["K223", "K224"], words, index) == ["K223"]
    assert the_service_asked(["K223", "K224"], (*words, "midwife"), index) == ["K223", "K224"]
    assert the_service_asked(["W269", "K269"], ("periodic", "health", "visit", "14", "yr"), index) == ["W269", "K269"]


def test_an_elective_procedure_keeps_the_emergency_one_out() -> None:
    """K10: P031 "Prophylactic cervical cerclage - any technique", P032 "Emergency cervical cerclage …"."""
    from curbside.coverage.ohip.query import words_of
    from curbside.coverage.ohip.sql_path import not_the_other_stage

    titles = {
        "P031": {stem(w) for w in words_of("Prophylactic cervical cerclage - any technique")},
        "P032": {stem(w) for w in words_of("Emergency cervical cerclage with membranes at or beyond the os")},
    }
    codes = ["P031", "P032"]
    assert not_the_other_stage(codes, "did an elective McDonald cerclage at 14 wks. code?", titles) == ["P031"]
    # the elective one named only to set it apart, or a non-elective case, says nothing of the kind
    assert not_the_other_stage(codes, "did a rescue cerclage - which code, vs the elective one?", titles) == codes
    assert not_the_other_stage(codes, "non-elective cerclage tonight - code?", titles) == codes


def test_one_or_several_of_a_thing_listed_by_count() -> None:
    """M22: Z128 "Simple, partial or complete, nail plate excision requiring anaesthesia - one", Z129 "… - multiple"."""
    from curbside.coverage.ohip.sides import the_count_asked

    printed = {
        "Z128": "Simple, partial or complete, nail plate excision requiring anaesthesia - one",
        "Z129": "Simple, partial or complete, nail plate excision requiring anaesthesia - multiple",
    }
    codes = ["Z128", "Z129"]
    assert the_count_asked(codes, "took off both big toenail plates under digital blocks", printed) == ["Z129"]
    assert the_count_asked(codes, "removed a single ingrown toenail plate", printed) == ["Z128"]
    assert the_count_asked(codes, "nail plate excision 2 wks ago, redo?", printed) == codes  # a time, not a count
