"""Names the formulary does not hold (coverage/odb/unlisted.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from curbside import drug_lexicon
from curbside.coverage.odb.unlisted import class_of, drug_names, missing_combination, missing_drugs, unlisted_names


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("is Wegovy covered by ODB for obesity?", ["Wegovy"]),
        ("does ODB cover Mounjaro?", ["Mounjaro"]),
        ("is orlistat (Xenical) covered under ODB?", ["orlistat", "Xenical"]),
        ("is the formulary covering my patient's diabetes pills?", []),  # English words, ODB's own words
    ],
)
def test_rare_words_are_the_names_asked_about(question: str, names: list[str]) -> None:
    assert unlisted_names(question) == names


def test_a_class_from_an_inn_stem() -> None:
    assert class_of(["Saxenda", "liraglutide"]) == "glp1"
    assert class_of(["Wegovy"]) is None


def test_the_lexicon_knows_brands_and_their_ingredients() -> None:
    assert drug_lexicon.ingredient_of("Ubrelvy") == "ubrogepant"
    assert drug_lexicon.ingredient_of("Leqvio") == "inclisiran"
    assert drug_lexicon.ingredient_of("wheelchair") is None


def test_a_drug_english_uses_a_little_is_a_name_and_a_class_word_is_not() -> None:
    # 'phentermine' has a Zipf frequency of 2.0: rarity alone did not make it a name
    assert unlisted_names("is qsymia (phentermine/topiramate) covered?") == ["qsymia", "phentermine", "topiramate"]
    assert drug_names("pt's triptans aren't working, is Ubrelvy covered by ODB?") == ["Ubrelvy"]
    assert drug_names("which statins are covered?") == []


def _listed(*names: str) -> Callable[[str], bool]:
    return lambda name: name.lower() in names


def test_missing_drugs_are_the_named_drugs_the_formulary_lacks() -> None:
    resolves = _listed("atorvastatin", "topiramate")
    assert missing_drugs("statins aren't working for him, is Leqvio covered?", resolves) == ["Leqvio"]
    # a close spelling of a listed ingredient is the index's to read ('atorvastatine', the French INN)
    assert missing_drugs("is atorvastatine covered?", resolves) == []


def test_a_combination_with_an_unlisted_part_is_not_its_listed_part() -> None:
    resolves = _listed("topiramate")
    assert missing_combination("is qsymia (phentermine/topiramate) covered?", resolves) == ["qsymia", "phentermine"]
    assert missing_combination("is topiramate covered for migraine?", resolves) == []


def test_a_hyphenated_pair_of_listed_drugs_not_listed_together_is_not_listed() -> None:
    # Auvelity is dextromethorphan with bupropion; each is listed alone (formulary edition 43), the pair is not
    resolves = _listed("dextromethorphan", "bupropion")
    question = "TRD pt, psych suggests auvelity (dextromethorphan-bupropion) - covered on ODB?"
    assert missing_combination(question, resolves, lambda a, b: False) == ["auvelity"]
    assert missing_combination(question, resolves, lambda a, b: True) == []  # listed as one product: found whole
    assert missing_combination("perindopril-amlodipine?", _listed("perindopril", "amlodipine"), lambda a, b: False) == [
        "perindopril/amlodipine"
    ]
    # a maker's prefix is no drug: 'Apo-Atorvastatin' is atorvastatin
    assert missing_combination("is Apo-Atorvastatin covered?", _listed("atorvastatin"), lambda a, b: False) == []


def test_drugs_joined_by_a_plus_may_be_two_drugs_tried() -> None:
    # 'metoclopramide + haldol' are the anti-emetics that failed, each listed alone: no combination is asked
    question = "palliative pt, nausea not controlled on metoclopramide + haldol - ondansetron ODT on ODB? LU code?"
    resolves = _listed("metoclopramide", "haldol", "ondansetron")
    assert missing_combination(question, resolves, lambda a, b: False) == []


def test_a_drug_class_tried_beside_a_plain_word_names_no_combination() -> None:
    # 'antihistamines + nasal steroid' are what failed; Oralair (DIN 02381893, LU 451 in edition 43) is asked
    question = "grass pollen rhinitis failed antihistamines + nasal steroid, starting Oralair 300IR SL tabs. DIN + LU?"
    assert missing_combination(question, _listed("oralair"), lambda a, b: False) == []
