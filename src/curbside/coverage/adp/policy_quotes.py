"""The manual's sentence a policy question asks for: "how long does an appeal take?", "is the assessment
still good after a year?", "can they apply if WSIB covers it?".

Such questions name no device and ask no share; the answer is one sentence of the manuals. The question
says what kind of sentence it wants (a time, a yes or no, where to send, how many); a sentence qualifies
when it says that kind of thing and shares the question's rarer words (weighted by how few sentences use
them). It is quoted, never paraphrased, with its manual, paragraph and page. A bullet is quoted with the
words that introduce its list ("Funding is not provided for … used solely for: • Travelling …").
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from curbside.coverage.adp.store import ParagraphRow

__all__ = ["PolicyIndex", "PolicyQuote"]

MAX_QUOTES = 2
MIN_EVIDENCE = 4.0  # summed idf of the shared words: about two words that few sentences use

_ASKS = {  # most specific first
    "time": re.compile(r"\b(how (long|soon|often)|when|period|valid|good for|stale|expire\w*|within|take)\b", re.I),
    "where": re.compile(r"\b(where|who (do|does|should|handles)|which office|send|submit\w*)\b", re.I),
    "count": re.compile(r"\b(how many|both|plus|as well as|more than one)\b", re.I),
    "allowed": re.compile(
        r"\b(can|could|may|will|would|does|do|is|are)\b[^?]*\b(adp|program|they|we|i|patient|client)\b|"
        r"\b(eligible|allowed|funded|covered|instead|also)\b",
        re.I,
    ),
}
_SAYS = {
    "time": re.compile(
        r"\b(\d+|one|two|three|four|five|six|twelve|thirty)\s(\(\d+\)\s)?(business\s)?(days|months|years)\b", re.I
    ),
    "allowed": re.compile(
        r"\b(not (eligible|entitled|funded|provided|considered)|does not|will not|may not|must not|are not|is not|"
        r"only|eligible|entitled)\b",
        re.I,
    ),
    "where": re.compile(r"\b((sent|submitted|forwarded|directed|returned) to|central equipment pool|CEP)\b", re.I),
    "count": re.compile(r"\b(up to|one|two|three|maximum|more than one)\b", re.I),
}
# a question about the amount is answered by the funding rules, not by a policy sentence
_ASKS_AMOUNT = re.compile(
    r"\b(how much|what (share|percent\w*|portion|part)|what (do|does|will|would) (adp|it|the program|they|"
    r"the patient|the client|i|we) (cover|pay))\b",
    re.I,
)
_STOP = frozenset(
    """a an and any are as at be been but by can could do does for from has have how i if in is it its may
    my of on or our patient patients client clients s should so that the their them they this to was we
    what when where which who will with would you your adp program device devices assistive ontario""".split()
)
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z(])")


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


# abbreviations a clinician writes for what the manuals spell out
_SPELLED = {
    "wsib": "workplace safety insurance",
    "odsp": "ontario disability support",
    "cep": "central equipment pool",
    "get": "obtain",
    "good": "stale valid",
}


def _stems(text: str) -> set[str]:
    words = re.findall(r"[a-z][a-z']+", text.lower())
    words += [w for word in words for w in _SPELLED.get(word, "").split()]
    return {_stem(w) for w in words if w not in _STOP}


@dataclass(frozen=True, slots=True)
class PolicyQuote:
    manual: str
    paragraph_id: str
    page: int
    text: str
    score: float


@dataclass(frozen=True, slots=True)
class _Unit:
    paragraph: ParagraphRow
    text: str
    stems: frozenset[str]


class PolicyIndex:
    """Every sentence of the loaded manuals, with its words' rarity; built once per load."""

    def __init__(self, paragraphs: Iterable[ParagraphRow]) -> None:
        self.units = [_Unit(p, text, frozenset(_stems(text))) for p in paragraphs for text in _sentences(p.text)]
        df = Counter(stem for unit in self.units for stem in unit.stems)
        self.mean_words = sum(len(u.stems) for u in self.units) / max(len(self.units), 1)
        total = max(len(self.units), 1)
        self.idf = {stem: math.log(total / count) for stem, count in df.items()}

    def quotes(self, question: str | None) -> list[PolicyQuote]:
        """Up to two sentences that answer what ``question`` asks, best first; none when the evidence is thin."""
        if not question or _ASKS_AMOUNT.search(question):
            return []
        # the most specific thing asked decides what an answer must say ('how long … can they' asks a time)
        asked = next(([kind] for kind, pattern in _ASKS.items() if pattern.search(question)), [])
        wanted = _stems(question)
        if not asked or not wanted:
            return []
        scored: list[PolicyQuote] = []
        for unit in self.units:
            shared = sum(self.idf.get(stem, 0.0) for stem in wanted & unit.stems)
            # a long list that names everything shares words with every question: weigh by length (as BM25 does)
            evidence = shared / (0.5 + 0.5 * len(unit.stems) / self.mean_words)
            if evidence < MIN_EVIDENCE:
                continue
            says = [kind for kind in asked if _SAYS[kind].search(unit.text)]
            if not says:
                continue
            p = unit.paragraph
            scored.append(PolicyQuote(p.manual, p.paragraph_id, p.page, unit.text, evidence + 2.0 * len(says)))
        scored.sort(key=lambda q: q.score, reverse=True)
        return scored[:MAX_QUOTES]


def _sentences(text: str) -> list[str]:
    """The paragraph's sentences; a bulleted list becomes its lead-in plus each bullet."""
    out: list[str] = []
    for sentence in _SENTENCE.split(" ".join(text.split())):
        if "•" not in sentence:
            out.append(sentence.strip())
            continue
        lead, *bullets = sentence.split("•")
        lead = lead.strip()
        out.extend(f"{lead} • {b.strip().rstrip(';,')}" if lead else b.strip() for b in bullets if b.strip())
    return [s for s in out if len(s) >= 20]
