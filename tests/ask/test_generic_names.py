"""A brand name the knowledge base never uses is asked as the ingredient it does use (ask/generic_names.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from curbside.ask.generic_names import generic_names, with_generic_names

# chunk frequencies of a knowledge base like the CEP page: it names escitalopram and Cipralex, never Lexapro
HELD = {"escitalopram": 3, "cipralex": 2, "dose": 40, "quetiapine": 1, "lisinopril": 1}


def frequencies(seen: list[list[str]]) -> Callable[[Sequence[str]], Mapping[str, int]]:
    def lookup(words: Sequence[str]) -> Mapping[str, int]:
        seen.append(list(words))
        return {w: HELD[w] for w in words if w in HELD}

    return lookup


def test_a_brand_the_knowledge_base_lacks_is_asked_as_its_ingredient() -> None:
    names = generic_names("Lexapro max dose?", frequencies([]))
    assert names == [("Lexapro", "escitalopram")]
    assert with_generic_names("Lexapro max dose? lexapro or not", names) == "escitalopram max dose? lexapro or not"


def test_a_brand_the_knowledge_base_uses_stays() -> None:
    seen: list[list[str]] = []
    assert generic_names("Cipralex max dose?", frequencies(seen)) == []
    assert seen == [["cipralex", "dose"]]  # every word known: one look, and the lexicon is not consulted


def test_an_ingredient_the_knowledge_base_lacks_too_changes_nothing() -> None:
    # 'Ubrelvy' is ubrogepant, which the knowledge base never names either: the question stays as written
    assert generic_names("is Ubrelvy safe with an SSRI?", frequencies([])) == []


def test_a_combination_brand_names_no_one_ingredient() -> None:
    # 'Zestoretic' is lisinopril with hydrochlorothiazide: asking about lisinopril alone would answer another drug
    assert generic_names("Zestoretic starting dose?", frequencies([])) == []
