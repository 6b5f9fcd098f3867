"""Symptoms in the patient's words meet the monographs' terms (the CEP page's side-effect lines)."""

from __future__ import annotations

import pytest

from curbside.llm.extractive import extractive_answer, terms
from curbside.llm.lay_terms import clinical_words
from curbside.types import Passage


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("pt on trintellix complaining of itchy skin - listed side effect?", "pruritus"),
        ("pt on effexor c/o pins and needles - listed side effect?", "paresthesia"),
        ("pregabalin for GAD - any lip/face swelling warning?", "angioedema"),
        ("ankle swelling after starting lyrica for GAD", "edema"),
        ("lightheaded when she stands up since starting her AD", "orthostatic"),
        ("depressed and barely sleeping - is mirtazapine a sensible pick?", "insomnia"),
        ("hard to get his urine stream going on fetzima", "hesitancy"),
        ("abilify augmentation and the pt can't sit still", "akathisia"),
        ("lyrica and double vision - is that a known SE?", "diplopia"),
        ("after-hours caller says her husband has a facial droop - what do we advise?", "stroke"),
        ("wife calls at night, husband can't lift his arm & speech slurred", "stroke"),
        ("68M w BPH on pristiq 50, now hesitant stream/trouble emptying - listed SE?", "retention"),
        ("68F on pregabalin for GAD says she's forgetful - listed?", "memory"),
        ("on lyrica and a bit unsteady on her feet", "ataxia"),
        ("BP 172/104, not yet on meds - ok to start fetzima?", "hypertension"),
    ],
)
def test_a_symptom_in_everyday_words_has_its_clinical_word(question: str, word: str) -> None:
    assert word in clinical_words(question.lower())


def test_words_that_name_no_symptom_add_nothing() -> None:
    for question in (
        "sertraline starting dose?",
        "does ADP fund a walker?",
        "swelling of the budget",
        "sleep study code",
        "bp 120/80 on ramipril",  # a normal reading names no hypertension
    ):
        assert clinical_words(question.lower()) == [], question


def test_the_side_effect_line_answers_the_symptom_in_everyday_words() -> None:
    # Venlafaxine (Effexor®) > Side effects, cep-anxiety-and-depression.html
    monograph = Passage(
        chunk_id="cep:v1:0",
        doc_key="cep",
        title="Anxiety and Depression",
        section_path="Venlafaxine (Effexor®) > Side effects",
        score=1.0,
        text="Venlafaxine (Effexor®) > Side effects\n\nUsual: 75 mg daily\n"
        "CNS: paresthesia, headache, sleep disturbance, drowsiness\nUrogenital: sexual dysfunction",
    )
    answer = extractive_answer("pt on venlafaxine c/o pins and needles - listed side effect?", [monograph], 1)
    assert answer.text.startswith("CNS: paresthesia")
    assert "parest" in terms("pins and needles", question=True)
