"""A clerk's shorthand and everyday names read in the Schedule's words ('lac', 'bx', 'c-section', 'f/u',
'e-consult', 'yearly physical'), against titles as the 2025-03-03 text prints them."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from curbside.app import Curbside
from curbside.coverage.ohip.query import WordIndex, in_schedule_phrases, plan, stem, words_of
from curbside.coverage.ohip.tool import ScheduleGetArgs


def _words(question: str) -> tuple[str, ...]:
    return plan(ScheduleGetArgs(q=question)).words


def test_shorthand_is_read_as_the_schedules_word() -> None:
    assert {stem("laceration"), stem("suture")} <= set(_words("sutured a 7 cm lac, 3 stitches"))
    assert stem("biopsy") in _words("punch bx of a mole")
    assert stem("injection") in _words("gave her b12 shot")
    assert {stem("caesarean"), stem("section")} <= set(_words("emerg c-section tonight"))
    assert stem("follow") in _words("f/u visit just on smoking today")
    assert {stem("periodic"), stem("health")} <= set(_words("16yo in for her yearly physical"))
    assert {stem("tissue"), stem("adhesive")} <= set(_words("closed it w/ skin glue"))


def test_a_phrase_is_replaced_only_as_whole_words() -> None:
    assert in_schedule_phrases("f/u w/ pt") == "follow-up with pt"
    assert in_schedule_phrases("the physical exam was normal") == "the physical exam was normal"
    assert in_schedule_phrases("abc-section") == "abc-section"


def test_an_e_prefixed_word_is_one_word() -> None:
    # 'e-consultation' is not a telephone 'consultation' (K738 / K734), as 're-assessment' is no 'assessment'
    assert words_of("Physician to physician e-consultation") == ["physician", "to", "physician", "econsultation"]
    assert words_of("re-assessment") == ["reassessment"]


def _title(text: str, code: str) -> str:
    line = next(line for line in text.split("\n") if re.match(rf"^[#+]?\s?{code} ", line))
    return line[len(code) + 1 :].split("..")[0].strip()


def test_an_e_consult_finds_the_e_consultation_not_the_telephone_one(ohip_text: Path) -> None:
    text = ohip_text.read_text(encoding="utf-8")
    codes = ["K734", "K735", "K738", "K739"]  # A37 telephone, A43 e-consultation
    index = WordIndex((code, _title(text, code), "") for code in codes)
    words = _words("sent an e-consult to derm thru the OTN platform, I'm the referring GP - can I bill?")
    assert index.match(words, 2)[0][0] == "K738"


def test_a_teen_annual_physical_is_the_adolescent_periodic_health_visit(ohip_app: Curbside) -> None:
    # A2: 'Periodic health visit K017 child … K130 adolescent …' 45.25 / 77.20; GP 'adolescent: 16 or 17 years'
    service = ohip_app.coverage_service("ohip")
    service.warm_up()  # the indexes are built outside the SQL path's timeout, as a server does
    result = asyncio.run(service.get(ScheduleGetArgs(q="16yo in for her yearly physical - which code + fee?")))
    assert result.items and result.items[0].code == "K130"
    assert "77.20" in result.summary and "K017" not in result.summary and "K131" not in result.summary


def test_an_ordinal_in_figures_is_its_word() -> None:
    """'4th degree tear' is the Schedule's 'fourth degree tear' (P046), so the twin titles' tails tell it from
    P045's 'third degree tear': with the figures read as nothing, P045 was listed first at confidence 1.0."""
    assert words_of("a 4th degree tear, 2nd visit") == ["a", "fourth", "degree", "tear", "second", "visit"]
    assert words_of("Repair of fourth degree tear") == ["repair", "of", "fourth", "degree", "tear"]
    assert stem("fourth") in _words("repaired a 4th degree tear after a vaginal delivery - separate code? fee?")
    assert stem("third") not in _words("repaired a 4th degree tear after a vaginal delivery - separate code? fee?")
