"""What one unit is worth: the Schedule's unit fees, quoted from their labelled dollar lines.

Anaesthesia and surgical assistant services are paid in units: "the amount payable … is calculated by adding
the number of basic and time units and multiplying the total by the anaesthesiologist unit fee", and the
section prints that fee as a labelled line ("Anaesthesiologist Unit fee ....... $15.49", GP92; "Assistant
Unit Fee ....... $12.51", GP85). "What's an anaesthesia unit worth in dollars?" names no fee code, and the
codes its words find (a special anaesthetic consultation, a visit premium) answer another question; the
labelled line is the answer, quoted with its page and the sentence that says how it is used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from curbside.coverage.ohip.passages import NAMESPACE, stored_passage
from curbside.coverage.ohip.tool import ScheduleGetResult
from curbside.coverage.reader import PassageRow
from curbside.types import Citation, Passage

__all__ = [
    "SEVERAL_CONFIDENCE",
    "UNIT_FEE_CONFIDENCE",
    "PassageReader",
    "UnitFee",
    "asked_unit_fees",
    "asks_unit_value",
    "unit_fees",
    "with_unit_fee",
]

UNIT_FEE_CONFIDENCE = 0.9  # a labelled line naming the question's service: read, not inferred
SEVERAL_CONFIDENCE = 0.6  # the question names several labels' services alike: each unit fee, for the clerk to pick
# how the Schedule's passages spell the label (the case of 'fee' varies by section)
_NEEDLES = ("Unit fee", "Unit Fee")
# '<label> unit fee ........ $15.49' (a leader of dots, the amount on the next line in the text file)
_LINE = re.compile(r"(?P<label>(?:[A-Z][\w’']*\s){1,4}Unit fee)\s*\.{5,}\s*\$(?P<amount>\d[\d,]*\.\d{2})", re.I)
_PAGE = re.compile(r"\[([A-Z]{1,2}\d+)\]")
_SENTENCE_END = re.compile(r"(?<=[.:])\s+(?=[A-Z])")
_SECTION = re.compile(r"— GP: ([^>\n]+?)\s*>")
# a unit's value, not a fee in a care unit ('a visit in the special care unit, what's the fee?')
_ASKS_VALUE = re.compile(
    r"\bunit\s+(?:fee|value|rate|price)s?\b"
    r"|\b(?:a|an|one|per|each|the)\s+(?:[\w-]+\s+){0,2}units?\s+(?:is\s+|are\s+)?(?:worth|valued|pays?|paid)\b"
    r"|\b(?:worth|value|dollars?)\s+(?:of|for)\s+(?:a|an|one|each)\s+(?:[\w-]+\s+){0,2}units?\b"
    r"|\bhow much (?:is|are) (?:a|an|one|each)\s+(?:[\w-]+\s+){0,2}units?\b",
    re.I,
)
_WORD = re.compile(r"[a-z]+")
_SPELLING = {"anesth": "anaest"}  # 'anesthesia' is the Schedule's 'anaesthesia'
_STEM = 6  # letters that make a word of the question meet the label's ('assist' ~ 'Assistant')


@dataclass(frozen=True, slots=True)
class UnitFee:
    label: str  # 'Anaesthesiologist Unit fee', as printed
    amount: str  # '15.49'
    page: str  # 'GP92'
    section: str  # 'Anaesthesiologists’ Services'
    rule: str  # the sentence before the line: how the unit fee is used
    passage: Passage

    @property
    def stems(self) -> frozenset[str]:
        return _stems(f"{self.label.rsplit(' ', 2)[0]} {self.section.rsplit(' ', 1)[0]}")

    def quoted(self) -> str:
        return (
            f"{self.section} ({self.page}): “{self.label} … ${self.amount}”; “{self.rule}” "
            f"One unit is worth ${self.amount}."
        )


def _stems(text: str) -> frozenset[str]:
    out = set()
    for word in _WORD.findall(text.lower()):
        stem = word[:_STEM]
        out.add(_SPELLING.get(stem, stem))
    return frozenset(s for s in out if len(s) >= 4)


class PassageReader(Protocol):
    def passages_containing(self, namespace: str, needle: str, limit: int) -> list[PassageRow]: ...


def unit_fees(reader: PassageReader) -> list[UnitFee]:
    """Every labelled unit fee line of the loaded Schedule's passages, in stored order."""
    rows = {row[0]: row for needle in _NEEDLES for row in reader.passages_containing(NAMESPACE, needle, 20)}
    out: list[UnitFee] = []
    for row in rows.values():
        passage = stored_passage(row)
        section_path, text = passage.section_path, passage.text
        page = _PAGE.search(section_path) or _PAGE.search(text)
        section = _SECTION.search(text.split("\n", 1)[0])
        head, _, body = text.partition("\n\n")  # the passage's heading line, then its text
        body = body or head
        for match in _LINE.finditer(body):
            before = " ".join(body[: match.start()].split())
            rule = _SENTENCE_END.split(before)[-1] if before else ""
            out.append(
                UnitFee(
                    label=" ".join(match.group("label").split()),
                    amount=match.group("amount"),
                    page=page.group(1) if page else "",
                    section=section.group(1).strip() if section else "",
                    rule=rule,
                    passage=passage,
                )
            )
    return out


def asks_unit_value(question: str) -> bool:
    """'what's an anaesthesia unit worth in dollars?', 'the surgical assistant unit fee?'."""
    return _ASKS_VALUE.search(question) is not None


def asked_unit_fees(question: str, fees: list[UnitFee]) -> list[UnitFee]:
    """The unit fees whose label or section shares the most words with ``question``; none when none does: "the
    unit fee for primary mental health care" asks a time-unit service's fee, which no labelled line states."""
    words = _stems(question)
    shared = [len(fee.stems & words) for fee in fees]
    best = max(shared, default=0)
    return [fee for fee, n in zip(fees, shared, strict=True) if n == best > 0]


def with_unit_fee(
    result: ScheduleGetResult, question: str | None, codes_named: bool, fees: list[UnitFee]
) -> ScheduleGetResult:
    """The answer to a question about a unit's dollar value: the labelled line(s), in place of the codes its
    words found; ``result`` unchanged when the question does not ask it or names a fee code."""
    if not question or codes_named or not fees or not asks_unit_value(question):
        return result
    chosen = asked_unit_fees(question, fees)
    if not chosen:
        return result
    source = result.summary.rpartition(" Source: ")
    tail = f" Source: {source[2]}" if source[1] else ""
    result.follow_up = None
    if len(chosen) > 1:  # the question names both services as much: both unit fees, and which one it is
        result.follow_up = "Which service is it: " + " or ".join(f"{fee.section}" for fee in chosen) + "?"
    quoted = " ".join(fee.quoted() for fee in chosen)
    result.summary = f"The Schedule's unit fee: {quoted}{' ' + result.follow_up if result.follow_up else ''}{tail}"
    result.items = []
    result.needs_more_info = len(chosen) > 1
    result.confidence = UNIT_FEE_CONFIDENCE if len(chosen) == 1 else SEVERAL_CONFIDENCE
    result.citations = [
        Citation.from_passage(n, fee.passage, f"{fee.label} ${fee.amount}") for n, fee in enumerate(chosen, start=1)
    ]
    return result
