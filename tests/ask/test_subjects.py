"""A word the knowledge base lacks names a subject it does not cover (a drug, a disease, a gene, a brand), or is a
plain word the documents say otherwise (ask/subjects.py, used by abstain.lacking_subjects and named.named_subject)."""

from __future__ import annotations

import pytest

from curbside.ask.abstain import lacking_subjects
from curbside.ask.subjects import english_word, names_subject
from curbside.clinical_words import clinical_form, drug_name, gene_like


@pytest.mark.parametrize(
    "word",
    [
        "lamotrigine",  # on the drug list
        "brexanolone",  # an INN stem (-olone), on no list
        "tivozanib",  # an INN stem (-anib)
        "cirrhosis",  # a disease by its ending
        "pancreatic",  # an organ by its root
        "macrophages",  # a cell by its ending, in the plural
        "samhd1",  # a gene: letters and digits
        "dexcom",  # no English word: a brand
        "stairlift",  # no dictionary word, and "stair" is not everyday enough to make it a run-together word
    ],
)
def test_a_missing_subject_still_withholds_the_answer(word: str) -> None:
    assert names_subject(word)
    assert lacking_subjects((word,)) == (word,)


@pytest.mark.parametrize(
    "word",
    [
        "intolerant",  # a dictionary word
        "frail",
        "sentinel",
        "lambs",  # the plural of a dictionary word
        "trialled",  # a doubled consonant before -ed
        "bloodwork",  # two everyday words run together
        "outgrew",  # "out" and an irregular past
    ],
)
def test_a_missing_plain_word_does_not_withhold_the_answer(word: str) -> None:
    assert english_word(word)
    assert not names_subject(word)
    assert lacking_subjects((word,)) == ()


def test_the_word_classes_are_told_apart_by_their_own_rule() -> None:
    assert drug_name("olanzapine") and drug_name("propranolol") and not drug_name("sentinel")
    assert not drug_name("titan")  # too short to end in a stem ("tan")
    assert clinical_form("colectomy") and clinical_form("hepatic") and not clinical_form("commode")
    assert gene_like("cd4") and gene_like("p53") and not gene_like("2010") and not gene_like("gene")


def test_of_a_mixed_question_only_the_subject_is_named() -> None:
    assert lacking_subjects(("frail", "nortriptyline")) == ("nortriptyline",)
    assert lacking_subjects(("bloodwork", "workup")) == ()
