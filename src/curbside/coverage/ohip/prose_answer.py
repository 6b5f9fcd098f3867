"""A sentence of the Schedule's prose in a ``schedule.get`` answer, when it and not a fee code answers.

"How often can the same doctor bill a consultation?", "what percentage is paid for a phone visit?", "how
much is the hospitalist premium?" name no code, and the codes their words find are at best a guess: the
General Preamble's sentence is the answer, quoted first with its page, and the answer's confidence is
capped (the sentence was found by its words; it may not be the rule the clerk means). A question naming a
code gets a sentence only when it names that code and the code's own rules had none to quote ("age premium
on A007" is answered by GP64, which lists A007).
"""

from __future__ import annotations

import re

from curbside.coverage.ohip.asked_rules import cap_unfound_rule, heading_quotes, quoted_rules
from curbside.coverage.ohip.list_markers import spaced_markers
from curbside.coverage.ohip.merge import WEAK_MATCH
from curbside.coverage.ohip.preamble_quotes import LABEL as _LABEL
from curbside.coverage.ohip.preamble_quotes import PreambleQuote, asked_kinds
from curbside.coverage.ohip.query import Request
from curbside.coverage.ohip.sql_path import SqlFindings
from curbside.coverage.ohip.tool import ScheduleGetResult

__all__ = ["PROSE_CONFIDENCE", "UNSPECIFIC_CONFIDENCE", "cap_unspecific", "with_prose"]

PROSE_CONFIDENCE = 0.5  # found by words: never stated as certain
UNSPECIFIC_CONFIDENCE = 0.6  # below the 0.7 at which an answer reads as certain
# a code found by words is stated as certain only when its title holds at least half of the question's word
# weight: 'suturing a 3 cm cut on the face' found G268 '… cut down as necessary' by 'cut' alone (0.45)
STATED_SHARE = 0.5
MIN_SCORE = 0.4  # share of the question's word weight the sentence (and its headings) must hold
ADDED_SCORE = 0.6  # … to be added after codes that answer the question
_ASKS_CODE = re.compile(
    r"\b(codes?|fees?|what (can|do|should) (i|we) (bill|claim|charge)|which (code|premium)|what premium)\b", re.I
)


def with_prose(result: ScheduleGetResult, request: Request, sql: SqlFindings | None) -> ScheduleGetResult:
    if sql is None or not request.question or request.contradictions or result.billable is False:
        return result
    quotes = [q for q in sql.prose if q.score >= MIN_SCORE]
    if sql.uninsured and not request.codes:
        # 'can OHIP be billed?' for a service the Schedule says is uninsured so: its sentences are the answer, after
        # the best sentence found by the question's words when there is one (asked in more words than the
        # sentence holds, it is below MIN_SCORE)
        best = [q for q in quotes if q.ranked_by >= quotes[0].ranked_by - 1e-9][:1] if quotes else []
        more = [u for u in sql.uninsured if all(u.text not in b.text and b.text not in u.text for b in best)]
        return _led_by(
            result,
            best + more,
            "The Schedule says when this service is insured: check the patient's circumstances against the sentence "
            "quoted before billing OHIP.",
        )
    primary = (sql.asked or sql.matched)[:1]
    if quoted_rules(request, sql):
        if request.codes:
            return result  # the named code's own rule answers
    elif own := heading_quotes(sql):
        # the code's rule is in the prose under its heading, not in a rule block naming it
        code, quote = own[0]
        rule = f"Rule for {code} ({quote.page}): “{spaced_markers(quote.text)}”"
        result.summary = _before_source(result.summary, rule)
        return result
    if request.codes:
        # a sentence found by the code alone, sharing none of the question's other words, is not its answer
        named = [q for q in quotes if q.codes & set(request.codes) and q.worded]
        if not named:
            return cap_unfound_rule(result, request, sql)
        best_named = max(named, key=lambda q: q.score)  # the words decide among sentences naming the code
        result.summary = _before_source(result.summary, _quoted([best_named]))
        return result
    if not quotes:
        return result
    strong = bool(primary) and (sql.match_coverage is None or sql.match_coverage >= WEAK_MATCH)
    if strong and _ASKS_CODE.search(request.question):
        return result  # the codes found answer what was asked
    best = [q for q in quotes if q.ranked_by >= quotes[0].ranked_by - 1e-9][:2]  # a tie: both sentences
    if strong and set(asked_kinds(request.question)) <= {"percent"}:
        # 'is there a premium on the admission assessment?': the premium code found (E082, add 30%) may answer,
        # or the Schedule's prose on premiums may: two readings, so not stated as certain; the sentence is
        # added after the codes only when it holds most of the question
        if best[0].score >= ADDED_SCORE:
            result.summary = _before_source(result.summary, _quoted(best[:1]))
        result.confidence = min(result.confidence, UNSPECIFIC_CONFIDENCE)
        return result
    return _led_by(
        result,
        best,
        "Answered from the Schedule's own words (found by the question's words, no fee code named): check that the "
        "sentence quoted is the rule meant.",
    )


def _led_by(result: ScheduleGetResult, quotes: list[PreambleQuote], warning: str) -> ScheduleGetResult:
    """``result`` led by the Schedule's sentences, at the confidence of a quoted answer, with ``warning``."""
    result.summary = f"{_quoted(quotes)} {result.summary}"
    result.confidence = min(result.confidence, PROSE_CONFIDENCE) if result.confidence else PROSE_CONFIDENCE - 0.1
    result.warnings.append(warning)
    return result


def _quoted(quotes: list[PreambleQuote]) -> str:
    return " ".join(f"The Schedule ({q.page}, {_heading(q.topic)}): “{spaced_markers(q.text)}”" for q in quotes)


def _heading(topic: str) -> str:
    """The last heading that names something: 'HOSPITALIST PREMIUM', not the 'Definitions:' under it."""
    heads = [h.strip() for h in topic.split(" > ") if h.strip()]
    named = [h for h in heads if not _LABEL.match(h)]
    return (named or heads or ["the Schedule"])[-1]


def _before_source(summary: str, text: str) -> str:
    head, sep, tail = summary.rpartition(" Source: ")
    return f"{head} {text}{sep}{tail}" if sep else f"{summary} {text}"


def cap_unspecific(result: ScheduleGetResult, request: Request, sql: SqlFindings | None) -> ScheduleGetResult:
    """A code found by words is not stated as certain when the evidence is not specific: its title lacks a
    word of the question that says what the service is ('WSIB', 'frail'), or the question said the service in
    one word only ('annual physical for a 70 year old': 'physical' alone found A425 Physical medicine)."""
    if sql is None or sql.asked or not sql.matched or result.confidence < UNSPECIFIC_CONFIDENCE:
        return result
    one_word = len(request.words) == 1
    minority = sql.match_coverage is not None and sql.match_coverage < STATED_SHARE
    if not sql.lacking_distinct and not one_word and not minority:
        return result
    result.confidence = min(result.confidence, UNSPECIFIC_CONFIDENCE)
    if sql.lacking_distinct:
        why = f"its title lacks the question's words {', '.join(sql.lacking_distinct[:5])}"
    elif one_word:
        why = f"the question names the service in one word ({request.words[0]!r})"
    else:
        why = f"its title holds less than half of the question (it lacks {', '.join(sql.match_lacking[:5])})"
    result.warnings.append(f"{sql.matched[0]} was found by words but {why}: check that it is the service meant.")
    return result
