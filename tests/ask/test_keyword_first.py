"""The keyword retriever's first passage, just under the similarity threshold, joins the passages read (#13)."""

from __future__ import annotations

from curbside.ask.abstain import coverage_terms, key_words
from curbside.ask.keyword_first import quoted_or_found, with_keyword_first
from curbside.llm.extractive import extractive_answer
from curbside.types import Passage


def chunk(ordinal: int, path: str, body: str, lexical_rank: int | None = None) -> Passage:
    return Passage(
        chunk_id=f"doc:v1:{ordinal}", doc_key="doc", title="Guide", section_path=path, score=0.0,
        text=f"Guide > {path}\n\n{body}", lexical_rank=lexical_rank,
    )  # fmt: skip


SUICIDE = chunk(
    1,
    "Screen for risk of suicide",
    "Let the patient know that we have a legal obligation to report if they are in danger (document that you have "
    "mentioned this to the patient).",
    lexical_rank=1,
)
ORAL_HEALTH = chunk(2, "Discussion", "Convergent validity was indicated by the self-reported oral health status.")
MALARIA = chunk(3, "", "In the first trimester of pregnancy, artemether-lumefantrine is recommended.")
TRINTELLIX = chunk(
    4, "Vortioxetine (Trintellix®)", "Usual: 10-20 mg daily. Coverage: ODB; NIHB", lexical_rank=1
)  # fmt: skip


def read(question: str, hits: list[Passage], near: list[Passage], subject: set[str]) -> list[str]:
    keys = key_words(question)
    return [p.chunk_id for p in with_keyword_first(hits, near, keys, subject, coverage_terms)]


def test_the_keyword_first_passage_joins_the_passages_found() -> None:
    question = "suicidal pt, I must report - do I chart that I told him?"
    assert read(question, [ORAL_HEALTH], [ORAL_HEALTH, SUICIDE], set()) == ["doc:v1:2", "doc:v1:1"]
    # already among them, or none within the margin: the passages found stand
    assert read(question, [SUICIDE, ORAL_HEALTH], [SUICIDE], set()) == ["doc:v1:1", "doc:v1:2"]
    assert read(question, [ORAL_HEALTH], [ORAL_HEALTH], set()) == ["doc:v1:2"]


def test_it_replaces_passages_lacking_the_subject_it_holds_with_another_word_asked() -> None:
    question = "trintellix usual dose?"
    subject = set(key_words("trintellix").values())
    assert read(question, [MALARIA], [MALARIA, TRINTELLIX], subject) == ["doc:v1:4"]


def test_holding_the_subject_alone_it_is_not_what_was_asked() -> None:
    # the Trintellix card never speaks of pregnancy: the malaria sample's pregnancy line stays the only passage,
    # and the guards withhold it for never naming trintellix
    question = "is trintellix ok in pregnancy?"
    subject = set(key_words("trintellix").values())
    assert read(question, [MALARIA], [MALARIA, TRINTELLIX], subject) == ["doc:v1:3"]


def test_a_joined_passage_is_evidence_only_when_the_answer_quotes_it() -> None:
    found = {ORAL_HEALTH.chunk_id}
    hits = [ORAL_HEALTH, SUICIDE]
    quoting = extractive_answer("must I chart that I told him I have to report?", hits, 2).sentences
    assert {u.rank for u in quoting} == {1}  # the answer is the suicide passage's line
    assert [p.chunk_id for p in quoted_or_found(hits, found, quoting, hits)] == ["doc:v1:2", "doc:v1:1"]
    elsewhere = extractive_answer("self-reported oral health status validity?", hits, 1).sentences
    assert {u.rank for u in elsewhere} == {0}
    assert [p.chunk_id for p in quoted_or_found(hits, found, elsewhere, hits)] == ["doc:v1:2"]
    # a passage that replaced all the passages found stays whatever is quoted
    assert [p.chunk_id for p in quoted_or_found([SUICIDE], found, elsewhere, [SUICIDE])] == ["doc:v1:1"]
