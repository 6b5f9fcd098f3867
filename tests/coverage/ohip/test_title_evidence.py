"""Which codes a plain-words question is answered with, and how sure the answer is (#14): a title that is the
service asked keeps its siblings out, a listing's headings find it, a definition under its title is its rule,
a title holding under half the question is not certain. Titles, headings and sentences are the Schedule's own
(ohip-schedule-of-benefits-2025-03-03.txt; page in each comment)."""

from __future__ import annotations

from dataclasses import replace

from curbside.coverage.ohip.listing_headings import listing_headings
from curbside.coverage.ohip.prose_answer import UNSPECIFIC_CONFIDENCE, cap_unspecific
from curbside.coverage.ohip.query import WordIndex, plan
from curbside.coverage.ohip.rule_quotes import rule_quotes
from curbside.coverage.ohip.siblings import by_said_tail, the_service_asked, untold_siblings
from curbside.coverage.ohip.sql_path import SqlFindings, titled_as_own
from curbside.coverage.ohip.store import EditionRecord, RuleRow
from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult

_EDITION = EditionRecord(1, "2025-02-14", "2025-03-03", None, "ohip.txt", "0" * 64, {}, "2025-03-03T00:00:00")
_TITLES = [
    ("P003", "General assessment (major prenatal visit)", ""),  # K4
    ("P004", "Minor prenatal assessment", ""),  # K4
    ("A665", "Prenatal consultation", ""),  # A46
    ("A002", "Enhanced 18 month well baby visit (see General Preamble GP34)", ""),  # A2
    ("A268", "Enhanced 18 month well baby visit (see General Preamble GP34)", ""),  # A156
    ("A007", "Intermediate assessment or well baby care", ""),  # A2
    ("A001", "Minor assessment", ""),  # A2
    ("A003", "General assessment", ""),  # A2
    ("C124", "Subsequent visit by the MRP - day of discharge", ""),  # GP45
    # 'visit' is among the Schedule's commonest words (so it weighs little beside 'minor' or 'prenatal')
    ("C122", "Subsequent visit by the MRP - day following the hospital admission assessment", ""),  # GP45
    ("C002", "Subsequent visits - first five weeks", ""),  # A10
    ("C007", "Subsequent visits - sixth to thirteenth week inclusive", ""),  # A10
    ("C009", "Subsequent visits - after thirteenth week", ""),  # A10
    ("K017", "Periodic health visit - child", ""),  # A3
    ("K131", "Periodic health visit - adult age 18 to 64 inclusive", ""),  # A3
    ("K132", "Periodic health visit - adult 65 years of age and older", ""),  # A3
    ("A900", "Complex house call assessment", ""),  # A3
]


def _ranked(index: WordIndex, question: str) -> tuple[list[str], tuple[str, ...]]:
    words = plan(ScheduleGetArgs(q=question)).words
    return [code for code, _ in index.match(words, 6)], words


def test_the_title_that_is_the_service_keeps_its_siblings_out() -> None:
    index = WordIndex(_TITLES)
    found, words = _ranked(index, "fee for a minor prenatal visit?")
    assert found[:2] == ["P004", "P003"]  # P003 shares 'prenatal' and 'visit'
    assert the_service_asked(found, words, index) == ["P004"]
    found, words = _ranked(index, "what's the code and fee for the 18 month well baby visit?")
    assert found[:3] == ["A002", "A268", "A007"]
    assert the_service_asked(found, words, index) == ["A002", "A268"]  # one title in two sections: both kept


def test_when_no_title_is_the_service_every_reading_is_kept() -> None:
    index = WordIndex(_TITLES)
    found, words = _ranked(index, "prenatal visit on the day of discharge")  # no title holds most of it
    assert len(found) > 1 and index.coverage(words, found[0])[0] < 0.8
    kept = the_service_asked(found, words, index)
    assert found[0] == "C124" and "P004" in kept and "A665" in kept  # the prenatal reading stays beside C124
    # … but a title holding only 'visit' of C124's 'visit', 'day', 'discharge' is C124's reading, less said
    assert "C009" in found and "C009" not in kept


def test_a_code_is_found_by_the_headings_its_listing_sits_under() -> None:
    passages = [  # the passages' own layout: title path line, blank line, listing lines (J55)
        (
            "ohip-j52-injections-or-infusions",
            "INTRAMUSCULAR, SUBCUTANEOUS OR INTRADERMAL [J55]",
            "OHIP Schedule 2025-03-03 — J: Injections or Infusions > INTRAMUSCULAR, SUBCUTANEOUS OR INTRADERMAL [J55]"
            "\n\nG372 with visit (each injection): $3.89\nG373 sole reason (first injection): $6.75\n\n"
            "Note: 1.G372, G373 includes interpretation.",
        )
    ]
    headings = listing_headings(passages)
    assert headings == {
        "G372": "Injections or Infusions > INTRAMUSCULAR, SUBCUTANEOUS OR INTRADERMAL",
        "G373": "Injections or Infusions > INTRAMUSCULAR, SUBCUTANEOUS OR INTRADERMAL",
    }  # a code named in a note ('1.G372') is not a listing line
    index = WordIndex(
        [("G373", "sole reason (first injection)", headings["G373"]), ("Z227", "Intramuscular abscess", "")]
    )
    words = plan(ScheduleGetArgs(q="patient came in only for an intramuscular injection, code and fee?")).words
    assert [code for code, _ in index.match(words, 2)][0] == "G373"


def _rule(heading: str, text: str, relation: str) -> RuleRow:
    return RuleRow(1, heading, "text", "K4", text, "Prenatal Care", "K", relation, "P005")  # type: ignore[arg-type]


def test_a_definition_under_the_codes_title_is_its_own_rule_and_its_limit_is_quoted() -> None:
    definition = _rule(  # K4, above the listing line 'P005 Antenatal preventative health assessment'
        "Antenatal preventative health assessment",
        "The service rendered by the most responsible physician for conducting the initial review of antenatal "
        "risk. Maximum once per pregnancy. P005 rendered same patient same day same physician as any other "
        "consultation or visit except P003 and P004 is an insured service payable at nil.",
        "mention",
    )
    elsewhere = _rule("Initial discussion with patient re: smoking cessation", "E079 is payable with P005.", "mention")
    rules = titled_as_own([definition, elsewhere], "Antenatal preventative health assessment")
    assert [r.relation for r in rules] == ["subject", "mention"]
    quotes = rule_quotes("how often can I bill the antenatal preventative health assessment?", rules)
    assert quotes and quotes[0].text == "Maximum once per pregnancy."
    assert rule_quotes("how often can I bill the antenatal preventative health assessment?", [definition]) == []


def test_a_title_holding_under_half_the_question_is_not_certain() -> None:
    request = plan(ScheduleGetArgs(q="suturing a 3 cm cut on the face, what code and fee?"))
    # G268 'Cannulation of artery for pressure measurements including cut down as necessary' (J7): 'cut' only
    sql = SqlFindings(_EDITION, matched=["G268"], match_coverage=0.45, match_lacking=["sutur", "face"])
    result = ScheduleGetResult(query="q", summary="G268 …", provenance=["sql"], confidence=0.96, schedule=None)
    out = cap_unspecific(result, request, sql)
    assert out.confidence == UNSPECIFIC_CONFIDENCE and "less than half" in out.warnings[-1]
    result.confidence, result.warnings = 0.96, []
    sql.match_coverage = 0.55  # more than half: left as it was
    assert cap_unspecific(result, request, sql).confidence == 0.96


def test_a_title_with_a_further_service_joined_on_is_not_the_service_asked() -> None:
    index = WordIndex(
        [
            ("P018", "Caesarean section", ""),  # K6
            ("P041", "Caesarean section including tubal interruption", ""),  # K6
            ("P042", "Caesarean section including hysterectomy", ""),  # K6
        ]
    )
    found, words = _ranked(index, "emerg c-section tonight, I'm the surgeon - code & fee?")
    assert set(found) == {"P018", "P041", "P042"} and found[0] == "P018"
    assert the_service_asked(found, words, index) == ["P018"]
    # a question naming the further service keeps the larger service (its title is then not said whole)
    found, words = _ranked(index, "c-section with a tubal interruption, code?")
    assert found[0] == "P041" and the_service_asked(found, words, index)[0] == "P041"


def test_a_sibling_holding_every_word_the_first_holds_is_one_the_question_does_not_tell_apart() -> None:
    index = WordIndex(_TITLES)
    found, words = _ranked(index, "what's the code and fee for the 18 month well baby visit?")
    # A268 is A002's own title in another section: the same service, not another reading
    assert untold_siblings(the_service_asked(found, words, index), words, index) == []
    found, words = _ranked(index, "prenatal visit on the day of discharge")
    kept = the_service_asked(found, words, index)
    # P004 "Minor prenatal assessment" holds 'prenatal', not C124's 'visit', 'day', 'discharge': told apart
    assert kept[0] == "C124" and untold_siblings(kept, words, index) == []
    # J138 "Intracavitary ultrasound* (e.g. transrectal, transvaginal)" and J165 "Transvaginal sonohysterography …"
    # (G6) both hold 'transvaginal' of 'transvaginal pelvic US': two readings the words do not choose between
    index = WordIndex(
        [
            ("J138", "Intracavitary ultrasound* (e.g. transrectal, transvaginal)", ""),
            ("J165", "Transvaginal sonohysterography - may include saline or other intracavitary contrast media", ""),
        ]
    )
    words = plan(ScheduleGetArgs(q="transvaginal pelvic US - which J code?")).words
    assert untold_siblings(["J138", "J165"], words, index) == ["J165"]
    # a question saying the first's title whole names it: A903 (A2) holds 'general assessment' too, yet is told apart
    index = WordIndex([("A003", "General assessment", ""), ("A903", "Pre-dental/pre-operative general assessment", "")])
    words = plan(ScheduleGetArgs(q="fee for a general assessment by a family doctor?")).words
    assert untold_siblings(["A003", "A903"], words, index) == []


def test_twins_told_apart_by_their_tail_follow_the_word_the_question_says() -> None:
    # A179: A330 / A332 "Radiology second opinion of CT or MRI Study: … of CT / MRI study, per study"; J54:
    # G202 / G212 "Hyposensitisation - each injection / - when sole reason for visit (including first injection)"
    titles = {
        "A330": "Radiology second opinion of CT or MRI Study: Radiology second opinion of CT study, per study",
        "A332": "Radiology second opinion of CT or MRI Study: Radiology second opinion of MRI study, per study",
        "G202": "Hyposensitisation - each injection",
        "G212": "Hyposensitisation - when sole reason for visit (including first injection)",
    }
    mri = "radiologist - outside hospital sent us their brain MRI for a written 2nd opinion read. code + fee?"
    assert by_said_tail(["A330", "A332"], mri, titles) == ["A332"]
    assert by_said_tail(["A330", "A332"], "outside CT abdo sent for a formal second opinion read", titles) == ["A330"]
    assert by_said_tail(["A330", "A332"], "radiology second opinion, code?", titles) == ["A330", "A332"]
    # a long tail says more than which twin it is: 'visit' of G212's does not choose it
    visit = "allergy shot given + I did a visit for something else same day - code for the injection?"
    assert by_said_tail(["G202", "G212"], visit, titles) == ["G202", "G212"]


def test_an_answer_stating_a_sibling_the_question_does_not_tell_apart_is_not_confident() -> None:
    from curbside.coverage.ohip.merge import WEAK_MATCH_CONFIDENCE, merge

    request = plan(ScheduleGetArgs(q="transvaginal pelvic US - which J code?"))
    titles = {"J138": "Intracavitary ultrasound", "J165": "Transvaginal sonohysterography"}
    told = SqlFindings(_EDITION, matched=["J138", "J165"], match_coverage=1.0, titles=titles)
    untold = replace(told, untold=["J165"])
    assert merge(request, told, None, []).confidence > WEAK_MATCH_CONFIDENCE
    assert merge(request, untold, None, []).confidence == WEAK_MATCH_CONFIDENCE
