"""The extractive answer on real BioASQ snippets (``../shared/data/retrieval/bioasq-snippets-dev``): PubMed
sentences and titles as they come, each a passage of its own, in the order search ranked them for the question."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from curbside.llm.extractive import extractive_answer
from curbside.types import Passage


@cache
def _corpus(path: Path) -> dict[str, str]:
    with path.open(encoding="utf-8") as handle:
        return {row["_id"]: row["text"] for row in map(json.loads, handle)}


@pytest.fixture
def snippets(shared_data: Path):
    corpus = _corpus(shared_data / "retrieval/bioasq-snippets-dev/corpus.jsonl")

    def passages(*ids: str) -> list[Passage]:
        return [
            Passage(chunk_id=f"{i}:v1:0", doc_key=i, title="", section_path="", score=1.0, text=corpus[i]) for i in ids
        ]

    return passages


def test_a_sentence_answers_through_the_lead_in_before_it(snippets) -> None:
    # "Contrary to long-held dogma, human milk is not sterile. Instead, it provides … Staphylococcus,
    # Streptococcus, and Pseudomonas genera." The question's words are in the first sentence, the answer in
    # the second: the second is read with the first as its context, as a list item is with its heading
    passages = snippets("Sa6e797382a92", "S874fd43676f8")
    answer = extractive_answer("What are the 3 main bacteria found in human milk?", passages, 4)
    assert "Staphylococcus, Streptococcus, and Pseudomonas" in answer.text
    assert answer.text.index("human milk is not sterile") < answer.text.index("Staphylococcus")


def test_units_sharing_the_question_words_are_repeats_only_if_they_add_the_same(snippets) -> None:
    # both name "fatty acid binding protein 2"; what each adds differs ("… gene" / "intestinal epithelial cells")
    passages = snippets("Scbe22322aba0", "S8ee0f4e9a2ae", "S5e570ecfb5dd")
    answer = extractive_answer("Where is fatty acid binding protein 2 expressed?", passages, 4)
    assert "intestinal epithelial cells" in answer.text
    assert "human intestinal fatty acid binding protein 2 gene (FABP2)" in answer.text
    same = snippets("S8ee0f4e9a2ae", "S8ee0f4e9a2ae")
    assert len(extractive_answer("Where is fatty acid binding protein 2 expressed?", same, 4).sentences) == 1


def test_a_short_title_like_line_that_heads_nothing_is_an_answer(snippets) -> None:
    # a whole snippet of five words without a full stop (an article title): no line follows for it to head
    answer = extractive_answer("What organism causes Rhombencephalitis?", snippets("S099980b08f08"), 4)
    assert answer.text == "Rhombencephalitis caused by Listeria monocytogenes [1]"
