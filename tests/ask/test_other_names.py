"""A question may name its subject as the documents do not: a plain short word ("bump up", "mat leave"), a Greek
letter spelled out ("phiX174" for "ΦX174"), a name written joined to its variant ("OHIP" for "OHIP-NL") or a
name with its other name in brackets ("orlistat (THL)"). None of these is a subject the knowledge base lacks."""

from __future__ import annotations

import asyncio

from curbside.ask.abstain import abbreviation, aliases, bracket_names, could_name_subject, holds_term, key_words
from curbside.ask.named import unnamed
from curbside.llm.extractive import answer_kind
from curbside.types import AskRequest

THL = "These two values were however slightly higher than those found for THL (20 and 7.5 µg/mL, respectively)."


def test_a_short_everyday_word_is_no_abbreviation() -> None:
    for word in ("bump", "mat", "tabs"):  # "bump up the dose", "mat leave", "remeron tabs"
        assert not abbreviation(word) and not could_name_subject(word)
    for word in ("ect", "cpap", "wsib", "afo", "crcl"):  # what a source may write out, or lack
        assert abbreviation(word) and could_name_subject(word)


def test_a_name_and_its_other_name_in_brackets_are_one_subject() -> None:
    question = "what MIC did orlistat (THL) reach against M. tuberculosis?"
    assert bracket_names(question) == {"orlistat": "thl", "thl": "orlistat"}
    assert aliases(question, {key_words(question)["orlistat"]}) == {"thl"}
    shows = answer_kind(question)
    assert unnamed(["orlistat"], [THL], shows) == ("orlistat",)
    assert unnamed(["orlistat"], [THL], shows, bracket_names(question)) == ()


def test_a_name_written_joined_to_its_variant_holds_the_name() -> None:
    assert holds_term({"ohipnl", "49"}, {"ohip"})
    assert not holds_term({"ohipnl"}, {"epic"})


def _ask(make_core, question: str):  # type: ignore[no-untyped-def]
    return asyncio.run(make_core().asker.ask(AskRequest(question=question, use_llm=False)))


def test_a_count_stated_for_a_phage_the_question_spells_in_latin_letters_is_answered(make_core) -> None:
    # the article writes "ΦX174"; the count it gives is about that phage, not something else
    answer = _ask(make_core, "for how many generations were the phiX174 populations evolved?")
    assert answer.status == "answered"
    assert "generations" in answer.answer


def test_a_count_stated_for_the_dutch_ohip_is_about_ohip(make_core) -> None:
    answer = _ask(make_core, "how many OHIP questions make up the functional limitation domain?")
    assert answer.status == "answered"
    assert "9" in answer.answer
