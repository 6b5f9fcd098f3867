"""An event within a time window, read from an explicit elapsed time (issue #15, "From a note").

A criterion such as "surgery in the previous 4 weeks" declares its window (``kit.Recent``). A note
answers it only where it says plainly when the event was:

- "yes" when an affirmed mention of the event has, in its sentence, one explicit elapsed time surely
  inside the window: "underwent a knee replacement 3 weeks ago", "Ten days prior to admission, he had
  a hip arthroplasty";
- "no" when the criterion is one concept (its label names no second event), the note mentions the
  event once, and that mention's explicit elapsed time is surely outside the window: "appendectomy
  23 years ago" against "major surgery (< 1 month)";
- nothing otherwise: no number ("recent surgery", "a few weeks ago"), a time on the edge ("1 month
  ago" against 4 weeks: a month is 28-31 days), two times in the sentence, a narrative clock ("later",
  "after", "following"), or a negated or uncertain mention ("no surgery", "possible surgery").

Only times counted back from the present are read ("ago", "prior", "previously", "before admission");
"1 year earlier" or "3 days after surgery" count from another event.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from curbside.tools.calculators.kit import Criterion, Recent
from curbside.tools.calculators.note_criteria import SEVERAL, Mention, criterion_terms, find_mentions

__all__ = ["Elapsed", "elapsed_times", "recent_answer"]

_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fourteen": 14, "twenty": 20, "thirty": 30,
}  # fmt: skip
# shortest and longest days in one unit: a month is 28-31 days, a year 365-366
_UNIT_DAYS = {"day": (1, 1), "week": (7, 7), "month": (28, 31), "year": (365, 366)}
_ELAPSED = re.compile(
    r"(?<![\w.-])(?P<count>\d{1,3}|" + "|".join(_NUMBER_WORDS) + r")[\s-]+(?P<unit>day|week|month|year)s?"
    r"\s+(?:ago|previously|prior(?!\s+to\b)|(?:prior\s+to|before)\s+(?:(?:this|the|her|his)\s+)?"
    r"(?:admission|presentation|arrival))\b",
    re.IGNORECASE,
)
# a sentence that moves the clock: its times may count from another event, not from the present
_NARRATIVE = re.compile(r"\b(?:later|after|afterwards|following|subsequently|since then)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Elapsed:
    """An explicit time before the present: its words and its shortest and longest span in days."""

    text: str
    least: float
    most: float


def elapsed_times(sentence: str) -> list[Elapsed]:
    """Every explicit elapsed time in ``sentence``: "3 weeks ago" is 21 days; "2 months prior" 56-62."""
    out = []
    for m in _ELAPSED.finditer(sentence):
        count = m.group("count").lower()
        number = int(count) if count.isdigit() else _NUMBER_WORDS[count]
        low, high = _UNIT_DAYS[m.group("unit").lower()]
        out.append(Elapsed(m.group(0), number * low, number * high))
    return out


def _event_item(item: Criterion, recent: Recent) -> Criterion:
    """The criterion as its events name it: its own words, or those ``recent`` gives."""
    if not recent.events:
        return item
    return Criterion(item.key, item.label, aliases=recent.events)


def recent_answer(
    item: Criterion, text: str, sentences: Sequence[tuple[int, int]]
) -> tuple[bool, Mention, Elapsed] | None:
    """(answer, the mention, its elapsed time) when the note dates the criterion's event plainly; else None."""
    recent = item.recent
    if recent is None:
        return None
    events = _event_item(item, recent)
    mentions = find_mentions(events, text, sentences)
    dated: list[tuple[Mention, Elapsed | None]] = []
    for mention in mentions:
        start, end = sentences[mention.sentence]
        sentence = text[start:end]
        times = elapsed_times(sentence)
        one = times[0] if len(times) == 1 and not _NARRATIVE.search(sentence) else None
        dated.append((mention, one))
    for mention, elapsed in dated:
        if mention.polarity == "affirmed" and elapsed is not None and elapsed.most <= recent.within:
            return True, mention, elapsed
    if len(dated) != 1 or _several_events(item):
        return None
    mention, elapsed = dated[0]
    # the event's one mention: other names of the criterion ("recent surgery") must not be in the note either
    if mention.polarity == "affirmed" and elapsed is not None and elapsed.least >= recent.beyond:
        others = find_mentions(Criterion(item.key, item.label, aliases=tuple(criterion_terms(item))), text, sentences)
        if all(other.start == mention.start for other in others):
            return False, mention, elapsed
    return None


def _several_events(item: Criterion) -> bool:
    """Does the label name a second event ("Immobilisation ≥ 3 days or surgery ...")? Then a dated event
    outside the window says nothing of the other."""
    label = re.sub(r"\([^)]*\)", " ", item.label)
    return bool(SEVERAL.search(label))
