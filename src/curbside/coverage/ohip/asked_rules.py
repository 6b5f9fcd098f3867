"""Whether the rule a question asks about a code was found, and the rules a code's heading holds.

"Can I bill K032 if all I did was an MMSE?" names its code and asks whether it is payable: an answer that
gives K032's fee without the rule asked (the MMSE 'is not considered acceptable', A53) reads as "yes" and
misleads, so when none of the code's rules says the kind of thing asked, the answer is not stated as certain
and says the rule was not found. Some codes' rules are not in a rule block naming them but in the prose under
their heading ('Geriatric psychiatric consultation … Maximum one per patient per physician every 5 years.',
A169, above A795): a sentence the question's words found under the heading that is the code's title is that
code's rule.
"""

from __future__ import annotations

from curbside.coverage.ohip.preamble_quotes import PreambleQuote
from curbside.coverage.ohip.query import Request, stem, words_of
from curbside.coverage.ohip.rule_quotes import RuleQuote, asked_rule_kinds, rule_quotes
from curbside.coverage.ohip.sql_path import SqlFindings
from curbside.coverage.ohip.tool import ScheduleGetResult

__all__ = ["UNFOUND_CONFIDENCE", "cap_unfound_rule", "heading_quotes", "primary_codes", "quoted_rules"]

UNFOUND_CONFIDENCE = 0.6  # below the 0.7 at which an answer reads as certain
PRIMARY = 3  # the codes an answer states (merge shows three)
_KIND_WORDS = {
    "limit": "a limit",
    "time": "a time",
    "payable": "whether it is payable",
    "rate": "the share of the fee paid",
}


def primary_codes(sql: SqlFindings) -> list[str]:
    return (sql.asked or sql.matched)[:PRIMARY]


def quoted_rules(request: Request, sql: SqlFindings) -> list[RuleQuote]:
    """The rule blocks' sentences the answer quotes (as ``merge`` does) for the answer's codes."""
    codes = primary_codes(sql)
    rules = [rule for code in codes for rule in sql.rules.get(code, [])]
    return rule_quotes(request.question, rules, codes[0] if codes else None)


def heading_quotes(sql: SqlFindings) -> list[tuple[str, PreambleQuote]]:
    """(code, sentence) of the prose sentences found under a heading that is an answer code's title."""
    titles = {code: _words(sql.titles.get(code, "")) for code in primary_codes(sql)}
    out: list[tuple[str, PreambleQuote]] = []
    for quote in sql.prose:
        heading = _words(quote.topic.rsplit(" > ", 1)[-1])
        code = next((c for c, title in titles.items() if heading and heading == title), None)
        if code is not None:
            out.append((code, quote))
    return out


def cap_unfound_rule(result: ScheduleGetResult, request: Request, sql: SqlFindings) -> ScheduleGetResult:
    """The answer to a rule question about a code it names, none of whose rules says what was asked."""
    kinds = asked_rule_kinds(request.question or "")
    if not sql.asked or not kinds or result.confidence < UNFOUND_CONFIDENCE:
        return result
    codes = ", ".join(sql.asked)
    asked = " or ".join(_KIND_WORDS[k] for k in kinds)
    result.confidence = UNFOUND_CONFIDENCE
    note = (
        f"No rule of {codes} found in the Schedule says what was asked ({asked}): check its payment rules and "
        "the General Preamble before billing."
    )
    head, sep, tail = result.summary.rpartition(" Source: ")
    result.summary = f"{head} {note}{sep}{tail}" if sep else f"{result.summary} {note}"
    result.warnings.append(note)
    result.follow_up = result.follow_up or (
        f"What exactly do you need to know about {codes}: its limit, its time requirement, or whether it is "
        "payable with another service or in this situation?"
    )
    return result


def _words(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in words_of(text))
