"""Which Limited Use criterion a question's words describe, on the real criteria of vancomycin 125mg capsules
(ODB Formulary Edition 43, lccNotes 557-560 of its group, first paragraphs as printed)."""

from __future__ import annotations

from types import SimpleNamespace

from curbside.coverage.odb.merge import _lu
from curbside.coverage.odb.query import plan
from curbside.coverage.odb.store import LuNoteRow
from curbside.coverage.odb.tool import OdbGetArgs

_VANCOMYCIN = [
    LuNoteRow(
        "001",
        None,
        "557",
        "For the treatment of initial episodes of Clostridium difficile infection; mild cases, if no response or "
        "intolerance to an adequate trial of oral metronidazole*:",
    ),
    LuNoteRow("002", "R", None, "LU Authorization Period: 14 days"),
    LuNoteRow(
        "003",
        None,
        "558",
        "For the treatment of initial episodes of Clostridium difficile infection; moderate or severe, "
        "uncomplicated cases*:",
    ),
    LuNoteRow("004", "R", None, "LU Authorization Period: 14 days"),
    LuNoteRow(
        "005",
        None,
        "559",
        "For the treatment of recurrent Clostridium difficile infection (CDI), first recurrence, mild to "
        "moderate* or severe, uncomplicated* cases:",
    ),
    LuNoteRow("006", "R", None, "LU Authorization Period: 14 days"),
    LuNoteRow(
        "007",
        None,
        "560",
        "For the treatment of recurrent Clostridium difficile infection (CDI), second or subsequent recurrences, "
        "mild to moderate* or severe, uncomplicated* cases:",
    ),
    LuNoteRow("008", "R", None, "LU Authorization Period: 13 Weeks"),
]


def _matching(question: str) -> list[str]:
    sql = SimpleNamespace(primary=SimpleNamespace(name="Vancocin", generic_name="VANCOMYCIN HCL"), lu_notes=_VANCOMYCIN)
    criteria = _lu(sql, plan(OdbGetArgs(q=question)))  # type: ignore[arg-type]
    return [c.reason_for_use_code or "" for c in criteria if c.matches_condition]


def test_the_criterion_saying_most_of_the_questions_words_is_the_one() -> None:
    # 'recurrence' is in 559 and 560; '1st' is 559's 'first recurrence'
    question = "C diff came back 3 wks after tx - 1st recurrence, not complicated. PO vancomycin 125 qid - LU code?"
    assert _matching(question) == ["559"]
    assert _matching("vancomycin 125 for a 2nd recurrence of c diff - LU code?") == ["560"]


def test_a_condition_every_criterion_says_marks_them_all() -> None:
    # the summary then gives every code: none is singled out
    assert _matching("vancomycin 125 for clostridium difficile - LU code?") == ["557", "558", "559", "560"]


def test_criteria_saying_as_many_of_the_words_are_all_the_questions() -> None:
    # 'initial' is 557's and 558's, 'first' 559's: one word each, so none is preferred over the others
    assert _matching("vancomycin 125 for a first, initial c diff - LU code?") == ["557", "558", "559"]


# celecoxib's group (ODB Formulary Edition 43, lccNotes 001-010): osteoarthritis 316, rheumatoid arthritis 317
_CELECOXIB = [
    LuNoteRow("001", "T", None, "Osteoarthritis"),
    LuNoteRow(
        "002",
        None,
        "316",
        "For patients who have failed an adequate trial of acetaminophen (e.g. acetaminophen 1g QID for several "
        "weeks) and have had:",
    ),
    LuNoteRow(
        "003",
        "R",
        None,
        "History of a documented, clinically significant ulcer or GI bleed; or\nFailure or intolerance to at "
        "least three listed NSAIDS.",
    ),
    LuNoteRow("006", "T", None, "Rheumatoid arthritis"),
    LuNoteRow("007", None, "317", "For patients who have had:"),
]


def test_a_brand_named_is_its_ingredient_in_the_criteria() -> None:
    # Tylenol is acetaminophen (the offline drug lexicon): the criterion for those who failed acetaminophen
    sql = SimpleNamespace(primary=SimpleNamespace(name="Celebrex", generic_name="CELECOXIB"), lu_notes=_CELECOXIB)
    question = "74F knee OA, tylenol 1g qid didn't cut it, had a GI bleed on naproxen - celecoxib on ODB? LU code?"
    criteria = _lu(sql, plan(OdbGetArgs(q=question)))  # type: ignore[arg-type]
    assert [c.reason_for_use_code for c in criteria if c.matches_condition] == ["316"]
