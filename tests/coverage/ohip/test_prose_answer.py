"""Where the Schedule's prose goes in a schedule.get answer, and when a code found by words is not stated
as certain. Sentences and titles are the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt)."""

from __future__ import annotations

from curbside.coverage.ohip.preamble_quotes import PreambleQuote
from curbside.coverage.ohip.prose_answer import PROSE_CONFIDENCE, UNSPECIFIC_CONFIDENCE, cap_unspecific, with_prose
from curbside.coverage.ohip.query import plan
from curbside.coverage.ohip.sql_path import SqlFindings
from curbside.coverage.ohip.store import EditionRecord
from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult

_EDITION = EditionRecord(1, "2025-02-14", "2025-03-03", None, "ohip.txt", "0" * 64, {}, "2025-03-03T00:00:00")
_LIMIT = PreambleQuote(  # GP17
    "Consultations rendered to the same patient by the same physician for the same diagnosis are limited to one "
    "service per two consecutive 12 month periods",
    "GP17",
    "GP: Consultations > CONSULTATION",
    0.9,
    frozenset(),
)


def _result(summary: str, confidence: float) -> ScheduleGetResult:
    return ScheduleGetResult(query="q", summary=summary, provenance=["sql"], confidence=confidence, schedule=None)


def test_a_rule_question_naming_no_code_leads_with_the_sentence_and_is_not_certain() -> None:
    question = "how often can the same doctor bill a consultation for the same patient with the same diagnosis?"
    sql = SqlFindings(_EDITION, matched=["A191"], match_coverage=1.0, prose=[_LIMIT])
    out = with_prose(
        _result("A191 Geriatric psychiatric consultation: $237.45. Source: X.", 0.96),
        plan(ScheduleGetArgs(q=question)),
        sql,
    )
    assert out.summary.startswith("The Schedule (GP17, CONSULTATION): “Consultations rendered")
    assert out.confidence == PROSE_CONFIDENCE


def test_a_code_question_keeps_the_codes_answer() -> None:
    sql = SqlFindings(_EDITION, matched=["A005"], match_coverage=1.0, prose=[_LIMIT])
    before = "A005 Consultation: $87.90. Source: X."
    out = with_prose(_result(before, 0.96), plan(ScheduleGetArgs(q="what's the fee code for a consultation?")), sql)
    assert out.summary == before and out.confidence == 0.96


def test_a_code_whose_title_lacks_a_distinct_word_of_the_question_is_not_certain() -> None:
    request = plan(ScheduleGetArgs(q="complex house call assessment on a frail elderly patient"))
    sql = SqlFindings(_EDITION, matched=["A900"], match_coverage=0.47, lacking_distinct=["frail", "elderly"])
    out = cap_unspecific(_result("A900 Complex house call assessment: $54.50.", 1.0), request, sql)
    assert out.confidence == UNSPECIFIC_CONFIDENCE and "frail" in out.warnings[-1]


def test_one_word_is_not_a_service() -> None:
    # ('annual physical' is read as the Schedule's 'periodic health visit': test_everyday_words.py)
    request = plan(ScheduleGetArgs(q="a physical for a 70 year old, what code and fee?"))
    assert request.words == ("physical",)  # the age is a band, not a service word
    sql = SqlFindings(_EDITION, matched=["A425"], match_coverage=1.0)
    out = cap_unspecific(
        _result("A425 Comprehensive physical medicine and rehabilitation consultation.", 1.0), request, sql
    )
    assert out.confidence == UNSPECIFIC_CONFIDENCE
    asked = SqlFindings(_EDITION, asked=["A425"])
    assert cap_unspecific(_result("A425 …", 1.0), request, asked).confidence == 1.0


def test_a_quoted_sentence_keeps_its_list_items_first_words_apart() -> None:
    rule = PreambleQuote(  # S28
        "Payment rules: S247 and Z565 are only insured when the patient has: a.failed a trial of non-surgical "
        "therapy; b.Grade III or IV haemorrhoids; or c.haemorrhoids with substantial concomitant skin tags.",
        "S28",
        "S: Rectum > RECTUM EXCISION",
        0.9,
        frozenset({"S247", "Z565"}),
    )
    question = "pt wants her grade II piles removed surgically - is haemorrhoidectomy insured?"
    sql = SqlFindings(_EDITION, matched=["S247"], match_coverage=0.3, prose=[rule])
    before = _result("S247 Haemorrhoidectomy: $260.15. Source: X.", 0.5)
    out = with_prose(before, plan(ScheduleGetArgs(q=question)), sql)
    assert "b. Grade III or IV haemorrhoids" in out.summary
