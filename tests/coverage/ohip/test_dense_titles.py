"""Codes found by what a question means (#14): title vectors stored with the edition at load, the nearest
titles to everyday words, and answers found that way never stated as certain. The loaded home is the
session's subset of the real Schedule (conftest.py); titles quoted are the Schedule's own (page in comment)."""

from __future__ import annotations

import asyncio

import numpy as np

from curbside.app import Curbside
from curbside.coverage.ohip.dense_titles import code_texts, read_title_vectors, store_title_vectors, title_embedder
from curbside.coverage.ohip.store import EditionRecord, current_edition
from curbside.coverage.ohip.title_meaning import (
    MEANING_CONFIDENCE,
    TitleMeaning,
    blend,
    cap_by_meaning,
    keep_word_leader,
)
from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult, ScheduleItem

MEANT = "found by what the question means"


def _edition(app: Curbside) -> EditionRecord:
    edition = current_edition(app.db)
    assert edition is not None
    return edition


def _matched(result: ScheduleGetResult) -> list[str]:
    return [item.code for item in result.items if item.relation == "matched"]


def test_the_load_stores_a_unit_vector_for_every_code(ohip_app: Curbside) -> None:
    vectors = read_title_vectors(ohip_app.db, _edition(ohip_app).id, title_embedder().model_id)
    assert set(vectors.codes) == {code for (code,) in ohip_app.db.rows("SELECT code FROM ohip_codes")}
    assert np.allclose(np.linalg.norm(vectors.matrix, axis=1), 1.0, atol=1e-3)


def test_a_reload_embeds_only_the_texts_it_has_no_vector_for(ohip_app: Curbside) -> None:
    db, edition, model = ohip_app.db, _edition(ohip_app), title_embedder().model_id
    texts = code_texts(db)
    alone = next(code for code, text in texts.items() if list(texts.values()).count(text) == 1)
    before = read_title_vectors(db, edition.id, model)
    db.execute("DELETE FROM ohip_title_vectors WHERE code = ?", (alone,))
    assert store_title_vectors(db, edition.id, title_embedder()) == 1
    after = read_title_vectors(db, edition.id, model)
    assert after.codes == before.codes
    assert float(after.matrix[after.row[alone]] @ before.matrix[before.row[alone]]) > 0.999
    assert store_title_vectors(db, edition.id, title_embedder()) == 0


def test_the_nearest_title_to_everyday_words(ohip_app: Curbside) -> None:
    vectors = read_title_vectors(ohip_app.db, _edition(ohip_app).id, title_embedder().model_id)
    cosines = vectors.cosines(title_embedder().embed_query("checkup for a teenager"))
    assert vectors.nearest(cosines, 1) == [("K130", float(cosines[vectors.row["K130"]]))]  # 'adolescent' (A3)
    # within a specialty's codes only
    assert {code for code, _ in vectors.nearest(cosines, 3, among={"K131", "K132"})} == {"K131", "K132"}


def test_a_code_found_by_meaning_is_named_in_a_follow_up_not_stated_as_certain(ohip_app: Curbside) -> None:
    result = asyncio.run(ohip_app.coverage_service("ohip").get(ScheduleGetArgs(q="checkup for a teenager")))
    assert _matched(result)[0] == "K130"  # 'Periodic health visit - adolescent' shares no word with the question
    assert result.confidence <= MEANING_CONFIDENCE
    assert result.follow_up is not None and "K130 (Periodic health visit - adolescent)" in result.follow_up
    assert result.follow_up in result.summary
    assert any(MEANT in warning for warning in result.warnings)


def test_a_title_holding_the_question_is_found_by_its_words_alone(ohip_app: Curbside) -> None:
    result = asyncio.run(
        ohip_app.coverage_service("ohip").get(ScheduleGetArgs(q="fee for a periodic health visit for an adolescent?"))
    )
    assert _matched(result)[0] == "K130"
    assert not any(MEANT in warning for warning in result.warnings)


def test_without_the_editions_vectors_codes_are_found_by_words_only(ohip_app: Curbside) -> None:
    service = ohip_app.coverage_service("ohip")
    other = EditionRecord(10_000, "2025-02-14", "2025-03-03", None, "ohip.txt", "0" * 64, {}, "never")
    index = service.index.get(service.reader, _edition(ohip_app)).words
    wide = index.match(("teenag",), 10)
    assert TitleMeaning().widen(service.reader, other, "checkup for a teenager", ("teenag",), wide, index, None) == (
        wide,
        [],
    )


def test_the_words_leaders_keep_their_order_and_a_nearer_code_goes_first() -> None:
    # A010 and A101 hold the same words: their cosines (0.52, 0.49) are noise within one family of titles
    wide = [("A010", 2.0), ("A101", 2.0), ("A555", 1.0)]
    cosine = {"A010": 0.52, "A101": 0.49, "A555": 0.5, "Z999": 0.9}
    ranked, raised = blend(wide, cosine, {"video": 1.0, "new": 2.0})
    assert [code for code, _ in ranked] == ["Z999", "A010", "A101", "A555"]
    assert raised == ["Z999"]  # the words did not find it


def _answer(confidence: float) -> ScheduleGetResult:
    items = [
        ScheduleItem(code=code, description=title, relation="matched", fee_text="5.65", fee_status="aligned")
        for code, title in (("G592", "Administration of intranasal influenza vaccine"), ("G590", "Influenza agent"))
    ]
    summary = "G592 …: $1.65. G590 Influenza agent: $5.65. Source: OHIP Schedule 2025-03-03."
    return ScheduleGetResult(
        query="q", summary=summary, provenance=["sql"], confidence=confidence, schedule=None, items=items
    )


def test_codes_ranked_by_meaning_cap_the_confidence_and_are_asked_about() -> None:
    capped = cap_by_meaning(_answer(0.9), ["G590"])
    assert capped.confidence == MEANING_CONFIDENCE
    assert (
        capped.follow_up is not None and "G592 (" in capped.follow_up and "G590 (Influenza agent)" in capped.follow_up
    )
    assert capped.summary.endswith(f"{capped.follow_up} Source: OHIP Schedule 2025-03-03.")


def test_codes_the_words_ranked_keep_their_confidence() -> None:
    assert cap_by_meaning(_answer(0.9), ["A001"]).confidence == 0.9


def test_the_meaning_does_not_push_the_words_best_code_out_of_the_codes_shown() -> None:
    # 'removed a chalazion under local': Z874 is the only title holding 'chalazion'; the meaning ranked three
    # codes ahead of it, and an answer states three
    by_words = [("Z874", 23.9), ("Z904", 18.8), ("E542", 12.0)]
    ranked = ["R268", "Z904", "Z311", "Z874", "E542"]
    assert keep_word_leader(ranked, by_words, raised=["R268", "Z311"]) == ["R268", "Z904", "Z874", "Z311", "E542"]
    # already shown, not ranked up by the meaning, or filtered out (another time slot): unchanged
    assert keep_word_leader(["Z874", *ranked[:3]], by_words, raised=["R268"]) == ["Z874", *ranked[:3]]
    assert keep_word_leader(ranked, by_words, raised=[]) == ranked
    assert keep_word_leader(["R268", "Z904", "Z311", "E542"], by_words, raised=["R268"]) == [
        "R268",
        "Z904",
        "Z311",
        "E542",
    ]
    # of codes tied at the top by words, the first still among the codes is kept (H152 after the slot's filter)
    tied = [("H102", 23.5), ("H152", 23.5), ("H100", 17.0)]
    assert keep_word_leader(["H055", "H100", "H105", "H152"], tied, raised=["H055"]) == ["H055", "H100", "H152", "H105"]
