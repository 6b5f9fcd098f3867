"""The second look below the relevance threshold (ask/below_threshold.py) and its place in ``ask``."""

from __future__ import annotations

import asyncio

from curbside.ask.below_threshold import (
    agreed_near_threshold,
    best_key_share,
    best_unit_cosine,
    close_in_meaning,
    holds_key_words,
)
from curbside.types import AskRequest, Passage

DEPRESSION = "What are the first-line medication options for depression?"
OFF_TOPIC = "how do I change the oil in a diesel car engine?"


def passage(n: int, section: str, body: str) -> Passage:
    return Passage(
        chunk_id=f"doc:v1:{n}",
        doc_key="doc",
        title="Guide",
        section_path=section,
        score=1.0,
        text=f"{section}\n\n{body}",
    )


KEYS = {"sertraline": "sertra", "qtc": "qtc", "dose": "dose"}
IDF = {"sertraline": 4.0, "qtc": 5.0, "dose": 1.0}


def test_share_is_of_the_best_single_passage_not_of_the_passages_together() -> None:
    drug = passage(1, "Sertraline", "Usual dose 50 mg daily.")
    heart = passage(2, "Cardiac safety", "QTc prolongation is rare.")
    # together they hold every key word, but neither holds the rare pair
    assert best_key_share(KEYS, IDF, [drug, heart]) == (4.0 + 1.0) / 10.0
    both = passage(3, "Sertraline", "No dose change is needed for QTc prolongation.")
    assert best_key_share(KEYS, IDF, [drug, heart, both]) == 1.0


def test_words_the_knowledge_base_never_has_are_held_by_no_passage() -> None:
    # 'how do I change the oil in a diesel car engine?': 'oil', 'diesel', 'car', 'engine' are in no chunk and the
    # guards drop them as plain English; 'change' alone is held by any passage, but not 1 of the 5 words' weight
    keys, idf = {"change": "change"}, {"change": 2.0}
    care = passage(1, "Follow-up", "Follow-up within 1-2 weeks of each dose change.")
    assert best_key_share(keys, idf, [care]) == 1.0
    assert best_key_share(keys, idf, [care], lacking=4) == 2.0 / (2.0 + 4 * 2.0)
    assert best_key_share({}, {}, [care], lacking=2) == 0.0


def test_the_heading_counts_as_part_of_the_passage() -> None:
    assert best_key_share(KEYS, IDF, [passage(1, "Sertraline > QTc", "Usual dose 50 mg daily.")]) == 1.0


def test_no_passage_holds_nothing() -> None:
    assert best_key_share(KEYS, IDF, []) == 0.0


def test_the_second_look_is_off_without_a_share() -> None:
    assert not holds_key_words(1.0, None)
    assert holds_key_words(0.8, 0.8)
    assert not holds_key_words(0.79, 0.8)


def ask(core: object, question: str):  # type: ignore[no-untyped-def]
    return asyncio.run(core.asker.ask(AskRequest(question=question, use_llm=False)))  # type: ignore[attr-defined]


def test_passages_below_the_threshold_answer_when_they_hold_the_key_words(make_core) -> None:
    # a threshold no passage passes: today's behaviour withholds, the second look answers from the guideline
    assert ask(make_core(min_similarity=0.999, ask_below_threshold_key_share=None), DEPRESSION).status == "no_source"
    answer = ask(make_core(min_similarity=0.999, ask_below_threshold_key_share=0.5), DEPRESSION)
    assert answer.status == "answered"
    assert answer.citations and all(c.doc_key == "cep-anxiety-and-depression" for c in answer.citations)
    floor = answer.metadata["relevance_floor"]
    assert floor["accepted"] and floor["key_share"] >= 0.5 and floor["top_similarity"] < 0.999


def test_passages_below_the_threshold_without_the_key_words_are_withheld(make_core) -> None:
    answer = ask(make_core(min_similarity=0.999, ask_below_threshold_key_share=0.5), OFF_TOPIC)
    assert answer.status == "no_source"
    floor = answer.metadata["relevance_floor"]
    assert not floor["accepted"] and floor["key_share"] < 0.5


def test_off_in_the_environment_turns_the_second_look_off(monkeypatch, tmp_path) -> None:
    from curbside.settings import Settings

    monkeypatch.setenv("CURBSIDE_ASK_BELOW_THRESHOLD_KEY_SHARE", "off")
    assert Settings(home=tmp_path).ask_below_threshold_key_share is None
    monkeypatch.setenv("CURBSIDE_ASK_BELOW_THRESHOLD_KEY_SHARE", "0.5")
    assert Settings(home=tmp_path).ask_below_threshold_key_share == 0.5


def test_the_best_unit_cosine_is_over_the_units_the_answerer_cuts() -> None:
    dosing = passage(1, "Sertraline", "Initial: 25-50 mg daily\nMax: 200 mg daily")
    cosines = {"Initial: 25-50 mg daily": 0.91, "Max: 200 mg daily": 0.86}
    seen: list[list[str]] = []

    def meaning(texts: list[str]) -> list[float | None]:
        seen.append(texts)
        return [cosines.get(t) for t in texts]

    assert best_unit_cosine("sertraline starting dose?", [dosing], meaning) == 0.91
    assert set(seen[0]) == set(cosines)
    assert best_unit_cosine("sertraline starting dose?", [dosing], lambda texts: [None] * len(texts)) == 0.0
    assert best_unit_cosine("sertraline starting dose?", [], meaning) == 0.0


def test_closeness_in_meaning_is_off_without_a_cosine() -> None:
    assert not close_in_meaning(0.99, None)
    assert close_in_meaning(0.88, 0.88)
    assert not close_in_meaning(0.879, 0.88)


PARAPHRASE = "which pills do you try first for low mood?"


def test_passages_below_the_threshold_answer_when_a_unit_is_close_in_meaning(make_core) -> None:
    # the key-word share alone keeps nothing here (a share of 1.0 is asked for); a unit close in meaning does
    strict = {"min_similarity": 0.999, "ask_below_threshold_key_share": 1.0}
    withheld = ask(make_core(**strict), PARAPHRASE)
    assert withheld.status == "no_source" and not withheld.metadata["relevance_floor"]["accepted"]
    answer = ask(make_core(**strict, ask_below_threshold_unit_cosine=0.5), PARAPHRASE)
    floor = answer.metadata["relevance_floor"]
    assert floor["accepted"] and floor["key_share"] < 1.0 and floor["unit_cosine"] >= 0.5
    assert answer.status == "answered" and answer.citations
    # the answer units' meaning cosines are recorded beside the abstention evidence, for fit_abstention.py
    extra = answer.metadata["abstention"]["extra"]
    assert extra["unit_cos_max"] >= extra["unit_cos_chosen"] > 0 and extra["unit_cos_margin"] >= 0
    far = ask(make_core(**strict, ask_below_threshold_unit_cosine=0.999), PARAPHRASE)
    assert far.status == "no_source" and far.metadata["relevance_floor"]["unit_cosine"] < 0.999


def ranked(n: int, similarity: float, dense: int | None, lexical: int | None) -> Passage:
    return passage(n, "Section", "Body text.").model_copy(
        update={"similarity": similarity, "dense_rank": dense, "lexical_rank": lexical}
    )


def test_passages_just_under_the_threshold_are_kept_when_the_retrievers_agree_on_the_best() -> None:
    best, next_, far = ranked(1, 0.845, 1, 2), ranked(2, 0.84, 3, None), ranked(3, 0.80, 5, 1)
    assert agreed_near_threshold([best, next_, far], 0.835) == [best, next_]  # the one under the floor is not
    # the keyword retriever ranks the best passage 7th: no agreement, nothing kept
    assert agreed_near_threshold([ranked(1, 0.845, 1, 7), next_], 0.835) == []
    assert agreed_near_threshold([far], 0.835) == []  # none within the margin


def test_the_agreeing_second_look_keeps_the_passages_only_when_on(make_core) -> None:
    # a threshold no passage passes, and a key-word share no passage reaches: the agreeing look alone decides
    # whether the passages below the threshold go to the guards (both retrievers rank the CEP page's first)
    strict = {"min_similarity": 0.999, "ask_below_threshold_key_share": 1.0}
    answer = ask(make_core(ask_below_threshold_agreeing_margin=None, **strict), DEPRESSION)
    assert answer.status == "no_source" and "agreed" not in answer.metadata["relevance_floor"]
    answer = ask(make_core(ask_below_threshold_agreeing_margin=0.999, **strict), DEPRESSION)
    floor = answer.metadata["relevance_floor"]
    assert answer.status == "answered" and floor["key_share"] < 1.0 and floor["agreed"] and floor["accepted"]
