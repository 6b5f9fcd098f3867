"""Answers a clinician can trust (#13), on the real CEP anxiety-and-depression page: the fact from a
label line, the right condition's section, the evidence behind answering at all."""

from __future__ import annotations

import asyncio

from curbside.app import Curbside
from curbside.types import Answer, AskRequest


def ask(core: Curbside, question: str) -> Answer:
    return asyncio.run(core.asker.ask(AskRequest(question=question, use_llm=False)))


def test_a_dose_in_a_list_item_is_the_answer(make_core) -> None:
    answer = ask(make_core(), "sertraline starting dose?")
    assert answer.status == "answered"
    assert "Initial: 25-50 mg daily" in answer.answer
    assert "Sertraline" in (answer.citations[0].section_path or "")


def test_a_passage_about_the_other_condition_is_not_used_when_the_right_one_exists(make_core) -> None:
    answer = ask(make_core(), "how long to continue an antidepressant after remission of depression?")
    assert answer.status == "answered"
    paths = [c.section_path or "" for c in answer.citations]
    assert not any("> Anxiety >" in f"{p} >" for p in paths), paths
    assert any(fact in answer.answer for fact in ("6-12 months", "6-9 months")), answer.answer
    dropped = answer.metadata.get("off_subject")
    assert dropped and dropped[0]["heading"] == "Anxiety" and dropped[0]["named"] == "Depression"


def test_the_evidence_for_answering_is_recorded(make_core) -> None:
    answer = ask(make_core(), "amiodarone loading dose for atrial fibrillation?")
    evidence = answer.metadata["abstention"]
    assert "amiodarone" in evidence["unknown_words"]
    assert evidence["typed_answer"] == 0.0  # doses on the page are about other drugs
    if answer.status == "no_source":
        assert "'amiodarone'" in answer.answer and answer.citations == []


def test_the_outline_of_a_document_is_its_section_paths(make_core) -> None:
    core = make_core()
    version = core.documents.current("cep-anxiety-and-depression")
    assert version is not None
    paths = core.search_engine.outline("cep-anxiety-and-depression", version.version)
    assert any(p.endswith("Sertraline (Zoloft®)") for p in paths)
    assert len(paths) == len(set(paths))
    assert core.search_engine.outline("cep-anxiety-and-depression", version.version + 5) == []


def test_a_dose_found_only_under_another_drug_is_not_the_answer(make_core) -> None:
    # the CEP page names quetiapine once, in aripiprazole's side effects; its doses are other drugs'
    answer = ask(make_core(), "quetiapine dose as an add-on for depression?")
    assert answer.status == "no_source" and answer.citations == []
    assert "no dose for 'quetiapine'" in answer.answer
    assert answer.metadata["abstention"]["typed_answer"] == 0.0
    assert "guard" in answer.metadata["abstention"]


def test_an_adult_dose_is_not_the_answer_for_a_population_no_passage_mentions(make_core) -> None:
    answer = ask(make_core(), "escitalopram dose for a 15 year old with generalized anxiety?")
    assert answer.status == "no_source"
    assert "dose for adolescents" in answer.answer


def test_the_guards_leave_doses_the_page_gives_for_the_drug_and_population_asked(make_core) -> None:
    core = make_core()
    assert "Initial: 25-50 mg daily" in ask(core, "sertraline starting dose?").answer
    older = ask(core, "highest citalopram dose in an 80 year old?")  # the page: "20 mg in older adults"
    assert older.status == "answered" and "20 mg in older adults" in older.answer


def test_the_guards_are_off_with_abstention_but_their_verdict_is_recorded(make_core) -> None:
    # benchmarks/fit_abstention.py counts what each rule would withhold from one run with abstention off
    answer = ask(make_core(abstain=False), "quetiapine dose as an add-on for depression?")
    assert answer.status == "answered"
    assert answer.metadata["abstention"]["rule"] == "value_untyped"
    assert "no dose for 'quetiapine'" in answer.metadata["abstention"]["guard"]
    assert "relevance_margin" in answer.metadata["abstention"]["extra"]


def test_a_duration_found_only_for_other_conditions_is_not_the_answer(make_core) -> None:
    # the CEP page gives durations for depression and anxiety; it names PTSD once, in a list of comorbidities
    answer = ask(make_core(), "how long to continue an SSRI for PTSD?")
    assert answer.status == "no_source" and answer.citations == []
    assert "'ptsd'" in answer.answer and "time span" in answer.answer


def test_a_yes_no_question_is_not_answered_by_passages_that_never_name_its_subject(make_core) -> None:
    answer = ask(make_core(), "is ECT recommended for severe depression in older adults?")
    assert answer.status == "no_source" and answer.citations == []
    assert "No passage found mentions 'ect'" in answer.answer  # the subject check's reason, not "KB lacks ect"
    # a yes/no question whose subject the passages name is answered
    answered = ask(make_core(), "is breastfeeding linked to colorectal cancer risk?")
    assert answered.status == "answered" and answered.citations


def test_a_choosing_question_answered_from_one_drug_section_is_flagged(make_core) -> None:
    answer = ask(make_core(), "which SSRI is easiest to come off of?")
    assert answer.status == "answered"
    drawn = answer.metadata.get("one_option")
    assert drawn and drawn["parent"] == "First-line medication options", answer.metadata
    cited = {(c.section_path or "").rsplit(" > ", 1)[-1] for c in answer.citations}
    assert set(drawn["headings"]) <= cited
    assert any("does not compare them" in w for w in answer.warnings), answer.warnings


def test_a_question_naming_its_drug_gets_no_choice_warning(make_core) -> None:
    answer = ask(make_core(), "which sertraline dose to start at?")
    assert "one_option" not in answer.metadata
    assert not any("does not compare them" in w for w in answer.warnings), answer.warnings


def test_a_us_brand_is_answered_from_its_ingredients_card(make_core) -> None:
    # the CEP page names "Escitalopram (Cipralex®)", never Lexapro: the question is asked as escitalopram
    answer = ask(make_core(), "lexapro max dose?")
    assert answer.status == "answered", answer.answer
    assert answer.metadata["generic_names"] == {"lexapro": "escitalopram"}
    assert "Max: 20 mg daily" in answer.answer
    assert "Escitalopram" in (answer.citations[0].section_path or "")
