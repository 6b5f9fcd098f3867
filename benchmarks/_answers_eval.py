"""Scoring for ``bench_answers.py``: does an answer hold the gold fact, did it abstain rightly, did it
quote the wrong condition?

Pure functions over strings; nothing here knows the documents. Gold strings and section-path words
come only from the data files, so the same code scores any QA set.

Matching is on tokens: text is NFKC-normalised and case-folded, ``[n]`` markers dropped, every dash
variant read as a hyphen, thousands separators removed ("10,000" is "10000"); tokens are runs of
letters, numbers (with decimals: "0.84"), the symbols ``% < > ≤ ≥ ±``, and a hyphen *between two
numbers* (a range: "25–50" is ``25 - 50``). Any other hyphen or punctuation only separates words, so
"GAD-7" matches "gad 7" and "PD-L1" matches "PD L1". A gold string matches when its tokens occur
contiguously — whole words, never inside one — and a gold that starts or ends with a number does not
match inside a range: "10 mg" is not in "5-10 mg", and "25" is not in "25-50".
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "Abstention",
    "QAItem",
    "abstention",
    "any_match",
    "condition_side",
    "contains",
    "lead_tokens",
    "list_recall",
    "load_qa",
    "split_of",
    "tokens",
    "wrong_condition",
]

_MARKER = re.compile(r"\[\d+\]")
_DASHES = re.compile("[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d]")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_TOKEN = re.compile(r"\d+(?:\.\d+)*|[^\W\d_]+|[%<>≤≥±]|(?<=\d)\s*-\s*(?=\d)")
RANGE = "-"


def tokens(text: str) -> list[str]:
    """The match tokens of ``text`` (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _THOUSANDS.sub("", _DASHES.sub("-", _MARKER.sub(" ", text)))
    return [RANGE if m.group().strip() == "-" else m.group() for m in _TOKEN.finditer(text)]


def _is_number(token: str) -> bool:
    return token[:1].isdigit()


def contains(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    """Whether the token sequence ``needle`` occurs in ``haystack`` (whole tokens, not inside a range)."""
    n = len(needle)
    if n == 0:
        return False
    first, last = needle[0], needle[-1]
    for i in range(len(haystack) - n + 1):
        if haystack[i] != first or list(haystack[i : i + n]) != list(needle):
            continue
        before = haystack[i - 1] if i > 0 else ""
        after = haystack[i + n] if i + n < len(haystack) else ""
        if (_is_number(first) and before == RANGE) or (_is_number(last) and after == RANGE):
            continue  # "10 mg" inside "5-10 mg", "25" inside "25-50"
        return True
    return False


def any_match(text_tokens: Sequence[str], alternatives: Iterable[str]) -> bool:
    """Whether any of the alternative strings occurs in the tokenised text."""
    return any(contains(text_tokens, tokens(alt)) for alt in alternatives)


def list_recall(text_tokens: Sequence[str], items: Sequence[Sequence[str]]) -> float:
    """Share of ``items`` (each a list of synonyms) with at least one synonym in the text; 0 for no items."""
    if not items:
        return 0.0
    return sum(any_match(text_tokens, synonyms) for synonyms in items) / len(items)


def lead_tokens(bodies: Sequence[str], n: int) -> tuple[list[str], int]:
    """The first ``n`` tokens of the passages read in order, and how many passages they reach into.

    The baseline "show the top passages": what a search page would put in the same space as the answer.
    """
    out: list[str] = []
    used = 0
    for body in bodies:
        if len(out) >= n:
            break
        out.extend(tokens(body)[: n - len(out)])
        used += 1
    return out, used


def condition_side(section_path: str, right: Sequence[str], wrong: Sequence[str]) -> str | None:
    """``"right"``, ``"wrong"`` or None for one passage's section path ("A > B > C").

    The deepest heading that names a right or a wrong term decides, so a passage under
    "Anxiety > Duration" is wrong for a depression question even when a broader heading above it
    names both conditions; a heading that names both counts as right.
    """
    right_t = [tokens(t) for t in right]
    wrong_t = [tokens(t) for t in wrong]
    for heading in reversed(section_path.split(" > ")):
        h = tokens(heading)
        if any(contains(h, t) for t in right_t):
            return "right"
        if any(contains(h, t) for t in wrong_t):
            return "wrong"
    return None


def wrong_condition(section_paths: Iterable[str], right: Sequence[str], wrong: Sequence[str]) -> bool:
    """Whether any of the passages (by section path) comes from a wrong condition."""
    return bool(wrong) and any(condition_side(p, right, wrong) == "wrong" for p in section_paths)


@dataclass(frozen=True)
class Abstention:
    """``no_source`` as a detector of unanswerable questions (positive = abstained)."""

    tp: int = 0  # abstained on an unanswerable question
    fp: int = 0  # abstained although the documents answer it
    fn: int = 0  # answered an unanswerable question
    tn: int = 0  # answered an answerable one

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None


def abstention(outcomes: Iterable[tuple[bool, bool]]) -> Abstention:
    """Count ``(answerable, abstained)`` pairs."""
    tp = fp = fn = tn = 0
    for answerable, abstained in outcomes:
        if abstained:
            fp, tp = (fp + 1, tp) if answerable else (fp, tp + 1)
        else:
            tn, fn = (tn + 1, fn) if answerable else (tn, fn + 1)
    return Abstention(tp=tp, fp=fp, fn=fn, tn=tn)


HELD_OUT_EVERY = 3  # one question in three (by a hash of its id) is held out from development


def split_of(item_id: str) -> str:
    """``"held_out"`` or ``"dev"``: a fixed split by a hash of the question id, so it never depends on the
    file's order and a new question falls into one side without moving the others. The held-out side is
    for reporting only: its misses are not read while the answer code is being changed. (The abstention
    model is now fitted on every labelled set and judged leave-one-set-out: ``fit_abstention.py``.)"""
    return "held_out" if int(hashlib.sha256(item_id.encode()).hexdigest()[:8], 16) % HELD_OUT_EVERY == 0 else "dev"


@dataclass(frozen=True)
class QAItem:
    """One question of the guideline QA set (``benchmarks/data/guideline_qa.jsonl``)."""

    id: str
    question: str
    answerable: bool
    gold: list[str]
    source: str  # the document file it is about (answerable) or near (unanswerable)
    location: dict[str, object] | None = None
    condition: str | None = None
    population: str | None = None
    drug: str | None = None
    wrong_conditions: list[str] = field(default_factory=list)
    right_conditions: list[str] = field(default_factory=list)


def load_qa(path: Path) -> list[QAItem]:
    """Read and check a QA file; every problem names the line."""
    items: list[QAItem] = []
    seen: set[str] = set()
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        row = json.loads(line)
        where = f"{path}, line {number}"
        item = QAItem(
            id=row["id"],
            question=row["question"],
            answerable=row["answerable"],
            gold=list(row.get("gold") or []),
            source=row["source"],
            location=row.get("location"),
            condition=row.get("condition"),
            population=row.get("population"),
            drug=row.get("drug"),
            wrong_conditions=list(row.get("wrong_conditions") or []),
            right_conditions=list(row.get("right_conditions") or []),
        )
        if item.id in seen:
            raise ValueError(f"{where}: duplicate id {item.id!r}")
        seen.add(item.id)
        if item.answerable != bool(item.gold) or any(not tokens(g) for g in item.gold):
            raise ValueError(f"{where}: an answerable item needs gold strings with words, an unanswerable one none")
        if bool(item.wrong_conditions) != bool(item.right_conditions):
            raise ValueError(f"{where}: wrong_conditions and right_conditions go together")
        items.append(item)
    return items
