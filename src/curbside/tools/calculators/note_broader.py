"""A qualified criterion denied by a denial of the broader finding it narrows (issue #15, "From a note").

A label such as "Active cancer (treatment ongoing, within 6 months, or palliative)", "Hypertension,
uncontrolled (systolic > 160 mmHg)" or "Acute renal failure" narrows a broader finding, its *head*:
cancer, hypertension, renal failure. The head is the label outside brackets less its qualifying words
(active, recent, major, severe, uncontrolled, acute, ...) and its restricting tail ("within 12 weeks",
"> 3 cm", "treated with insulin", "confined to ..."). A label counts as qualified when its words outside
brackets qualify it, or when its brackets hold nothing but qualifications ("(on treatment, treated within
the last 6 months, or palliative)", "(< 1 month)"); brackets that list kinds or signs ("(history,
pulmonary oedema, rales or S3)") are not mere qualifications, so such a label has no head here.

``broader_answer`` reads "no" when the note denies the head itself, plainly: "No history of cancer" is
no active cancer, "denies hypertension" no uncontrolled hypertension. It reads

- only "no": an affirmed head ("history of cancer") is not the qualified criterion, and never "yes";
- only when every mention of the criterion and of its head is negated (nothing affirmed, uncertain or
  about a relative anywhere in the note);
- only when the denied head is not itself narrowed by the word before it: "no skin cancer" denies no
  other cancer, while "no history of cancer", "denies cancer", "no known malignancy" deny all of it;
- never for a criterion decided by a measurement (``measured``: "Heart rate > 100" has no finding
  "heart rate" to deny), nor for a head that is not one short concept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from curbside.tools.calculators.kit import Criterion
from curbside.tools.calculators.note_criteria import SEVERAL, Mention, find_mentions, plain_label

__all__ = ["broader_answer", "label_head"]

# words that narrow a finding to the criterion's kind of it
_QUALIFIER = re.compile(
    r"\b(?:active|recent|recently|major|severe|severely|serious|uncontrolled|current|currently|acute|new|"
    r"moderate(?:\s*(?:to|–|-)\s*severe)?|significant)\b",
    re.IGNORECASE,
)
# a restricting tail: everything from here on narrows the finding before it
_TAIL = re.compile(
    r"(?:[<>≤≥]|\b\d+(?:\.\d+)?(?!\w)|\b(?:within|in the (?:past|previous|last)|treated|requiring|confined|at least|more than|"
    r"less than|at admission)\b).*$",
    re.IGNORECASE,
)
_MEASURE = re.compile(r"\b(?:pressure|rate|temperature|level|count|saturation|score|weight|index)\b", re.IGNORECASE)
# the only words brackets may hold for the label outside them to be qualified by them
_QUALIFYING_WORDS = frozenset(
    """on treatment treated ongoing within the last past previous present or and palliative active current
    currently month months year years week weeks day days diagnosed""".split()
)
# the word before a denied head that leaves it unnarrowed: "no history of cancer", "no known malignancy"
_OPEN_BEFORE = frozenset(
    """no not denies denied denying deny without negative for free absence of nor any known prior previous
    personal past history a an""".split()
)


def label_head(item: Criterion) -> str | None:
    """The broader finding a qualified label narrows ("Active cancer (…)" -> "cancer"), or None."""
    if item.measured is not None:
        return None
    plain = plain_label(item)
    unqualified = " ".join(_QUALIFIER.sub(" ", plain).split()).strip(" ,-–:;")
    if SEVERAL.search(unqualified):
        return None  # two findings ("bedridden ≥ 3 days, or major surgery"): denying one says nothing of the other
    head = " ".join(_TAIL.sub("", unqualified).split())
    if head.lower() == plain.lower() and not _qualifying_brackets(item.label):
        return None  # nothing narrows it: the criterion is its own head, read as it is
    if not head or len(head.split()) > 4 or not re.fullmatch(r"[A-Za-z][A-Za-z' -]*", head):
        return None
    if _MEASURE.search(head):
        return None  # "Blood pressure treated with medication": a measurement is no finding to deny
    return head


def _qualifying_brackets(label: str) -> bool:
    inside = " ".join(re.findall(r"\(([^)]*)\)", label))
    words = re.findall(r"[A-Za-z]+", inside)
    return bool(words) and all(w.lower() in _QUALIFYING_WORDS for w in words)


def broader_answer(item: Criterion, text: str, sentences: Sequence[tuple[int, int]]) -> tuple[bool, Mention] | None:
    """(False, the denied head) when the note plainly denies the finding the criterion narrows; else None."""
    head = label_head(item)
    if head is None:
        return None
    heads = find_mentions(Criterion(item.key, head), text, sentences)
    own = find_mentions(item, text, sentences)
    if not heads or any(m.polarity != "negated" for m in [*heads, *own]):
        return None
    for mention in heads:
        before = re.findall(r"[A-Za-z]+", text[sentences[mention.sentence][0] : mention.start])
        if not before or before[-1].lower() in _OPEN_BEFORE:
            return False, mention
    return None
