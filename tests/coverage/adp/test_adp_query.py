"""Reading an adp.get request before any lookup: topics, social assistance, income, household, problems."""

from __future__ import annotations

import pytest

from curbside.coverage.adp.query import TermIndex, norm, plan, resolve
from curbside.coverage.adp.tool import AdpGetArgs


def test_topics_of_a_question() -> None:
    request = plan(AdpGetArgs(q="Does ADP cover power wheelchair batteries or repairs?"))
    assert {"batteries", "repairs", "funding"} <= request.topics
    assert request.text == "Does ADP cover power wheelchair batteries or repairs?"
    assert "maintenance" in plan(AdpGetArgs(q="does ADP pay to service my power chair every year?")).topics
    # an 'in-service' is a teaching session for staff (ADP Manual §405.05 p. 44), not a device's upkeep
    in_service = plan(AdpGetArgs(q="a manufacturer rep is giving our OTs a product in-service - can they take gifts?"))
    assert "maintenance" not in in_service.topics


@pytest.mark.parametrize(
    ("question", "asks_repair_or_loss"),
    [
        ("ADP vendor here - invoice got put on hold for an error, how long do we have to fix it?", False),
        ("the claim form was lost in the mail, what now?", False),
        ("her walker broke, can ADP fix it?", True),  # 'it' is the walker
        ("can ADP pay to fix it?", True),  # nothing else 'it' could be
        ("we sent the invoice but the wheelchair was stolen", True),  # a device is named: the loss is its
    ],
)
def test_it_is_paperwork_when_the_question_names_paperwork_and_no_device(question: str, asks_repair_or_loss: bool) -> None:
    """'fix it', 'lost it', 'it was lost' ask about a device's repair or loss only when 'it' can be a device."""
    topics = plan(AdpGetArgs(q=question)).topics
    assert bool(topics & {"repairs", "loss_theft"}) is asks_repair_or_loss


@pytest.mark.parametrize(
    ("question", "program"),
    [
        ("my patient is on ODSP", "ODSP"),
        ("she receives Ontario Works", "OW"),
        ("a child on ACSD", "ACSD"),
        ("how do I know if it is covered", None),  # 'ow' inside words is not Ontario Works
        ("he is not on social assistance", "none"),
    ],
)
def test_social_assistance_from_the_question(question: str, program: str | None) -> None:
    assert plan(AdpGetArgs(q=question)).social_assistance == program


def test_two_programs_or_a_program_and_none_are_queried() -> None:
    both = plan(AdpGetArgs(q="patient on ODSP and Ontario Works needs a walker"))
    assert both.problem == "The request names more than one social assistance program (ODSP, OW)."
    assert both.follow_up == "Which program does the patient receive now: Ontario Works, ODSP or ACSD?"
    neither = plan(AdpGetArgs(q="patient on ODSP but not on social assistance wants a walker"))
    assert neither.problem == "The request says the patient receives ODSP and also no social assistance."


@pytest.mark.parametrize(
    ("question", "income"),
    [
        ("Patient income $19,000, are they CEP eligible?", 19000.0),
        ("income of 28k, single", 28000.0),
        ("makes $39,500 a year and wants a walker, family income", 39500.0),
        ("income -5000, walker", -5000.0),
        ("what does ADP pay for a walker?", None),
    ],
)
def test_income_from_the_question(question: str, income: float | None) -> None:
    assert plan(AdpGetArgs(q=question)).income == income


def test_income_in_the_field_and_the_question_must_agree() -> None:
    request = plan(AdpGetArgs(q="income $19,000, walker", patient_income=25000))
    assert request.problem == "patient_income is 25,000, but the question says 19,000."
    assert plan(AdpGetArgs(q="income $19,000, walker", patient_income=19000)).problem is None


def test_household() -> None:
    assert plan(AdpGetArgs(q="income $30,000 for the family")).household == "family"
    assert plan(AdpGetArgs(q="income $30,000, lives alone")).household == "single"
    assert plan(AdpGetArgs(q="income $30,000", household="family")).household == "family"


def test_norm() -> None:
    assert norm("Power-Wheelchair's batteries?") == "power wheelchairs batteries"


TERMS = [
    ("walker", "device", "walker"),
    ("wheelchair", "device", "wheelchair"),
    ("power wheelchair", "device", "power_wheelchair"),
    ("hearing aid", "category", "Hearing Devices"),
    ("insulin pump", "category", "Insulin Pump and Supplies for Adults"),
    ("insulin pump", "category", "Insulin Pump and Supplies for Children"),
    ("stairlift", "not_listed", "home_modification"),
    ("mobility", "category_key", "Mobility Devices"),
    ("hearing_devices", "category_key", "Hearing Devices"),
    ("glucose_monitoring", "not_a_category", "no such category"),
]
CATEGORY = {"walker": "Mobility Devices", "wheelchair": "Mobility Devices", "power_wheelchair": "Mobility Devices"}


def _decide(**args: object):  # noqa: ANN202 - a Decision
    return resolve(TermIndex(TERMS), plan(AdpGetArgs(**args)), CATEGORY.get)


def test_longest_phrase_wins() -> None:
    decision = _decide(q="does ADP cover power wheelchair batteries?")
    assert (decision.resolution.kind, decision.resolution.device_key, decision.categories) == (
        "device",
        "power_wheelchair",
        ["Mobility Devices"],
    )


def test_an_ambiguous_category_is_narrowed_by_a_word_of_the_question() -> None:
    assert _decide(q="insulin pump for a child").categories == ["Insulin Pump and Supplies for Children"]
    assert _decide(q="insulin pump for an adult").categories == ["Insulin Pump and Supplies for Adults"]
    assert len(_decide(q="insulin pump").categories) == 2


@pytest.mark.parametrize(
    ("question", "group"),
    [
        ("will ADP pay for an insulin pump for my 40 yo T1?", ["Insulin Pump and Supplies for Adults"]),
        ("insulin pump for an 8 year old with T1D - ADP?", ["Insulin Pump and Supplies for Children"]),
        ("insulin pump for a 12yo", ["Insulin Pump and Supplies for Children"]),
        # no manual loaded sets the age between the groups: an age near it leaves both, and the tool asks which
        (
            "insulin pump for a 19 yo - ADP?",
            ["Insulin Pump and Supplies for Adults", "Insulin Pump and Supplies for Children"],
        ),
        (
            "insulin pump, pt had T1 for 30 years",
            ["Insulin Pump and Supplies for Adults", "Insulin Pump and Supplies for Children"],
        ),
    ],
)
def test_a_clear_age_names_the_group_of_a_category_split_by_age(question: str, group: list[str]) -> None:
    assert _decide(q=question).categories == group


def test_structured_fields_must_agree() -> None:
    agree = _decide(device={"category": "mobility", "type": "walker"})
    assert (agree.problem, agree.resolution.device_key) == (None, "walker")
    clash = _decide(device={"category": "hearing_devices", "type": "walker"})
    assert clash.problem == (
        "device.category names 'hearing_devices' but device.type names 'walker', which ADP funds under different "
        "categories."
    )
    question = _decide(q="does ADP cover a hearing aid?", device={"type": "walker"})
    assert question.problem is not None and question.problem.startswith("device.type names 'walker' but the question")


def test_unknown_and_not_a_category() -> None:
    unknown = _decide(device={"category": "spaceships"})
    assert unknown.problem == "'spaceships' is not an ADP device category."
    assert _decide(device={"category": "glucose_monitoring"}).problem == "no such category"
    assert _decide(device={"type": "hoverboard"}).problem == "No ADP device matches 'hoverboard'."
