"""What the abstention evidence makes of a question's words, on the real knowledge base of tests/ask (the CEP
page, the PMC articles, the samples): a word the documents write another way is known, a common English word
they never use is no evidence, and the words of the asking are not key words."""

from __future__ import annotations

import asyncio

from curbside.app import Curbside
from curbside.ask.abstain import common_in_english, family, key_words, resolve_unknown, spellings
from curbside.llm.extractive import answer_kind
from curbside.types import AskRequest


def _resolved(core: Curbside, question: str) -> tuple[dict[str, str], dict[str, int]]:
    engine = core.search_engine
    keys = key_words(question)
    frequencies, _ = engine.word_frequencies(list(keys))
    return resolve_unknown(keys, frequencies, lambda words, prefix: engine.word_frequencies(words, prefix=prefix)[0])


def test_words_the_documents_write_another_way_are_known(make_core) -> None:
    core = make_core()
    # the EPIC article writes "post-menopausal"; the phage article writes "λ"
    keys, frequencies = _resolved(core, "does the pill lower colorectal cancer risk in postmenopausal women?")
    assert frequencies["postmenopausal"] > 0
    keys, frequencies = _resolved(core, "how does mean lysis time relate to its standard deviation in phage lambda?")
    assert frequencies["lambda"] > 0
    assert "λ" in spellings("lambda") and "post menopausal" in spellings("postmenopausal")


def test_another_ending_of_a_long_word_is_known_but_not_a_shorter_relative(make_core) -> None:
    core = make_core()
    assert family("atherosclerosis") == "atheroscler" and family("visualise") == "visual"
    assert family("methylphenidate") == "methylpheni"  # never "methyl": a long word keeps most of itself
    assert family("atrial") is None  # six letters: nothing shorter to share
    keys, frequencies = _resolved(core, "methylphenidate starting dose for a child with ADHD?")
    assert frequencies["methylphenidate"] == 0  # the knowledge base has methylation, not methylphenidate


def test_a_common_english_word_the_documents_never_use_is_no_evidence(make_core) -> None:
    core = make_core()
    keys, frequencies = _resolved(core, "patient already bought an antidepressant abroad, safe to keep taking it?")
    assert common_in_english("bought") and "bought" not in keys
    keys, frequencies = _resolved(core, "amiodarone loading dose for atrial fibrillation?")
    assert not common_in_english("amiodarone")
    assert frequencies["amiodarone"] == 0 and "amiodarone" in keys


def test_the_words_of_the_asking_are_not_key_words() -> None:
    assert "long" not in key_words("how long to continue an antidepressant after remission of depression?")
    assert "much" not in key_words("how much is the ADP grant for insulin pump supplies?")
    assert set(key_words("how long must a disability last to qualify for ADP?")) == {
        "disability",
        "last",
        "qualify",
        "adp",
    }


def test_a_time_span_in_words_is_a_time_span() -> None:
    shows = answer_kind("how long must a disability last to qualify?")
    assert shows is not None
    assert shows.search("requiring the use of a Device for six months or longer")
    assert shows.search("within thirty (30) days of the decision")
    assert not shows.search("one of the devices")


def test_the_abstention_evidence_is_recorded_with_the_resolved_words(make_core) -> None:
    answer = asyncio.run(
        make_core().asker.ask(
            AskRequest(question="does the pill lower colorectal cancer risk in postmenopausal women?", use_llm=False)
        )
    )
    evidence = answer.metadata["abstention"]
    assert evidence["unknown_words"] == [] and evidence["unknown"] == 0.0
    assert "subject_in_answer" in evidence
    assert answer.status == "answered"
