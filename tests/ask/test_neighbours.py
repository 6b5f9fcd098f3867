from __future__ import annotations

from curbside.ask.neighbours import with_neighbours
from curbside.llm.extractive import extractive_answer
from curbside.types import Passage

PATH = "Resources > Crisis lines"


def chunk(ordinal: int, body: str, *, path: str = PATH, relevance: float | None = None) -> Passage:
    return Passage(
        chunk_id=f"cep:v1:{ordinal}", doc_key="cep", title="CEP", section_path=path, score=0.0,
        relevance=relevance, text=f"CEP > {path}\n\n{body}",
    )  # fmt: skip


FIRST = chunk(4, "Crisis Line: 1-866-996-0991 (all ages) open 24/7\nMental Health Helpline: 1-866-531-2600")
REST = chunk(5, "Good2Talk: 1-866-925-5454 (post-secondary students)\n9-8-8 Suicide Crisis Helpline: open 24/7")
OTHER = chunk(9, "Sertraline is started at 25-50 mg daily.", path="Management > Sertraline", relevance=0.3)
TABLE = {5: [FIRST], 4: [REST], 9: []}


def neighbours(p: Passage) -> list[Passage]:
    return TABLE[int(p.chunk_id.rsplit(":", 1)[1])]


def test_a_hit_brings_the_chunk_before_it_in_its_section_with_its_relevance() -> None:
    hit = REST.model_copy(update={"relevance": 0.66})
    pool = with_neighbours([hit, OTHER], neighbours)
    assert [p.chunk_id for p in pool] == ["cep:v1:5", "cep:v1:9", "cep:v1:4"]
    assert pool[2].relevance == 0.66


def test_only_the_first_hits_bring_neighbours_and_none_twice() -> None:
    hit = REST.model_copy(update={"relevance": 0.66})
    assert [p.chunk_id for p in with_neighbours([OTHER, hit], neighbours, first=1)] == ["cep:v1:9", "cep:v1:5"]
    both = with_neighbours([FIRST, REST], neighbours)
    assert [p.chunk_id for p in both] == ["cep:v1:4", "cep:v1:5"]


def test_the_answer_quotes_the_neighbour_and_cites_only_what_it_quotes() -> None:
    question = "24/7 crisis line I can give any age pt in Ontario?"
    hit = REST.model_copy(update={"relevance": 0.66})
    alone = extractive_answer(question, [hit, OTHER], 3)
    assert "1-866-996-0991" not in alone.text
    answer = extractive_answer(question, with_neighbours([hit, OTHER], neighbours), 3)
    assert "Crisis Line: 1-866-996-0991 (all ages) open 24/7" in answer.text
    # cited: the passages a chosen unit comes from, each with the units quoted from it
    assert all(c.excerpt and c.excerpt in answer.text.replace(" [1]", "").replace(" [2]", "") for c in answer.citations)
    assert len(answer.citations) == len({s.rank for s in answer.sentences})
    assert "sertraline" not in answer.text.lower()
