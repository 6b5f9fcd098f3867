from __future__ import annotations

import pytest

from curbside.search.enhance import ABBREVIATIONS, STOPWORDS, enhance_query, tokenize
from curbside.store.sqlite_indexes import fts_match_expression


def test_expands_whole_word_abbreviations() -> None:
    e = enhance_query("HTN in CKD")
    assert e.expanded == "HTN (hypertension) in CKD (chronic kidney disease)"
    assert e.original == "HTN in CKD"
    # lexical terms keep the abbreviation and add the expansion words
    assert e.terms == ["htn", "hypertension", "ckd", "chronic", "kidney", "disease"]


def test_broad_clinical_list() -> None:
    for abbr in ("HTN", "DM", "CKD", "CHF", "AF", "MI", "CAD", "CVA", "COPD", "PE", "DVT", "UTI", "GERD", "T2DM"):
        assert abbr in ABBREVIATIONS
        assert f"{abbr} (" in enhance_query(f"question about {abbr} today").expanded


@pytest.mark.parametrize(
    "query",
    ["mild symptoms", "Mild pain", "amid admission", "pedal edema", "after a fall", "dmard choice", "midline"],
)
def test_never_matches_inside_words(query: str) -> None:
    assert enhance_query(query).expanded == query


def test_digits_bind_tokens() -> None:
    # DM inside T2DM is not a separate abbreviation
    e = enhance_query("T2DM")
    assert e.expanded == "T2DM (type 2 diabetes mellitus)"
    assert "mellitus" in e.terms


def test_short_ambiguous_abbreviations_are_case_sensitive() -> None:
    assert enhance_query("af pe mi dm in a mild case").expanded == "af pe mi dm in a mild case"
    assert enhance_query("AF and PE").expanded == "AF (atrial fibrillation) and PE (pulmonary embolism)"
    # word-like acronyms expand only in capitals
    assert enhance_query("cad and cap").expanded == "cad and cap"
    assert "coronary artery disease" in enhance_query("CAD").expanded


def test_longer_unambiguous_abbreviations_match_any_case() -> None:
    assert enhance_query("htn and Copd").expanded == (
        "htn (hypertension) and Copd (chronic obstructive pulmonary disease)"
    )
    assert enhance_query("abx for UTIs").expanded == "abx (antibiotics) for UTIs (urinary tract infection)"


def test_hyphens_and_punctuation_separate_tokens() -> None:
    assert "HTN (hypertension)" in enhance_query("non-HTN, (CKD)").expanded
    assert "CKD (chronic kidney disease)" in enhance_query("non-HTN, (CKD)").expanded


def test_no_double_expansion() -> None:
    assert enhance_query("hypertension (HTN) target").expanded == "hypertension (HTN) target"
    assert enhance_query("HTN or HTN").expanded.count("hypertension") == 1


def test_terms_drop_stopwords_and_deduplicate() -> None:
    assert tokenize("What is the dose of the Metformin, metformin?") == ["dose", "metformin"]
    assert "what" in STOPWORDS
    assert enhance_query("what is the").terms == []
    assert enhance_query("?!... ---").terms == []


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced quote',
        "(hypertension AND kidney) OR NOT x",
        "NEAR(heart failure, 5)",
        "-ckd +htn hyper* col:umn ^start {a b}",
        "😀🫀 chest pain 💊",
        "高血压 治疗 и гипертония",
        "'; DROP TABLE chunks; --",
        "\\ \x00 \t\n",
    ],
)
def test_terms_survive_punctuation(query: str) -> None:
    e = enhance_query(query)
    for term in e.terms:
        assert term and all(ch.isalnum() for ch in term)
    # the FTS expression is made only of quoted terms
    expr = fts_match_expression(e.terms)
    assert all(part.startswith('"') and part.endswith('"') for part in expr.split(" OR ") if expr)


def test_non_latin_terms_kept() -> None:
    assert enhance_query("高血压 治疗").terms == ["高血压", "治疗"]


def test_specialty_hint() -> None:
    assert enhance_query("AF anticoagulation").specialties[0] == "cardiology"
    assert "nephrology" in enhance_query("HTN in CKD").specialties
    assert enhance_query("amoxicillin for pneumonia").specialties == ["infectious_disease"]
    assert enhance_query("banana bread recipe").specialties == []
    # "heartburn" is not "heart"
    assert "cardiology" not in enhance_query("heartburn at night").specialties


def test_mental_health_abbreviations() -> None:
    # the CEP anxiety-and-depression page spells these out; a clinician types the letters ("first line for GAD?")
    assert enhance_query("first line for GAD?").expanded == "first line for GAD (generalized anxiety disorder)?"
    assert enhance_query("SNRIs in PTSD").expanded == (
        "SNRIs (serotonin norepinephrine reuptake inhibitor) in PTSD (post-traumatic stress disorder)"
    )
    # "gad" is an ordinary word: the acronym expands only in capitals
    assert enhance_query("gad about").expanded == "gad about"
