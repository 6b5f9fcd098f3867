"""A drug the knowledge base never names, asked as the class it does name (#13): ``ask/drug_classes.py``."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from curbside.ask.drug_classes import class_warning, drug_classes, with_drug_classes
from curbside.clinical_words import STEM_CLASSES
from curbside.coverage.odb.words import CLASS_NAMES, CLASS_STEMS
from curbside.types import AskRequest

# the shipped hypertension sample: "a thiazide or thiazide-like diuretic, an ACE inhibitor, an angiotensin receptor
# blocker (ARB), or a long-acting dihydropyridine calcium channel blocker"; no drug named
HELD = {
    "dihydropyridine calcium channel blocker": 1,
    "calcium channel blocker": 1,
    "ace inhibitor": 1,
    "thiazide-like diuretic": 1,
    "benzodiazepine": 4,
    "first": 9,
}


def held(words: Sequence[str]) -> Mapping[str, int]:
    return {w: HELD.get(w.lower(), 0) for w in words}


def test_a_drug_is_read_as_its_class_by_its_inn_stem() -> None:
    (found,) = drug_classes("amlodipine ok as first drug for HTN?", held)
    assert (found.written, found.ingredient, found.stem, found.name) == (
        "amlodipine",
        "amlodipine",
        "dipine",
        "dihydropyridine calcium channel blocker",
    )
    assert with_drug_classes("amlodipine ok as first drug?", [found]) == (
        "dihydropyridine calcium channel blocker ok as first drug?"
    )
    (ace,) = drug_classes("61F on ramipril needs a 2nd agent", held)
    assert ace.name == "ACE inhibitor"
    assert "as an ACE inhibitor (INN stem -pril)" in class_warning([ace])
    (diuretic,) = drug_classes("is indapamide ok 1st line?", held)
    assert diuretic.name == "thiazide-like diuretic"


def test_a_brand_is_read_by_its_ingredient() -> None:
    (found,) = drug_classes("starting Ativan short term - anything re driving?", held)
    assert (found.written, found.ingredient, found.name) == ("Ativan", "lorazepam", "benzodiazepine")


def test_the_class_table_is_shared_and_keeps_look_alike_stems_apart() -> None:
    beta = {"beta blocker": 2}
    (found,) = drug_classes("carvedilol in HFrEF - first line?", lambda ws: {w: beta.get(w.lower(), 0) for w in ws})
    assert (found.stem, found.name) == ("ilol", "beta blocker")  # -ilol, as -olol, names a beta blocker
    ppi = {"proton pump inhibitor": 5}
    # aripiprazole ends in '-prazole' but its stem is '-piprazole', a psychotropic: no class is asked
    assert drug_classes("aripiprazole augmentation?", lambda ws: {w: ppi.get(w.lower(), 0) for w in ws}) == []
    assert STEM_CLASSES["ppi"].holds("pantoprazole") and not STEM_CLASSES["ppi"].holds("aripiprazole")
    # the ODB tool reads the same table for the classes whose stem names every listed member
    assert CLASS_STEMS["betablocker"] == STEM_CLASSES["betablocker"].stems and "profen" not in CLASS_STEMS
    assert CLASS_NAMES["ppi"] == "proton pump inhibitor"


def test_nothing_is_replaced_where_the_drug_or_no_class_is_held() -> None:
    assert drug_classes("amlodipine dose?", lambda ws: {w: 3 for w in ws}) == []  # the drug itself is held
    assert drug_classes("atorvastatin for LDL?", held) == []  # no chunk says 'statin'
    assert drug_classes("quinine regimen?", held) == []  # no stem of a class
    assert drug_classes("april follow-up?", held) == []  # no drug
    # a dose or a strength is the drug's own: the class's words would answer another question
    assert drug_classes("norvasc 5 or 10 mg to start in new htn?", held) == []
    assert drug_classes("what dose of lorazepam for panic?", held) == []


def test_ask_answers_a_question_about_a_member_from_the_class_and_says_so(make_core) -> None:
    core = make_core()
    answer = asyncio.run(
        core.asker.ask(
            AskRequest(
                question="58M new HTN, no compelling indications - is nifedipine XL ok as the first drug?",
                use_llm=False,
            )
        )
    )
    assert answer.status == "answered"
    assert "dihydropyridine calcium channel blocker" in answer.answer
    assert answer.metadata["drug_classes"] == {"nifedipine": "dihydropyridine calcium channel blocker"}
    assert any("never names nifedipine" in w for w in answer.warnings)
