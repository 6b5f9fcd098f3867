"""Codes from a clerk's plain words (#14): a 24-hour clock time, a clipped word, a department named as the place, a
the words' best code kept beside the meaning's, '1:1' as the Schedule writes it, every word naming the section
billed under, and a premium of the setting named only when the question's words name one there. Titles, headings and
definitions are the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt; page in each comment)."""

from __future__ import annotations

from curbside.coverage.ohip.query import WordIndex, asked_hours, asked_slot, asker_words, asks_special_visit, plan
from curbside.coverage.ohip.spoken_section import spoken_sections
from curbside.coverage.ohip.sql_path import SqlFindings, _specialty, named_premiums_of_setting
from curbside.coverage.ohip.store import EditionRecord
from curbside.coverage.ohip.title_meaning import question_weights, title_share, with_word_leader
from curbside.coverage.ohip.tool import ScheduleGetArgs


def test_a_24_hour_clock_time_says_the_hours_as_am_and_pm_do() -> None:
    # the emergency department's blocks are headed 'Nights (00:00h to 08:00h)', 'Monday to Friday - Evenings
    # (17:00h to 24:00h)' (A13)
    assert asked_hours("ER 0300h, full workup for chest pain", None) == "night"
    assert asked_slot("ER 0300h, full workup for chest pain", None) == "night"
    assert asked_hours("seen at 23:30 in the ED", None) == "evening"
    assert asked_hours("reviewed her at 1400h", None) == "daytime"
    # a duration or a count is no time of day
    assert asked_hours("I read 24h holters", None) is None
    assert asked_hours("monitored for 2h after", None) is None


def test_a_result_that_came_back_is_no_special_visit() -> None:
    assert not asks_special_visit("reassessed my ER pt at 2am after the CT came back - code n fee?")
    assert asks_special_visit("I came back to the office on a weekday evening for a pt")


def test_a_clipped_word_stands_for_the_schedules_words_it_begins() -> None:
    index = WordIndex(
        [
            ("K705", "Long-term care – High risk patient case conference", ""),  # A34
            ("W010", "Monthly management of a nursing home or home for the aged patient", ""),
        ]
    )
    words = plan(ScheduleGetArgs(q="had a conf w/ the DOC about my high risk resident")).words
    assert "conf" in words
    assert index.match(words, 5)[0][0] == "K705"
    assert index.forms("conf") >= {"conf", "conferenc"}
    # a clipped word is no word of the Schedule: it names no section of it either (``spoken_section``)
    assert not index.knows("conf") and index.knows("conference")
    # a word the Schedule uses is not read as a clipped one ('home' is no 'homeopathy')
    assert index.forms("home") == {"home"}


def test_a_title_holds_a_question_word_in_any_of_its_forms() -> None:
    index = WordIndex([("H124", "Re-assessment", ""), ("K705", "High risk patient case conference", "")])
    weights = question_weights(("reassess",), index)
    assert title_share(weights, "H124", index) == 1.0  # 'reassessed' is the title's 'Re-assessment'
    assert title_share(question_weights(("conf", "high"), index), "K705", index) == 1.0


def test_the_words_best_code_stays_in_the_pool_the_meaning_reordered() -> None:
    by_words = [("K705", 30.2), ("X149", 24.5)]
    pool = ["W054", "W058", "W184"]
    assert with_word_leader(pool, by_words, raised=["W054"]) == ["W054", "W058", "W184", "K705"]
    assert with_word_leader(pool, by_words, raised=[]) == pool  # the meaning ranked nothing up
    assert with_word_leader(["K705", *pool], by_words, raised=["W054"]) == ["K705", *pool]


def test_a_department_named_as_the_place_is_not_the_askers_specialty() -> None:
    assert "emerg" not in asker_words("weekday 8pm in emerg, re-assessment of a kid after neb tx")
    assert "emerg" in asker_words("I work in emerg - which code for a re-assessment?")
    assert "psychiatrist" in asker_words("psychiatrist - 1:1 psychotherapy w/ my pt on the inpatient unit")


def test_one_to_one_is_the_schedules_individual_care() -> None:
    # K190 "Individual in-patient psychotherapy", K200 "Group psychotherapy, in-patients …" (Psychiatry, A176)
    index = WordIndex(
        [
            ("K190", "Individual in-patient psychotherapy", ""),
            ("K200", "Group psychotherapy, in-patients - per member - first 12 units per day - 4 people", ""),
        ]
    )
    words = plan(ScheduleGetArgs(q="psychiatrist - 1:1 psychotherapy w/ my pt on the inpatient unit, per unit")).words
    assert "individual" in words
    assert index.match(words, 2)[0][0] == "K190"
    assert "individual" in plan(ScheduleGetArgs(q="one-on-one counselling")).words


_SECTIONS = [
    (21, "A", "Family Practice & Practice in General (00)", "00"),
    (43, "A", "Neurology (18)", "18"),
    (44, "A", "Neurosurgery (04)", "04"),
    (49, "A", "Ophthalmology (23)", "23"),
    (51, "A", "Physical Medicine & Rehabilitation (31)", "31"),
]


def test_every_section_the_question_names_is_read_and_a_combining_vowel_closes_a_clipped_name() -> None:
    def known(word: str) -> bool:
        return word in {"vision", "assessment", "initial"}

    words = ["initial", "low", "vision", "rehab", "assessment", "by", "ophtho"]
    assert spoken_sections(words, _SECTIONS, known) == [("31", ("rehab",)), ("23", ("ophtho",))]
    assert spoken_sections(["neuro"], _SECTIONS, known) == []  # Neurology or Neurosurgery: two readings


def test_a_clipped_name_english_never_writes_names_its_section_though_the_schedule_writes_its_root() -> None:
    # the Schedule writes 'neurosurgical' (E150 "CritiCall review of complex neurosurgical imaging"), so the root of
    # 'neurosurg' is a Schedule word; English hardly writes 'neurosurg' (wordfreq 1.3): it is Neurosurgery (04)
    def known(word: str) -> bool:
        return word.startswith(("neurosurg", "clinic"))

    assert spoken_sections(["neurosurg", "placing", "ommaya"], _SECTIONS, known) == [("04", ("neurosurg",))]
    # 'clinic' is a word of English and of the Schedule ('clinical'): no clipped name
    assert spoken_sections(["clinic"], [*_SECTIONS, (60, "A", "Clinical Immunology (62)", "62")], known) == []


def test_every_word_naming_the_section_billed_under_is_left_out_of_the_service() -> None:
    edition = EditionRecord(1, "2025-03-03", "2025-03-03", None, "schedule", "", {}, "now")
    sections = [*_SECTIONS, (35, "A", "Geriatrics (07)", "07")]
    question = "geriatrician did a 95 min consult. is there something above the comprehensive geri consult? fee?"
    found = _specialty(plan(ScheduleGetArgs(q=question)), sections, SqlFindings(edition), lambda word: False)
    # 'geri' is Geriatrics too: not the 'geriatric' of A775 "Comprehensive geriatric consultation" (A112)
    assert found is not None and (found.code, found.said) == ("07", ("geriatrician", "geri"))


def test_a_premium_the_settings_table_does_not_list_is_still_found() -> None:
    # C101 / C989: hospital in-patient special visit premiums (GP75-GP90); E060 "Post renal transplant …" premium
    index = WordIndex(
        [
            ("C101", "Special visit premium: Hospital In-Patient — Travel premium, Weekdays Daytime", ""),
            ("C989", "Special visit premium: Hospital In-Patient — Sacrifice of office hours", ""),
            ("E060", "Post renal transplant premium", ""),
        ]
    )
    question = "can I add the post renal transplant premium when I see the tx pt as an inpatient or in emerg?"
    words = plan(ScheduleGetArgs(q=question)).words
    premiums = {"C101", "C989", "E060"}
    assert named_premiums_of_setting(premiums, question, words, index) == premiums
    travel = "inpatient called me in, what travel premium?"
    assert named_premiums_of_setting(premiums, travel, ("travel",), index) == {"C101", "C989"}
