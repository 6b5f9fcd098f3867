"""The symptomatic side, and a criterion that names it by its role (issue #15, "From a note").

A label such as "Pitting oedema confined to the symptomatic leg" names a side by its role; a note names
it by its place: "Pitting oedema confined to the left leg." ``side_answer`` reads "yes" only when

- the note states the label's finding and restriction with a side in place of the role ("pitting oedema
  (is) confined to the left leg"), affirmed, not about a relative, not in doubt;
- the note's other sentences put symptoms on that side and on no other: "left calf pain and swelling",
  "the entire left leg is swollen", "tenderness of the left calf" (sentences with a denial or a doubt
  are passed over: "no swelling of the right leg" names no symptomatic side);
- no mention of the finding elsewhere is denied or in doubt.

It never reads "no": pitting oedema confined to the other leg is too odd a note to answer without a
reader, and a note that names no symptomatic side, or both, is not read at all. Nor does a denial placed
on a side other than the symptomatic one ("no pitting oedema in the right leg" when the symptoms are on the
left) answer the criterion: ``denies_another_side`` tells the plain reading to leave it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from curbside.tools.calculators.kit import Criterion
from curbside.tools.calculators.note_criteria import Mention, find_mentions

__all__ = ["denies_another_side", "side_answer", "symptomatic_side"]

_ROLE = re.compile(r"\bthe\s+(?:symptomatic|affected|involved)\s+(?P<part>leg|limb|side|arm|calf)\b", re.IGNORECASE)
# a body part a note may write for the label's: a leg is also a lower limb or lower extremity
_PARTS = {
    "leg": r"(?:leg|lower\s+limb|lower\s+extremity)",
    "limb": r"(?:limb|leg|arm)",
    "arm": r"(?:arm|upper\s+limb|upper\s+extremity)",
    "side": r"side",
    "calf": r"calf",
}
# a side of the body as a note places a finding on it: "in the right leg", "over the left calf"
_PLACED_SIDE = re.compile(
    r"\b(?P<side>left|right)\s+(?:leg|calf|thigh|ankle|foot|knee|lower\s+limb|lower\s+extremity|limb|arm|side)\b",
    re.IGNORECASE,
)
_SYMPTOM = r"(?:pain|painful|swelling|swollen|tender|tenderness|erythema|erythematous|redness|warmth|oedema|edema)"
# up to three words between, none a conjunction: "left calf pain", "left leg is swollen", not "left hip and right knee pain"
_SIDE_THEN_SYMPTOM = re.compile(
    rf"\b(left|right)(?:\s+(?!and\b|or\b|but\b|with\b)[a-z]+){{0,3}}?\s+{_SYMPTOM}\b", re.IGNORECASE
)
_SYMPTOM_THEN_SIDE = re.compile(
    rf"\b{_SYMPTOM}\s+(?:of|in|on|over|along|to)\s+(?:the\s+|his\s+|her\s+)?(left|right)\b", re.IGNORECASE
)
_DOUBT_OR_DENIAL = re.compile(
    r"\b(?:no|not|denies|denied|without|negative|absent|possible|possibly|suspected|if|whether|rule out|"
    r"family|mother|father|sister|brother|daughter|son|previous|prior)\b|\?",
    re.IGNORECASE,
)


def symptomatic_side(text: str, sentences: Sequence[tuple[int, int]], skip: frozenset[int]) -> str | None:
    """ "left" or "right" when the note's sentences (but those in ``skip``) put symptoms on that side only."""
    sides: set[str] = set()
    for index, (start, end) in enumerate(sentences):
        sentence = text[start:end]
        if index in skip or _DOUBT_OR_DENIAL.search(sentence):
            continue
        for pattern in (_SIDE_THEN_SYMPTOM, _SYMPTOM_THEN_SIDE):
            sides.update(m.group(1).lower() for m in pattern.finditer(sentence))
    return sides.pop() if len(sides) == 1 else None


def side_answer(item: Criterion, text: str, sentences: Sequence[tuple[int, int]]) -> tuple[bool, Mention, str] | None:
    """(True, the statement with its side, the side) when the note states the criterion with the symptomatic side in place
    of its role; otherwise None."""
    role = _ROLE.search(item.label)
    if role is None:
        return None
    stated = " ".join(item.label[: role.start()].split())
    if len(stated.split()) < 2:
        return None
    place = re.compile(
        rf"[\s-]+(?:the\s+|his\s+|her\s+)?(?P<side>left|right)\s+{_PARTS[role.group('part').lower()]}\b", re.IGNORECASE
    )
    own = find_mentions(item, text, sentences)
    if any(m.polarity != "affirmed" for m in own):
        return None
    for mention in find_mentions(Criterion(item.key, item.label, aliases=(stated,)), text, sentences):
        after = place.match(text, mention.end, sentences[mention.sentence][1])
        if mention.polarity != "affirmed" or after is None:
            continue
        side = after.group("side").lower()
        if symptomatic_side(text, sentences, frozenset({mention.sentence})) == side:
            return True, replace(mention, term=text[mention.start : after.end()], end=after.end()), side
    return None


def denies_another_side(item: Criterion, mention: Mention, text: str, sentences: Sequence[tuple[int, int]]) -> bool:
    """Whether ``mention``, a denial read for a criterion that names a side by its role ("… confined to the
    symptomatic leg"), places the finding on a side that is not surely the symptomatic one: "No pitting oedema
    in the right leg" says nothing of the left leg the symptoms are in."""
    if _ROLE.search(item.label) is None:
        return False
    start, end = sentences[mention.sentence]
    placed = {m.group("side").lower() for m in _PLACED_SIDE.finditer(text, start, end)}
    return bool(placed) and placed != {symptomatic_side(text, sentences, frozenset({mention.sentence}))}
