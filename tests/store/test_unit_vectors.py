from __future__ import annotations

import numpy as np

from curbside.store.database import Database
from curbside.store.unit_vectors import UnitVectorStore


def test_unit_vectors_round_trip_per_model_in_half_precision(tmp_path) -> None:
    db = Database(tmp_path / "db.sqlite3")
    store = UnitVectorStore(db)
    vectors = np.array([[0.6, 0.8], [1.0, 0.0]], dtype=np.float32)
    assert store.missing("m", ["a", "b", "a"]) == ["a", "b"]
    with db.transaction():
        store.add("m", ["a", "b"], vectors)
    assert store.missing("m", ["a", "b", "c"]) == ["c"]
    assert store.missing("other", ["a"]) == ["a"]  # another model's vectors are not comparable
    found = store.vectors("m", ["a", "c"])
    assert list(found) == ["a"]
    assert found["a"].dtype == np.float32
    assert np.allclose(found["a"], vectors[0], atol=1e-3)
    assert store.count("m") == 2
    db.close()
