"""The sentence of a source's policy text that a question asks for, quoted, never paraphrased.

"How long does an appeal take?", "what percentage is paid for a phone visit?", "can we still bill a
consultation without a written request?" are answered by one sentence of a manual or of the Schedule's
rules. A source says what its questions can ask (``Vocabulary``: a time, a yes or no, a place, a count,
a percentage …) and what a sentence answering each says. A sentence qualifies when it says the kind of
thing asked and shares the question's rarer words (weighted by how few sentences use them, and by the
sentence's length as BM25 does, so a long list that names everything does not win). A bullet is quoted
with the words that introduce its list.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = ["PolicyIndex", "PolicyQuote", "PolicyText", "Vocabulary"]

MAX_QUOTES = 2
MIN_EVIDENCE = 4.0  # length-weighted idf of the shared words: about two words that few sentences use
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z(])")
_COMMON = frozenset(
    """a an and any are as at be been but by can could do does for from has have how i if in is it its may my
    of on or our s should so that the their them they this to was we what when where which who will with would
    you your""".split()
)


@dataclass(frozen=True, slots=True)
class PolicyText:
    """One block of policy text: where it is (``source``, ``ref``, ``page``) and its words."""

    source: str  # 'core', 'mobility-devices' (an ADP manual) …
    ref: str  # '1000.13', a rule's heading …
    page: str
    text: str


@dataclass(frozen=True, slots=True)
class PolicyQuote:
    source: str
    ref: str
    page: str
    text: str
    score: float


@dataclass(frozen=True)
class Vocabulary:
    """What a source's questions ask and what its answering sentences say, kind by kind.

    ``asks`` is in order, most specific first: the first kind a question asks decides. ``amount`` marks
    questions its structured data answers (no quote). ``spelled`` expands words a clinician writes into
    the source's ('wsib' -> 'workplace safety insurance'); ``stop`` are its words too common to count.
    """

    asks: Mapping[str, re.Pattern[str]]
    says: Mapping[str, re.Pattern[str]]
    amount: re.Pattern[str] | None = None
    spelled: Mapping[str, str] = field(default_factory=dict)
    stop: frozenset[str] = frozenset()

    def stems(self, text: str) -> set[str]:
        words = re.findall(r"[a-z][a-z']+", text.lower())
        words += [w for word in words for w in self.spelled.get(word, "").split()]
        return {_stem(w) for w in words if w not in _COMMON and w not in self.stop}


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


@dataclass(frozen=True, slots=True)
class _Unit:
    block: PolicyText
    text: str
    stems: frozenset[str]


class PolicyIndex:
    """Every sentence of a source's policy text, with its words' rarity; built once per load."""

    def __init__(self, blocks: Iterable[PolicyText], vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self.units = [_Unit(b, text, frozenset(vocabulary.stems(text))) for b in blocks for text in sentences(b.text)]
        df = Counter(stem for unit in self.units for stem in unit.stems)
        self.mean_words = sum(len(u.stems) for u in self.units) / max(len(self.units), 1)
        total = max(len(self.units), 1)
        self.idf = {stem: math.log(total / count) for stem, count in df.items()}

    def quotes(self, question: str | None) -> list[PolicyQuote]:
        """Up to two sentences that answer what ``question`` asks, best first; none when the evidence is thin."""
        vocabulary = self.vocabulary
        if not question or (vocabulary.amount is not None and vocabulary.amount.search(question)):
            return []
        asked = next((kind for kind, pattern in vocabulary.asks.items() if pattern.search(question)), None)
        wanted = vocabulary.stems(question)
        if asked is None or not wanted:
            return []
        says = vocabulary.says[asked]
        scored: list[PolicyQuote] = []
        for unit in self.units:
            shared = sum(self.idf.get(stem, 0.0) for stem in wanted & unit.stems)
            evidence = shared / (0.5 + 0.5 * len(unit.stems) / self.mean_words)
            if evidence < MIN_EVIDENCE or not says.search(unit.text):
                continue
            b = unit.block
            scored.append(PolicyQuote(b.source, b.ref, b.page, unit.text, evidence + 2.0))
        scored.sort(key=lambda q: q.score, reverse=True)
        return scored[:MAX_QUOTES]


def sentences(text: str) -> list[str]:
    """A block's sentences; a bulleted list becomes its lead-in plus each bullet."""
    out: list[str] = []
    for sentence in _SENTENCE.split(" ".join(text.split())):
        if "•" not in sentence:
            out.append(sentence.strip())
            continue
        lead, *bullets = sentence.split("•")
        lead = lead.strip()
        out.extend(f"{lead} • {b.strip().rstrip(';,')}" if lead else b.strip() for b in bullets if b.strip())
    return [s for s in out if len(s) >= 20]
