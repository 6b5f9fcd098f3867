"""Conditional writes from the words: the condition, its check against the latest value, a dose by rule,
and the writes the request names."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from curbside.agent.conditions import Condition, condition_in, conditional_writes, dose_rule_in

NOW = datetime(2024, 2, 1, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("If her latest K is above 5.0, order a stat repeat potassium", Condition("above", 5.0)),
        ("if it's under 4.0 give KCl 10 mEq", Condition("below", 4.0)),
        ("I want it at 4.0 or above: if it's lower, replace", Condition("below", 4.0)),
        ("Order a new HbA1c if her last one is more than a year old.", Condition("older", 365)),
        ("A1c overdue? If >1 yr since the last, order one.", Condition("older", 365)),
        ("What was her potassium?", None),
        ("order an HbA1c only if he hasn't had one in the last 12 months", Condition("older", 365)),
        ("lipid panel please, if not done within the past 6 months", Condition("older", 183)),
        ("repeat the TSH if it's older than 18 months", Condition("older", 548)),
    ],
)
def test_the_condition_is_read_from_the_words(message: str, expected: Condition | None) -> None:
    assert condition_in(message) == expected


def test_a_condition_is_checked_against_the_latest_value_and_its_date() -> None:
    assert Condition("below", 4.0).holds(3.72, "2024-01-30", NOW) is True
    assert Condition("below", 4.0).holds(4.0, "2024-01-30", NOW) is False  # at the target: nothing to replace
    assert Condition("above", 5.0).holds(None, None, NOW) is None  # nothing to judge by: no write
    assert Condition("older", 365).holds(None, "2022-12-01T10:00:00+00:00", NOW) is True
    assert Condition("older", 365).holds(None, "2023-06-01T10:00:00+00:00", NOW) is False
    assert Condition("older", 365).holds(None, None, NOW) is True  # never done: due


def test_one_tablet_per_step_below_the_target_rounded_up() -> None:
    rule = dose_rule_in("give KCl 10 mEq ER tablets, one tablet for every 0.1 below 4.0 rounded up")
    assert rule is not None
    assert [rule.tablets(v) for v in (3.72, 3.7, 3.95, 3.0)] == [3, 3, 1, 10]


def test_the_writes_the_request_names() -> None:
    message = (
        "If her potassium is below 3.5 give KCl 10 mEq ER tablets (RxNorm 8591) PO, one tablet per 0.1 below 3.5, "
        "and a repeat potassium tomorrow 08:00."
    )
    (prescribe, repeat) = conditional_writes(message, NOW, "potassium")
    assert prescribe[0] == "ehr.prescribe_medication" and prescribe[1]["rxnorm"] == "8591"
    assert repeat[1]["code"] == "6298-4" and repeat[1]["when"] == "2024-02-02T08:00:00+00:00"
    (ecg_k, ecg) = conditional_writes("if K above 5.0: stat repeat K and a stat ECG (SNOMED 268400002)", NOW, "k")
    assert ecg_k[1]["priority"] == "stat" and ecg[1]["code"] == "268400002"


def test_a_condition_of_some_months_is_said_in_months() -> None:
    assert Condition("older", 183).words("lipid panel") == "the last lipid panel is more than 6 months old"
    assert Condition("older", 365).words("HbA1c") == "the last HbA1c is more than a year old"


@pytest.mark.parametrize(
    ("message", "conditional"),
    [
        ("order an HbA1c only if he hasn't had one recently", True),
        ("add penicillin allergy unless it's already there", True),
        ("if you can, record BP 120/80 for her", False),
        ("record a weight of 80 kg", False),
        ("prescribe oxycodone 5 mg if needed for pain", False),
    ],
)
def test_a_write_made_to_depend_on_something_is_recognised(message: str, conditional: bool) -> None:
    from curbside.agent.conditions import states_a_condition

    assert states_a_condition(message) is conditional


def test_a_write_whose_condition_cannot_be_read_is_not_proposed() -> None:
    from curbside.agent.intents import Intent, Triage
    from curbside.agent.planner import plan_turn

    message = "order an HbA1c only if he hasn't had one recently"
    triaged = Triage(
        "multi_step",
        (
            Intent("patient_labs", {"lab": "HbA1c", "latest": True}),
            Intent("chart_write", {"write": "order_service", "kind": "lab", "display": "HbA1c", "code": "4548-4"}),
        ),
        True,
        "a write that depends on a value",
    )
    plan = plan_turn(triaged, has_patient=True, now=NOW, message=message)
    assert [s.tool for s in plan.steps] == ["ehr.get_observations"]
    assert plan.clarify is not None and plan.clarify.startswith("Nothing was proposed")
