"""A criterion that is a difference between the two sides, from the difference a note states (issue #15).

A label such as "Calf swelling ≥ 3 cm more than the other side" sets a threshold on a difference. A
note that states the difference in so many words decides it: "left calf circumference is 4 cm greater
than the right" is yes, "calf circumference 1 cm more than the other side" no. ``compared_answer``
reads it only when

- an affirmed mention of the criterion ("calf circumference", "calf swelling") is followed, with no more
  than a copula or "measured" between, by one number in the label's kind of unit (mm or cm) and a
  comparative against the other side: "greater/more/larger/bigger than the right/left/other/opposite";
- that number is the only length in its clause (a comma or semicolon ends it): "..., measured 10 cm
  below the tibial tuberosity" is another clause, another number;
- every such statement in the note gives the same answer, and a larger side named right before the
  mention is not opposite the side the note's symptoms are on: "right calf circumference is 4 cm
  greater than the left" is not read when the symptoms are in the left leg.

No approximation ("about 3 cm"), no range, no difference written another way ("a 4 cm difference")
is read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from curbside.tools.calculators.kit import Criterion
from curbside.tools.calculators.note_criteria import Mention, find_mentions
from curbside.tools.calculators.note_side import symptomatic_side

__all__ = ["Difference", "compared_answer", "label_difference"]

_MM = {"mm": 1.0, "cm": 10.0}
_LABEL = re.compile(
    r"(?P<cmp>[≥>])\s*(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>mm|cm)\s+(?:more|greater|larger)\s+than\s+the\s+"
    r"(?:other|opposite|contralateral)\s+(?:side|leg|limb)\b",
    re.IGNORECASE,
)
_STATED = re.compile(
    r"\s*(?:(?:is|was|are|were|measures|measured|measuring)\s+)?(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>mm|cm)\s+"
    r"(?:greater|more|larger|bigger|wider)\s+than\s+(?:that\s+of\s+)?(?:the\s+)?"
    r"(?:other|opposite|contralateral|right|left|unaffected|asymptomatic)\b",
    re.IGNORECASE,
)
_LENGTH = re.compile(r"\d+(?:\.\d+)?\s*(?:mm|cm)\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,;:]")


@dataclass(frozen=True)
class Difference:
    """A label's threshold on a difference between the sides, in millimetres: "≥ 3 cm" -> 30, inclusive."""

    least_mm: float
    inclusive: bool
    written: str  # as the label writes it: "≥ 3 cm"

    def met(self, mm: float) -> bool:
        return mm >= self.least_mm if self.inclusive else mm > self.least_mm


def label_difference(item: Criterion) -> Difference | None:
    m = _LABEL.search(item.label)
    if m is None:
        return None
    least = float(m.group("num")) * _MM[m.group("unit").lower()]
    return Difference(least, m.group("cmp") == "≥", f"{m.group('cmp')} {m.group('num')} {m.group('unit')}")


def compared_answer(
    item: Criterion, text: str, sentences: Sequence[tuple[int, int]]
) -> tuple[bool, Mention, str, Difference] | None:
    """(answer, the statement, the difference as written, the label's threshold) when the note states the
    difference plainly; otherwise None."""
    threshold = label_difference(item)
    if threshold is None:
        return None
    readings: list[tuple[bool, Mention, str]] = []
    for mention in find_mentions(item, text, sentences):
        start, end = sentences[mention.sentence]
        stated = _STATED.match(text, mention.end, end)
        if mention.polarity != "affirmed" or stated is None:
            continue
        clause = _clause(text, start, end, mention.start)
        if len(_LENGTH.findall(clause)) != 1 or _other_side_larger(text, sentences, mention):
            continue
        mm = float(stated.group("num")) * _MM[stated.group("unit").lower()]
        whole = replace(mention, term=text[mention.start : stated.end()], end=stated.end())
        readings.append((threshold.met(mm), whole, f"{stated.group('num')} {stated.group('unit')}"))
    if not readings or len({answer for answer, _, _ in readings}) != 1:
        return None
    answer, mention, written = readings[0]
    return answer, mention, written, threshold


def _clause(text: str, start: int, end: int, at: int) -> str:
    """The clause of the sentence ``text[start:end]`` that holds position ``at``."""
    before = [m.end() for m in _CLAUSE_END.finditer(text, start, at)]
    after = _CLAUSE_END.search(text, at, end)
    return text[before[-1] if before else start : after.start() if after else end]


def _other_side_larger(text: str, sentences: Sequence[tuple[int, int]], mention: Mention) -> bool:
    """Does the note name the larger side right before the mention, and is it not the symptomatic one?"""
    named = re.search(r"\b(left|right)\s+$", text[max(0, mention.start - 8) : mention.start], re.IGNORECASE)
    if named is None:
        return False
    symptomatic = symptomatic_side(text, sentences, frozenset({mention.sentence}))
    return symptomatic is not None and symptomatic != named.group(1).lower()
