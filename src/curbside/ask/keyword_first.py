"""The keyword search's first passage, cut by the similarity threshold by a hair, joins the passages read.

The threshold is a cosine of the question to a whole chunk. A chunk that holds the question's rare words ("told a
suicidal pt I may be legally obliged to report - do I need to chart that conversation?": "Let the patient know that
we have a legal obligation to report … (document that you have mentioned this to the patient)") is ranked first by
the keyword retriever, while its cosine can fall just under the threshold and leave the answer to chunks that share
only the question's common words. The keyword retriever's first passage within the agreeing margin under the
threshold (``Settings.ask_below_threshold_agreeing_margin``) is read too, after the passages found.

When none of the passages found holds the question's subject (its rarest key word the knowledge base knows) and the
keyword passage does, the passages found are about something else, and the keyword passage replaces them, provided
it holds another of the question's key words too. Holding the subject alone it is not what was asked: for "is
trintellix ok in pregnancy?" the Trintellix card never speaks of pregnancy and the passage found was the malaria
sample's pregnancy advice; then nothing is added and the guards decide on the passages found, as before.

Joined to the passages found, the keyword passage is evidence for the answer/no-answer guards only when the answer
quotes it: "does ADP reimburse my mileage for home visits?" found wheelchair sections, and "905 Rebates" joined them
for its 'reimburse'. The answer still came from the wheelchair sections, and that one word let the guards pass it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from curbside.llm.extractive import Sentence
from curbside.types import Passage

__all__ = ["keyword_first", "quoted_or_found", "with_keyword_first"]

# the answer terms a set of passages holds (``abstain.coverage_terms``)
Terms = Callable[[Sequence[str]], set[str]]


def _text(passage: Passage) -> str:
    return f"{passage.title} {passage.section_path} {passage.body}"


def keyword_first(hits: Sequence[Passage], near: Sequence[Passage]) -> Passage | None:
    """The keyword retriever's first passage among ``near`` when it is not one of ``hits``, else None."""
    seen = {h.chunk_id for h in hits}
    return next((p for p in near if p.lexical_rank == 1 and p.chunk_id not in seen), None)


def with_keyword_first(
    hits: Sequence[Passage], near: Sequence[Passage], keys: Mapping[str, str], subject: set[str], terms: Terms
) -> list[Passage]:
    """The passages to read: ``hits`` (the search's, over the threshold) with the keyword retriever's first passage
    among ``near`` (the search's within the margin under it) when it is not one of them; ``keys`` maps the question's
    key words to their answer terms, ``subject`` holds the terms of its rarest known one."""
    first = keyword_first(hits, near)
    if first is None:
        return list(hits)
    if not subject or subject & terms([_text(h) for h in hits]):
        return [*hits, first]
    held = terms([_text(first)])
    if not subject & held:
        return [*hits, first]  # no passage holds the subject in its answer terms: the guards decide
    others = set(keys.values()) - subject
    if others and not others & held:
        return list(hits)  # the subject alone: not what was asked
    return [first]


def quoted_or_found(
    hits: Sequence[Passage], found: set[str], units: Sequence[Sentence], read: Sequence[Passage]
) -> list[Passage]:
    """``hits`` without a passage that joined them (not in ``found``, the chunk ids the search found) unless one of
    the answer's ``units`` is quoted from it; ``read`` are the passages the units' ranks index. A passage that replaced
    all of them stays."""
    quoted = {read[u.rank].chunk_id for u in units if u.rank < len(read)}
    kept = [h for h in hits if h.chunk_id in found or h.chunk_id in quoted]
    return kept or list(hits)
