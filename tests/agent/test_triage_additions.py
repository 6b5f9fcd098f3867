"""Phrasings the EHR task set showed the rules missing: a medication list asked loosely, "NKDA?", a
referral written as a noun with its code, a calculator for "her"."""

from __future__ import annotations

import pytest

from curbside.agent.triage import triage


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("What is she currently taking?", "patient_medications"),
        ("Is she on anything at the moment?", "patient_medications"),
        ("NKDA?", "patient_allergies"),
        ("CrCl for her?", "calculator"),
        ("Wells score for this leg?", "calculator"),
    ],
)
def test_patient_questions_in_loose_words(message: str, kind: str) -> None:
    result = triage(message, has_patient=True)
    assert result.kinds == (kind,) and result.confident


@pytest.mark.parametrize(
    ("message", "service"),
    [
        ("Sleep clinic referral (SNOMED 698560000) for loud snoring, please.", "Sleep clinic"),
        ("Please put in an endocrinology referral, SNOMED 306118006 - reason: A1c not at target.", "endocrinology"),
        (
            "Send him to the hypertension clinic, SNOMED 183856001, for hypertension on three drugs.",
            "hypertension clinic",
        ),
    ],
)
def test_a_referral_written_as_a_noun_with_its_code(message: str, service: str) -> None:
    (intent,) = triage(message, has_patient=True).intents
    assert intent.kind == "chart_write" and intent.slots["write"] == "order_service"
    assert intent.slots["kind"] == "referral" and intent.slots["display"] == service


def test_a_referral_noun_without_a_patient_or_a_code_stays_a_question() -> None:
    assert triage("What does a sleep clinic referral involve?", has_patient=False).kinds == ("knowledge",)


@pytest.mark.parametrize(
    ("message", "kind", "value"),
    [
        ("Sat 93% on room air, add it to his flowsheet.", "spo2", 93.0),
        ("pulse 104, irregular - put it in", "heart_rate", 104.0),
        ("Temp 38.4 °C this morning - log it in her vitals.", "temperature", 38.4),
    ],
)
def test_a_vital_given_first_then_told_to_go_in_the_chart(message: str, kind: str, value: float) -> None:
    (intent,) = triage(message, has_patient=True).intents
    assert intent.kind == "chart_write" and intent.slots["write"] == "record_vital"
    assert (intent.slots["kind"], intent.slots["value"]) == (kind, value)


def test_a_question_about_a_value_is_not_a_write() -> None:
    assert "chart_write" not in triage("What was her last pulse?", has_patient=True).kinds
