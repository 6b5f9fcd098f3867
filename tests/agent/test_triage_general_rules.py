"""The general rules that carry triage past the phrasings it was written against (#18, the dev2 set): vital
readings with their units, a write verb and a reading in any order, referrals in plain words with their
reason, loose averaging windows, requests outside Curbside's scope, questions about Curbside itself, and
'file' or 'chart' as ordinary words."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from curbside.agent import slots as s
from curbside.agent.planner import plan_turn
from curbside.agent.triage import triage

NOW = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def _reading(message: str) -> dict[str, Any] | None:
    text = s.Text.of(message)
    (mention,) = s.vitals_in(text)
    return s.vital_reading(text, mention)


def _write(message: str) -> dict[str, Any]:
    result = triage(message, has_patient=True)
    (intent,) = result.intents
    assert intent.kind == "chart_write", result
    return intent.slots


# --- a vital's reading ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "reading"),
    [
        ("BP 138 over 86", {"kind": "blood_pressure", "systolic": 138.0, "diastolic": 86.0}),
        ("BP this visit 138/86", {"kind": "blood_pressure", "systolic": 138.0, "diastolic": 86.0}),
        ("a weight of 210 pounds", {"kind": "weight", "value": 210.0, "unit": "lb"}),
        ("she weighed in at 64.2 kilos", {"kind": "weight", "value": 64.2, "unit": "kg"}),
        ("temp of 99.1 degrees F", {"kind": "temperature", "value": 99.1, "unit": "f"}),
        ("oxygen saturation of 97 percent", {"kind": "spo2", "value": 97.0, "unit": "%"}),
        ("hr 110 irregular", {"kind": "heart_rate", "value": 110.0, "unit": "/min"}),  # lower case, a value next
    ],
)
def test_a_reading_after_its_name_with_the_unit_as_written(message: str, reading: dict[str, Any]) -> None:
    assert _reading(message) == reading


@pytest.mark.parametrize("message", ["if BP over 140/90", "BP in 2 weeks", "BP meds 5 mg", "a systolic of 150"])
def test_thresholds_times_doses_and_half_a_pressure_are_not_readings(message: str) -> None:
    assert _reading(message) is None


def test_a_unit_is_inferred_only_where_one_alone_is_plausible() -> None:
    assert s.vital_units("temperature", 101.3) == ["f"]
    assert s.vital_units("temperature", 38.4) == ["c"]
    assert s.vital_units("weight", 80) == ["kg", "lb"]  # either: the clinician is asked
    assert _reading("temp 101.3 this morning") == {"kind": "temperature", "value": 101.3, "unit": "f"}
    assert _reading("weight 80 today") == {"kind": "weight", "value": 80.0}


def test_a_unit_that_names_its_vital() -> None:
    found = s.readings_by_unit(s.Text.of("He's 198 pounds, 38.2 °C, pulse ox fine, 72 bpm"))
    assert found == [
        {"kind": "weight", "value": 198.0, "unit": "lb"},
        {"kind": "temperature", "value": 38.2, "unit": "c"},
        {"kind": "heart_rate", "value": 72.0, "unit": "/min"},
    ]


# --- a write verb and a reading, in any order ---------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "kind", "value", "unit"),
    [
        ("weighs 187 lbs today, add it to her vitals", "weight", 187.0, "lb"),
        ("put a weight of 210 pounds in her chart", "weight", 210.0, "lb"),
        ("she weighed in at 64.2 kilos this morning, record please", "weight", 64.2, "kg"),
        ("hr 110 irregularly irregular. chart it pls", "heart_rate", 110.0, "/min"),
        ("He's 198 pounds on our scale, can you chart that weight?", "weight", 198.0, "lb"),
        ("respiratory rate is 24 - file it in his vitals", "respiratory_rate", 24.0, "/min"),
    ],
)
def test_a_write_verb_and_a_reading_record_the_vital(message: str, kind: str, value: float, unit: str) -> None:
    assert _write(message) == {"write": "record_vital", "kind": kind, "value": value, "unit": unit}


def test_a_pressure_said_over_is_both_components() -> None:
    assert _write("bp was 150 over 95 on recheck, can u record") == {
        "write": "record_vital",
        "kind": "blood_pressure",
        "systolic": 150.0,
        "diastolic": 95.0,
    }  # 'on recheck' is a noun: no lab is ordered


def test_several_readings_told_to_go_in_are_several_writes() -> None:
    result = triage("Her vitals just now: BP 122/78, HR 80, sats 97% - chart them", has_patient=True)
    assert result.route == "multi_step"
    assert [i.slots["kind"] for i in result.intents] == ["blood_pressure", "heart_rate", "spo2"]


@pytest.mark.parametrize("message", ["did they record her temp of 38.4?", "should we add her weight of 80 kg?"])
def test_a_reading_in_a_question_is_not_a_write(message: str) -> None:
    assert "chart_write" not in triage(message, has_patient=True).kinds


def test_an_unclear_reading_is_asked_about_not_guessed() -> None:
    message = "weight 80 - chart it"
    plan = plan_turn(triage(message, has_patient=True), has_patient=True, now=NOW, message=message)
    assert not plan.steps and plan.clarify and "kg or lb" in plan.clarify
    message = "temp 101.3 this am, pls document"
    plan = plan_turn(triage(message, has_patient=True), has_patient=True, now=NOW, message=message)
    (step,) = plan.steps
    assert step.tool == "ehr.record_vital" and step.arguments["unit"] == "f"


# --- referrals ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "service"),
    [
        ("pls refer her to a heart doctor for a new murmur", "cardiology"),
        ("she needs to see a skin specialist about a changing mole - send a referral", "dermatology"),
        ("Physio referral for her L knee pain pls", "physiotherapy"),
        ("get him in with psychiatry re: worsening low mood", "psychiatry"),
        ("He needs to see the bone and joint people about his hip pain - referral please", "orthopaedics"),
        ("Sleep clinic referral for loud snoring, please.", "Sleep clinic"),  # a service's own name, as written
    ],
)
def test_a_referral_by_its_noun_or_in_plain_words(message: str, service: str) -> None:
    assert _write(message) == {"write": "order_service", "kind": "referral", "display": service}


@pytest.mark.parametrize(
    "message", ["What does a sleep clinic referral involve?", "find the referral letter template in the shared folder"]
)
def test_a_question_about_a_referral_or_its_letter_is_not_one(message: str) -> None:
    assert "chart_write" not in triage(message, has_patient=True).kinds


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("Pls send a referral to a heart specialist for her, SNOMED 183519002, because of new dyspnea", "new dyspnea"),
        ("refer to endo re: thyroid nodule (SNOMED 306118006)", "thyroid nodule"),
        ("Ortho referral please - SNOMED 308481009, right knee osteoarthritis.", "right knee osteoarthritis"),
        (
            "Could you set up a referral to a diabetes doctor (SNOMED 306118006)? Sugars poorly controlled on two agents.",
            "Sugars poorly controlled on two agents",
        ),
    ],
)
def test_the_reason_for_a_referral_is_taken_from_the_message(message: str, reason: str) -> None:
    plan = plan_turn(triage(message, has_patient=True), has_patient=True, now=NOW, message=message)
    (step,) = plan.steps
    assert step.tool == "ehr.order_service" and step.arguments["reason"] == reason


# --- averages over a window said loosely --------------------------------------------------------------


def test_a_window_over_a_count_of_years_and_not_an_age() -> None:
    assert s.time_slots("what did her a1c average out to over 2 years") == {"window": "2y", "aggregate": "average"}
    assert "window" not in s.time_slots("order one if the last is over 2 years old")
    (intent,) = triage("avg wt past 2 yrs", has_patient=True).intents
    assert intent.slots == {"vital": "weight", "window": "2y", "aggregate": "average"}
    (intent,) = triage("on average, how high has his systolic been over the past year", has_patient=True).intents
    assert intent.slots == {"vital": "bp", "window": "1y", "aggregate": "average"}


# --- outside Curbside's scope; about Curbside itself --------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "can you book me a table for 4 at an italian place tonight",
        "should I put more into my RRSP or TFSA this year?",
        "write a letter to my landlord about the broken heater",
        "Order me a large pepperoni pizza",
        "who won the leafs game last night?",
    ],
)
def test_requests_outside_curbside_are_declined_without_a_tool(message: str) -> None:
    result = triage(message, has_patient=False)
    assert (result.route, result.kinds, result.confident) == ("direct", ("unknown",), True)
    plan = plan_turn(result, has_patient=False, now=NOW, message=message)
    assert not plan.steps and plan.cannot and "outside what Curbside does" in plan.cannot[0]


@pytest.mark.parametrize(
    "message",
    ["my patient is flying to Vancouver after a DVT - is apixaban enough?", "write a letter to my patient's employer"],
)
def test_an_out_of_scope_word_beside_something_clinical_is_incidental(message: str) -> None:
    assert "unknown" not in triage(message, has_patient=False).kinds


@pytest.mark.parametrize(
    "message",
    ["do you store my patients' data anywhere?", "Are my questions logged?", "which AI model are you running on?"],
)
def test_questions_about_curbside_itself_are_direct(message: str) -> None:
    result = triage(message, has_patient=False)
    assert (result.route, result.kinds) == ("direct", ("greeting",))
    plan = plan_turn(result, has_patient=False, now=NOW, message=message)
    assert plan.direct and not plan.steps


# --- 'file' and 'chart' as ordinary words ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("what allergies does she have on file?", "patient_allergies"),
        ("pull up the problem list from his file", "patient_problems"),
        ("list the meds on her chart", "patient_medications"),
        ("Does the chart show any drug allergies?", "patient_allergies"),
    ],
)
def test_file_and_chart_as_ordinary_words(message: str, kind: str) -> None:
    assert triage(message, has_patient=True).kinds == (kind,)


def test_the_files_tool_still_for_a_document_and_a_summary_for_the_chart_alone() -> None:
    assert triage("Please find the file called discharge template", has_patient=False).kinds == ("files",)
    assert triage("review her chart", has_patient=True).kinds == ("patient_summary",)


def test_more_readings_verbs_and_windows() -> None:
    assert _write("He is 5 foot 10, record his height") == {
        "write": "record_vital",
        "kind": "height",
        "value": 70.0,
        "unit": "in",
    }  # feet and inches: a unit that names its vital
    assert _write("Can you note her weight as 145 lb?")["value"] == 145.0
    assert _write("I'd like her seen by rheumatology for joint swelling")["display"] == "rheumatology"
    assert s.time_slots("average his sodium since january 2024") == {"since": "2024-01-01", "aggregate": "average"}


@pytest.mark.parametrize("message", ["who can see my conversations?", "is this tool secure?"])
def test_more_questions_about_curbside(message: str) -> None:
    assert triage(message, has_patient=False).kinds == ("greeting",)


def test_a_place_named_beside_an_out_of_scope_request_does_not_make_it_clinical() -> None:
    assert triage("find me a good sushi place near the hospital", has_patient=False).kinds == ("unknown",)
