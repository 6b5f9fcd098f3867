"""Codes found by what the question means, when its words find none that fits: a candidate source, never the decider.

The word index (``query.WordIndex``) finds codes whose titles share the question's words. When no title
it finds holds half of the question (by word weight), the words alone are weak evidence: "what do I bill
for giving a flu shot?" shares no word with G590 "Influenza agent". Then the codes whose title vectors
(``dense_titles``) are nearest the question join the codes found by words, and each is ranked by the
share of the question its words hold plus its title's cosine to the question: the meaning finds the
neighbourhood (G592, G593, G590 for the flu shot), the words choose within it.

A code ranked first by its meaning rather than by the words is not stated as certain
(``MEANING_CONFIDENCE``): the answer names the candidates and asks which service was meant.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from curbside.coverage.edition_cache import EditionCache
from curbside.coverage.ohip.dense_titles import TitleVectors, read_title_vectors, title_embedder
from curbside.errors import CurbsideError

if TYPE_CHECKING:
    from curbside.coverage.ohip.query import WordIndex
    from curbside.coverage.ohip.store import EditionRecord, OhipReader
    from curbside.coverage.ohip.tool import ScheduleGetResult
    from curbside.search.embedders.base import Embedder

__all__ = [
    "MEANING_CONFIDENCE",
    "TitleMeaning",
    "blend",
    "cap_by_meaning",
    "keep_word_leader",
    "question_weights",
    "title_share",
    "with_word_leader",
]

log = logging.getLogger("curbside.coverage.ohip")

# the words are weak evidence when no title they find holds this share of the question: below it an answer
# is never stated as certain anyway (``prose_answer.STATED_SHARE``); from 0.5 to 0.8 the meaning added
# codes beside right answers (K267 beside K017 'well child visit') and found one more code first in 89
NO_TITLE_HOLDS = 0.5
NEAREST = 20  # codes the meaning adds; 8 or 40 rank the same codes first on the 89 questions
LEADERS = 24  # codes found by words whose titles are checked: as many as the SQL path keeps (``sql_path.POOL``)
# a cosine counts as much as the share of the question's words a title holds: with 0.5 or 2, 3 and
# 1 fewer codes asked came first on the 89 questions (benchmarks/data/coverage_qa*.jsonl)
MEANING_WEIGHT = 1.0
MEANING_CONFIDENCE = 0.6  # below the 0.7 at which an answer reads as certain
SHOWN = 3  # codes an answer states (``merge._summary``): the follow-up names these


def question_weights(words: Sequence[str], index: WordIndex) -> dict[str, float]:
    """The question's words and their weights; a word no code uses weighs as the median word (as in
    ``WordIndex.coverage``: 'WSIB' that no title names still says what the question is about)."""
    weights = sorted(index.weight.values())  # once per question: WordIndex.coverage sorts them at every call
    median = weights[len(weights) // 2] if weights else 1.0
    return {word: index.weight.get(word, median) for word in dict.fromkeys(words)}


def title_share(weights: dict[str, float], code: str, index: WordIndex, *, headed: bool = False) -> float:
    """The share of the question's word weight that ``code``'s title holds, in any form of each word (as
    ``WordIndex.coverage`` counts it: 'reassessed' is held by "Re-assessment", 'conf' by "… case conference");
    ``headed``: with the words of the heading naming the service a title names a part of (``WordIndex.headed``)."""
    total = sum(weights.values())
    title = index.titles.get(code, set())
    if headed:
        title = title | index.headed.get(code, frozenset())
    return sum(weight for word, weight in weights.items() if index.forms(word) & title) / total if total else 1.0


def blend(
    wide: Sequence[tuple[str, float]], cosine: dict[str, float], weights: dict[str, float]
) -> tuple[list[tuple[str, float]], list[str]]:
    """The codes found by words (``wide``: code, word score, best first) and by meaning (``cosine``: code ->
    its title's cosine to the question, for those and the nearest codes), ranked by the share of the
    question's word weight (``weights``) their words hold plus ``MEANING_WEIGHT`` x cosine; and the codes
    the meaning put ahead of where the words ranked them (or that the words did not find).

    The codes the words rank first, tied, all count the best cosine among them: they keep the words' order,
    and another code goes ahead only by being nearer than the nearest of them. Within a family of titles the
    cosines differ by noise ('new patient seen by video, no ongoing relationship': 0.53 for A011 'GP focused
    practice repeat consultation by Video', 0.49 for A101 'Limited Virtual Care by Video', the code meant).
    """
    # a word counts twice in a title (``WordIndex.match``): a title holding every word scores 1
    total = 2 * sum(weights.values()) or 1.0
    share = {code: score / total for code, score in wide}
    top = round(wide[0][1], 9) if wide else None
    leaders = [code for code, score in wide if round(score, 9) == top]
    near = dict(cosine) | dict.fromkeys(leaders, max((cosine.get(code, 0.0) for code in leaders), default=0.0))
    scored = {code: share.get(code, 0.0) + MEANING_WEIGHT * near.get(code, 0.0) for code in [*share, *near]}
    ranked = sorted(scored.items(), key=lambda item: (-round(item[1], 9), item[0]))
    by_words = {code: n for n, (code, _) in enumerate(wide)}
    raised = [code for n, (code, _) in enumerate(ranked) if code not in by_words or by_words[code] > n]
    return ranked, raised


class TitleMeaning:
    """The loaded edition's title vectors and the model that embeds a question into their space.

    Off (every call answers by words alone) when the edition's vectors were never computed or the model
    cannot load: a missing model is logged once, never an error of the call.
    """

    def __init__(self, embedder: Embedder | None = None) -> None:
        """``embedder``: the model the vectors were computed with (default ``dense_titles.title_embedder``)."""
        self._embedder = embedder
        self._cache: EditionCache[TitleVectors] = EditionCache()
        self._broken = False

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = title_embedder()
        return self._embedder

    def vectors(self, reader: OhipReader, edition: EditionRecord) -> TitleVectors:
        """The edition's vectors, read once (again if ``coverage load`` added them since: their count is in the
        key, counted on the primary key's index without reading the vectors)."""
        conn = reader.connection()
        row = conn.execute("SELECT count(*) FROM ohip_title_vectors WHERE edition_id = ?", (edition.id,)).fetchone()
        count = row[0] if row is not None else 0
        model = self.embedder.model_id
        return self._cache.get(
            (edition.id, edition.loaded_at, count), lambda: read_title_vectors(conn, edition.id, model)
        )

    def warm_up(self, reader: OhipReader, edition: EditionRecord) -> None:
        """Read the vectors and load the model now, outside any call's time budget."""
        if self.vectors(reader, edition).codes:
            self._usable()

    def _usable(self) -> bool:
        if self._broken:
            return False
        try:
            self.embedder.warm_up()
        except CurbsideError as exc:
            self._broken = True
            log.warning("schedule.get finds codes by their titles' words only: %s", exc)
        return not self._broken

    def widen(
        self,
        reader: OhipReader,
        edition: EditionRecord,
        question: str,
        words: Sequence[str],
        wide: list[tuple[str, float]],
        index: WordIndex,
        among: set[str] | None,
    ) -> tuple[list[tuple[str, float]], list[str]]:
        """``wide`` with the codes nearest ``question`` blended in (``blend``) when no title found by words holds
        ``NO_TITLE_HOLDS`` of the question; and the codes the meaning ranked up. Else ``wide`` as it is."""
        weights = question_weights(words, index)
        if any(title_share(weights, code, index) >= NO_TITLE_HOLDS for code, _ in wide[:LEADERS]):
            return wide, []
        vectors = self.vectors(reader, edition)
        if not vectors.codes or not self._usable():
            return wide, []
        cosines = vectors.cosines(self.embedder.embed_query(question))
        nearest = [code for code, _ in vectors.nearest(cosines, NEAREST, among)]
        return blend(wide, vectors.cosine_of(cosines, [*(code for code, _ in wide), *nearest]), weights)


def keep_word_leader(
    codes: Sequence[str], by_words: Sequence[tuple[str, float]], raised: Sequence[str], shown: int = SHOWN
) -> list[str]:
    """``codes`` (best first, after the meaning and the filters) with the words' best code among the first
    ``shown`` when it is among them at all: the meaning adds candidates, it does not push out the code the
    words prefer ('removed a chalazion under local': Z874 "… Chalazion", the only title holding 'chalazion',
    had R268, Z904 and Z311 put ahead of it by their titles' meaning; 'urgent CT … at 9 pm … after hours
    premium': E406, found by 'urgent', had E412, E409 and C101). ``by_words``: (code, word score), best first;
    the first of the codes tied at the top that is still in ``codes``. Nothing changes unless the meaning
    ranked some code up (``raised``)."""
    if not raised or not by_words or len(codes) <= shown:
        return list(codes)
    top = round(by_words[0][1], 9)
    leader = next((code for code, score in by_words if round(score, 9) == top and code in codes), None)
    if leader is None or codes.index(leader) < shown:
        return list(codes)
    rest = [code for code in codes if code != leader]
    return [*rest[: shown - 1], leader, *rest[shown - 1 :]]


def with_word_leader(pool: list[str], by_words: Sequence[tuple[str, float]], raised: Sequence[str]) -> list[str]:
    """``pool`` (the codes the filters choose among) with the words' best code (``by_words``: code, word score,
    best first) at its end when the meaning ranked others up (``raised``) past it: ``keep_word_leader`` can then
    keep it among the codes stated ('a conf w/ the DOC, SW and pharmacist' about a nursing home resident at
    high risk: K705 "Long-term care – High risk patient case conference", whose words the nursing home visits'
    meaning outranked)."""
    if not raised or not by_words or by_words[0][0] in pool:
        return pool
    return [*pool, by_words[0][0]]


def cap_by_meaning(result: ScheduleGetResult, raised: Sequence[str]) -> ScheduleGetResult:
    """Not certain when a code the answer states was ranked there by meaning (``raised``): the confidence is
    capped at ``MEANING_CONFIDENCE`` and, unless another question is pending, the follow-up names the codes."""
    stated = [item for item in result.items if item.relation == "matched"][:SHOWN]
    if not stated or not set(raised) & {item.code for item in stated}:
        return result
    result.confidence = min(result.confidence, MEANING_CONFIDENCE)
    named = ", ".join(f"{item.code} ({item.description})" for item in stated)
    result.warnings.append(
        f"{named} {'were' if len(stated) > 1 else 'was'} found by what the question means, not by its words: "
        "check that the service is one of them."
    )
    if result.follow_up is None:
        result.follow_up = (
            f"Which service was it: {named}? Or give the fee code, or the service in the Schedule's words."
        )
        head, sep, tail = result.summary.rpartition(" Source: ")
        result.summary = f"{head} {result.follow_up}{sep}{tail}" if sep else f"{result.summary} {result.follow_up}"
    return result
