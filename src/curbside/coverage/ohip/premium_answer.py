"""The premium a question asks for "on" or "on top of" the service its answer codes.

"Is there a premium on K197? the patient was discharged from our in-patient unit two weeks ago" is answered
by K187 (add 15%), not by K197's fee: the premium is the fact asked. The Schedule says which services a
premium is added to in the text that governs it (``premium_texts``): its listing line or paragraph names the
base code ("… to K195, K196, K197 or K198"), its payment rules do ("medical specific re-assessment (A164)",
E060), or, in the base code's own section, they name its service ("ii. medical specific re-assessment",
E098). Among those, the premium meant is the one whose text holds the question's words that are not the base
service's ('suicide attempt' K188, 'transplant' E060, "Crohn's" E098); a premium sharing none of them is not
offered (the question's circumstances would not be known to earn it). The premium's line is quoted with its
page; the answer's confidence is left as it was (the base code is the evidence found, the premium is added).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from curbside.coverage.ohip.premium_texts import PremiumText
from curbside.coverage.ohip.query import STOP, Request, stem, words_of
from curbside.coverage.ohip.rule_quotes import CLERK_STOP, meets
from curbside.coverage.ohip.sql_path import SqlFindings
from curbside.coverage.ohip.store import ListingRow
from curbside.coverage.ohip.tool import ScheduleGetResult

__all__ = ["STATED", "FoundPremium", "asks_premium_on", "premiums_asked", "with_asked_premiums"]

# a code found by words is a base for a premium only when the answer states it as certain: a premium added to a
# code that may not be the service ('E550 … irrigation system' beside a guessed E556) is noise
STATED = 0.7
MAX_PREMIUMS = 2  # a tie between two premiums' texts: both, for the clerk to pick
RULES_WEIGHT = 0.5  # a word only the payment rules hold: the rules name other codes' circumstances too
_ASKS = re.compile(r"\b(premiums?|on top|add[- ]?ons?)\b", re.I)
_CODE = re.compile(r"(?<![A-Za-z0-9])([A-Z]\d{3})(?![0-9])")
_POSSESSIVE = re.compile(r"['’]s\b")
_GENERIC = frozenset(stem(w) for w in "patient patients physician doctor service services fee top".split())
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z])")
MAX_LEAD_CHARS = 300


@dataclass(frozen=True, slots=True)
class FoundPremium:
    base: str
    text: PremiumText
    score: float
    lead: str  # the sentence of its paragraph that shares most of the question, or ''

    @property
    def line(self) -> str:
        """Its own listing entry ('# E826 percutaneous pinning, to … F013 …: add 75%')."""
        return self.text.line


def asks_premium_on(question: str | None) -> bool:
    return bool(question and _ASKS.search(question))


def _stems(text: str) -> set[str]:
    words = words_of(_POSSESSIVE.sub("", _CODE.sub(" ", text)))
    return {stem(w) for w in words if w not in STOP and w not in CLERK_STOP and len(w) > 2} - _GENERIC


def _phrase(text: str) -> str:
    return " " + " ".join(words_of(text)) + " "


def _governs(text: PremiumText, base: str, title: str, sections: set[str]) -> bool:
    """Whether ``text`` is a premium's on the base code: its own entry or its paragraphs name the code, or, in the
    code's own section, its service."""
    whole = f"{text.line} {text.lead} {text.rules}"
    if re.search(rf"(?<![A-Za-z0-9]){base}(?![0-9])", whole):
        return True
    return text.section in sections and bool(title.strip()) and _phrase(title) in _phrase(whole)


def _shared(wanted: set[str], text: str) -> set[str]:
    held = _stems(text)
    return {w for w in wanted if any(meets(w, x) for x in held)}


def premiums_asked(
    question: str,
    bases: Sequence[str],
    titles: Mapping[str, str],
    listings: Mapping[str, list[ListingRow]],
    texts: Mapping[str, list[PremiumText]],
) -> list[FoundPremium]:
    """The premiums on ``bases`` whose governing text shares most of the question's own words (those not in
    the base code's title), best first; none when no premium shares one."""
    found: list[FoundPremium] = []
    for base in bases:
        title = titles.get(base, "")
        wanted = _stems(question) - _stems(title)
        if not wanted:
            continue
        sections = {row.section for row in listings.get(base, [])}
        for code, governing in texts.items():
            if code in bases:
                continue
            for text in governing:
                if not _governs(text, base, title, sections):
                    continue
                own = _shared(wanted, f"{text.line} {text.lead}")
                ruled = _shared(wanted, text.rules) - own
                score = len(own) + RULES_WEIGHT * len(ruled)
                if score > 0:
                    found.append(FoundPremium(base, text, score, _lead_sentence(text.lead, wanted)))
    found.sort(key=lambda p: -p.score)
    best: list[FoundPremium] = []
    for premium in found:
        if premium.score < found[0].score or any(p.text.code == premium.text.code for p in best):
            continue
        best.append(premium)
    return best[:MAX_PREMIUMS]


def _lead_sentence(lead: str, wanted: set[str]) -> str:
    sentences = [s for s in _SENTENCE.split(lead) if len(s) <= MAX_LEAD_CHARS]
    scored = [(len(_shared(wanted, s)), -n, s) for n, s in enumerate(sentences)]
    best = max(scored, default=(0, 0, ""))
    return best[2] if best[0] else ""


def with_asked_premiums(
    result: ScheduleGetResult, request: Request, sql: SqlFindings, texts: Mapping[str, list[PremiumText]]
) -> ScheduleGetResult:
    """``result`` with the premiums the question asks on its codes (each premium's listing line, and the sentence
    of its paragraph the question meets)."""
    if not request.question or not asks_premium_on(request.question) or result.billable is False:
        return result
    stated = (sql.asked or (sql.matched if result.confidence >= STATED else []))[:3]
    bases = [code for code in stated if code not in texts]  # a premium asked is the answer itself
    parts: list[str] = []
    for premium in premiums_asked(request.question, bases, sql.titles, sql.listings, texts):
        text = premium.text
        part = f"Premium on {premium.base} ({text.section}, {text.page}): {text.line}."
        if premium.lead:
            part += f" “{premium.lead}”"
        parts.append(part)
    if not parts:
        return result
    head, sep, tail = result.summary.rpartition(" Source: ")
    added = " ".join(parts)
    result.summary = f"{head} {added}{sep}{tail}" if sep else f"{result.summary} {added}"
    return result
