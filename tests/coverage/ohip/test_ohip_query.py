"""Reading a schedule.get request: codes, hours, day, MRP, contradictions; whole-word title matching."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from curbside.coverage.ohip.query import WordIndex, lettered_codes, plan, stem
from curbside.coverage.ohip.tool import ScheduleGetArgs


def test_question_facts() -> None:
    r = plan(ScheduleGetArgs(q="Can I bill c124 as the MRP if the patient was discharged 36 hours after admission?"))
    assert (r.codes, r.hours_since_admission, r.mrp, r.day, r.asks_rules) == (("C124",), 36.0, True, None, True)
    r = plan(ScheduleGetArgs(q="Discharged on Thursday after 3 days in hospital; I was not the MRP"))
    assert (r.hours_since_admission, r.day, r.mrp) == (72.0, "thursday", False)
    assert r.words == ("discharg", "hospital")  # the day, the stay length and the MRP are facts, not words


def test_fields_and_question_together() -> None:
    r = plan(ScheduleGetArgs(q="fee for C122?", codes=["c124a", "C124"], specialty="01"))
    assert (r.codes, r.specialty, r.asks_fee) == (("C124", "C122"), "01", True)


@pytest.mark.parametrize(
    ("args", "contradiction"),
    [
        (
            {"q": "C124 for a Thursday discharge", "context": {"day": "saturday"}},
            "the question says Thursday but context.day is saturday",
        ),
        (
            {"q": "discharged 36 hours after admission", "codes": ["C124"], "context": {"hours_since_admission": 72}},
            "the question says 36 hours after admission but context.hours_since_admission is 72",
        ),
        (
            {"q": "I am the MRP, can I bill C124?", "context": {"mrp": False}},
            "the question says you are the MRP but context.mrp is false",
        ),
    ],
)
def test_contradictions_are_reported_not_resolved(args: dict[str, object], contradiction: str) -> None:
    assert plan(ScheduleGetArgs(**args)).contradictions == (contradiction,)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "schedule.get needs something to look up"),
        ({"q": "   "}, "An empty question cannot be answered"),
        ({"codes": ["C12"]}, "'C12' is not a fee code: give a letter and three digits"),
        ({"codes": ["C124"], "top_k": 21}, "less than or equal to 20"),
        ({"codes": ["C124"], "include": ["price"]}, "Input should be 'codes', 'fee', 'limits'"),
        ({"codes": ["C124"], "drug": "x"}, "Extra inputs are not permitted"),
        ({"q": "a", "query": "b"}, "q, query and question are one field under three names"),
        ({"codes": ["C124"], "context": {"hours_since_admission": -1}}, "greater than or equal to 0"),
    ],
)
def test_invalid_shapes_are_validation_errors(args: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        ScheduleGetArgs(**args)  # type: ignore[arg-type]


def test_word_index_matches_whole_words_only() -> None:
    index = WordIndex(
        [
            ("C124", "Subsequent visit by the MRP - day of discharge", ""),
            ("Z999", "Endoscopy with dischargeometry", ""),  # 'discharge' inside a longer word: no match
            ("K187", "Acute post-discharge community psychiatric care", ""),
            ("A001", "Minor assessment", "charge"),
        ]
    )
    found = index.match([stem("discharged")], 5)
    assert [code for code, _ in found] == ["C124", "K187"] and found[0][1] == found[1][1]
    assert [code for code, _ in index.match([stem("discharge")], 5, among={"K187"})] == ["K187"]
    assert [code for code, _ in index.match([stem("charge")], 5)] == ["A001"]


def test_word_index_weighs_title_words_and_rare_words_more() -> None:
    index = WordIndex(
        [
            ("K007", "Individual care Psychotherapy", ""),
            ("K013", "Individual care Counselling", ""),
            ("K033", "Counselling - additional units", ""),
            ("A999", "Assessment", "counselling note"),  # a listing word: half a title word's weight
        ]
    )
    assert [code for code, _ in index.match(["counsell"], 5)] == ["K013", "K033", "A999"]
    assert index.match(["counsell"], 5)[0][1] == 2 * index.match(["counsell"], 5)[2][1]
    # 'psychotherapy' (one code) outweighs 'care' (two codes)
    assert [code for code, _ in index.match(["psychotherapy", "care"], 1)] == ["K007"]
    assert index.weight["psychotherapy"] > index.weight["care"]


def test_a_title_of_two_services_says_its_first_one_whole() -> None:
    # A2 / A6 / A15 of the Schedule (2025-03-03): the tie goes to the title that says the service asked
    index = WordIndex(
        [
            ("A777", "Intermediate assessment - Pronouncement of death (see General Preamble GP27)", ""),
            ("A007", "Intermediate assessment or well baby care", ""),
            ("W003", "Nursing home or home for the aged - first 2 subsequent visits per patient per month", ""),
        ]
    )
    words = [stem("intermediate"), stem("assessment")]
    assert [code for code, _ in index.match(words, 5)] == ["A007", "A777"]
    assert index.extra(words, "A007") == 0 and index.extra(words, "A777") == 2
    # qualified after a dash, 'or' joins two places of one service, not two services
    assert index.extra([stem("nursing"), stem("home")], "W003") > 0


def test_a_side_said_by_the_part_treated_is_the_schedules_side() -> None:
    # J56: G537 "Repeat sclerotherapy, unilateral"; Y6: E186 "… left eye" / E187 "… right eye"
    words = plan(ScheduleGetArgs(q="repeat sclerotherapy session, one leg, symptomatic veins >5mm - code?")).words
    assert "unilateral" in words and "one" not in words
    assert "bilateral" in plan(ScheduleGetArgs(q="irrigated a blocked tear duct (both sides)")).words
    assert {"right", "eye"} <= set(plan(ScheduleGetArgs(q="anti-VEGF injection OD for wet AMD - which code?")).words)
    assert "right" not in plan(ScheduleGetArgs(q="pt OD'd on tylenol, ER assessment - code?")).words  # an overdose
    # the physician's home is not a visit to the patient's (B990 … "Special Visits to Patient's Home")
    assert "home" not in plan(ScheduleGetArgs(q="called in from home to the ED on a Saturday - travel premium?")).words


def test_leaving_the_clinic_is_the_sacrifice_of_office_hours() -> None:
    # GP70: K961 / K992 "Special visit premium: Emergency Department — …, Daytime with sacrifice of office hours"
    from curbside.coverage.ohip.query import said_as_the_schedule_says
    from curbside.coverage.ohip.sql_path import in_setting

    for said in (
        "ER called me about my pt, had to leave clinic + cancel pts to go see him",
        "got pulled out of my afternoon clinic to assist on an urgent lap chole",
        "left my tues afternoon clinic (pts rebooked) to see my inpt",
    ):
        assert "sacrifice of office hours" in said_as_the_schedule_says(said)
        assert stem("sacrifice") in plan(ScheduleGetArgs(q=said)).words
    assert said_as_the_schedule_says("saw her in my clinic for a lump") == "saw her in my clinic for a lump"
    # office hours are a time, not the office: the emergency department's premium is not ruled out for an A code
    assert in_setting(["K992", "A990"], "sacrifice of office hours to see him in the ER") == ["K992", "A990"]


def test_clinical_shorthand_for_a_procedure_is_the_schedules_name() -> None:
    # D: X090 "Chest - single view"; S15: Z580 "Sigmoidoscopy (using 60 cm. flexible endoscope)"; J4: Hyposensitisation
    assert stem("chest") in plan(ScheduleGetArgs(q="portable CXR single AP view - code?")).words
    assert {stem("flexible"), stem("sigmoidoscopy")} <= set(plan(ScheduleGetArgs(q="flex sig in my office")).words)
    assert stem("hyposensitisation") in plan(ScheduleGetArgs(q="came in for her allergy shot")).words
    # G365 "Collection of cervical cancer screening specimen(s)", Z779 "Chorionic villus sampling", G282 "Umbilical
    # vein catheterization …", G481 "… Haemoglobin screen …"
    assert stem("cervical") in plan(ScheduleGetArgs(q="what code for doing a pap test in the office?")).words
    assert stem("chorionic") in plan(ScheduleGetArgs(q="CVS at 12 wks for AMA - code?")).words
    assert stem("umbilical") in plan(ScheduleGetArgs(q="NICU - put in a UVC on a 29 wkr")).words
    assert stem("haemoglobin") in plan(ScheduleGetArgs(q="point of care Hb done in the office")).words
    # K5: P025 "Non stress test"; Z804 "Lumbar puncture"; D16: "Bone Mineral Density (BMD) Measurement"
    assert {"non", stem("stress")} <= set(plan(ScheduleGetArgs(q="NST on my GDM pt, I read the strip")).words)
    assert stem("lumbar") in plan(ScheduleGetArgs(q="did an LP under fluoro - code?")).words
    assert stem("density") in plan(ScheduleGetArgs(q="repeat DEXA on a high risk pt")).words
    assert stem("paracentesis") in plan(ScheduleGetArgs(q="IOP shot up so I did an AC tap")).words
    # S036 "Uvulopalatopharyngoplasty …", G510 "… parenteral alimentation …", J037 "Mammary ductography"
    assert stem("uvulopalatopharyngoplasty") in plan(ScheduleGetArgs(q="ENT - UPPP w/ tonsils")).words
    assert stem("alimentation") in plan(ScheduleGetArgs(q="managing TPN for a short gut pt")).words
    assert {stem("capsule"), stem("endoscopy")} <= set(plan(ScheduleGetArgs(q="can I bill pill cam?")).words)
    # A176: K197 "Individual out-patient psychotherapy"
    assert "out" in plan(ScheduleGetArgs(q="individual psychotherapy w/ an outpt")).words


def test_what_a_title_excepts_is_not_its_service() -> None:
    # N7: Z216 "Wedging of casts in other than fracture treatment" is no answer to a question about a fracture
    index = WordIndex(
        [
            ("Z873", "Application of cast brace (must include hinge)", ""),
            ("Z216", "Wedging of casts in other than fracture treatment", ""),
        ]
    )
    assert index.held([stem("cast"), stem("fracture")], "Z216") == frozenset({stem("cast")})
    assert [code for code, _ in index.match([stem("fracture")], 5)] == ["Z216"]  # still found, by a listing's weight


def test_a_code_written_with_its_letter_is_kept_so_for_the_lookup() -> None:
    # E401B is listed so (GP87); the lookup keeps A007A's letter only if the Schedule lists it with one
    assert lettered_codes("what is E401B? and a007a?") == {"E401": "E401B", "A007": "A007A"}
    assert lettered_codes("can I bill C124 and E409?") == {}
