"""British and American spellings meet (#14): the Schedule writes 'Haemoglobin' (G481, J66), clerks 'hemoglobin'."""

from __future__ import annotations

from curbside.coverage.ohip.query import WordIndex, inflection_stem, stem
from curbside.coverage.ohip.spelling import american


def test_british_forms_take_the_american_spelling_and_other_words_stay() -> None:
    pairs = {
        "haemoglobin": "hemoglobin",
        "anaesthetic": "anesthetic",
        "paediatric": "pediatric",
        "oesophagus": "esophagus",
        "gynaecology": "gynecology",
        "oedema": "edema",
        "diarrhoea": "diarrhea",
        "tumour": "tumor",
        "centre": "center",
    }
    assert {word: american(word) for word in pairs} == pairs
    for word in ("four", "hour", "your", "procedure", "measure", "are", "aerobic", "acre"):
        assert american(word) == word


def test_a_question_in_american_spelling_finds_the_title_in_british() -> None:
    index = WordIndex([("G481", "Haemoglobin screen and/or haematocrit", ""), ("G039", "Creatinine", "")])
    assert index.match([stem("hemoglobin")], 2) == [("G481", index.match([stem("hemoglobin")], 1)[0][1])]
    assert stem("Haematocrit") == stem("hematocrit")
    assert inflection_stem("paeds") == "paed"  # a short form keeps the Schedule's spelling ('Paediatrics')
