"""What each domain tool is sent: its part of the question and its structured fields; bad input becomes a question."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from curbside.coverage.answer.intent import classify
from curbside.coverage.answer.models import CoverageAnswerArgs
from curbside.coverage.answer.routing import RoutingPlan, plan_calls


def plan(**args: Any) -> RoutingPlan:
    request = CoverageAnswerArgs(**args)
    return plan_calls(request, classify(request.question, request.hints))


def test_multi_domain_question_sends_each_tool_its_part() -> None:
    p = plan(
        question="patient discharged today on apixaban, needs a walker — what can I bill and what's covered?",
        patient={"income": 24000},
    )
    assert [(c.tool, c.arguments) for c in p.calls] == [
        ("schedule.get", {"q": "patient discharged today on apixaban; what can I bill and what's covered?"}),
        ("adp.get", {"q": "needs a walker; what's covered?", "patient_income": 24000.0}),
        ("odb.get", {"q": "patient discharged today on apixaban; what's covered?"}),
    ]
    assert [c.subjects for c in p.calls] == [(), ("walker",), ("apixaban",)]
    assert p.followups == [] and p.warnings == []


def test_fee_codes_from_hints_and_question_are_sent_once() -> None:
    p = plan(question="Can I bill C124 with E083?", hints={"codes": ["c124", "A007A"]})
    assert p.calls[0].arguments == {"q": "Can I bill C124 with E083?", "codes": ["C124", "A007", "E083"]}


def test_a_code_that_is_not_an_ohip_code_is_asked_about_not_sent() -> None:
    p = plan(question="Can I bill this as MRP?", hints={"codes": ["C12", "C124"]})
    assert p.calls[0].arguments["codes"] == ["C124"]
    assert [f.ask for f in p.followups] == [
        "Which fee code did you mean by 'C12'? OHIP fee codes are a letter and three digits, e.g. C124 or A007."
    ]
    assert p.followups[0].domain == "billing"


def test_hint_only_request_sends_the_hint_as_the_question() -> None:
    p = plan(question="", hints={"codes": ["C124"]})
    assert p.calls[0].arguments == {"q": "C124", "codes": ["C124"]}
    drug = plan(question="", hints={"drug": "Ozempic"})
    assert drug.calls[0].arguments == {"drug": "Ozempic"}


def test_device_hint_goes_structured_with_the_question() -> None:
    p = plan(question="What does ADP pay?", hints={"device": {"category": "mobility", "type": "walker"}})
    assert p.calls[0].arguments == {"q": "What does ADP pay?", "device": {"category": "mobility", "type": "walker"}}
    assert p.calls[0].subjects == ("walker",)


def test_device_hint_contradicting_itself_sends_the_type_and_asks() -> None:
    p = plan(question="Is it funded?", hints={"device": {"category": "comm_aids", "type": "walker"}})
    assert p.calls[0].arguments == {"q": "Is it funded?", "device": {"type": "walker"}}
    assert [f.ask for f in p.followups] == ["Is the device a walker (mobility), or a device of the comm_aids category?"]


def test_negative_income_is_not_sent_and_asked_about() -> None:
    p = plan(question="What does ADP pay for a power wheelchair?", patient={"income": -5000})
    assert "patient_income" not in p.calls[0].arguments
    assert p.followups[0].ask == "What is the patient's annual income? It was given as a negative amount."
    assert p.followups[0].reason.startswith("An income of -5,000.00 cannot be checked")


def test_long_questions_are_cut_to_the_tools_limit_at_a_word() -> None:
    question = "Is atorvastatin covered? " + "please " * 250
    sent = plan(question=question).calls[0].arguments["q"]
    assert len(sent) <= 1000 and sent.endswith("please") and sent.startswith("Is atorvastatin covered?")


def test_warming_coverage_answer_warms_the_tools_it_routes_to(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # cold, schedule.get's indexes took longer than its share of the call and the answer came from passages
    # alone: the tools coverage.answer calls warm up with it, outside its budget
    from curbside.app import Curbside
    from curbside.settings import Settings

    core = Curbside(Settings(home=home))
    try:
        warmed: list[list[str]] = []
        monkeypatch.setattr(type(core.tools), "warm_up", lambda self, names=None: warmed.append(sorted(names or [])))
        core.tools.registry.get("coverage.answer").warm_up()
        assert warmed == [["adp.get", "odb.get", "schedule.get"]]
    finally:
        core.close()


def test_a_billing_clause_naming_no_service_is_sent_with_the_whole_question() -> None:
    # the clause naming the drug names the service too; 'billable to OHIP?' alone finds nothing in the Schedule
    question = "injected a few cystic acne lesions with kenalog today - billable to OHIP?"
    request = CoverageAnswerArgs(question=question)
    intent = classify(question, None, lambda text: "Kenalog" if "kenalog" in text.lower() else None)
    calls = {c.tool: c.arguments for c in plan_calls(request, intent).calls}
    assert calls["schedule.get"] == {"q": "injected a few cystic acne lesions with kenalog today - billable to OHIP?"}
    assert calls["odb.get"]["q"] == "injected a few cystic acne lesions with kenalog today"


def test_the_loaded_schedules_words_say_which_names_are_services(coverage_app: Any) -> None:
    from curbside.coverage.answer.service_names import schedule_words

    lists = schedule_words(coverage_app.coverage_service("ohip"))
    assert lists is not None
    assert lists("discharge") and lists("Consultations")  # words of the loaded subset's code titles, any form
    assert not lists("contrave") and not lists("semaglutide")


def test_the_drug_a_billed_service_gives_is_sent_to_the_schedule() -> None:
    # G869 'Botulinum toxin injection(s) of bladder detrusor muscle': the clause naming the drug names the service
    request = CoverageAnswerArgs(question="uro - botox injections into the detrusor for refractory OAB. fee code?")
    intent = classify(request.question, lookup=lambda text: "Botox" if "botox" in text.lower() else None)
    calls = {c.tool: c.arguments["q"] for c in plan_calls(request, intent).calls}
    assert calls["schedule.get"] == "uro - botox injections into the detrusor for refractory OAB. fee code?"
    assert calls["odb.get"].startswith("uro - botox injections")
