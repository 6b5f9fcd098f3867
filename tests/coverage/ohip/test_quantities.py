"""The numbers a clerk writes that choose one code of a banded family: ages in shorthand, the General Preamble's
age words, a wound's size in cm; each band read from the Schedule's own titles (2025-03-03 text)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from curbside.coverage.ohip.quantities import AGE_WORDS, age_words, asked_quantities, fit
from curbside.coverage.ohip.query import WordIndex, plan
from curbside.coverage.ohip.sql_path import in_band, without_ruled_out_words
from curbside.coverage.ohip.tool import ScheduleGetArgs


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("16yo in for her yearly physical", {"age": 16}),
        ("respirologist - 45 yo referred by her GP", {"age": 45}),
        ("45 y/o man, consult", {"age": 45}),
        ("sutured a 7 cm simple lac on the forearm", {"cm": 7}),
        ("closed a 2.5cm scalp lac", {"cm": 2.5}),
        ("rad onc clinic - new referral, 67M intermediate risk prostate ca", {"age": 67}),
        ("GI office - FP referral, 52 F w/ iron def anemia", {"age": 52}),
        ("the call lasted 15m", {}),  # minutes, not a man of 15
    ],
)
def test_a_clerks_shorthand_for_an_age_or_a_size_is_read(question: str, asked: dict[str, float]) -> None:
    assert asked_quantities(question) == asked


def _title(text: str, code: str) -> str:
    """The line listing ``code``, without its leader dots: the title as the Schedule prints it."""
    line = next(line for line in text.split("\n") if re.match(rf"^[#+]?\s?{code} ", line))
    return line.split("..")[0]


def test_age_bands_in_the_schedules_own_words(ohip_text: Path) -> None:
    text = ohip_text.read_text(encoding="utf-8")
    # A183 'A765 Consultation, patient 16 years of age and under'; U1 'S573 - for patients aged one year or older',
    # 'S577 - for infants less than one year of age'
    assert fit({"age": 45}, _title(text, "A765")) == -1
    assert fit({"age": 12}, _title(text, "A765")) == 1
    assert fit({"age": 5}, _title(text, "S573")) == 1
    assert fit({"age": 5}, _title(text, "S577")) == -1
    # A2 'K130 adolescent', 'K017 child': the General Preamble's age words
    assert fit({"age": 16}, _title(text, "K130")) == 1
    assert fit({"age": 16}, _title(text, "K017")) == -1
    assert age_words("16yo in for her yearly physical") == ["adolescent"]


def test_size_bands_in_the_schedules_own_words(ohip_text: Path) -> None:
    text = ohip_text.read_text(encoding="utf-8")
    # M14 'Repair of lacerations': 'Z176 - up to 5 cm', 'Z175 - 5.1 to 10 cm'
    assert fit({"cm": 7}, _title(text, "Z175")) == 1
    assert fit({"cm": 7}, _title(text, "Z176")) == -1
    assert fit({"cm": 2}, _title(text, "Z176")) == 1
    assert fit({"cm": 2}, _title(text, "Z175")) == -1


def test_the_age_words_are_the_general_preambles_definitions(ohip_text: Path) -> None:
    text = " ".join(ohip_text.read_text(encoding="utf-8").split())
    defined = text[text.index("A. Age Definitions") : text.index("B. Time Definitions")]
    assert "adolescent a person 16 or 17 years of age" in defined
    assert "adult a person 18 years of age and older" in defined
    assert "child a person 2 years to and including 15 years of age" in defined
    assert "infant a person from 29 days up to, and less than, 2 years of age" in defined
    assert "newborn a person from birth up to, and including, 28 days of age" in defined
    assert AGE_WORDS["adolescent"] == (16, 17) and AGE_WORDS["adult"][0] == 18 and AGE_WORDS["child"] == (2, 15)
    assert AGE_WORDS["infant"] == (0, 1) and AGE_WORDS["newborn"] == (0, 0)


def test_a_code_the_question_rules_out_does_not_come_back_by_its_band(ohip_text: Path) -> None:
    # M14: Z177 '- 5.1 to 10 cm if on face and/or requires tying of bleeders and/ or closure in layers' holds 7 cm
    # as Z175 '- 5.1 to 10 cm' does; '(not face, single layer, no bleeders tied)' rules it out
    text = ohip_text.read_text(encoding="utf-8")
    question = "sutured a 7 cm simple lac on the forearm (not face, single layer, no bleeders tied) - code & fee?"
    titles = {code: "Repair of lacerations " + _title(text, code) for code in ("Z175", "Z176", "Z177")}
    index = WordIndex((code, title, "") for code, title in titles.items())
    request = plan(ScheduleGetArgs(q=question))
    wide = {"Z177": 10.0, "Z175": 9.5, "Z176": 9.5}
    unruled = set(without_ruled_out_words(list(wide), request.ruled_out, index))
    assert unruled == {"Z175", "Z176"}
    kept = in_band(["Z175", "Z176"], {c: s for c, s in wide.items() if c in unruled}, question, titles)
    assert kept == ["Z175"]


def test_a_recordings_length_chooses_its_band(ohip_text: Path) -> None:
    text = ohip_text.read_text(encoding="utf-8")
    assert asked_quantities("cardiologist reading a 48 hr holter (level 1)") == {"hours": 48}
    assert asked_quantities("24h holter") == {"hours": 24}
    # J16 'G651 - technical component - 12 to 35 hours recording'; the others are printed in a column beside their
    # codes: 'G658 - professional component - 36 to 59 hours recording', 'G659 … 60 hours to 13 days recording',
    # 'G649 … 14 or more days recording'
    assert fit({"hours": 24}, _title(text, "G651")) == 1
    assert fit({"hours": 48}, _title(text, "G651")) == -1
    for line, held, excluded in (
        ("- professional component - 36 to 59 hours recording", 48, 24),
        ("- professional component - 60 hours to 13 days recording", 72, 48),
        ("- professional component - 14 or more days recording", 14 * 24, 13 * 24),
    ):
        assert line in text
        assert fit({"hours": held}, line) == 1
        assert fit({"hours": excluded}, line) == -1


def test_a_studys_length_in_minutes_chooses_its_hour_band(ohip_text: Path) -> None:
    text = ohip_text.read_text(encoding="utf-8")
    # J110 'A. Incomplete overnight sleep studies': J898 'Sleep study less than 1 hour', J899 '… between 1 and 4
    # hours', J990 '… more than 4 hours'
    titles = {
        "J898": "Sleep study less than 1 hour",
        "J899": "Sleep study between 1 and 4 hours",
        "J990": "Sleep study more than 4 hours",
    }
    for title in titles.values():
        assert title in " ".join(text.split())
    asked = asked_quantities("overnight PSG, the pt pulled the leads + left after 40 min in bed")
    assert asked == {"hours": 40 / 60}
    assert [code for code, title in titles.items() if fit(asked, title) == 1] == ["J898"]
    assert [code for code, title in titles.items() if fit({"hours": 2}, title) == 1] == ["J899"]
    assert [code for code, title in titles.items() if fit({"hours": 6}, title) == 1] == ["J990"]
    assert asked_quantities("48 hr holter, 30 min to read") == {"hours": 48}  # hours given: minutes add nothing


def test_a_groups_size_in_people_chooses_its_band(ohip_text: Path) -> None:
    # A19, Family Practice psychotherapy: "Group - per member - first 12 units per day" K019 '- 2 people', K012
    # '- 4 people', K024 '- 5 people', K025 '- 6 to 12 people'
    text = ohip_text.read_text(encoding="utf-8")
    lines = {code: _title(text, code) for code in ("K019", "K012", "K024", "K025")}
    asked = asked_quantities("FP running a weekly CBT group, 5 pts came today - per-member code?")
    assert asked == {"patients": 5}
    assert [code for code, line in lines.items() if fit(asked, line) == 1] == ["K024"]
    assert [code for code, line in lines.items() if fit({"patients": 8}, line) == 1] == ["K025"]


def test_a_gestation_in_weeks_chooses_the_termination_code() -> None:
    # Corpus Uteri V7: S752 'induced - by any surgical technique up to and including 14 weeks gestation', S785
    # '… after 14 weeks of gestation'; clinicians write 'wks'
    assert asked_quantities("surgical termination at 17 wks by D&E") == {"week": 17.0}
    s752 = "induced - by any surgical technique up to and including 14 weeks gestation"
    s785 = "induced - by any surgical technique after 14 weeks of gestation"
    assert (fit({"week": 17.0}, s752), fit({"week": 17.0}, s785)) == (-1, 1)
    assert (fit({"week": 10.0}, s752), fit({"week": 10.0}, s785)) == (1, -1)
