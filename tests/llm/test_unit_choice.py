from __future__ import annotations

import json
from importlib import resources

from curbside.llm.extractive import age_group_terms, extractive_answer, passage_units, question_terms, terms
from curbside.llm.unit_choice import FEATURES, choice_features, load_unit_choice
from tests.llm.test_extractive import passage


def test_the_shipped_model_was_fitted_on_the_features_computed_today() -> None:
    # a feature added, dropped or reordered since the fit would silently fall back to the hand score
    data = json.loads(resources.files("curbside.llm").joinpath("unit_choice.json").read_text(encoding="utf-8"))
    assert tuple(data["features"]) == FEATURES
    assert len(data["weights"]) == len(data["mean"]) == len(data["scale"]) == len(FEATURES)
    model = load_unit_choice()
    assert model is not None and model.features == FEATURES


def test_a_patients_age_names_the_population_a_source_writes() -> None:
    assert age_group_terms("76M w social anxiety - luvox ok at his age?") == ["older"]
    assert age_group_terms("frail 88 yo starting an antidepressant") == ["older"]
    assert age_group_terms("4 yo back for an ear recheck") == ["child"]
    assert age_group_terms("15F with panic attacks") == ["adoles"]
    assert age_group_terms("34F, sertraline 50 mg, 20 mg of something") == []  # an adult; doses are not ages
    assert "older" in question_terms("82F on an AD 6 wks - do older pts take longer?")
    assert "older" in terms("Caution when using for older adults")


def test_an_ordinal_meets_the_word_a_guideline_writes() -> None:
    assert "second" in terms("failed 1st line SSRI - what's 2nd line?", question=True)
    assert "second" in terms("Second-line: duloxetine or buspirone.")


def test_features_are_one_row_per_unit_in_order() -> None:
    text = "Dosing\n\nInitial: 10-20 mg daily (hs)\n\nMax: 50 mg daily\n\nSide effects\n\nGI: nausea"
    drug = passage("cep", text, "Anxiety and Depression", "Management > Paroxetine (Paxil®)")
    units = passage_units(drug, 0, frozenset(), False)
    rows = choice_features("paroxetine max dose?", units, [0.9])
    assert len(rows) == len(units) and all(len(r) == len(FEATURES) for r in rows)
    assert choice_features("anything", [], []) == []


def test_the_chooser_orders_an_answer_and_every_unit_gets_its_chance() -> None:
    model = load_unit_choice()
    assert model is not None
    text = "Dosing\n\nInitial: 10-20 mg daily (hs)\n\nMax: 50 mg daily\n\nSide effects\n\nGI: nausea, vomiting"
    drug = passage("cep", text, "Anxiety and Depression", "Management > Paroxetine (Paxil®)")
    answer = extractive_answer("paxil max dose?", [drug], 4, chooser=model)
    assert "Max: 50 mg daily [1]" in answer.text
    assert all(s.choice is not None and 0.0 < s.choice < 1.0 for s in answer.candidates)
    assert extractive_answer("paxil max dose?", [drug], 4).candidates[0].choice is None  # no chooser: hand order
