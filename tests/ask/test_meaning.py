from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from curbside.ask.meaning import unit_similarity


class Fake:
    """Embeds a text as its share of the word "lowers": the question is all "lowers"."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.queries = 0

    def embed_query(self, text: str) -> np.ndarray:
        self.queries += 1
        return np.array([1.0, 0.0], dtype=np.float32)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if self.fail:
            raise RuntimeError("embedding server down")
        rows = [[1.0, 0.0] if "lowers" in t else [0.6, 0.8] for t in texts]
        return np.array(rows, dtype=np.float32)


def test_units_are_compared_with_the_question_embedded_once() -> None:
    fake = Fake()
    similarity = unit_similarity(fake, "does exercise lower blood pressure?")  # type: ignore[arg-type]
    assert similarity(["exercise lowers it", "exercise before a reading"]) == [1.0, np.float32(0.6).item()]
    similarity(["another unit"])
    assert fake.queries == 1


def test_a_failing_embedder_gives_no_similarity() -> None:
    similarity = unit_similarity(Fake(fail=True), "q")  # type: ignore[arg-type]
    assert similarity(["a", "b"]) == [0.0, 0.0]
