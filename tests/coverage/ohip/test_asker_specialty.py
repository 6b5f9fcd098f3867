"""The section billed under is the asker's, not that of a practitioner the question names as someone else.

Section names and codes are the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt, table of contents):
"Family Practice & Practice in General (00)", "Orthopaedic Surgery (06)", "Paediatrics (26)". H007 "Attendance at
maternal delivery for care of high risk baby(ies)" is a Family Practice listing (A11); Z203 "Arm, forearm or wrist"
(cast application) is under General Fees (N7), in no specialty's section.
"""

from __future__ import annotations

import pytest

from curbside.app import Curbside
from curbside.coverage.ohip.query import asker_words, plan
from curbside.coverage.ohip.service import OhipService
from curbside.coverage.ohip.sql_path import Specialty, SqlFindings, _specialty
from curbside.coverage.ohip.tool import ScheduleGetArgs


def specialty_of(app: Curbside, question: str) -> Specialty | None:
    service = app.coverage_service("ohip")
    assert isinstance(service, OhipService)
    reader = service.reader
    edition = reader.edition()
    index = service.index.get(reader, edition).words
    out = SqlFindings(edition)
    found = _specialty(plan(ScheduleGetArgs(q=question)), reader.sections(), out, index.knows)
    assert out.problem is None
    return found


def test_a_practitioner_denied_or_acting_before_the_asker_names_no_specialty() -> None:
    assert "paed" not in asker_words("FP (not a paed) - OB asked me to stand by at a delivery")
    assert "ob" not in asker_words("FP (not a paed) - OB asked me to stand by at a delivery")
    assert "ortho" not in asker_words("kid's wrist fracture was set by ortho 3 wks ago, I re-applied a cast")
    assert "gp" not in asker_words("respirologist - 45 yo referred by her GP for chronic cough")
    # a service 'by' a practitioner is the asker's own: the noun before 'by' is no past participle
    assert {"family", "doctor"} <= set(asker_words("fee for a general assessment by a family doctor?"))
    assert "gp" in asker_words("general re-assessment by the GP: code and fee?")
    assert "respirologist" in asker_words("respirologist - 45 yo referred by her GP for chronic cough")
    # the one who sent the patient: the asker is the rheumatologist (A595 "Limited consultation", A186)
    words = asker_words("rheum - GP sent a 50F just for one swollen knee, I did a limited consult. code + fee?")
    assert "gp" not in words and "rheum" in words
    assert "derm" not in asker_words("derm referred her over for a patch test")


# the test home holds the sections of Family Practice (00), Anaesthesia (01), Cardiology (60) and Paediatrics (26)
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # these assumed Paediatrics (26) and Cardiology (60), the sections of someone else named
        ("FP (not a paed) - OB asked me to stand by at a delivery, I assessed the newborn. what do I bill?", None),
        ("pt was seen by the cardiologist last week, today I did a general assessment - code?", None),
        # the asker's own practitioner word still chooses the section
        ("cardiologist saw my 62 yo with a new murmur on referral, regular office consult - fee?", "60"),
        ("what does a standard paeds consult pay? 4 yo referred to a paediatrician for recurrent wheeze", "26"),
        ("fee for a general assessment by a family doctor?", "00"),
        # how a service was done names no one: 'under general anaesthesia' is no anaesthetist (the G431 question)
        ("2 yo, contact lens fitting had to be done under general anaesthesia. add-on code?", None),
        ("anaesthesia - placed an epidural catheter for post-op pain. code?", "01"),
        # 'paeds' before another specialty's name: the paediatric one of that specialty, who bills as it
        ("paeds cardiology - 4 yo with a murmur on referral, consult fee?", "60"),
    ],
)
def test_the_section_assumed_is_the_askers(ohip_app: Curbside, question: str, expected: str | None) -> None:
    found = specialty_of(ohip_app, question)
    assert (found.code if found else None) == expected


def test_a_specialty_said_by_its_initials_with_the_practitioner() -> None:
    # 'ID doc', 'ID clinic': Infectious Disease (46); 'gen IM': Internal Medicine (13); 'ID' alone is no specialty
    from curbside.coverage.ohip.sql_path import _spoken_alias
    from curbside.coverage.ohip.words import SPECIALTY_ALIASES

    said = _spoken_alias(asker_words("ID doc - same gp re-referred the pt, a repeat consult. code + fee?"))
    assert said == "id doc" and SPECIALTY_ALIASES[said] == "46"
    assert SPECIALTY_ALIASES[_spoken_alias(asker_words("gen IM - complex re-assessments per yr?")) or ""] == "13"
    assert _spoken_alias(asker_words("wrote the patient ID on the lab form - code?")) is None
